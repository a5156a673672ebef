"""Winning conditions: the order count by player count, the Fairy Bread instant win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import InputError
from companion.games.deli_duel.cards import REGULAR_ORDER_CARDS
from companion.games.deli_duel.orders import Order, order_problems
from companion.text import name_key

MIN_PLAYERS = 2
MAX_PLAYERS = 6
SMALL_TABLE_MAX = 3  # 2-3 players race to more orders
WIN_ORDERS_SMALL = 5
WIN_ORDERS_LARGE = 3
SMALL_TABLE_OPEN_ORDERS = 3  # regular orders on display with 2-3 players, plus Fairy Bread


def orders_to_win(players: int) -> int:
    """Completed orders that win: 5 with 2-3 players, 3 with 4-6."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"Deli Duel is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    return WIN_ORDERS_SMALL if players <= SMALL_TABLE_MAX else WIN_ORDERS_LARGE


def open_orders(players: int) -> int:
    """Regular orders on display at setup (the Fairy Bread order is always out too)."""
    orders_to_win(players)  # validates the count
    return SMALL_TABLE_OPEN_ORDERS if players <= SMALL_TABLE_MAX else players


@dataclass(frozen=True)
class Seat:
    name: str
    completed: int  # completed regular orders in front of the player
    fairy_bread: bool = False  # laid the Fairy Bread combo
    orders: tuple[Order, ...] = ()  # the completed orders themselves, when listed

    @classmethod
    def listing(cls, name: str, orders: Sequence[Order], fairy_bread: bool = False) -> Seat:
        """A seat from its list of completed orders: a Fairy Bread among them is the combo,
        not a regular order."""
        regular = sum(1 for o in orders if not o.is_fairy_bread)
        laid = fairy_bread or any(o.is_fairy_bread for o in orders)
        return cls(name, regular, laid, tuple(orders))


@dataclass(frozen=True)
class Outcome:
    target: int | None  # None when the table size is not one the game is for
    winner: str | None
    reason: str  # "fairy-bread", "orders" or "none yet"
    needed: tuple[tuple[str, int], ...]  # orders each player still needs
    problems: tuple[str, ...]  # what this table cannot show


def winner(seats: Sequence[Seat]) -> Outcome:
    """Who has won, if anyone; a table the game cannot reach is flagged, with no winner.

    Flagged: a table size outside 2-6, a completed order no order card can show, two
    Fairy Breads, more orders than win or than exist, more than one win at once.
    """
    seen: set[str] = set()
    for s in seats:
        key = name_key(s.name)
        if key in seen:
            raise InputError(f"two players share the name {s.name.strip()!r}")
        seen.add(key)
    problems = []
    if MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        target = orders_to_win(len(seats))
    else:
        problems.append(
            f"Deli Duel is for {MIN_PLAYERS}-{MAX_PLAYERS} players; this table has {len(seats)}"
        )
        target = WIN_ORDERS_SMALL if len(seats) <= SMALL_TABLE_MAX else WIN_ORDERS_LARGE
    for s in seats:
        for o in s.orders:
            problems.extend(f"{s.name}'s completed order {o}: {p}" for p in order_problems(o))
        if sum(1 for o in s.orders if o.is_fairy_bread) > 1:
            problems.append(f"{s.name} lists Fairy Bread twice; there is one Fairy Bread order")
    fairy = [s for s in seats if s.fairy_bread]
    reached = [s for s in seats if s.completed >= target]
    if len(fairy) > 1:
        problems.append("only one player can lay the Fairy Bread combo (one butter, one sprinkles)")
    over = [s.name for s in seats if s.completed > target]
    if over:
        problems.append(
            f"the game ends as soon as someone has {target} orders: {', '.join(over)} has more"
        )
    if len(reached) > 1 or (reached and fairy):
        problems.append("the game ends at the first win; this table shows more than one")
    total = sum(s.completed for s in seats)
    if total > REGULAR_ORDER_CARDS:
        problems.append(f"only {REGULAR_ORDER_CARDS} regular orders exist; the table shows {total}")
    needed = tuple((s.name, max(0, target - s.completed)) for s in seats)
    if problems:
        shown = target if MIN_PLAYERS <= len(seats) <= MAX_PLAYERS else None
        return Outcome(shown, None, "none yet", needed, tuple(problems))
    if fairy:
        return Outcome(target, fairy[0].name, "fairy-bread", needed, ())
    if reached:
        return Outcome(target, reached[0].name, "orders", needed, ())
    return Outcome(target, None, "none yet", needed, ())
