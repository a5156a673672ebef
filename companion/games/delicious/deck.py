"""The assumed cards and tokens (deck.json); dealing them is supply.py's.

The rulebook does not publish card contents, so the data file holds a documented,
balanced assumption; everything random takes an explicit ``random.Random``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.games.delicious.constants import DECK_SIZE_CARDS
from companion.games.delicious.symbols import Fruit, Shape, Tool, Vegetable

FRUIT_SIDE = "fruit"
TOOL_SIDE = "tool"


@dataclass(frozen=True)
class DeckCard:
    vegetable: Vegetable
    icon: Shape
    side: str  # which token side a token on this card shows: "fruit" or "tool"


@dataclass(frozen=True)
class Token:
    fruit: Fruit
    tool: Tool


@dataclass(frozen=True)
class Components:
    cards: tuple[DeckCard, ...]
    tokens: tuple[Token, ...]


@cache
def components() -> Components:
    """The cards and tokens of deck.json (loaded once; immutable)."""
    # The one read in the engines, allowed: package data shipped with the code, through
    # importlib.resources, never a user's file (tests/test_layers.py checks the rest).
    text = resources.files(__package__).joinpath("deck.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    cards = tuple(
        DeckCard(Vegetable(c["vegetable"]), Shape(c["icon"]), c["side"]) for c in doc["cards"]
    )
    tokens = tuple(Token(Fruit(t["fruit"]), Tool(t["tool"])) for t in doc["tokens"])
    if len(cards) != DECK_SIZE_CARDS or any(c.side not in (FRUIT_SIDE, TOOL_SIDE) for c in cards):
        raise ValueError("deck.json: expected 30 cards, each with side fruit or tool")
    return Components(cards, tokens)

