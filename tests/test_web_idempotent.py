"""Issue #27 item 1: a double tap changes the store once. Saving a table, a pad, a new
night, a delete, a correction and its undo: the second request, however close to the
first, answers with what the first made."""

from __future__ import annotations

import json
import threading
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from companion.store import Store
from companion.web.readers import SHEET
from tests.web_support import BLOCK, COMBO, Server

TAPS = 5
PAD = {"rows": "2", "name0": "Ava", "points0": "41", "chicken0": "7", "field_cubes0": "3",
       "name1": "Ben", "points1": "40", "chicken1": "4", "field_cubes1": "5",
       "action": "save"}


def _at_once(n: int, send: Callable[[], tuple[int, dict[str, object]]]
             ) -> list[tuple[int, dict[str, object]]]:
    """``n`` requests released together (a barrier), their answers in any order."""
    gate = threading.Barrier(n)
    out: list[tuple[int, dict[str, object]]] = []
    lock = threading.Lock()

    def one() -> None:
        gate.wait()
        answer = send()
        with lock:
            out.append(answer)

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _post(url: str, data: bytes, content_type: str = "application/x-www-form-urlencoded"
          ) -> tuple[int, dict[str, object]]:
    req = urllib.request.Request(url, data=data, method="POST", headers={
        "Accept": "application/json", "Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _form(fields: dict[str, str]) -> bytes:
    from urllib.parse import urlencode

    return urlencode(fields).encode()


def _multipart(path: Path) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"{path.name}\"\r\nContent-Type: image/jpeg\r\n\r\n").encode()
    body += path.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_five_taps_at_once_on_a_live_server_save_one_play(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        root = server.root
        body, ctype = _multipart(COMBO)
        status, answer = _post(root + "/delicious/upload", body, ctype)
        assert status == 200, answer
        sid = int(str(answer["location"]).split("s=")[1])

        saves = _at_once(TAPS, lambda: _post(f"{root}/delicious/{sid}/save", b""))
        assert [s for s, _ in saves] == [200] * TAPS, saves
        assert len({a["play"] for _, a in saves}) == 1, saves

        once = "pad-" + uuid.uuid4().hex
        pads = _at_once(TAPS, lambda: _post(root + "/pads/dulce", _form({**PAD, "once": once})))
        assert [s for s, _ in pads] == [200] * TAPS, pads
        assert len({a["play"] for _, a in pads}) == 1, pads

        night = "night-" + uuid.uuid4().hex
        nights = _at_once(TAPS, lambda: _post(root + "/night/new",
                                              _form({"name": "Second", "once": night})))
        assert [s for s, _ in nights] == [200] * TAPS, nights
        pad_play = pads[0][1]["play"]
        gone = "delete-" + uuid.uuid4().hex
        deletes = _at_once(TAPS, lambda: _post(f"{root}/plays/{pad_play}/delete",
                                               _form({"once": gone})))
        assert [s for s, _ in deletes] == [200] * TAPS, deletes
    finally:
        server.stop()
    with Store.open(tmp_path) as store:
        plays = store.plays()
        assert [p.game for p in plays] == ["delicious"]
        assert [n.name for n in store.nights()][-1] == "Second"
        assert len(store.nights()) == 2


@pytest.fixture
def combo_reading(example_readings: tuple[object, object]) -> object:
    return example_readings[0]


def _table(client: TestClient, store: Store, reading: object) -> tuple[int, int]:
    """A Delicious table of the combo example, its reading seeded in the app's cache."""
    from companion.web.delicious import sheet_json

    scoring = store.new_scoring("delicious", store.current_night().id)
    photo, stored = store.add_photo(COMBO.read_bytes(), "image/jpeg", 10, 10,
                                    scoring_id=scoring.id,
                                    reading=(SHEET, sheet_json(reading)))  # type: ignore[arg-type]
    web = client.app.app.state.web  # type: ignore[attr-defined]  # the Guard wraps the app
    web.cache.put(SHEET, photo.id, reading)
    assert stored is not None
    return scoring.id, stored.id


JSON = {"accept": "application/json"}


def test_saving_a_table_twice_answers_with_the_first_play(client: TestClient, store: Store,
                                                          combo_reading: object) -> None:
    sid, rid = _table(client, store, combo_reading)
    first = client.post(f"/delicious/{sid}/save", headers=JSON).json()
    second = client.post(f"/delicious/{sid}/save", headers=JSON).json()
    assert first == second and len(store.plays()) == 1
    # corrected after saving, saved again: the new play replaces the old one
    field = next(iter(combo_reading.readings))  # type: ignore[attr-defined]
    client.post(f"/delicious/{sid}/correct", data={"reading": rid, "field": field, "value": ""})
    third = client.post(f"/delicious/{sid}/save", headers=JSON).json()
    assert [p.id for p in store.plays()] == [third["play"]]


def test_a_correction_and_its_undo_tapped_twice_count_once(client: TestClient, store: Store,
                                                           combo_reading: object) -> None:
    sid, rid = _table(client, store, combo_reading)
    fields = list(combo_reading.readings)[:2]  # type: ignore[attr-defined]
    for field in fields:
        for _ in range(2):
            client.post(f"/delicious/{sid}/correct",
                        data={"reading": rid, "field": field, "value": ""})
    assert [c.field for c in store.corrections(rid)] == fields
    page = client.get(f"/delicious?s={sid}").text
    latest = store.corrections(rid)[-1].id
    assert f'name="correction" value="{latest}"' in page
    for _ in range(2):
        r = client.post(f"/delicious/{sid}/undo", data={"reading": rid, "correction": latest})
        assert r.status_code in (200, 303)
    assert [c.field for c in store.corrections(rid)] == fields[:1]


def test_pad_night_and_delete_forms_carry_a_one_time_key(client: TestClient,
                                                         store: Store) -> None:
    page = client.get("/pads/dulce").text
    once = page.split('name="once" value="')[1].split('"')[0]
    plays = {client.post("/pads/dulce", data={**PAD, "once": once}, headers=JSON).json()["play"]
             for _ in range(3)}
    assert len(plays) == 1 and len(store.plays()) == 1
    # the same form changed after Back and sent again is another play
    changed = client.post("/pads/dulce", data={**PAD, "points1": "45", "once": once},
                          headers=JSON).json()["play"]
    assert changed not in plays and len(store.plays()) == 2
    assert client.get("/pads/dulce").text.count(once) == 0  # a fresh key each page

    tonight = client.get("/").text
    assert tonight.count('name="once"') == 1 + len(store.plays())
    night_key = "n" * 20
    for _ in range(3):
        client.post("/night/new", data={"name": "Later", "once": night_key})
    assert [n.name for n in store.nights()].count("Later") == 1
    for _ in range(3):
        r = client.post(f"/plays/{changed}/delete", data={"once": "d" * 20}, headers=JSON)
        assert r.status_code == 200
    assert len(store.plays()) == 1
    assert client.post("/night/new", data={"once": "../x"}).status_code == 400
    assert client.post("/night/new", data={"once": "d" * 20}).status_code in (400, 422)


# ---- a photo sent twice ------------------------------------------------------------------

def _kept(root: Path) -> list[str]:
    """The store as SQL with what differs between two equal uploads (times, a reader's
    seconds, random names and uids) blanked, and the photo files' bytes: equal for equal stores."""
    import re

    from tests.conftest import dump

    blank = re.compile(r"\d{4}-\d{2}-\d{2}T[0-9:.+]+|\d{8}-\d{6}-[0-9a-f]{16}|'[0-9a-f]{32}'"
                       r'|"seconds": [0-9.]+')
    rows = [blank.sub("~", line) for line in dump(root)]
    files = sorted(p.read_bytes().hex()[:64] + str(p.stat().st_size)
                   for p in (root / "photos").iterdir())
    return rows + files + sorted(p.name for p in (root / "tmp").glob("*"))


def test_a_photo_kept_twice_is_kept_once(store: Store) -> None:
    from companion.store import NewPhoto

    night = store.current_night().id
    photo = NewPhoto(COMBO.read_bytes(), "image/jpeg", 10, 10, reading=(SHEET, {"a": 1}))
    first = store.add_photos([photo], new_scoring=("delicious", night), once=True)
    again = store.add_photos([photo], new_scoring=("delicious", night), once=True)
    assert again == first and len(list(store.photo_dir.iterdir())) == 1
    # both photos of an upload kept again in one transaction: the second one only
    other = photo._replace(data=BLOCK.read_bytes())
    sid, kept = store.add_photos([photo, other], scoring_id=first[0], once=True)
    assert sid == first[0] and kept[0] == first[1][0] and kept[1][0].id != kept[0][0].id
    assert [p.id for p in store.photos(sid)] == [kept[0][0].id, kept[1][0].id]
    # another role, another game, another night, or a caller without once: kept again
    assert store.add_photos([photo._replace(role="before")], new_scoring=("delicious", night),
                            once=True)[0] != sid
    assert store.add_photos([photo], new_scoring=("dulce", night), once=True)[0] != sid
    later = store.new_night("Later").id
    assert store.add_photos([photo], new_scoring=("delicious", later), once=True)[0] != sid
    assert store.add_photos([photo], new_scoring=("delicious", night))[0] != sid


def test_photos_kept_before_their_keys_get_one(tmp_path: Path) -> None:
    """Schema step 6 gives the photos of an older store their keys, the first of equal ones."""
    import hashlib
    import sqlite3

    from companion.store import MIGRATIONS, NewPhoto, migrate
    from companion.store.paths import DB_NAME

    conn = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    assert migrate(conn, MIGRATIONS[:5]) == 5
    conn.execute("INSERT INTO nights (name, date, created_at) VALUES ('Old', '2024-05-05', 'x')")
    sha = hashlib.sha256(COMBO.read_bytes()).hexdigest()
    for table in (1, 2):  # the same photo kept twice by a double tap before this version
        conn.execute("INSERT INTO scorings (night_id, game, created_at) "
                     "VALUES (1, 'delicious', 'x')")
        conn.execute("INSERT INTO photos (scoring_id, file, media_type, bytes, width, height, "
                     "sha256, created_at) VALUES (?, ?, 'image/jpeg', 1, 10, 10, ?, 'x')",
                     (table, f"p{table}.jpg", sha))
    conn.close()
    with Store.open(tmp_path) as s:
        sid, ((photo, _),) = s.add_photos(
            [NewPhoto(COMBO.read_bytes(), "image/jpeg", 10, 10)], new_scoring=("delicious", 1),
            once=True)
        assert (sid, photo.id) == (1, 1)
        assert not list(s.photo_dir.iterdir())  # nothing written for it


def _upload(url: str, path: Path, fields: dict[str, str] | None = None
            ) -> tuple[int, dict[str, object]]:
    body, ctype = _multipart(path)
    if fields:
        boundary = ctype.split("=", 1)[1]
        extra = "".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n"
                        f"{v}\r\n" for k, v in fields.items()).encode()
        body = extra + body
    return _post(url, body, ctype)


@pytest.mark.slow
def test_five_uploads_of_one_photo_at_once_keep_it_once(tmp_path: Path) -> None:
    """A double tap (and a retry after it) on the upload of a live server: every answer
    names the first table, and the store is what one upload makes of it."""
    once, single = tmp_path / "taps", tmp_path / "single"
    server = Server(once).start()
    try:
        root = server.root
        taps = _at_once(TAPS, lambda: _upload(root + "/delicious/upload", COMBO))
        assert [s for s, _ in taps] == [200] * TAPS, taps
        assert len({a["location"] for _, a in taps}) == 1, taps
        blocks = _at_once(TAPS, lambda: _upload(root + "/dice/upload", BLOCK,
                                                {"role": "before"}))
        assert [s for s, _ in blocks] == [200] * TAPS, blocks
        assert len({a["location"] for _, a in blocks}) == 1, blocks
        sid = str(blocks[0][1]["location"]).split("s=")[1]
        afters = _at_once(TAPS, lambda: _upload(root + "/dice/upload", BLOCK,
                                                {"role": "after", "s": sid}))
        assert [s for s, _ in afters] == [200] * TAPS, afters
        # sent again later (the answer was lost): the same answer, nothing read or kept
        assert _upload(root + "/delicious/upload", COMBO) == taps[0]
        assert _upload(root + "/dice/upload", BLOCK, {"role": "after", "s": sid}) == afters[0]
    finally:
        server.stop()
    server = Server(single).start()
    try:
        assert _upload(server.root + "/delicious/upload", COMBO)[0] == 200
        status, answer = _upload(server.root + "/dice/upload", BLOCK, {"role": "before"})
        sid = str(answer["location"]).split("s=")[1]
        assert _upload(server.root + "/dice/upload", BLOCK,
                       {"role": "after", "s": sid})[0] == 200
    finally:
        server.stop()
    assert _kept(once) == _kept(single)
    with Store.open(once) as s:
        night = s.current_night().id
        assert [len(s.photos(sc.id)) for sc in s.scorings(night)] == [1, 2]
