"""One problem type for every game, each keeping its JSON shape (docs/contracts.md)."""

from __future__ import annotations

import json

from companion.games.delicious.table import TABLE_CODES, TableCode
from companion.games.delicious.validate import CODES, SheetCode
from companion.games.diced_veggies.scoring import ScoreCode
from companion.games.problems import Problem
from companion.games.wild_gardens.scoring import Player, StateCode, check


def test_sheet_problems_point_at_fields() -> None:
    p = Problem(SheetCode.BOTTOM_UP, ("garden.boot.r1.c0",), "rows fill from the bottom")
    doc = p.to_json()
    assert list(doc) == ["code", "fields", "message"]
    assert json.loads(json.dumps(doc)) == {
        "code": "bottom-up", "fields": ["garden.boot.r1.c0"],
        "message": "rows fill from the bottom"}
    assert Problem(TableCode.MIXED_VARIANTS, (), "mixed").to_json()["fields"] == []


def test_player_problems_point_at_the_player_or_the_table() -> None:
    mine = Problem(ScoreCode.HYPE_WITHOUT_CARDS, (), "no hype cards", "Ana").to_json()
    table = Problem(ScoreCode.GAME_NOT_OVER, (), "not over").to_json()
    assert list(mine) == ["code", "player", "message"] and mine["player"] == "Ana"
    assert table == {"code": "game-not-over", "player": None, "message": "not over"}


def test_codes_are_their_public_strings() -> None:
    assert SheetCode.CHOICE_COUNT == "choice-count"
    assert f"{SheetCode.CHOICE_COUNT}" == "choice-count"
    assert len(set(CODES) | set(TABLE_CODES)) == len(CODES) + len(TABLE_CODES)
    assert all(c.startswith("table-") for c in TABLE_CODES)


def test_wild_gardens_problems_name_their_player() -> None:
    p = Player(name="Bo", pollinator=3, jar=2, skill_tokens=99)
    (problem,) = check(p)
    assert problem.code is StateCode.SKILL_SLOTS
    assert problem.to_json()["player"] == "Bo"
