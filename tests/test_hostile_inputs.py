"""Inputs an attacker (or a very unlucky player) sends: each refused in one line, the store
unchanged. Every case here failed on the code before it: a traceback, a hang, gigabytes of
memory, a silent overwrite or a store that told a wrong story."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ImageError, InputError
from companion.fileio import MAX_JSON_DEPTH, parse_json
from companion.store import SeatInput, Store
from companion.store.db import clean_name
from companion.store.errors import StoreError
from companion.store.export import export_csv, export_json
from companion.store.importing import import_doc
from companion.store.nights import night_for
from companion.store.paths import DB_NAME
from companion.vision.load import load_image, shape_problem
from tests.conftest import Invoke, dump, one_line_error

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
JSON_COMMANDS = [["dulce", "final"], ["wild-gardens", "score"], ["dice", "cuts"],
                 ["deli-duel", "winner"], ["import"]]


def _png(path: Path, width: int, height: int, depth: int) -> Path:
    """A grey PNG of zeros, written row by row: a small file that decodes huge."""
    row = b"\0" + b"\0" * (width * depth // 8)
    comp = zlib.compressobj(9)
    block = row * max(1, min(height, 1_000_000 // len(row)))
    rows_per_block = len(block) // len(row)
    parts = [comp.compress(block) for _ in range(height // rows_per_block)]
    parts.append(comp.compress(row * (height % rows_per_block)))
    data = b"".join(parts) + comp.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, depth, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data)
                     + chunk(b"IEND", b""))
    return path


# ---- JSON documents -----------------------------------------------------------------------

HOSTILE_JSON = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "deep-inside": '{"players": ' + "[" * 500 + "]" * 500 + "}",
    "huge-int": '{"players": [{"name": "A", "points": ' + "9" * 5000 + "}]}",
    "400-digits": '{"players": [{"name": "A", "points": ' + "9" * 400 + "}]}",
    "1e30": '{"players": [{"name": "A", "points": 1e30}]}',
    "nan": '{"players": [{"name": "A", "points": NaN}]}',
    "surrogate": '{"players": [{"name": "\\ud800", "points": 3}]}',
}


@pytest.mark.parametrize("command", JSON_COMMANDS, ids=lambda c: "-".join(c))
@pytest.mark.parametrize("kind", list(HOSTILE_JSON))
def test_hostile_json_is_one_line(cli: Invoke, tmp_path: Path, command: list[str],
                                  kind: str) -> None:
    path = tmp_path / f"{kind}.json"
    path.write_text(HOSTILE_JSON[kind])
    line = one_line_error(cli(*command, str(path), "--data", str(tmp_path / "store"))
                          if command == ["import"] else cli(*command, str(path)))
    assert f"{kind}.json" in line


def test_fifo_is_refused_not_waited_on(cli: Invoke, tmp_path: Path) -> None:
    fifo = tmp_path / "state.json"
    os.mkfifo(fifo)
    for command in JSON_COMMANDS:
        extra = ["--data", str(tmp_path / "store")] if command == ["import"] else []
        assert "not a regular file" in one_line_error(cli(*command, str(fifo), *extra))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_parse_json_never_raises_anything_else(text: str) -> None:
    try:
        parse_json(text, "doc")
    except InputError as exc:
        assert str(exc).startswith("doc: ")


def test_depth_limit_is_the_documented_one() -> None:
    ok = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    parse_json(ok, "doc")
    with pytest.raises(InputError, match="nested deeper"):
        parse_json("[" + ok + "]", "doc")


def test_save_with_400_digit_points_leaves_the_store(cli: Invoke, tmp_path: Path) -> None:
    store = tmp_path / "store"
    ok = cli("dulce", "final", str(EXAMPLES / "dulce" / "final.json"), "--save",
             "--data", str(store))
    assert ok.exit_code == 0, ok.output
    before = dump(store)
    path = tmp_path / "big.json"
    path.write_text(HOSTILE_JSON["400-digits"])
    one_line_error(cli("dulce", "final", str(path), "--save", "--data", str(store)))
    assert dump(store) == before


def test_a_hundred_thousand_players_are_refused_by_count(cli: Invoke, tmp_path: Path) -> None:
    doc = {"players": [{"name": f"p{i}", "points": 5, "chicken": 1, "field_cubes": 1}
                       for i in range(100_000)]}
    path = tmp_path / "many.json"
    path.write_text(json.dumps(doc))
    assert "1-4 players" in one_line_error(cli("dulce", "final", str(path)), code=1)


# ---- photos that decode huge --------------------------------------------------------------

def test_shape_problem_from_the_header_alone() -> None:
    assert shape_problem(4000, 3000, "RGB") is None
    assert shape_problem(3000, 4000, "RGB") is None
    assert "strip" in str(shape_problem(1, 79_999_999, "RGB"))
    assert "8 bits" in str(shape_problem(8944, 8944, "I;16"))
    assert "megapixels" in str(shape_problem(10_000, 9_000, "RGB"))
    assert shape_problem(20, 20, "L") is None


@pytest.fixture(scope="module")
def huge_pngs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("png")
    return {"tall": _png(folder / "tall.png", 1, 79_999_999, 8),
            "deep": _png(folder / "deep.png", 8944, 8944, 16)}


@pytest.mark.parametrize("kind", ["tall", "deep"])
def test_huge_png_refused_by_every_reader(cli: Invoke, huge_pngs: dict[str, Path],
                                          kind: str) -> None:
    path = str(huge_pngs[kind])
    with pytest.raises(ImageError):
        load_image(path)
    for command in (["delicious", "read"], ["dice", "read"]):
        assert f"{kind}.png" in one_line_error(cli(*command, path))


@pytest.mark.parametrize("kind", ["tall", "deep"])
def test_huge_png_refused_by_the_web_before_decoding(huge_pngs: dict[str, Path],
                                                     kind: str) -> None:
    from companion.web.uploads import sniff_image

    with pytest.raises(ImageError, match=f"{kind}.png"):
        sniff_image(huge_pngs[kind].read_bytes(), f"{kind}.png")


@pytest.mark.parametrize("kind", ["tall", "deep"])
def test_refusing_a_huge_png_stays_small(huge_pngs: dict[str, Path], kind: str) -> None:
    """Peak memory of a process that reads the photo from the CLI and the web's upload
    check: far below the 400 MB a whole server may use for a refused upload."""
    code = (
        "import resource, sys\n"
        "from click.testing import CliRunner\n"
        "from companion.cli import main\n"
        "from companion.web.uploads import sniff_image\n"
        "r = CliRunner().invoke(main, ['delicious', 'read', sys.argv[1]])\n"
        "assert r.exit_code == 2, r.output\n"
        "try:\n"
        "    sniff_image(open(sys.argv[1], 'rb').read(), 'x')\n"
        "except ValueError:\n"
        "    pass\n"
        # VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child of a big
        # pytest process would report its parent's peak.
        "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n")
    out = subprocess.run([sys.executable, "-c", code, str(huge_pngs[kind])],
                         capture_output=True, text=True, check=True)
    assert int(out.stdout.strip().splitlines()[-1]) < 400 * 1024  # KB


# ---- the store ----------------------------------------------------------------------------

def _export_with_night(tmp_path: Path, date: str) -> dict[str, object]:
    with Store.open(tmp_path / "old") as s:
        night = s.new_night("Summer", date=date)
        s.save_play("dulce", [SeatInput("Ann", 10, 1, True)], night_id=night.id, date=date)
        return export_json(s)


def test_importing_an_older_night_keeps_tonight(tmp_path: Path) -> None:
    doc = _export_with_night(tmp_path, "2020-07-01")
    with Store.open(tmp_path / "live") as s:
        tonight = s.new_night("Tonight", date="2026-12-02")
        import_doc(s, doc, "2026-12-02T20:00:00+00:00")
        assert s.current_night().id == tonight.id
        assert night_for(s, today="2026-12-02").id == tonight.id


def test_export_refuses_to_overwrite(cli: Invoke, tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert cli("dulce", "final", str(EXAMPLES / "dulce" / "final.json"), "--save",
               "--data", str(store)).exit_code == 0
    before = dump(store)
    db = store / DB_NAME
    assert "live database" in one_line_error(cli("export", "-o", str(db), "--data", str(store)))
    assert dump(store) == before
    existing = tmp_path / "plays.json"
    existing.write_text("keep me")
    assert "--force" in one_line_error(cli("export", "-o", str(existing), "--data", str(store)))
    assert existing.read_text() == "keep me"
    assert "regular file" in one_line_error(cli("export", "-o", str(tmp_path), "--data",
                                                str(store)))
    r = cli("export", "-o", str(existing), "--force", "--data", str(store))
    assert r.exit_code == 0 and json.loads(existing.read_text())["format"] == "companion-plays"


def test_import_refuses_nan_and_keeps_aliases_flat(tmp_path: Path) -> None:
    doc = _export_with_night(tmp_path, "2026-01-01")
    with Store.open(tmp_path / "live") as s:
        s.player("Bo", create=True)
        ring = {**doc, "aliases": [{"alias": "Ann", "player": "Bo"},
                                   {"alias": "Bo", "player": "Ann"}]}
        import_doc(s, ring, "2026-12-02T20:00:00+00:00")
        rows = s._query("SELECT player_id, canonical_id FROM player_aliases")
        targets = {int(r["canonical_id"]) for r in rows}
        assert all(int(r["player_id"]) not in targets for r in rows)  # no chain, no ring
    path = tmp_path / "nan.json"
    bad = json.loads(json.dumps(doc))
    bad["plays"][0]["seats"][0]["score"] = float("nan")
    path.write_text(json.dumps(bad))  # Python writes NaN, as some other tools do
    from companion.store.importing import load

    with pytest.raises(InputError, match="NaN"):
        load(path)


@pytest.mark.parametrize("name", ["Ann\x1b[31m", "A\x00B", "\u202eevil", "x\ud800"])
def test_names_with_controls_are_refused(name: str) -> None:
    with pytest.raises(StoreError, match="control character"):
        clean_name(name)


def test_unicode_case_is_one_player(tmp_path: Path) -> None:
    with Store.open(tmp_path) as s:
        night = s.new_night()
        a = s.add_player(night.id, "Zoë")
        b = s.add_player(night.id, "ZOË")
        c = s.add_player(night.id, "zoe\u0308")
        assert a.id == b.id == c.id
        assert len(s.players()) == 1


def test_csv_cells_never_run_as_formulas(tmp_path: Path) -> None:
    with Store.open(tmp_path) as s:
        s.save_play("dulce", [SeatInput('=HYPERLINK("http://x","y")', 3, 1, True),
                              SeatInput("+1", 2, 2, False), SeatInput("Ann", -1, 3, False)])
        text = export_csv(s)
    assert "'=HYPERLINK" in text and ",'+1," in text
    assert ",=" not in text and ",+1," not in text
    assert ",-1," in text  # numbers stay numbers


# ---- the server ---------------------------------------------------------------------------

def _get(url: str, host: str | None = None, data: bytes | None = None,
         origin: str | None = None) -> tuple[int, dict[str, str], bytes]:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    headers = {"Host": host} if host else {}
    if origin:
        headers["Origin"] = origin
    if data is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    conn.request("POST" if data is not None else "GET", path or "/", body=data,
                 headers=headers)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body


def test_dns_rebinding_host_is_refused(tmp_path: Path) -> None:
    from tests.web_support import Server

    server = Server(tmp_path).start()
    try:
        port = server.root.rsplit(":", 1)[1]
        before = dump(tmp_path)
        evil = f"evil.example:{port}"
        status, _, _ = _get(server.root + "/players/add", host=evil, data=b"name=X",
                            origin=f"http://{evil}")
        assert status == 400
        assert _get(server.root + "/api/history", host=evil)[0] == 400
        assert dump(tmp_path) == before
        big = b"name=" + b"x" * (2 * 1024 * 1024)
        assert _get(server.root + "/players/add", data=big)[0] == 413
        assert dump(tmp_path) == before
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            status, headers, _ = _get(server.root + "/", host=host)
            assert status == 200
            assert headers["cache-control"] == "no-store"
            assert headers["referrer-policy"] == "same-origin"
    finally:
        server.stop()


def test_lan_token_is_kept_until_rotated(tmp_path: Path) -> None:
    from companion.web.security import kept_token

    first = kept_token(tmp_path)
    assert kept_token(tmp_path) == first
    assert (tmp_path / "lan-token").stat().st_mode & 0o077 == 0
    rotated = kept_token(tmp_path, rotate=True)
    assert rotated != first and kept_token(tmp_path) == rotated


def test_a_kitchen_no_game_reaches_is_refused(cli: Invoke, tmp_path: Path) -> None:
    """Nineteen built cafés on a planted board: twenty cards are dealt in a game, one of
    them planted the board and one is this round's, so at most eighteen are cafés."""
    doc = json.loads((EXAMPLES / "dulce" / "best-harvest.json").read_text())
    extra = [{"name": f"Extra {i}", "spaces": [{"type": "coffee", "level": 2},
                                               {"type": "vanilla", "level": 1}]}
             for i in range(15)]
    path = tmp_path / "kitchen.json"
    path.write_text(json.dumps({**doc, "cafes": doc["cafes"] + extra}))
    line = one_line_error(cli("dulce", "best-harvest", str(path)), code=1)
    assert "19 built cafés" in line and "at most 18" in line


