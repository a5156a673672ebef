"""The plant-fields action: where a card may go and what planting it does to the board."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from companion.errors import IllegalMoveError, InputError
from companion.games.dulce.constants import (
    BOARD_SIZE,
    CARD_SIZE,
    CORNER_CELLS,
    CUBES_PER_FIELD,
    ROTATIONS_DEG,
    SAME_TYPE_BONUS_CUBES,
)
from companion.games.dulce.model import Bean, Board, Cell, Content, PlayerState

Fields = tuple[tuple[Bean, Bean], tuple[Bean, Bean]]


@dataclass(frozen=True)
class PlantResult:
    board: Board
    chicken: int  # cubes that were covered and fed to the chicken
    gained: tuple[tuple[Bean, int], ...]  # cubes placed on the new fields, per bean
    bonus_cells: tuple[tuple[int, int], ...]  # squares that got the same-type extra cube
    covered_cafes: tuple[str, ...]  # starting cafés this card newly covers
    lost_from_cafes: int  # resources sitting in those cafés, returned to the supply


def rotate(fields: Fields, degrees: int) -> Fields:
    """Turn the card clockwise by ``degrees`` (a multiple of 90)."""
    if degrees not in ROTATIONS_DEG:
        raise InputError(f"rotation must be one of {', '.join(map(str, ROTATIONS_DEG))} degrees")
    out = fields
    for _ in range(degrees // 90):
        (a, b), (c, d) = out
        out = ((c, a), (d, b))
    return out


def legal_positions() -> tuple[tuple[int, int], ...]:
    """Top-left squares where a 2x2 card lies fully on the 4x4 board."""
    span = range(BOARD_SIZE - CARD_SIZE + 1)
    return tuple((r, c) for r in span for c in span)


def plant(state: PlayerState, fields: Fields, row: int, col: int, rotation: int = 0) -> PlantResult:
    """Plant ``fields`` (as printed) turned by ``rotation`` with its top-left on (row, col)."""
    if (row, col) not in legal_positions():
        raise IllegalMoveError(
            f"a card at row {row}, column {col} would hang off the board; "
            f"its top-left square must be in rows and columns 0-{BOARD_SIZE - CARD_SIZE}"
        )
    turned = rotate(fields, rotation)
    grid = [list(r) for r in state.board]
    fed = 0
    gained: Counter[Bean] = Counter()
    bonus: list[tuple[int, int]] = []
    for dr in range(CARD_SIZE):
        for dc in range(CARD_SIZE):
            r, c = row + dr, col + dc
            below = grid[r][c]
            new = turned[dr][dc]
            fed += below.cubes
            cubes = CUBES_PER_FIELD
            if below.field is new:
                cubes += SAME_TYPE_BONUS_CUBES
                bonus.append((r, c))
            grid[r][c] = Cell(new, cubes)
            gained[new] += cubes
    covered: list[str] = []
    lost = 0
    on_card = {(row + dr, col + dc) for dr in range(CARD_SIZE) for dc in range(CARD_SIZE)}
    for cafe in state.cafes:
        if cafe.corner and not cafe.covered and CORNER_CELLS[cafe.corner] in on_card:
            covered.append(cafe.name)
            lost += sum(1 for h in cafe.holds if h is not Content.EMPTY)
    return PlantResult(
        board=tuple(tuple(r) for r in grid),
        chicken=fed,
        gained=tuple(sorted(gained.items())),
        bonus_cells=tuple(bonus),
        covered_cafes=tuple(covered),
        lost_from_cafes=lost,
    )


def plant_card(
    state: PlayerState, number: int, row: int, col: int, rotation: int = 0
) -> PlantResult:
    """Plant a card entered in the state by number; an already used card is illegal."""
    card = state.card(number)
    if card is None:
        raise InputError(f"card {number} is not among the cards entered in the state")
    if number in state.used_cards:
        raise IllegalMoveError(f"card {number} has already been played")
    return plant(state, card.fields, row, col, rotation)
