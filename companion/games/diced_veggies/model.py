"""Dice, ingredients and the block on the table, with the block JSON of docs/contracts.md.

A ``Block`` is what the cut engine, the photo reader and the command line share: dice on
integer cells, row 0 at the top of the picture as displayed and col 0 at its left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.games.diced_veggies.constants import (
    DICE_PER_INGREDIENT,
    FACES,
    MAX_BLOCK_DICE,
    MAX_PIPS,
    MIN_PIPS,
    TOTAL_DICE,
)
from companion.games.diced_veggies.grid import (
    Cell,
    components,
    corner_contacts,
    fmt_cell,
    fmt_cells,
)

if TYPE_CHECKING:
    from companion.games.diced_veggies.cut import Cut
    from companion.games.diced_veggies.cutting import CutCheck, CutOptions

ODDITIES_LISTED = 3  # dice named in one warning before "and N more"

__all__ = ["FACES", "Block", "Die", "Ingredient"]


class Ingredient(StrEnum):
    """One die colour: carrot orange, mushroom tan, onion pink/purple, pepper green,
    tomato red."""

    CARROT = "carrot"
    MUSHROOM = "mushroom"
    ONION = "onion"
    PEPPER = "pepper"
    TOMATO = "tomato"


@dataclass(frozen=True, order=True)
class Die:
    row: int
    col: int
    ingredient: Ingredient
    value: int  # pips showing, 1-6; only FACES appear on real dice

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    @property
    def standard_face(self) -> bool:
        """False for a pip count the game's dice do not carry (a 1): likely a misreading."""
        return self.value in FACES

    def moved(self, drow: int, dcol: int) -> Die:
        return Die(self.row + drow, self.col + dcol, self.ingredient, self.value)

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "col": self.col,
            "ingredient": self.ingredient.value,
            "value": self.value,
        }

    def __str__(self) -> str:
        return f"{self.ingredient.value} {self.value} at {fmt_cell(self.cell)}"


