"""A player's groups of drawings across sheets: questions, and naming a whole group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from companion.cli.delicious_read import _player_fixes
from companion.errors import InputError
from companion.games.delicious.players import PlayerReading
from tests.fake_readings import FakeField

X1, X2, X3 = "garden.boots.r0.c0", "garden.boots.r0.c1", "play.veg-wild"
Y1, Y2, Z = "garden.crate.r0.c0", "play.veg-bonus", "play.fruit-wild"
X, Y = {X1, X2, X3}, {Y1, Y2}


@dataclass(frozen=True)
class _Group:
    id: str
    fields: tuple[str, ...]
    guess: str
    trusted: bool
    choices: tuple[str, ...] = ("carrot", "onion")
    confidence: float = 0.6
    what: str = "drawing"


@dataclass(frozen=True)
class _Sheet:
    photo: str
    sheet: str
    code: str = "AB12"
    variant: str = "A"
    seconds: float = 1.0
    readings: dict[str, FakeField] = field(default_factory=dict)

    def group_drawings(self, readings: Mapping[str, Any], keys: Sequence[Any] = (),
                       named: Mapping[str, str] | None = None
                       ) -> tuple[dict[str, Any], tuple[_Group, ...]]:
        """The X fields are one untrusted group (read as carrot), the Y fields one trusted
        group (onion)."""
        out = dict(readings)
        groups = (_Group("q1", tuple(sorted(f for f in readings if f in X)), "carrot", False),
                  _Group("q2", tuple(sorted(f for f in readings if f in Y)), "onion", True))
        for g in groups:
            for f in g.fields:
                out[f] = replace(readings[f], value=g.guess,
                                 confidence=0.99 if g.trusted else 0.6)
        return out, groups


def _player() -> PlayerReading[Any]:
    garden = _Sheet("g.jpg", "delicious-garden", readings={
        f: FakeField(f, "pepper", 0.6) for f in (X1, X2, Y1)})
    play = _Sheet("p.jpg", "delicious-play", readings={
        X3: FakeField(X3, "pepper", 0.6), Y2: FakeField(Y2, "pepper", 0.6),
        Z: FakeField(Z, "fig")})
    return PlayerReading((garden, play))


def test_groups_span_both_sheets_and_only_untrusted_ones_ask() -> None:
    p = _player()
    assert p.questions == [{"id": "q1", "fields": sorted(X), "guess": "carrot",
                            "choices": ["carrot", "onion"], "what": "drawing"}]
    assert set(p.review) == X  # every field of a question is in review
    assert p.fields[Y2] == "onion" and p.group_of(X3) == tuple(sorted(X))
    assert p.group_of(Z) == (Z,)


def test_naming_one_field_names_its_group_and_set_keeps_one_field() -> None:
    p = _player()
    fixes = _player_fixes([p], [f"{Y1}=carrot"], [f"{X2}=O"])  # O: the legend's onion
    assert fixes == {0: [*((f, "onion") for f in sorted(X)), (Y1, "carrot")]}
    named = p.corrected(fixes[0])
    assert named.questions == [] and named.review == []
    assert named.fields[Y2] == "onion" and named.fields[Y1] == "carrot"


def test_name_needs_a_plant() -> None:
    with pytest.raises(InputError, match="name a plant"):
        _player_fixes([_player()], [], [f"{X1}="])
