"""A sketching player's named drawings kept with the player by the web app: saving a
table keeps them, and the player's next sheet is read with them (TestClient, in process)."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.store import MIGRATIONS, Store, migrate
from companion.store.paths import DB_NAME
from companion.store.player_drawings import keep_player_drawings, player_drawings
from companion.web.render import WebState

DOC = {"format": "companion-drawings", "version": 1, "model": "x",
       "plants": {"fig": [[0.6, 0.8]]}}


def test_the_store_keeps_one_document_per_player(store: Store) -> None:
    ann = store.player("Ann", create=True).id
    assert player_drawings(store, ann) is None and player_drawings(store, None) is None
    keep_player_drawings(store, ann, DOC)
    keep_player_drawings(store, ann, {**DOC, "model": "y"})  # replaced, not doubled
    assert player_drawings(store, ann) == {**DOC, "model": "y"}
    assert player_drawings(store, store.player("Bo", create=True).id) is None


def test_a_store_of_the_version_before_gains_the_drawings_table(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    before = len(MIGRATIONS) - 1
    assert migrate(conn, MIGRATIONS[:before]) == before
    conn.execute("INSERT INTO players (name, created_at) VALUES ('Ann', "
                 "'2024-05-05T20:00:00+00:00')")
    conn.close()
    with Store.open(tmp_path) as s:
        assert s.version == len(MIGRATIONS)
        keep_player_drawings(s, 1, DOC)
        assert player_drawings(s, 1) == DOC


def _files(path: Path) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("photo", (path.name, path.read_bytes(), "image/jpeg"))]


def _upload(client: TestClient, store: Store, path: Path, pid: int | None = None
            ) -> tuple[int, Any]:
    """Upload ``path`` as a new table and give its sheet to player ``pid`` (if any); the
    scoring and its one player as the page scores it."""
    r = client.post("/delicious/upload", files=_files(path), follow_redirects=False)
    sid = int(r.headers["location"].split("s=")[1])
    (reading,) = store.readings(sid)
    if pid is not None:
        client.post(f"/delicious/{sid}/player", data={"reading": reading.id, "player": pid})
    return sid, _asked(client, sid)


def _asked(client: TestClient, sid: int) -> Any:
    """Scoring ``sid``'s one player as the page scores it (the read --json document)."""
    from companion.web.delicious import score_table, table_sheets

    st: WebState = client.app.app.state.web  # type: ignore[attr-defined]  # inside Guard
    return score_table(table_sheets(st, sid)).players[0].doc


@pytest.mark.slow
def test_a_players_second_sheet_asks_only_what_the_first_did_not_name(
        client: TestClient, store: Store, tmp_path: Path) -> None:
    from tools.example_photos import sketched_game_photos

    (first, truth1), (second, truth2) = sketched_game_photos(tmp_path)
    ann = store.player("Ann", create=True).id
    sid, doc = _upload(client, store, first, ann)
    (reading,) = store.readings(sid)
    for q in doc["questions"]:  # each question answered with one tap, as most of it holds
        plant = Counter(truth1[f] for f in q["fields"]).most_common(1)[0][0]
        client.post(f"/delicious/{sid}/name",
                    data={"reading": reading.id, "field": q["fields"][0], "value": plant})
    assert player_drawings(store, ann) is None  # kept when the table is saved
    client.post(f"/delicious/{sid}/save")
    kept = player_drawings(store, ann)
    assert kept is not None and len(kept["plants"]) >= 5

    # the next game's sheet: read alone until it is given to Ann, then with her drawings
    sid2, alone = _upload(client, store, second)
    assert "Choose whose sheet this is before saving" in client.get(
        f"/delicious?s={sid2}").text  # questions, and no player to keep them for
    (reading2,) = store.readings(sid2)
    client.post(f"/delicious/{sid2}/player", data={"reading": reading2.id, "player": ann})
    helped = _asked(client, sid2)
    assert len(helped["questions"]) < len(alone["questions"])
    assert "named like Ann's drawings of earlier sheets" in client.get(
        f"/delicious?s={sid2}").text
    wrong = [f for f, v in truth2.items() if helped["fields"].get(f) != v]
    assert not [f for f in wrong if f not in helped["review"]], "a silent error"


