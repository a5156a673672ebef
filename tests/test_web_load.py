"""The server under load and under a busy store (issue #27 items 3, 10 and 15, and the
load section): every page off the event loop, lists a page at a time, a locked store
answered with 503, slow engines in a process that is stopped at its limit, a full disk
answered with 507, and photo reads through a bounded queue. Live servers on 127.0.0.1."""

from __future__ import annotations

import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.store import Store
from companion.store.paths import DB_NAME
from companion.web.app import create_app
from companion.web.constants import READER_PROCESSES
from companion.web.readers import ReaderPool
from tests.conftest import dump
from tests.web_support import live


class Answer:
    """One HTTP answer and how long it took."""

    def __init__(self, url: str, data: bytes | None = None,
                 headers: dict[str, str] | None = None, timeout: float = 60) -> None:
        req = urllib.request.Request(url, data=data, headers=headers or {})
        start = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                self.status, self.body = resp.status, resp.read()
                self.headers = {k.lower(): v for k, v in resp.headers.items()}
        except urllib.error.HTTPError as exc:
            self.status, self.body = exc.code, exc.read()
            self.headers = {k.lower(): v for k, v in exc.headers.items()}
        self.seconds = time.monotonic() - start

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def _in_thread(fn: object) -> tuple[threading.Thread, dict[str, Answer]]:
    out: dict[str, Answer] = {}

    def run() -> None:
        out["answer"] = fn()  # type: ignore[operator]

    t = threading.Thread(target=run)
    t.start()
    return t, out


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_a_store_locked_by_another_process_answers_busy_and_stalls_no_one(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "d", wait_s=2.0)
    store.current_night()  # tonight exists: reading it needs no lock
    with live(create_app(store)) as url:
        other = sqlite3.connect(tmp_path / "d" / DB_NAME, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            t, out = _in_thread(lambda: Answer(f"{url}/players/add", b"name=Ann", FORM))
            time.sleep(0.3)
            static = Answer(f"{url}/static/app.css")
            tonight = Answer(f"{url}/")
            t.join()
        finally:
            other.execute("ROLLBACK")
            other.close()
        add = out["answer"]
        assert add.status == 503 and "the store is busy" in add.text, add.text
        assert add.headers.get("retry-after") and add.seconds < 6
        assert static.status == 200 and static.seconds < 1.0
        assert tonight.status == 200 and tonight.seconds < 1.5
        assert "Ann" not in Answer(f"{url}/").text  # nothing half-stored
        assert Answer(f"{url}/players/add", b"name=Ann", FORM).status == 200  # free again
    store.close()


def test_tonight_and_history_show_a_page_of_plays(tmp_path: Path) -> None:
    from companion.store import SeatInput

    store = Store.open(tmp_path / "d")
    store._conn.execute("PRAGMA synchronous=OFF")  # seeding only
    night = store.current_night()
    for i in range(130):  # play i scored 10000 + i
        store.save_play("dulce", [SeatInput("Ann", 10000.0 + i, 1, True)], night_id=night.id)
    with live(create_app(store)) as url:
        first = Answer(f"{url}/")
        assert first.status == 200 and "page 1 of 5" in first.text
        assert "10129" in first.text and "10099" not in first.text
        assert len(first.body) < 60_000
        older = Answer(f"{url}/?page=5")
        assert "10000" in older.text and "10129" not in older.text
        hist = Answer(f"{url}/history?page=2")
        assert "page 2 of 2" in hist.text and "10029" in hist.text and "10030" not in hist.text
        assert Answer(f"{url}/history?page=x").status == 400
    store.close()


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _kitchen(extra: int) -> bytes:
    """The example's best-harvest state with ``extra`` two-space cafés built (14 take the
    engine about 8 s on a laptop core)."""
    import json
    from urllib.parse import urlencode

    doc = json.loads((EXAMPLES / "dulce" / "best-harvest.json").read_text())
    beans = ("coffee", "vanilla", "cacao", "peanut")
    more = [{"name": f"Extra {i}",
             "spaces": [{"type": beans[i % 4], "level": 1 + i % 3},
                        {"type": beans[(i + 1) % 4], "level": 1 + (i + 1) % 3}]}
            for i in range(extra)]
    state = json.dumps({**doc, "cafes": doc["cafes"] + more})
    return urlencode({"action": "best-harvest", "state": state, "rows": "2"}).encode()


def _follow(url: str, answer: Answer, limit_s: float) -> Answer:
    """Look again, as the "still thinking" page does, until there is an answer."""
    import re

    deadline = time.monotonic() + limit_s
    while answer.status == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        again = re.search(r'url=(/pads/dulce/thinking/[^"]+)"', answer.text)
        assert again, answer.text
        answer = Answer(url + again.group(1))
    return answer


def test_a_slow_dulce_question_thinks_apart_and_stops_at_its_limit(tmp_path: Path) -> None:
    """Two servers, so that neither check hangs on the machine's speed: the big kitchen
    (3.7 s on a quiet core) outlasts the pad's THINK_WAIT_S but not a generous limit, and
    outlasts a limit of a fraction of a second anywhere."""
    store = Store.open(tmp_path / "d")
    with live(create_app(store, think_limit_s=120.0)) as url:
        asked = Answer(f"{url}/pads/dulce", _kitchen(14), FORM, timeout=30)
        assert asked.status == 202 and "Still thinking" in asked.text, asked.text[:300]
        assert asked.seconds < 5
        static = Answer(f"{url}/static/app.css")
        other = Answer(f"{url}/pads/wild-gardens")
        assert static.status == 200 and static.seconds < 1.0
        assert other.status == 200 and other.seconds < 2.0
        final = _follow(url, asked, 120)
        assert final.status == 200 and 'id="advice"' in final.text, final.text[:300]
        small = _follow(url, Answer(f"{url}/pads/dulce", _kitchen(0), FORM), 20)
        assert small.status == 200 and 'id="advice"' in small.text
    with live(create_app(store, think_limit_s=0.3)) as url:
        final = _follow(url, Answer(f"{url}/pads/dulce", _kitchen(14), FORM, timeout=30), 20)
        assert final.status == 422 and "too big" in final.text, final.text[:300]
    store.close()


# ---- a full disk (item 10) ------------------------------------------------------------------

PHOTO = EXAMPLES / "delicious" / "photos" / "combo-good-light.jpg"


def _full(*_: object, **__: object) -> None:
    import errno
    import os

    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class _NoReader:
    """A reader pool that must not be reached (the upload fails before), or that reads
    every photo as the same empty sheet."""

    def sheet(self, path: Path, label: str) -> object:
        class Reading:
            def to_json(self) -> dict[str, object]:
                return {"photo": label, "fields": {}}

        assert path.is_file()
        return Reading()


def _client(store: Store) -> object:
    from starlette.testclient import TestClient

    return TestClient(create_app(store, readers=_NoReader()),  # type: ignore[arg-type]
                      raise_server_exceptions=False)


def test_a_full_disk_on_the_temporary_photo_is_507_and_leaves_no_file(
        tmp_path: Path, monkeypatch: object) -> None:
    import companion.web.uploads as uploads

    def half_then_full(path: Path, data: bytes) -> None:
        path.write_bytes(data[: len(data) // 2])
        _full()

    store = Store.open(tmp_path / "d")
    store.current_night()
    before = dump(tmp_path / "d")
    monkeypatch.setattr(uploads, "_spill", half_then_full)  # type: ignore[attr-defined]
    client = _client(store)
    r = client.post("/delicious/upload",  # type: ignore[attr-defined]
                    files={"photo": ("a.jpg", PHOTO.read_bytes(), "image/jpeg")})
    assert r.status_code == 507 and "the disk is full" in r.text
    assert list((tmp_path / "d" / "tmp").glob("*")) == []
    assert dump(tmp_path / "d") == before
    store.close()


def test_a_full_disk_on_the_kept_photo_or_the_database_is_507(tmp_path: Path,
                                                              monkeypatch: object) -> None:
    import companion.store.db as db

    store = Store.open(tmp_path / "d")
    store.current_night()
    before = dump(tmp_path / "d")
    client = _client(store)
    with monkeypatch.context() as m:  # type: ignore[attr-defined]
        m.setattr(db, "write_atomic", _full)
        r = client.post("/delicious/upload",  # type: ignore[attr-defined]
                        files={"photo": ("a.jpg", PHOTO.read_bytes(), "image/jpeg")},
                        headers={"Accept": "application/json"})
    assert r.status_code == 507 and "the disk is full" in r.json()["error"]
    assert list((tmp_path / "d" / "tmp").glob("*")) == []
    assert list(store.photo_dir.iterdir()) == []
    assert dump(tmp_path / "d") == before
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")  # the database's disk is full
    for i in range(500):  # players until a page more is needed
        before = dump(tmp_path / "d")
        r = client.post("/players/add", data={"name": f"Player {i} " + "x" * 50},  # type: ignore[attr-defined]
                        follow_redirects=False)
        if r.status_code != 303:
            break
    assert r.status_code == 507 and "the disk is full" in r.text
    assert dump(tmp_path / "d") == before
    store.close()


def test_leftovers_of_interrupted_uploads_are_swept_at_start(tmp_path: Path) -> None:
    import os

    store = Store.open(tmp_path / "d")
    tmp = tmp_path / "d" / "tmp"
    tmp.mkdir()
    old = [tmp / f"{i:02d}.img" for i in range(37)] + [store.photo_dir / ".x.jpg.part"]
    for path in old:
        path.write_bytes(b"half a photo")
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    fresh = tmp / "reading-now.img"
    fresh.write_bytes(b"a photo being read")
    create_app(store)
    assert not any(p.exists() for p in old) and fresh.exists()
    store.close()


# ---- photos under load: the read queue ------------------------------------------------------

SHEETS = ("combo-good-light", "combo-tilted-shadow", "combo-upside-down-B")


def _multipart(name: str, label: str, ticket: str) -> tuple[bytes, dict[str, str]]:
    boundary = "----load" + ticket
    data = (EXAMPLES / "delicious" / "photos" / f"{name}.jpg").read_bytes()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"ticket\"\r\n\r\n"
            f"{ticket}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"{label}\"\r\nContent-Type: image/jpeg\r\n\r\n").encode() + data + (
            f"\r\n--{boundary}--\r\n").encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def _read(url: str, name: str, label: str, ticket: str) -> Answer:
    body, headers = _multipart(name, label, ticket)
    return Answer(f"{url}/api/delicious/read", body, headers, timeout=120)


def _own(doc: dict[str, object]) -> tuple[object, ...]:
    return doc["score"], doc["fields"]


@pytest.mark.slow
def test_twelve_phones_at_once_each_get_their_own_score(tmp_path: Path) -> None:
    import json
    from concurrent.futures import ThreadPoolExecutor

    store, readers = Store.open(tmp_path / "d"), ReaderPool(READER_PROCESSES)
    with live(create_app(store, readers=readers)) as url:
        alone = {n: json.loads(_read(url, n, f"alone-{n}.jpg", f"a{i}").body)
                 for i, n in enumerate(SHEETS)}
        jobs = [(SHEETS[i % 3], f"phone{i:02d}-{SHEETS[i % 3]}.jpg", f"t{i:02d}")
                for i in range(12)]
        seen: list[dict[str, object]] = []
        with ThreadPoolExecutor(12) as pool:
            futures = [pool.submit(_read, url, *job) for job in jobs]
            while not all(f.done() for f in futures):  # the last phone asks for its place
                seen.append(json.loads(Answer(f"{url}/queue?ticket=t11").body))
                time.sleep(0.2)
            answers = [f.result() for f in futures]
    readers.close()
    store.close()
    for (name, label, _), answer in zip(jobs, answers, strict=True):
        assert answer.status == 200, answer.text
        doc = json.loads(answer.body)
        assert doc["photo"] == label and doc["player"] == label.removesuffix(".jpg")
        assert _own(doc) == _own(alone[name]), label
    assert any(int(str(s.get("ahead") or 0)) > 0 and "ahead of yours" in str(s.get("line"))
               for s in seen), seen


@pytest.mark.slow
def test_a_full_read_queue_answers_busy_with_retry_after(tmp_path: Path) -> None:
    import json
    from concurrent.futures import ThreadPoolExecutor

    store, readers = Store.open(tmp_path / "d"), ReaderPool(READER_PROCESSES)
    with live(create_app(store, readers=readers, read_queue=2)) as url:
        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(lambda i: _read(url, SHEETS[i % 3], f"p{i}.jpg", f"q{i}"),
                                    range(6)))
        static = Answer(f"{url}/static/app.css")
    readers.close()
    store.close()
    busy = [a for a in answers if a.status == 503]
    read = [a for a in answers if a.status == 200]
    assert busy and read and len(busy) + len(read) == 6, [a.status for a in answers]
    for a in busy:
        assert "busy" in json.loads(a.body)["error"] and int(a.headers["retry-after"]) >= 1
    for a in read:
        doc = json.loads(a.body)
        label = doc["photo"]
        assert label.startswith("p") and doc["player"] == label.removesuffix(".jpg")
    assert static.status == 200
