"""Helpers shared by the Delicious tests (no tests here)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.games.delicious.garden import cell_id, choice_id, planter_cell_id
from companion.games.delicious.moves import Card, Round
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import (
    CHOICE_CIRCLES_PER_OPTION,
    Fruit,
    Mark,
    PlantChoice,
    Shape,
    Tool,
    Vegetable,
)

V = Vegetable
F = Fruit


def rows(container: str, *rows_bottom_up: Iterable[str | None]) -> dict[str, str]:
    """Field values for a container given its rows bottom-up (None leaves a cell empty)."""
    out: dict[str, str] = {}
    for r, row in enumerate(rows_bottom_up):
        for c, value in enumerate(row):
            if value:
                out[cell_id(container, r, c)] = value
    return out


def planter(row: int, values: Iterable[str | None]) -> dict[str, str]:
    return {planter_cell_id(row, c): v for c, v in enumerate(values) if v}


def all_choices() -> dict[str, str]:
    return {
        choice_id(ch, i): Mark.MARKED
        for ch in PlantChoice
        for i in range(CHOICE_CIRCLES_PER_OPTION)
    }


def sheet(values: Mapping[str, str] | None = None, variant: str = "A") -> SheetState:
    return SheetState.empty(variant).with_values(dict(values or {}))


def card(veg: Vegetable, icon: Shape, token: Fruit | Tool) -> Card:
    return Card(veg, icon, token)


def rnd(top: Card, bottom: Card) -> Round:
    return Round(top, bottom)


# Garden A, full: every container filled legally (used by several tests).
FULL_A: dict[str, str] = {
    **rows("wheelbarrow", ["broccoli", "carrot", "lettuce"], ["mushroom", "onion"], ["pepper"]),
    **rows("boots", ["carrot", "carrot"], ["carrot", "carrot"], ["carrot"]),
    **rows("watering-can", ["onion", "onion"], ["pepper", "pepper"], ["lettuce", "lettuce"]),
    **rows("bathtub", ["broccoli", "broccoli", "carrot", "carrot"], ["mushroom", "mushroom"]),
    **rows("crate", ["pepper", "pepper", "pepper"], ["pepper", "pepper"]),
    **rows("teapot", ["onion", "lettuce"], ["broccoli", "carrot"], ["pepper"]),
}
