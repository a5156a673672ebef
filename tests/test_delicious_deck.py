"""The documented card assumption and dealing."""

from __future__ import annotations

import random
from collections import Counter

from companion.games.delicious.deck import components
from companion.games.delicious.supply import deal
from companion.games.delicious.symbols import ROUNDS, Fruit, Shape, Tool, Vegetable


def test_cards_follow_the_documented_assumption():
    cards = components().cards
    assert len(cards) == 30
    assert Counter(c.vegetable for c in cards) == {v: 5 for v in Vegetable}
    assert Counter(c.icon for c in cards) == {s: 10 for s in Shape}
    assert Counter(c.side for c in cards) == {"fruit": 15, "tool": 15}
    for veg in Vegetable:  # each vegetable shows at least two icons and both sides
        mine = [c for c in cards if c.vegetable is veg]
        assert len({c.icon for c in mine}) >= 2 and len({c.side for c in mine}) == 2


def test_tokens_pair_every_fruit_with_every_tool_once():
    tokens = components().tokens
    assert len(tokens) == 30
    assert {(t.fruit, t.tool) for t in tokens} == {(f, t) for f in Fruit for t in Tool}


def test_deal_is_reproducible_and_uses_24_cards():
    a, b = deal(random.Random(5)), deal(random.Random(5))
    assert a == b and len(a) == ROUNDS
    assert a != deal(random.Random(6))
    for r in a:
        for card in (r.top, r.bottom):
            assert isinstance(card.token, Fruit | Tool)
