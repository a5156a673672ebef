"""Issue #27 item 14: a finished game no game can reach (10^12 completed orders or stars,
more cubes than a board holds) is refused with the reason, by the web's score pads and by
the command line alike: the bounds live in the games' own finish functions, which both
call through the registry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.games.dulce.constants import MAX_CHICKEN_STEPS, MAX_FIELD_CUBES, MAX_POINTS
from companion.store import Store
from tests.conftest import Invoke, dump

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FAR = 10**12


def _wild(**change: Any) -> dict[str, Any]:
    doc = json.loads((EXAMPLES / "wild-gardens/score.json").read_text())
    doc["players"][1].update(change)
    return dict(doc)


def _dice(stars: int, recipes: int = 7) -> dict[str, Any]:
    return {"game": "diced-veggies", "players": [
        {"name": "A", "recipes": [{"stars": 5}] * (recipes - 1) + [{"stars": stars}]},
        {"name": "B", "recipes": [{"stars": 4}]}]}


def _dulce(**a: int) -> dict[str, Any]:
    return {"game": "dulce", "players": [{"name": "A", "points": 30, "chicken": 1,
                                          "field_cubes": 2, **a},
                                         {"name": "B", "points": 20}]}


CLI_CASES = [
    (["dulce", "final"], _dulce(points=FAR), "no game of 20 rounds"),
    (["dulce", "final"], _dulce(points=MAX_POINTS + 1), f"more than {MAX_POINTS}"),
    (["dulce", "final"], _dulce(chicken=MAX_CHICKEN_STEPS + 1), "chicken steps"),
    (["dulce", "final"], _dulce(field_cubes=MAX_FIELD_CUBES + 1), "cubes on the fields"),
    (["wild-gardens", "score"], _wild(guests=FAR, guest_vp=0), "48 guest cards"),
    (["wild-gardens", "score"], _wild(cooked_recipes=49), "48 recipe cards"),
    (["wild-gardens", "score"], _wild(ingredients=FAR), "past any game"),
    (["dice", "score"], _dice(FAR), "no card is worth more"),
    (["dice", "score"], {"game": "diced-veggies", "players": [
        {"name": f"P{i}", "recipes": [{"stars": 3}] * 9} for i in range(5)]},
     "44 recipe cards"),
    (["deli-duel", "winner"], {"game": "deli-duel", "players": [
        {"name": "A", "completed_orders": FAR}, {"name": "B", "completed_orders": 1}]},
     "has more"),
]


@pytest.mark.parametrize("command,doc,reason", CLI_CASES)
def test_the_cli_refuses_a_game_no_one_can_reach(cli: Invoke, tmp_path: Path,
                                                 command: list[str], doc: dict[str, Any],
                                                 reason: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(doc))
    data = tmp_path / "data"
    result = cli(*command, str(path), "--save", "--data", str(data))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and reason in result.output
    with Store.open(data) as store:
        assert store.plays() == []


PAD_CASES = [
    ("dulce", {"points0": "999999"}, "no game of 20 rounds"),
    ("dulce", {"chicken0": str(MAX_CHICKEN_STEPS + 1)}, "chicken steps"),
    ("wild-gardens", {"pollinator0": "40", "jar0": "3", "guests0": "999999"}, "guest cards"),
    ("wild-gardens", {"pollinator0": "40", "jar0": "3", "cooked_recipes0": "49"},
     "recipe cards"),
    ("wild-gardens", {"pollinator0": "40", "jar0": "3", "ingredients0": "5000"},
     "past any game"),
    ("diced-veggies", {"recipes0": "1,1,1,1,1,1,999999"}, "no card is worth more"),
    ("diced-veggies", {"recipes0": "1,1,1,1,1,1,5+999999"}, "no card is worth more"),
    ("deli-duel", {"completed_orders0": "999999"}, "has more"),
]


@pytest.mark.parametrize("game,fields,reason", PAD_CASES)
def test_a_pad_refuses_a_game_no_one_can_reach(client: TestClient, tmp_path: Path,
                                               game: str, fields: dict[str, str],
                                               reason: str) -> None:
    before = dump(tmp_path)
    r = client.post(f"/pads/{game}", data={"rows": "2", "name0": "A", "name1": "B",
                                           **fields, "action": "save"},
                    headers={"accept": "application/json"})
    assert r.status_code == 422 and reason in r.json()["error"], r.text
    assert dump(tmp_path) == before
