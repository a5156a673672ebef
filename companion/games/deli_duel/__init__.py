"""Deli Duel: order checks, the winning count and the deck as data (pure rules, no I/O)."""

from companion.games.deli_duel.cards import (
    BREADS,
    CROOK_ALIASES,
    CROOK_COUNTS,
    FAIRY_BREAD,
    INGREDIENT_COUNTS,
    Crook,
    Ingredient,
    crook_counts,
    deck_size,
)
from companion.games.deli_duel.game import Outcome, Seat, open_orders, orders_to_win, winner
from companion.games.deli_duel.orders import (
    FAIRY_BREAD_ORDER,
    Order,
    PlayCheck,
    check_play,
    completes,
    order_problems,
)

__all__ = [
    "BREADS",
    "CROOK_ALIASES",
    "CROOK_COUNTS",
    "FAIRY_BREAD",
    "FAIRY_BREAD_ORDER",
    "INGREDIENT_COUNTS",
    "Crook",
    "Ingredient",
    "Order",
    "Outcome",
    "PlayCheck",
    "Seat",
    "check_play",
    "completes",
    "crook_counts",
    "deck_size",
    "open_orders",
    "order_problems",
    "orders_to_win",
    "winner",
]
