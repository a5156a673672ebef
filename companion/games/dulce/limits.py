"""What a Dulce state can show: the box's supply, the deck's numbers, the player boards.

A state that breaks these is read fine but describes no game, so it is refused with exit
code 1 ("understood but fails a check"), not 2 ("unreadable").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.errors import CompanionError
from companion.games.dulce.constants import (
    BUILT_CAFE_SPACES,
    DECK_CARDS,
    MAX_BUILT_CAFES,
    MAX_CHICKEN_STEPS,
    MAX_FIELD_CUBES,
    MAX_PLAYERS,
    MAX_POINTS,
    MIN_PLAYERS,
    RETURNED_CARDS,
    ROUNDS,
    STARTING_CAFE_SPACES,
    STARTING_CAFES,
    SUPPLY_EGGS,
    SUPPLY_PER_BEAN,
)
from companion.games.dulce.final import FinalPlayer
from companion.games.dulce.model import Bean, Content, PlayerState


class ImpossibleStateError(CompanionError):
    """A readable Dulce state that no game can reach; the message says why."""

    exit_code = 1


def card_number_problem(number: int, where: str) -> str | None:
    if not 1 <= number <= DECK_CARDS:
        return f"{where}: card {number} is not in a deck (cards are numbered 1-{DECK_CARDS})"
    return None


def state_problems(state: PlayerState) -> list[str]:
    """Why ``state`` cannot occur in a game (empty when it can)."""
    out: list[str] = []
    numbered = [(f"cafes[{i}].card", c.card) for i, c in enumerate(state.cafes)]
    numbered += [(f"cards[{i}].number", c.number) for i, c in enumerate(state.cards)]
    numbered += [("used_cards", n) for n in sorted(state.used_cards)]
    for where, number in numbered:
        if number is not None and (p := card_number_problem(number, where)):
            out.append(p)
    built = Counter(c.card for c in state.cafes if c.card is not None)
    out += [f"cafes: card {n} is built twice; a deck has one of each" for n, k in built.items()
            if k > 1]
    corners = Counter(c.corner for c in state.cafes if c.corner is not None)
    out += [f"cafes: two starting cafés on the {name} corner" for name, k in corners.items()
            if k > 1]
    for i, c in enumerate(state.cafes):
        if c.corner is not None and len(c.spaces) != STARTING_CAFE_SPACES:
            out.append(f"cafes[{i}]: a starting café has {STARTING_CAFE_SPACES} space")
        elif len(c.spaces) > BUILT_CAFE_SPACES:
            out.append(f"cafes[{i}]: a café has at most {BUILT_CAFE_SPACES} spaces")
    if len(state.cafes) > STARTING_CAFES + MAX_BUILT_CAFES:
        out.append(
            f"cafes: {len(state.cafes)} cafés; a game has at most {STARTING_CAFES} starting "
            f"and {MAX_BUILT_CAFES} built"
        )
    elif (built_cafes := sum(c.corner is None for c in state.cafes)) > (
            most := _most_built(state)):
        out.append(
            f"cafes: {built_cafes} built cafés; a game deals {DECK_CARDS - RETURNED_CARDS} "
            f"cards, one a round, and this board also needed "
            f"{DECK_CARDS - RETURNED_CARDS - most} for planting and harvesting, so at most "
            f"{most} can be cafés"
        )
    out += supply_problems(state)
    return out


def _most_built(state: PlayerState) -> int:
    """Cafés a board can have built: every card dealt is one action, so the round being
    played (a state is asked about its harvest or its planting) and the rounds spent
    planting the board's fields (at least one if any is planted) leave the rest."""
    planted = any(cell.field is not None for row in state.board for cell in row)
    return DECK_CARDS - RETURNED_CARDS - 1 - int(planted)


def supply_problems(state: PlayerState) -> list[str]:
    """Cubes on the board and in the cafés cannot exceed what the box holds."""
    beans: Counter[Bean] = Counter()
    for row in state.board:
        for cell in row:
            if cell.field is not None:
                beans[cell.field] += cell.cubes
    eggs = 0
    for c in state.cafes:
        for space, held in zip(c.spaces, c.holds, strict=True):
            if held is Content.BEAN:
                beans[space.bean] += 1
            elif held is Content.EGG:
                eggs += 1
    out = [
        f"{n} {b.value} cubes on the board and in cafés; the supply has {SUPPLY_PER_BEAN}"
        for b, n in sorted(beans.items())
        if n > SUPPLY_PER_BEAN
    ]
    if eggs > SUPPLY_EGGS:
        out.append(f"{eggs} eggs in cafés; the supply has {SUPPLY_EGGS}")
    return out


def check_state(state: PlayerState) -> None:
    """Raise ImpossibleStateError naming the first thing no game can show."""
    problems = state_problems(state)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ImpossibleStateError(problems[0] + more)


def table_problems(players: Sequence[FinalPlayer]) -> list[str]:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return [
            f"Dulce is for {MIN_PLAYERS}-{MAX_PLAYERS} players (one board each); "
            f"this table has {len(players)}"
        ]
    out = []
    for p in players:
        for value, most, what in ((p.points, MAX_POINTS, "points"),
                                  (p.chicken, MAX_CHICKEN_STEPS, "chicken steps"),
                                  (p.field_cubes, MAX_FIELD_CUBES, "cubes on the fields")):
            if value > most:
                out.append(f"{p.name}: {value:,} {what}; no game of {ROUNDS} rounds "
                           f"reaches more than {most}")
    return out
