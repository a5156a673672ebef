"""The assumed cards and tokens (deck.json) and dealing a game's 12 rounds from them.

The rulebook does not publish card contents, so the data file holds a documented,
balanced assumption; everything random takes an explicit ``random.Random``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.games.delicious.constants import CARDS_SET_ASIDE, DECK_SIZE_CARDS, DECKS
from companion.games.delicious.moves import Card, Round
from companion.games.delicious.symbols import ROUNDS, Fruit, Shape, Tool, Vegetable

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


def deal(rng: random.Random) -> list[Round]:
    """Shuffle, set 6 cards aside unseen, split into two decks and reveal 12 rounds."""
    comp = components()
    cards = list(comp.cards)
    rng.shuffle(cards)
    cards = cards[CARDS_SET_ASIDE:]
    per_deck = len(cards) // DECKS
    top_deck, bottom_deck = cards[:per_deck], cards[per_deck:]
    bag = list(comp.tokens)
    rng.shuffle(bag)
    rounds = []
    for r in range(ROUNDS):
        revealed = []
        for card in (top_deck[r], bottom_deck[r]):
            token = bag.pop()
            side: Fruit | Tool = token.fruit if card.side == FRUIT_SIDE else token.tool
            revealed.append(Card(card.vegetable, card.icon, side))
        rounds.append(Round(revealed[0], revealed[1]))
    return rounds
