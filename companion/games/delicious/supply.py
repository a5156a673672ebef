"""The community supply of one Delicious game, dealt from a seed so a group can check it.

The rulebook's setup, with the cards and tokens of deck.json. The algorithm is public so
anyone can replay a night's supply by hand (docs/formats.md, "The community supply"):

1. ``rng = random.Random(seed)`` (Python's Mersenne Twister, seeded from the integer).
2. ``cards`` = the 30 cards of deck.json in file order (numbered 1 to 30);
   ``rng.shuffle(cards)``. The first 6 are set aside unseen, the next 12 are the top deck
   and the last 12 the bottom deck, each dealt from its front.
3. ``bag`` = the 30 tokens of deck.json in file order (numbered 1 to 30);
   ``rng.shuffle(bag)``; a draw takes the last token of the list (``bag.pop()``).
4. Round r (1 to 12) flips card r of the top deck, draws a token for it, then flips card r
   of the bottom deck and draws a token for it; each token lies with the side its card
   names (fruit or tool) up.

``simulate --seed S`` deals its game the same way first, so its rounds are this supply.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.errors import InputError
from companion.games.delicious.constants import CARDS_SET_ASIDE, DECKS
from companion.games.delicious.deck import FRUIT_SIDE, DeckCard, Token, components
from companion.games.delicious.moves import Card, Round
from companion.games.delicious.symbols import ROUNDS, Area, Fruit, Tool

# A name for the algorithm above: a later change to it must get a new name, so an old
# night's seed is never silently dealt differently.
ALGORITHM = "companion-supply/1"
# The largest integer every JSON reader keeps exactly (JavaScript's Number.MAX_SAFE_INTEGER).
MAX_SEED = 2**53 - 1


@dataclass(frozen=True)
class NumberedCard:
    """A vegetable card and its number in deck.json (1-based), so a deal can be checked."""

    number: int
    card: DeckCard


@dataclass(frozen=True)
class NumberedToken:
    number: int
    token: Token


@dataclass(frozen=True)
class Reveal:
    """One flipped card with the token drawn for it, turned to the side the card names."""

    position: Area
    card: NumberedCard
    token: NumberedToken

    @property
    def side(self) -> str:
        return self.card.card.side

    @property
    def face(self) -> Fruit | Tool:
        """What the token shows: its fruit or its tool."""
        tok = self.token.token
        return tok.fruit if self.side == FRUIT_SIDE else tok.tool

    def as_card(self) -> Card:
        return Card(self.card.card.vegetable, self.card.card.icon, self.face)

    def to_json(self) -> dict[str, Any]:
        # vegetable/icon/token as Card.to_json has them, so Round.from_json reads a round
        return {**self.as_card().to_json(), "side": self.side,
                "card": self.card.number, "bag_token": self.token.number}


@dataclass(frozen=True)
class SupplyRound:
    number: int  # 1 to 12
    top: Reveal
    bottom: Reveal

    def as_round(self) -> Round:
        return Round(self.top.as_card(), self.bottom.as_card())

    def to_json(self) -> dict[str, Any]:
        return {"round": self.number, "top": self.top.to_json(),
                "bottom": self.bottom.to_json()}


@dataclass(frozen=True)
class Supply:
    """A whole game's supply: what was set aside, both decks, the 12 rounds, the bag left."""

    seed: int | None  # None when dealt from a caller's own generator
    set_aside: tuple[NumberedCard, ...]
    top_deck: tuple[NumberedCard, ...]
    bottom_deck: tuple[NumberedCard, ...]
    rounds: tuple[SupplyRound, ...]
    bag_left: tuple[NumberedToken, ...]  # still in the bag after round 12, in draw order

    def round(self, number: int) -> SupplyRound:
        if not 1 <= number <= len(self.rounds):
            raise InputError(f"round must be 1 to {len(self.rounds)}, not {number}")
        return self.rounds[number - 1]

    def reveals(self) -> tuple[Reveal, ...]:
        return tuple(r for rnd in self.rounds for r in (rnd.top, rnd.bottom))

    def to_json(self, only_round: int | None = None) -> dict[str, Any]:
        """The rounds (or one round) as ``supply --json`` prints them; set-aside cards stay
        unseen, as the rulebook has them."""
        rounds = self.rounds if only_round is None else (self.round(only_round),)
        return {"game": "delicious", "seed": self.seed, "algorithm": ALGORITHM,
                "rounds_total": len(self.rounds), "rounds": [r.to_json() for r in rounds]}


def deal_supply(rng: random.Random, seed: int | None = None) -> Supply:
    """Deal a supply from ``rng`` by the algorithm in this module's docstring."""
    comp = components()
    cards = [NumberedCard(i + 1, c) for i, c in enumerate(comp.cards)]
    rng.shuffle(cards)
    set_aside, rest = cards[:CARDS_SET_ASIDE], cards[CARDS_SET_ASIDE:]
    per_deck = len(rest) // DECKS
    top_deck, bottom_deck = rest[:per_deck], rest[per_deck:]
    bag = [NumberedToken(i + 1, t) for i, t in enumerate(comp.tokens)]
    rng.shuffle(bag)
    rounds = []
    for r in range(ROUNDS):
        top = Reveal(Area.TOP, top_deck[r], bag.pop())
        bottom = Reveal(Area.BOTTOM, bottom_deck[r], bag.pop())
        rounds.append(SupplyRound(r + 1, top, bottom))
    return Supply(seed, tuple(set_aside), tuple(top_deck), tuple(bottom_deck), tuple(rounds),
                  tuple(reversed(bag)))


def check_seed(seed: int) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed}")
    return seed


def supply(seed: int) -> Supply:
    """The supply of ``seed``: the same seed, the same supply, on any machine."""
    return deal_supply(random.Random(check_seed(seed)), seed)


def deal(rng: random.Random) -> list[Round]:
    """The 12 rounds a game plays, dealt from ``rng`` (the simulator's own generator)."""
    return [r.as_round() for r in deal_supply(rng).rounds]