def test_a_full_disk_is_one_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    doc = _export_with_night(tmp_path, "2026-01-01")
    doc = {**doc, "players": [{"name": f"Player {i} " + "x" * 40} for i in range(600)]}
    with Store.open(tmp_path / "live") as s:
        pages = s._conn.execute("PRAGMA page_count").fetchone()[0]
        s._conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full
        before = dump(tmp_path / "live")
        with pytest.raises(StoreError, match="full"):
            import_doc(s, doc, "2026-12-02T20:00:00+00:00")
        assert dump(tmp_path / "live") == before
        s._conn.execute(f"PRAGMA max_page_count = {10**6}")
        s.new_night("After")  # the store still works


def test_standings_order_wins_then_average_then_name(tmp_path: Path) -> None:
    from companion.store.standings import standings

    with Store.open(tmp_path) as s:
        s.save_play("dulce", [SeatInput("Ann", 28, 1, True), SeatInput("Cy", 10, 2, False)])
        s.save_play("dulce", [SeatInput("Bo", 30, 1, True), SeatInput("Cy", 12, 2, False)])
        s.save_play("dulce", [SeatInput("Al", 28, 1, True), SeatInput("Cy", 12, 2, False)])
        table = next(g for g in standings(s) if g.game == "dulce")
    assert [p.player for p in table.players] == ["Bo", "Al", "Ann", "Cy"]


def test_api_history_pages(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from companion.web.app import create_app

    store = Store.open(tmp_path)
    for i in range(5):
        store.save_play("dulce", [SeatInput(f"P{i}", 10 + i, 1, True)], date=f"2026-01-0{i + 1}")
    with TestClient(create_app(store)) as client:
        whole_list = client.get("/api/history").json()
        assert "total" not in whole_list and len(whole_list["plays"]) == 5
        page = client.get("/api/history?latest=2&skip=1").json()
        assert page["total"] == 5
        assert [p["date"] for p in page["plays"]] == ["2026-01-03", "2026-01-04"]
        for bad in ("latest=0", "latest=1001", "latest=abc", "skip=-1", "latest=" + "9" * 25):
            r = client.get(f"/api/history?{bad}")
            assert r.status_code == 400, (bad, r.text)
    store.close()
