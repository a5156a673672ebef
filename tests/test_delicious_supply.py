"""The community supply against the rulebook's setup, the documented algorithm and the CLI."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError
from companion.games.delicious.deck import components
from companion.games.delicious.moves import Round
from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.supply import ALGORITHM, MAX_SEED, supply
from companion.games.delicious.symbols import Fruit, Tool
from tests.conftest import invoke

DECK_JSON = Path(__file__).parents[1] / "companion" / "games" / "delicious" / "deck.json"
SEEDS = st.integers(min_value=0, max_value=MAX_SEED)


def _check_rulebook_setup(seed: int) -> None:
    s = supply(seed)
    # 30 cards shuffled, 6 removed unseen, the other 24 in two decks of 12
    assert len(s.set_aside) == 6 and len(s.top_deck) == 12 and len(s.bottom_deck) == 12
    numbers = [c.number for c in (*s.set_aside, *s.top_deck, *s.bottom_deck)]
    assert sorted(numbers) == list(range(1, 31))
    used = [r.card.number for r in s.reveals()]
    assert len(used) == len(set(used)) == 24
    assert not set(used) & {c.number for c in s.set_aside}
    # 12 rounds, each flipping the next card of its own deck
    assert [r.number for r in s.rounds] == list(range(1, 13))
    assert [r.top.card for r in s.rounds] == list(s.top_deck)
    assert [r.bottom.card for r in s.rounds] == list(s.bottom_deck)
    # all 30 tokens start in the bag; one is drawn per flipped card, never twice
    drawn = [r.token.number for r in s.reveals()]
    assert len(set(drawn)) == 24
    assert sorted(drawn + [t.number for t in s.bag_left]) == list(range(1, 31))
    # each token lies with the side its card names
    for r in s.reveals():
        if r.card.card.side == "fruit":
            assert r.face == r.token.token.fruit and isinstance(r.face, Fruit)
        else:
            assert r.face == r.token.token.tool and isinstance(r.face, Tool)


@pytest.mark.parametrize("seed", [0, 1, 42, MAX_SEED])
def test_rulebook_setup(seed):
    _check_rulebook_setup(seed)


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_rulebook_setup_holds_for_any_seed(seed):
    _check_rulebook_setup(seed)


@settings(max_examples=50, deadline=None)
@given(SEEDS)
def test_same_seed_same_supply_and_json_round_trips(seed):
    a, b = supply(seed), supply(seed)
    assert a == b and a.to_json() == b.to_json()
    doc = json.loads(json.dumps(a.to_json()))
    assert [Round.from_json(r) for r in doc["rounds"]] == [r.as_round() for r in a.rounds]


@settings(max_examples=50, deadline=None)
@given(SEEDS)
def test_the_documented_algorithm_replays_by_hand(seed):
    """The steps of docs/formats.md, followed with plain lists and deck.json alone."""
    deck = json.loads(DECK_JSON.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    cards = list(range(1, 31))
    rng.shuffle(cards)
    top, bottom = cards[6:18], cards[18:30]
    bag = list(range(1, 31))
    rng.shuffle(bag)
    expected = []
    for r in range(12):
        for number in (top[r], bottom[r]):
            card, token = deck["cards"][number - 1], deck["tokens"][bag.pop() - 1]
            expected.append((number, card["vegetable"], card["icon"], token[card["side"]]))
    got = [(r.card.number, str(r.card.card.vegetable), str(r.card.card.icon), str(r.face))
           for r in supply(seed).reveals()]
    assert got == expected


def test_different_seeds_deal_differently():
    assert len({tuple(supply(s).reveals()) for s in range(20)}) == 20


def test_a_known_seed_stays_dealt_the_same():
    """Pinned: a night's seed must deal the same supply in every later version."""
    first = supply(42).rounds[0].to_json()
    assert first == {"round": 1,
                     "top": {"vegetable": "carrot", "icon": "oval", "token": "trowel",
                             "side": "tool", "card": 6, "bag_token": 19},
                     "bottom": {"vegetable": "mushroom", "icon": "hexagon",
                                "token": "strawberry", "side": "fruit", "card": 19,
                                "bag_token": 9}}


def test_simulate_plays_the_supply_of_its_seed():
    assert simulate_game(7).rounds == [r.as_round() for r in supply(7).rounds]


def test_the_cards_over_a_game_follow_the_deck():
    counts = Counter(r.card.card.vegetable for r in supply(3).reveals())
    assert sum(counts.values()) == 24 and max(counts.values()) <= 5
    assert components().cards  # the deck itself is checked in test_delicious_deck.py


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1])
def test_seed_out_of_range_is_refused(seed):
    with pytest.raises(InputError, match="seed must be"):
        supply(seed)


def test_round_out_of_range_is_refused():
    with pytest.raises(InputError, match="round must be 1 to 12"):
        supply(1).round(13)


def test_cli_json_contract():
    res = invoke("delicious", "supply", "--seed", "42", "--json")
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert doc == supply(42).to_json()
    assert doc["algorithm"] == ALGORITHM and doc["seed"] == 42 and doc["rounds_total"] == 12
    assert len(doc["rounds"]) == 12
    assert set(doc["rounds"][0]["top"]) == {"vegetable", "icon", "token", "side", "card",
                                            "bag_token"}
    assert "set_aside" not in doc  # unseen, as the rulebook has them


def test_cli_one_round():
    res = invoke("delicious", "supply", "--seed", "42", "--round", "5", "--json")
    assert res.exit_code == 0
    assert json.loads(res.stdout)["rounds"] == [supply(42).rounds[4].to_json()]
    text = invoke("delicious", "supply", "--seed", "42", "--round", "5")
    assert text.exit_code == 0 and "Round  5" in text.stdout and "Round  6" not in text.stdout
    r5 = supply(42).rounds[4]
    assert str(r5.top.card.card.vegetable) in text.stdout and str(r5.bottom.face) in text.stdout


def test_cli_text_lists_twelve_rounds():
    res = invoke("delicious", "supply", "--seed", "9")
    assert res.exit_code == 0
    assert res.stdout.count("Round") == 12 and res.stdout.count("side up") == 24


@pytest.mark.parametrize("args", [["--seed", "-3"], ["--seed", "x"], ["--seed", "1", "--round",
                                                                      "13"], []])
def test_cli_bad_input_is_one_line_exit_2(args):
    res = invoke("delicious", "supply", *args)
    assert res.exit_code == 2
    assert "Traceback" not in res.output
