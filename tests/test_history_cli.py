"""The history commands and --save through click's runner, sharing one store with the web."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.games.delicious.outcome import play as delicious_play
from companion.store import SeatInput, Store
from companion.store.paths import DB_NAME
from tests.conftest import Invoke, dump, one_line_error

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _ex(*parts: str) -> str:
    return str(EXAMPLES.joinpath(*parts))


SAVES = [
    (["dulce", "final", _ex("dulce", "final.json")], "dulce", "Marco"),
    (["wild-gardens", "score", _ex("wild-gardens", "score.json")], "wild-gardens", "Jada"),
    (["deli-duel", "winner", _ex("deli-duel", "winner.json")], "deli-duel", "Ben"),
    (["dice", "score", _ex("dice", "final-state.json")], "diced-veggies", "Ana"),
]


def test_every_score_command_saves(cli: Invoke, tmp_path: Path) -> None:
    for args, _, _ in SAVES:
        r = cli(*args, "--json", "--save", "--night", "Club", "--data", str(tmp_path))
        assert r.exit_code == 0, r.output
        json.loads(r.stdout)  # stdout stays the command's own JSON
        assert r.stderr.startswith("saved play ")
    r = cli("history", "--json", "--data", str(tmp_path))
    plays = json.loads(r.stdout)["plays"]
    assert [(p["game"], p["winners"], p["night"], p["source"]) for p in plays] == [
        (g, [w], "Club", "cli") for _, g, w in SAVES]
    dulce = plays[0]
    assert [(s["name"], s["score"], s["place"]) for s in dulce["seats"]] == [
        ("Marco", 41, 1), ("Christina", 41, 2), ("Ines", 37, 3)]
    assert dulce["tiebreak"] == "tie on points, decided by eggs and field cubes"
    assert plays[1]["tiebreak"] == "tie on VP, decided by skill tokens"
    assert [s["score"] for s in plays[2]["seats"]] == [2, 3, 1, 0]  # orders completed


def test_environment_chooses_the_store(cli: Invoke, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    assert cli("dulce", "final", _ex("dulce", "final.json"), "--save").exit_code == 0
    with Store.open(tmp_path) as s:
        night = s.nights()[-1]
        assert [p.winners for p in s.plays()] == [["Marco"]]
        assert night.name.startswith("Game night ")


def test_cli_and_web_save_into_one_store(cli: Invoke, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from companion.web.app import create_app

    store = Store.open(tmp_path)
    client = TestClient(create_app(store))
    form = {"rows": "2", "action": "save", "name0": "Ann", "completed_orders0": "5",
            "name1": "Bo", "completed_orders1": "1"}
    assert client.post("/pads/deli-duel", data=form, follow_redirects=False).status_code == 303
    assert cli("dulce", "final", _ex("dulce", "final.json"), "--save", "--data",
               str(tmp_path)).exit_code == 0
    r = cli("history", "--data", str(tmp_path))
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and "Deli Duel: 1. Ann 5" in lines[0] and "won by Marco" in lines[1]
    night = store.current_night()
    assert {p.source for p in store.plays(night_id=night.id)} == {"web", "cli"}
    page = client.get("/history")
    assert page.status_code == 200 and "Marco" in page.text and "Deli Duel" in page.text
    store.close()


def test_standings_and_alias_commands(cli: Invoke, tmp_path: Path) -> None:
    d = str(tmp_path)
    with Store.open(tmp_path) as s:
        s.save_play("dulce", [SeatInput("Ann", 30, 1, True), SeatInput("Bo", 20, 2)])
        s.save_play("dulce", [SeatInput("ann b.", 40, 1, True), SeatInput("Bo", 20, 2)])
    assert cli("players", "alias", "Ann", "ann b.", "--data", d).exit_code == 0
    doc = json.loads(cli("standings", "--game", "dulce", "--json", "--data", d).stdout)
    (table,) = doc["standings"]
    assert [(p["player"], p["plays"], p["wins"], p["average"], p["best"])
            for p in table["players"]] == [("Ann", 2, 2, 35.0, 40.0), ("Bo", 2, 0, 20.0, 20.0)]
    text = cli("standings", "--data", d).stdout
    assert "Dulce: 2 plays" in text and "All games: 2 plays" in text
    listed = json.loads(cli("players", "list", "--json", "--data", d).stdout)
    assert listed["players"] == [{"name": "Ann", "aliases": ["ann b."]},
                                 {"name": "Bo", "aliases": []}]
    assert cli("players", "unalias", "ann b.", "--data", d).exit_code == 0
    assert len(json.loads(cli("standings", "--game", "dulce", "--json", "--data",
                              d).stdout)["standings"][0]["players"]) == 3


def test_export_import_backup_commands(cli: Invoke, tmp_path: Path) -> None:
    src, dst = tmp_path / "src", tmp_path / "dst"
    for args, _, _ in SAVES:
        assert cli(*args, "--save", "--data", str(src)).exit_code == 0
    out = tmp_path / "plays.json"
    assert cli("export", "--format", "json", "-o", str(out), "--data", str(src)).exit_code == 0
    r = cli("import", str(out), "--data", str(dst))
    assert r.exit_code == 0 and "imported 4 play(s)" in r.stdout
    assert "0 play(s), 0 night(s)" in cli("import", str(out), "--data", str(dst)).stdout
    # "-" is standard input, as for every JSON file argument (export -o - writes stdout)
    piped = cli("export", "-o", "-", "--data", str(src)).stdout
    r = cli("import", "-", "--data", str(tmp_path / "piped"), stdin=piped)
    assert r.exit_code == 0 and "imported 4 play(s)" in r.stdout, r.output
    assert "stdin: not JSON" in one_line_error(cli("import", "-", "--data", str(dst),
                                                   stdin="{"))
    a = cli("history", "--json", "--data", str(src)).stdout
    b = cli("history", "--json", "--data", str(dst)).stdout
    strip = [{k: v for k, v in p.items() if k != "play_id"} for p in json.loads(a)["plays"]]
    assert strip == [{k: v for k, v in p.items() if k != "play_id"}
                     for p in json.loads(b)["plays"]]
    for fmt in ("csv", "bgstats"):
        f = tmp_path / f"out.{fmt}"
        assert cli("export", "--format", fmt, "-o", str(f), "--data", str(src)).exit_code == 0
        assert f.stat().st_size > 100
    assert json.loads((tmp_path / "out.bgstats").read_text())["plays"][0]["playerScores"]
    copy = tmp_path / "copy.sqlite"
    assert cli("backup", str(copy), "--data", str(src)).exit_code == 0
    assert sqlite3.connect(copy).execute("SELECT COUNT(*) FROM plays").fetchone()[0] == 4
    one_line_error(cli("backup", str(copy), "--data", str(src)))


@pytest.fixture
def busy_store(tmp_path: Path) -> Path:
    with Store.open(tmp_path) as s:
        s.save_play("dulce", [SeatInput("Ann", 30, 1, True), SeatInput("Bo", 20, 2)])
    return tmp_path


@pytest.mark.parametrize("args, message", [
    (["history", "--game", "chess"], "unknown game 'chess'"),
    (["standings", "--game", "chess"], "unknown game 'chess'"),
    (["history", "--player", "Zed"], "no player 'Zed'"),
    (["history", "--since", "yesterday"], "YYYY-MM-DD"),
    (["players", "alias", "Zed", "Ann"], "no player 'Zed'"),
    (["players", "alias", "Ann", "Zed"], "no player 'Zed'"),
    (["players", "unalias", "Ann"], "not an alias"),
    (["export", "--format", "bgstats", "--me", "Zed", "-o", "-"], "Zed"),
])
def test_bad_names_one_line_exit_2_store_unchanged(cli: Invoke, busy_store: Path,
                                                   args: list[str], message: str) -> None:
    before = dump(busy_store)
    line = one_line_error(cli(*args, "--data", str(busy_store)))
    assert message in line
    assert dump(busy_store) == before


@pytest.mark.parametrize("content, message", [
    ("{not json", "not JSON at line 1"),
    ('{"plays": []}', "not a companion export"),
    ('{"format": "companion-plays", "version": 7}', "format version 7"),
    ('{"format": "companion-plays", "version": 1, "plays": {"a": 1}}', "plays: expected a list"),
    ('{"format": "companion-plays", "version": 1, "plays": [{"uid": "0123456789abcdef0123456789'
     'abcdef", "game": "chess", "date": "2025-01-01", "seats": [{"player": "A"}]}]}',
     "plays[0].game: unknown game 'chess'"),
    (b"\xff\xfe\x00garbage", "not JSON"),
])
def test_malformed_import_file(cli: Invoke, busy_store: Path, tmp_path: Path,
                               content: str | bytes, message: str) -> None:
    f = tmp_path / "bad.json"
    f.write_bytes(content if isinstance(content, bytes) else content.encode())
    before = dump(busy_store)
    assert message in one_line_error(cli("import", str(f), "--data", str(busy_store)))
    assert dump(busy_store) == before
    assert "No such file" in one_line_error(cli("import", str(tmp_path / "none.json"),
                                                "--data", str(busy_store)))


@pytest.mark.parametrize("args", [
    ["history"], ["standings"], ["players", "list"], ["export", "-o", "-"],
    ["dulce", "final", _ex("dulce", "final.json"), "--save"],
])
def test_newer_store_refused_untouched(cli: Invoke, busy_store: Path, args: list[str]) -> None:
    conn = sqlite3.connect(busy_store / DB_NAME)
    conn.execute("INSERT INTO schema_version VALUES (99, 'later')")
    conn.commit()
    conn.close()
    before = dump(busy_store)
    line = one_line_error(cli(*args, "--data", str(busy_store)))
    assert "schema version 99, newer than this companion knows" in line
    assert dump(busy_store) == before


def test_unfinished_game_is_not_saved(cli: Invoke, tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    state.write_text(json.dumps({"game": "deli-duel", "players": [
        {"name": "A", "completed_orders": 1}, {"name": "B", "completed_orders": 0}]}))
    r = cli("deli-duel", "winner", str(state), "--save", "--data", str(tmp_path / "d"))
    assert "no winner yet" in one_line_error(r)
    assert "No winner yet. Still needed: A 4, B 5." in r.stdout  # the answer all the same
    with Store.open(tmp_path / "d") as s:
        assert s.plays() == []


@pytest.mark.slow
def test_delicious_read_save_keeps_photos_and_corrections(cli: Invoke, tmp_path: Path) -> None:
    photos = [_ex("delicious", "photos", "combo-good-light.jpg"),
              _ex("delicious", "photos", "combo-tilted-shadow.jpg")]
    # two photos of different tables: both crossed First Potter, so the crosses go; the
    # reading is printed all the same, so the player sees which field to --set
    refused = cli("delicious", "read", *photos, "--save", "--data", str(tmp_path))
    assert "breaks a rule" in one_line_error(refused, 1)
    assert "crossed First Potter on the teapot but nobody checked it" in refused.stdout
    fix = "garden.teapot.first-potter"
    r = cli("delicious", "read", *photos, "--json", "--save", "--player", "Ann",
            "--player", "Bo", "--set", f"1:{fix}=", "--set", f"2:{fix}=",
            "--data", str(tmp_path))
    assert r.exit_code == 0, r.output
    ranking = json.loads(r.stdout)["ranking"]
    with Store.open(tmp_path) as s:
        (play,) = s.plays()
        assert sorted((x.player.name, x.score) for x in play.seats) == sorted(
            zip(["Ann", "Bo"], [next(q["total"] for q in ranking if q["player"] == stem)
                                for stem in ("combo-good-light", "combo-tilted-shadow")],
                strict=True))
        (scoring,) = s.scorings(play.night_id or 0)
        assert scoring.play_id == play.id
        readings = s.readings(scoring.id)
        assert len(readings) == 2 and {r.doc["photo"] for r in readings} == {
            "combo-good-light.jpg", "combo-tilted-shadow.jpg"}
        assert all(s.photo_path(s.photo(r.photo_id)).stat().st_size > 10_000 for r in readings)
        assert [[(c.field, c.value) for c in s.corrections(r.id)] for r in readings] == [
            [(fix, None)], [(fix, None)]]
        names = {p.id: p.name for p in s.players()}
        assert sorted(names[r.player_id or 0] for r in readings) == ["Ann", "Bo"]


def test_a_long_photo_name_does_not_stop_saving(cli: Invoke, tmp_path: Path) -> None:
    """A sheet's player is named after its photo until a name is given; a 77-character
    file name (an edited, exported phone photo) was refused by the store as a player name
    the player never typed ("longer than 60 characters"), so the table could not be kept."""
    stem = "IMG_20261206_203512345_HDR_portrait_mode_edited_with_a_long_app_name_copy"
    photo = tmp_path / f"{stem}1.jpg"
    shutil.copy(EXAMPLES / "delicious" / "photos" / "combo-good-light.jpg", photo)
    r = cli("delicious", "read", str(photo), "--save", "--data", str(tmp_path / "store"))
    assert r.exit_code == 0 and "saved play 1" in r.stderr, r.output
    (play,) = json.loads(cli("history", "--json", "--data", str(tmp_path / "store")).stdout)[
        "plays"]
    (name,) = [s["name"] for s in play["seats"]]
    assert len(name) == 60 and name.startswith(stem[:50])
    # two such names alike up to the cut stay two players
    doc = {"players": [{"player": f"{stem}{n}"} for n in (1, 2)],
           "ranking": [{"player": f"{stem}{n}", "total": 30 - n, "place": n,
                        "decided_by": "points"} for n in (1, 2)]}
    seats = [s.name for s in delicious_play(doc).seats]
    assert len(set(seats)) == 2 and all(len(s) <= 60 for s in seats)


@pytest.mark.parametrize("args", [["history"], ["standings", "--json"], ["players", "list"],
                                  ["export", "--format", "csv", "-o", "-"]])
def test_reading_a_data_folder_with_no_store_says_so(cli: Invoke, tmp_path: Path,
                                                     args: list[str]) -> None:
    """A --data folder with nothing saved in it (a typo, most likely) still answers, but
    says on stderr that the answer is of an empty store; a folder with a store does not."""
    typo = tmp_path / "gamenihgt"
    r = cli(*args, "--data", str(typo))
    assert r.exit_code == 0, r.output
    assert "nothing has been saved in" in r.stderr and str(typo) in r.stderr
    again = cli(*args, "--data", str(typo))  # the store is there now, empty
    assert again.exit_code == 0 and "nothing has been saved" not in again.stderr
    assert again.stdout == r.stdout
