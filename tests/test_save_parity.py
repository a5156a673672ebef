"""The same finished game saved from the command line (``--save``) and from the web app
(the score pads and the Delicious page) is the same play, field by field.

Each game is played to a tie or an edge its two front ends once disagreed on: a Dulce
place shared through the tiebreak, a Wild Gardens tie through every tiebreak, a Deli
Duel won with Fairy Bread by a player with fewer orders than another, a shared Diced
Veggies victory, and a Delicious table read from photos with a correction by hand.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from companion.cli import main
from companion.store import Play, Store
from companion.web.app import create_app
from companion.web.pads import state_from_form
from companion.web.readers import ReaderPool

PHOTOS = Path(__file__).resolve().parent.parent / "examples/delicious/photos"
TABLE = ("combo-good-light.jpg", "combo-tilted-shadow.jpg", "garden-player3.jpg",
         "play-player3.jpg")

# (game, CLI command, the pad's form): the CLI reads the state the pad builds from it.
PADS: list[tuple[str, tuple[str, ...], dict[str, str]]] = [
    ("dulce", ("dulce", "final"),
     {"name0": "Ava", "points0": "41", "chicken0": "7", "field_cubes0": "3",
      "name1": "Ben", "points1": "41", "chicken1": "7", "field_cubes1": "3",
      "name2": "Cleo", "points2": "30", "chicken2": "2", "field_cubes2": "0"}),
    ("dulce", ("dulce", "final"),
     {"name0": "Ava", "points0": "41", "chicken0": "7", "field_cubes0": "3",
      "name1": "Ben", "points1": "41", "chicken1": "4", "field_cubes1": "1"}),
    ("wild-gardens", ("wild-gardens", "score"),
     {**{f"{k}{i}": v for i in (0, 1) for k, v in
         (("pollinator", "40"), ("jar", "12"), ("guests", "3"), ("guest_vp", "4"),
          ("cooked_recipes", "2"), ("ingredients", "8"), ("skill_tokens", "5"),
          ("reserved_recipes", "1"))},
      "name0": "Jada", "name1": "Kim",
      "name2": "Lou", "pollinator2": "30", "jar2": "10"}),
    ("wild-gardens", ("wild-gardens", "score"),
     {"name0": "Jada", "pollinator0": "40", "jar0": "12", "guests0": "3",
      "name1": "Kim", "pollinator1": "40", "jar1": "12", "guests1": "2"}),
    ("deli-duel", ("deli-duel", "winner"),
     {"name0": "Ann", "completed_orders0": "1", "fairy_bread0": "on",
      "name1": "Bo", "completed_orders1": "4", "name2": "Cy", "completed_orders2": "2"}),
    ("deli-duel", ("deli-duel", "winner"),
     {"name0": "Ann", "completed_orders0": "5", "name1": "Bo", "completed_orders1": "1"}),
    ("diced-veggies", ("dice", "score"),
     {"name0": "Ava", "recipes0": "3, 3, 3, 3, 3, 3, 3", "name1": "Ben",
      "recipes1": "10+3, 8", "name2": "Cleo", "recipes2": "7+3+3"}),
]


def _fields(play: Play, store: Store) -> dict[str, Any]:
    """Everything a play holds but where and when it came from (its ids, source, and the
    reading times of photos, which are never the same twice)."""
    detail = json.loads(json.dumps(play.detail))
    for entry in [detail, *detail.get("players", []), *detail.get("unpaired", [])]:
        entry.pop("seconds", None)
    night = store.night(play.night_id) if play.night_id is not None else None
    return {"game": play.game, "date": play.date, "tiebreak": play.tiebreak,
            "duration_min": play.duration_min, "night_date": night.date if night else None,
            "seats": [(s.seat, s.player.name, s.score, s.place, s.winner) for s in play.seats],
            "detail": detail, "photos": _photos(store, play)}


def _photos(store: Store, play: Play) -> list[tuple[str, str, list[tuple[str, str | None]]]]:
    """The play's kept photos: each reading's label and kind, and its corrections."""
    out = []
    for scoring in store.scorings(play.night_id, play.game) if play.night_id else []:
        if scoring.play_id != play.id:
            continue
        for r in store.readings(scoring.id):
            out.append((str(r.doc.get("photo")), r.kind,
                        [(c.field, c.value) for c in store.corrections(r.id)]))
    return sorted(out)


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    with Store.open(tmp_path / "cli") as cli, Store.open(tmp_path / "web") as web:
        yield cli, web


@pytest.fixture(scope="module")
def readers() -> Iterator[ReaderPool]:
    pool = ReaderPool(1)
    yield pool
    pool.close()


def _cli(*args: str, cwd: Path | None = None) -> None:
    here = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args))
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output


def _only_play(store: Store) -> Play:
    (play,) = store.plays()
    return play


@pytest.mark.parametrize(("game", "command", "form"), PADS,
                         ids=[f"{g}-{i}" for i, (g, _, _) in enumerate(PADS)])
def test_a_pad_game_saves_the_same_play_from_cli_and_web(
        game: str, command: tuple[str, ...], form: Mapping[str, str], tmp_path: Path,
        stores: tuple[Store, Store], readers: ReaderPool) -> None:
    cli_store, web_store = stores
    state = tmp_path / "state.json"
    state.write_text(json.dumps(state_from_form(game, form)))
    _cli(*command, str(state), "--save", "--data", str(cli_store.root))
    with TestClient(create_app(web_store, readers=readers)) as client:
        r = client.post(f"/pads/{game}", data={"rows": "3", **form, "action": "save"},
                        follow_redirects=False)
        assert r.status_code == 303, r.text
    cli_play, web_play = _only_play(cli_store), _only_play(web_store)
    assert (cli_play.source, web_play.source) == ("cli", "web")
    assert _fields(cli_play, cli_store) == _fields(web_play, web_store)


@pytest.mark.slow
def test_a_delicious_table_saves_the_same_play_from_cli_and_web(
        tmp_path: Path, stores: tuple[Store, Store], readers: ReaderPool) -> None:
    cli_store, web_store = stores
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in TABLE:  # the CLI names photos as given; the web by their file names
        shutil.copy(PHOTOS / name, photos / name)
    field, value = "garden.wheelbarrow.r0.c2", "mushroom"
    _cli("delicious", "read", *TABLE, "--set", f"2:{field}={value}", "--save", "--data",
         str(cli_store.root), cwd=photos)
    with TestClient(create_app(web_store, readers=readers)) as client:
        files = [("photo", (n, (photos / n).read_bytes(), "image/jpeg")) for n in TABLE]
        r = client.post("/delicious/upload", files=files, follow_redirects=False)
        sid = int(r.headers["location"].split("s=")[1])
        (tilted,) = [x for x in web_store.readings(sid) if x.doc["photo"] == TABLE[1]]
        client.post(f"/delicious/{sid}/correct",
                    data={"reading": tilted.id, "field": field, "value": value})
        assert client.post(f"/delicious/{sid}/save", follow_redirects=False).status_code == 303
    cli_play, web_play = _only_play(cli_store), _only_play(web_store)
    assert [s.player.name for s in cli_play.seats] == [
        "combo-good-light", "combo-tilted-shadow", "garden-player3"]
    assert _fields(cli_play, cli_store) == _fields(web_play, web_store)
