"""Value types of Dulce: beans, levels, café spaces, the field board, and rule readings."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from companion.games.dulce.constants import BOARD_SIZE, CORNER_CELLS


class Bean(StrEnum):
    CACAO = "cacao"
    COFFEE = "coffee"
    PEANUT = "peanut"
    VANILLA = "vanilla"


class Level(IntEnum):
    """Rings around a café space; a byproduct only ever moves to a lower level."""

    BUTTER = 1
    GROUND = 2
    PURE = 3


class Content(IntEnum):
    """What sits in a café space. A bean always matches its space's type, so no type here."""

    EMPTY = 0
    BEAN = 1
    EGG = 2


class Tiebreak(StrEnum):
    """How the final tiebreak combines eggs (from chicken steps) and field cubes."""

    SUM = "sum"  # one total: eggs plus cubes left on the board (our default reading)
    EGGS_FIRST = "eggs-first"  # most eggs; only equal eggs compare cubes left


@dataclass(frozen=True)
class Space:
    bean: Bean
    level: Level

    def __str__(self) -> str:
        return f"{self.bean.value}/{int(self.level)}"


@dataclass(frozen=True)
class Cafe:
    name: str
    spaces: tuple[Space, ...]
    holds: tuple[Content, ...]
    card: int | None = None
    corner: str | None = None  # starting cafés sit on a board corner
    covered: bool = False  # a field card lies on it: no resources may go there

    @property
    def full(self) -> bool:
        return all(h is not Content.EMPTY for h in self.holds)


@dataclass(frozen=True)
class Cell:
    """One board square: the visible field type (None for bare board) and cubes on it."""

    field: Bean | None = None
    cubes: int = 0


Board = tuple[tuple[Cell, ...], ...]


def empty_board() -> Board:
    return tuple(tuple(Cell() for _ in range(BOARD_SIZE)) for _ in range(BOARD_SIZE))


def corner_is_covered(board: Board, corner: str) -> bool:
    row, col = CORNER_CELLS[corner]
    return board[row][col].field is not None


@dataclass(frozen=True)
class FieldCard:
    """A card as the user entered it: its number, its 2x2 fields and optionally its café."""

    number: int
    fields: tuple[tuple[Bean, Bean], tuple[Bean, Bean]]  # [[top-left, top-right], [bottom...]]
    name: str = ""
    cafe: tuple[Space, ...] = ()


@dataclass(frozen=True)
class PlayerState:
    cafes: tuple[Cafe, ...]
    board: Board
    chicken: int = 0  # steps along the chicken track
    points: int = 0
    cards: tuple[FieldCard, ...] = ()
    used_cards: frozenset[int] = frozenset()

    def card(self, number: int) -> FieldCard | None:
        return next((c for c in self.cards if c.number == number), None)


@dataclass(frozen=True)
class DulceRules:
    """Readings of the rulebook where it leaves room; each is a one-line change."""

    # A byproduct may drop into a lower space of the very café that was just scored.
    byproduct_into_scored_cafe: bool = True
    # A byproduct that could move may instead be discarded (and feed the chicken).
    byproducts_may_be_discarded: bool = False
    # Harvested beans must go into a matching empty space while one is free.
    harvest_must_place: bool = True
    # Steps gained from unplaceable harvested beans can already buy eggs in that harvest.
    eggs_from_harvest_leftovers: bool = True
    tiebreak: Tiebreak = Tiebreak.SUM


DEFAULT_RULES = DulceRules()