@dataclass(frozen=True)
class Block:
    """The dice on the table. Construction refuses two dice on one cell; ``from_json``
    also refuses a block that is not one 4-connected piece unless told otherwise (the
    block after an illegal cut may be split, and judging that cut needs to load it)."""

    dice: tuple[Die, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.dice))
        object.__setattr__(self, "dice", ordered)
        seen: set[Cell] = set()
        for die in ordered:
            if die.cell in seen:
                raise InputError(f"two dice overlap at {fmt_cell(die.cell)}")
            seen.add(die.cell)

    # ---- construction and JSON -------------------------------------------------------

    @classmethod
    def of(cls, dice: Iterable[Die], *, require_connected: bool = True) -> Block:
        block = cls(tuple(dice))
        if require_connected:
            problem = block.connection_problem()
            if problem:
                raise InputError(problem)
        return block

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], *, require_connected: bool = True) -> Block:
        """Parse the docs/contracts.md block shape ``{"dice": [{row, col, ingredient, value}]}``.
        Extra keys (a reader's confidences, say) are ignored."""
        if not isinstance(doc, Mapping):
            raise InputError('a block must be a JSON object with a "dice" list')
        raw = doc.get("dice")
        if not isinstance(raw, list):
            raise InputError('a block must be a JSON object with a "dice" list')
        if len(raw) > MAX_BLOCK_DICE:
            raise InputError(f"a block of {len(raw):,} dice is no game's: the box holds "
                             f"{TOTAL_DICE} (at most {MAX_BLOCK_DICE:,} are taken)")
        return cls.of(
            (_die_from_json(i, item) for i, item in enumerate(raw)),
            require_connected=require_connected,
        )

    def to_json(self) -> dict[str, Any]:
        return {"dice": [d.to_json() for d in self.dice]}

    # ---- looking at the block --------------------------------------------------------

    @cached_property
    def by_cell(self) -> dict[Cell, Die]:
        return {d.cell: d for d in self.dice}

    @cached_property
    def values(self) -> dict[Cell, int]:
        return {d.cell: d.value for d in self.dice}

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(self.by_cell)

    def at(self, cell: Cell) -> Die | None:
        return self.by_cell.get(cell)

    def __len__(self) -> int:
        return len(self.dice)

    def __contains__(self, cell: object) -> bool:
        return cell in self.by_cell

    @property
    def total(self) -> int:
        """Pips on the whole block."""
        return sum(d.value for d in self.dice)

    def ingredients(self) -> frozenset[Ingredient]:
        return frozenset(d.ingredient for d in self.dice)

    def missing_ingredients(self) -> tuple[Ingredient, ...]:
        present = self.ingredients()
        return tuple(i for i in Ingredient if i not in present)

    def connection_problem(self) -> str | None:
        """One line saying how the dice fail to form one 4-connected piece, or None."""
        pieces = components(self.by_cell)
        if len(pieces) <= 1:
            return None
        contacts = corner_contacts(pieces)
        detail = (
            f"; {fmt_cell(contacts[0][0])} and {fmt_cell(contacts[0][1])} touch only at a corner"
            if contacts
            else ""
        )
        stray = pieces[1]
        return (
            f"the dice are not one connected block: they form {len(pieces)} pieces "
            f"({fmt_cells(stray)} is apart from the rest){detail}"
        )

    def oddities(self) -> list[str]:
        """Things a real set of dice cannot show: a face outside FACES, too many dice of
        one ingredient. Not errors (a photo may be misread); worth a warning."""
        odd = [d for d in self.dice if not d.standard_face]
        notes = [f"{d}: {d.value} is not a face of these dice" for d in odd]
        if len(odd) > ODDITIES_LISTED:  # one line for many, naming the first few
            shown = "; ".join(str(d) for d in odd[:ODDITIES_LISTED])
            notes = [f"{len(odd)} dice show a face these dice do not carry: {shown}; "
                     f"and {len(odd) - ODDITIES_LISTED} more"]
        over = [(i, n) for i, n in sorted(Counter(d.ingredient for d in self.dice).items())
                if n > DICE_PER_INGREDIENT]
        if len(over) == 1:
            notes.append(f"{over[0][1]} {over[0][0].value} dice, but the game has "
                         f"{DICE_PER_INGREDIENT}")
        elif over:
            counts = ", ".join(f"{n} {i.value}" for i, n in over)
            notes.append(f"{counts} dice, but the game has {DICE_PER_INGREDIENT} of each")
        return notes

    def without(self, cells: Iterable[Cell]) -> Block:
        gone = set(cells)
        return Block(tuple(d for d in self.dice if d.cell not in gone))

    def moved(self, drow: int, dcol: int) -> Block:
        return Block(tuple(d.moved(drow, dcol) for d in self.dice))

    # ---- cutting (the engine lives in cutting.py) --------------------------------------

    def take_all(self, options: CutOptions | None = None) -> bool:
        """Whether the block is small enough to take whole without cutting."""
        from companion.games.diced_veggies import cutting

        return cutting.take_all(self.values, _opts(options))

    def legal_cuts(self, options: CutOptions | None = None) -> list[Cut]:
        """Every legal cut, one per distinct set of dice taken."""
        from companion.games.diced_veggies import cutting

        return cutting.legal_cuts(self.values, _opts(options))

    def legal_cut_checks(self, options: CutOptions | None = None) -> list[CutCheck]:
        """``legal_cuts`` with the dice each cut takes and their pips."""
        from companion.games.diced_veggies import cutting

        return cutting.legal_cut_checks(self.values, _opts(options))

    def check(self, cut: Cut, options: CutOptions | None = None) -> CutCheck:
        """Judge one cut, listing every rule it breaks."""
        from companion.games.diced_veggies import cutting

        return cutting.check_cut(self.values, cut, _opts(options))

    def explain(self, taken: Iterable[Cell], options: CutOptions | None = None) -> CutCheck:
        """Judge taking exactly ``taken``: the cut that does it, or every reason none can."""
        from companion.games.diced_veggies import cutting

        return cutting.explain_taken(self.values, frozenset(taken), _opts(options))

    def cut_for(self, taken: Iterable[Cell], options: CutOptions | None = None) -> Cut:
        """A legal cut taking exactly ``taken``; IllegalMoveError saying why if none is."""
        from companion.games.diced_veggies import cutting

        return cutting.cut_for(self.values, frozenset(taken), _opts(options))


def _opts(options: CutOptions | None) -> CutOptions:
    from companion.games.diced_veggies.cutting import CutOptions

    return options if options is not None else CutOptions()


def _die_from_json(index: int, item: Any) -> Die:
    where = f"die #{index + 1}"
    if not isinstance(item, Mapping):
        raise InputError(f"{where}: expected an object with row, col, ingredient, value")
    for key in ("row", "col", "ingredient", "value"):
        if key not in item:
            raise InputError(f"{where}: missing {key!r}")
    row, col, value, name = item["row"], item["col"], item["value"], item["ingredient"]
    for key, number in (("row", row), ("col", col), ("value", value)):
        if not isinstance(number, int) or isinstance(number, bool):
            raise InputError(f"{where}: {key} must be an integer, not {number!r}")
    if row < 0 or col < 0:
        raise InputError(f"{where}: row and col must be 0 or more, not ({row},{col})")
    try:
        ingredient = Ingredient(name)
    except ValueError:
        raise InputError(
            f"{where}: unknown ingredient {name!r}; choose one of "
            + ", ".join(i.value for i in Ingredient)
        ) from None
    if not MIN_PIPS <= value <= MAX_PIPS:
        raise InputError(f"{where}: value {value} is not a die face ({MIN_PIPS}-{MAX_PIPS})")
    return Die(row, col, ingredient, value)