def test_the_players_drawings_command_shows_exports_loads_and_forgets(tmp_path: Path) -> None:
    from tests.conftest import invoke, one_line_error

    data = str(tmp_path / "data")
    with Store.open(data) as s:
        s.player("Ann", create=True)
    mine = tmp_path / "ann.json"
    doc = {**DOC, "plants": {"fig": [[0.6, 0.8]], "carrot": [[1.0, 0.0], [0.0, 1.0]]}}
    mine.write_text(json.dumps(doc))
    assert invoke("players", "drawings", "Ann", "--data", data).stdout.strip() == \
        "No drawings kept for Ann."
    shown = invoke("players", "drawings", "ann", "--from", str(mine), "--data", data)
    assert shown.stdout.strip() == "Ann: 3 drawings of 2 plants (carrot 2, fig 1)"
    assert "saved by another version of the sketch reader" in shown.stderr  # model "x"
    one = tmp_path / "cy.json"
    one.write_text(json.dumps({**DOC, "plants": {"fig": [[0.6, 0.8]]}}))
    with Store.open(data) as s:
        s.player("Cy", create=True)
    assert invoke("players", "drawings", "Cy", "--from", str(one), "--data", data
                  ).stdout.strip() == "Cy: 1 drawing of 1 plant (fig 1)"
    listed = json.loads(invoke("players", "drawings", "Ann", "--json", "--data", data).stdout)
    assert listed == {"player": "Ann", "plants": {"carrot": 2, "fig": 1}}
    out = tmp_path / "back.json"
    assert invoke("players", "drawings", "Ann", "-o", str(out), "--data", data).exit_code == 0
    assert json.loads(out.read_text())["plants"] == {"carrot": [[1.0, 0.0], [0.0, 1.0]],
                                                     "fig": [[0.6, 0.8]]}
    assert invoke("players", "drawings", "Ann", "--forget", "--data", data).stdout.strip() \
        == "forgot Ann's drawings"
    assert "no drawings are kept for Ann" in one_line_error(
        invoke("players", "drawings", "Ann", "-o", str(out), "--data", data))
    assert "no player 'Bo'" in one_line_error(invoke("players", "drawings", "Bo", "--data", data))
    (tmp_path / "bad.json").write_text("{")
    assert "not a JSON drawings file" in one_line_error(
        invoke("players", "drawings", "Ann", "--from", str(tmp_path / "bad.json"),
               "--data", data))
    assert "one of --forget" in one_line_error(
        invoke("players", "drawings", "Ann", "--forget", "-o", str(out), "--data", data))


def test_kept_drawings_are_parsed_once_per_version(store: Store,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.web.drawings as web_drawings
    from companion.vision.sheet.sketch_model import model_fingerprint

    ann, bo = (store.player(n, create=True).id for n in ("Ann", "Bo"))
    doc = {**DOC, "model": model_fingerprint()}
    keep_player_drawings(store, ann, doc)
    reads: list[int] = []
    real = web_drawings.player_drawings

    def counted(s: Store, pid: int) -> Any:
        reads.append(pid)
        return real(s, pid)

    monkeypatch.setattr(web_drawings, "player_drawings", counted)
    kept = web_drawings.KeptDrawings(entries=1)
    first = kept.of(store, ann)
    assert first is not None and first.plants() == ["fig"] and kept.of(store, ann) is first
    assert reads == [ann]  # the second view compared the stamp only
    keep_player_drawings(store, ann, {**doc, "plants": {"onion": [[0.8, 0.6]]}})
    again = kept.of(store, ann)
    assert again is not None and again.plants() == ["onion"] and reads == [ann, ann]
    assert kept.of(store, None) is None and reads == [ann, ann]
    keep_player_drawings(store, bo, doc)
    assert kept.of(store, bo) is not None and reads == [ann, ann, bo]
    assert kept.of(store, ann) is not None and reads == [ann, ann, bo, ann]  # fell out
