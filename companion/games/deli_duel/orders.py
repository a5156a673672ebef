"""Orders and plays: is an order well formed, and does a set of cards complete it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.deli_duel.cards import FAIRY_BREAD, Crook, Ingredient

ORDER_SIZE = 3  # every order names three ingredients
MAX_WILDS_PER_ORDER = 1
WILD_IN_FAIRY_BREAD = False  # the combo must be the real three cards


@dataclass(frozen=True)
class Order:
    ingredients: tuple[Ingredient, ...]
    # Crook cards written into an order: understood, but no order card can show one.
    crooks: tuple[Crook, ...] = ()

    @property
    def is_fairy_bread(self) -> bool:
        return not self.crooks and Counter(self.ingredients) == Counter(FAIRY_BREAD)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(i.value for i in self.ingredients) + tuple(c.value for c in self.crooks)

    def __str__(self) -> str:
        return "+".join(self.names)


FAIRY_BREAD_ORDER = Order(FAIRY_BREAD)


@dataclass(frozen=True)
class PlayCheck:
    legal: bool
    reasons: tuple[str, ...]
    wins_game: bool  # the Fairy Bread combo ends the game at once


def order_problems(order: Order) -> list[str]:
    """Why an order card could not exist (empty when it is fine)."""
    problems = []
    if order.crooks:
        named = ", ".join(c.value for c in order.crooks)
        problems.append(f"{named}: a crook card, not an ingredient; orders list ingredients only")
    size = len(order.ingredients) + len(order.crooks)
    if size != ORDER_SIZE:
        problems.append(f"an order has {ORDER_SIZE} ingredients, not {size}")
    if not any(i.is_bread for i in order.ingredients):
        problems.append("an order needs at least one bread")
    return problems


def check_play(order: Order, cards: Sequence[Ingredient | Crook]) -> PlayCheck:
    """Whether laying ``cards`` completes ``order``."""
    reasons = [f"the order itself is not valid: {p}" for p in order_problems(order)]
    wilds = sum(1 for c in cards if c is Crook.WILD)
    others = [c for c in cards if isinstance(c, Crook) and c is not Crook.WILD]
    if others:
        reasons.append(
            "only a wild may stand in for an ingredient, not " + ", ".join(c.value for c in others)
        )
    if len(cards) != ORDER_SIZE:
        reasons.append(f"play exactly {ORDER_SIZE} cards for an order")
    if wilds > MAX_WILDS_PER_ORDER:
        reasons.append(f"at most {MAX_WILDS_PER_ORDER} wild per order")
    if wilds and order.is_fairy_bread and not WILD_IN_FAIRY_BREAD:
        reasons.append("no wild in Fairy Bread: it needs white bread, butter and sprinkles")
    played = Counter(c for c in cards if isinstance(c, Ingredient))
    missing = Counter(order.ingredients) - played
    extra = played - Counter(order.ingredients)
    if extra:
        reasons.append("not in the order: " + ", ".join(sorted(i.value for i in extra.elements())))
    if sum(missing.values()) > wilds and not extra and len(cards) == ORDER_SIZE:
        reasons.append("missing: " + ", ".join(sorted(i.value for i in missing.elements())))
    legal = not reasons
    return PlayCheck(legal, tuple(reasons), legal and order.is_fairy_bread)


def completes(cards: Sequence[Ingredient | Crook], orders: Sequence[Order]) -> list[Order]:
    """The open orders this play completes."""
    return [o for o in orders if check_play(o, cards).legal]


def on_display(orders: Sequence[Order]) -> list[Order]:
    """The orders a play can complete: those listed, plus Fairy Bread, which the setup
    puts out in every game whether or not the user listed it."""
    listed = list(orders)
    if not any(o.is_fairy_bread for o in listed):
        listed.append(FAIRY_BREAD_ORDER)
    return listed
