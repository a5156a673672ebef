"""The "Add to BG Stats" link (issue 30): one saved play in BG Stats' documented push-play
form, for a hand-worked table of each of the five games, built from the same history row
the BG Stats play file is written from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games.registry import BY_SLUG
from companion.store import SeatInput, Store
from companion.store.export import BGSTATS_PUSH, bgstats_link, export_bgstats
from companion.web.pads import state_from_form

DEL = Path(__file__).resolve().parent.parent / "examples/delicious"


def _data(link: str) -> dict[str, Any]:
    assert link.startswith(BGSTATS_PUSH)
    data = link.removeprefix(BGSTATS_PUSH)
    assert all(c not in data for c in ' {}"&#?'), "the JSON is URL-encoded whole"
    doc = json.loads(unquote(data))
    assert isinstance(doc, dict)
    return doc


def _pad_play(store: Store, game: str, form: dict[str, str]) -> int:
    info = BY_SLUG[game]
    result = info.score_pad(state_from_form(game, form))
    assert not result.problems
    night = store.new_night("Friday at Ann's", date="2026-03-06")
    return store.save_outcome(info.play(result.doc), night_id=night.id, source="web").id


# (game, pad form, the ranking worked by hand: (name, score, rank, winner) as seated)
PADS = [
    ("dulce", {"name0": "Ava", "points0": "41", "chicken0": "7", "field_cubes0": "3",
               "name1": "Ben", "points1": "30", "chicken1": "2", "field_cubes1": "0"},
     [("Ava", 41, 1, True), ("Ben", 30, 2, False)]),
    ("wild-gardens", {"name0": "Jada", "pollinator0": "30", "jar0": "10",
                      "name1": "Kim", "pollinator1": "40", "jar1": "12"},
     [("Kim", 52, 1, True), ("Jada", 40, 2, False)]),  # seated by place
    ("deli-duel", {"name0": "Ann", "completed_orders0": "5",
                   "name1": "Bo", "completed_orders1": "1"},
     [("Ann", 5, 1, True), ("Bo", 1, 2, False)]),
    ("diced-veggies", {"name0": "Ava", "recipes0": "3, 3, 3, 3, 3, 3, 4",  # seven: the end
                       "name1": "Cleo", "recipes1": "10+3, 8"},
     [("Ava", 22, 1, True), ("Cleo", 21, 2, False)]),
]


@pytest.mark.parametrize(("game", "form", "expected"), PADS, ids=[p[0] for p in PADS])
def test_a_pad_game_opens_in_bg_stats_filled_in(store: Store, game: str,
                                                form: dict[str, str],
                                                expected: list[tuple[Any, ...]]) -> None:
    play = _pad_play(store, game, form)
    doc = _data(bgstats_link(store, play))
    assert doc["game"]["name"] == BY_SLUG[game].title
    assert doc["game"]["highestWins"] is True and doc["game"]["noPoints"] is False
    assert doc["playDate"].startswith("2026-03-06 ")
    assert doc["durationMin"] == 0
    assert "location" not in doc  # the night has none: BG Stats puts its own
    assert doc["comments"] == "Friday at Ann's"
    got = [(p["name"], p["score"], p["rank"], p["winner"]) for p in doc["players"]]
    assert got == expected


def test_a_delicious_table_with_a_place_and_a_duration(store: Store) -> None:
    """The table of examples/delicious seed7 (by hand: player1 28, player3 23, player2 22),
    saved as ``delicious score --save`` would."""
    run = CliRunner().invoke(main, ["delicious", "score",
                                    *(str(DEL / f"seed7-player{i}.json") for i in (1, 2, 3)),
                                    "--json"])
    assert run.exit_code == 0, run.output
    outcome = BY_SLUG["delicious"].play(json.loads(run.output), ["Ann", "Bo", "Cy"])
    night = store.new_night("Game night", date="2026-03-07")
    with store.transaction() as c:
        c.execute("UPDATE nights SET location = ? WHERE id = ?", ("Bo's kitchen", night.id))
    saved = store.save_play(outcome.game, [SeatInput(s.name, s.score, s.place, s.winner)
                                           for s in outcome.seats],
                            night_id=night.id, duration_min=55)
    doc = _data(bgstats_link(store, saved.id))
    assert doc["game"] == {"name": "Delicious", "highestWins": True, "noPoints": False,
                           "sourceGameId": "delicious"}
    assert doc["location"] == "Bo's kitchen" and doc["durationMin"] == 55
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in doc["players"]] == [
        ("Ann", 28, 1, True), ("Bo", 22, 3, False), ("Cy", 23, 2, False)]
    # the play file says the same of the same play: one place per fact
    bg = export_bgstats(store)
    (play,) = bg["plays"]
    assert play["playDate"] == doc["playDate"] and play["comments"] == doc["comments"]
    assert [(s["rank"], s["winner"], float(s["score"])) for s in play["playerScores"]] == [
        (p["rank"], p["winner"], float(p["score"])) for p in doc["players"]]
    assert {k: bg["games"][0][k] for k in ("name", "highestWins", "noPoints")} == {
        k: doc["game"][k] for k in ("name", "highestWins", "noPoints")}


def test_a_name_with_quotes_and_ampersands_survives_the_link(store: Store) -> None:
    play = _pad_play(store, "deli-duel", {"name0": 'Zoë "Z" & Co', "completed_orders0": "5",
                                          "name1": "Bo#2?", "completed_orders1": "2"})
    doc = _data(bgstats_link(store, play))
    assert [p["name"] for p in doc["players"]] == ['Zoë "Z" & Co', "Bo#2?"]
