"""Pairing photo readings into players and correcting them, with no image library."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.errors import InputError, UnknownNameError
from companion.games.delicious.players import group_players
from companion.games.delicious.table import assess
from tests.fake_readings import FakeField


@dataclass(frozen=True)
class _Sheet:
    photo: str
    sheet: str
    code: str
    variant: str = "A"
    seconds: float = 1.0
    readings: dict[str, FakeField] = field(default_factory=dict)


def test_halves_pair_by_code_garden_first() -> None:
    play = _Sheet("p.jpg", "delicious-play", "QX7Z")
    lone = _Sheet("o.jpg", "delicious-play", "ZZ99")
    garden = _Sheet("g.jpg", "delicious-garden", "QX7Z")
    players = group_players([play, lone, garden])
    assert [p.photos for p in players] == [["g.jpg", "p.jpg"], ["o.jpg"]]
    assert players[0].has_play and players[0].seconds == 2.0


def test_sheets_without_a_code_stand_alone() -> None:
    players = group_players([_Sheet("g.jpg", "delicious-garden", ""),
                             _Sheet("p.jpg", "delicious-play", "")])
    assert [p.photos for p in players] == [["g.jpg"], ["p.jpg"]]
    assert not players[0].has_play


def test_one_code_on_two_gardens_is_refused() -> None:
    with pytest.raises(InputError, match="share the player code"):
        group_players([_Sheet("g.jpg", "delicious-garden", "AB12", "A"),
                       _Sheet("p.jpg", "delicious-play", "AB12", "B")])


def test_corrections_replace_values_and_leave_review() -> None:
    sheet = _Sheet("c.jpg", "delicious-combo", "", readings={
        "a": FakeField("a", "carrot", 0.5), "b": FakeField("b", None, 0.7),
        "c": FakeField("c", "x")})
    (player,) = group_players([sheet])
    assert player.review == ["a", "b"]
    fixed = player.corrected([("a", None), ("b", "cross")])
    assert fixed.fields == {"b": "cross", "c": "x"} and fixed.review == []
    assert fixed.readings["a"].note == "set by hand"
    with pytest.raises(UnknownNameError):
        player.corrected([("nope", "x")])


def test_a_lone_garden_is_not_blamed_for_its_missing_choices() -> None:
    garden, combo = _Sheet("g.jpg", "delicious-garden", ""), _Sheet("c.jpg", "delicious-combo", "")
    table = assess(group_players([garden, combo]), ["g", "c"])
    assert "choice-count" not in {v.code for v in table.violations[0]}
    assert "choice-count" in {v.code for v in table.violations[1]}
