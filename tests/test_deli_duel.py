"""Deli Duel: deck data, order and play checks, the winning count, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import InputError, UnknownNameError
from companion.games.deli_duel import (
    CROOK_COUNTS,
    FAIRY_BREAD_ORDER,
    INGREDIENT_COUNTS,
    Crook,
    Ingredient,
    Order,
    Seat,
    check_play,
    completes,
    crook_counts,
    deck_size,
    open_orders,
    order_problems,
    orders_to_win,
    winner,
)
from companion.games.deli_duel.cards import LIST_NAMES, ORDER_CARDS, card, crook
from companion.games.deli_duel.parse import cards as parse_cards
from companion.games.deli_duel.parse import order as parse_order

EX = Path(__file__).resolve().parent.parent / "examples" / "deli-duel"
W, R, G = Ingredient.WHITE_BREAD, Ingredient.RYE_BREAD, Ingredient.GRAIN_BREAD
CHEESE, HAM, TOMATO = Ingredient.CHEESE, Ingredient.HAM, Ingredient.TOMATO
BUTTER, SPRINKLES = Ingredient.BUTTER, Ingredient.SPRINKLES
WILD = Crook.WILD


def test_deck_matches_the_component_list():
    assert sum(INGREDIENT_COUNTS.values()) == 66
    assert INGREDIENT_COUNTS[BUTTER] == INGREDIENT_COUNTS[SPRINKLES] == 1
    # Listed as 16 crook cards with two Health Inspectors; the game now ships one.
    assert sum(CROOK_COUNTS.values()) == 15
    assert sum(crook_counts(demo_pack=True).values()) == 16
    assert deck_size() == 81 and deck_size(demo_pack=True) == 82
    assert ORDER_CARDS == 22


def test_crook_names_from_the_list_and_the_explanations_are_one_card_each():
    assert crook("Swap Ingredients") is crook("steal-ingredient") is Crook.STEAL_INGREDIENT
    assert crook("Steal Point") is crook("Food Critic") is Crook.FOOD_CRITIC
    assert crook("Kitchen Mix-up") is crook("mix-up") is Crook.MIX_UP
    assert LIST_NAMES[Crook.STEAL_INGREDIENT] == "Swap Ingredients"
    assert LIST_NAMES[Crook.FOOD_CRITIC] == "Steal Point"
    assert len(set(Crook)) == 5  # no duplicate card under a second name
    with pytest.raises(UnknownNameError):
        crook("Sandwich Thief")


def test_orders_need_three_ingredients_and_a_bread():
    assert order_problems(Order((R, HAM, CHEESE))) == []
    assert order_problems(Order((CHEESE, HAM, TOMATO))) == ["an order needs at least one bread"]
    assert len(order_problems(Order((W, HAM)))) == 1
    assert FAIRY_BREAD_ORDER.is_fairy_bread and order_problems(FAIRY_BREAD_ORDER) == []


def test_exact_cards_complete_an_order_in_any_order():
    assert check_play(Order((R, HAM, CHEESE)), [CHEESE, R, HAM]).legal


def test_one_wild_replaces_any_ingredient_even_the_bread():
    order = Order((R, HAM, CHEESE))
    assert check_play(order, [WILD, HAM, CHEESE]).legal
    assert check_play(order, [R, WILD, CHEESE]).legal
    two = check_play(order, [WILD, WILD, CHEESE])
    assert not two.legal and any("at most 1 wild" in r for r in two.reasons)


def test_wrong_or_missing_cards_do_not_complete():
    order = Order((R, HAM, CHEESE))
    assert not check_play(order, [G, HAM, CHEESE]).legal
    assert not check_play(order, [R, HAM]).legal
    assert not check_play(order, [R, HAM, CHEESE, TOMATO]).legal
    critic = check_play(order, [Crook.FOOD_CRITIC, HAM, CHEESE])
    assert not critic.legal and "only a wild" in critic.reasons[0]


def test_fairy_bread_wins_at_once_and_refuses_wilds():
    real = check_play(FAIRY_BREAD_ORDER, [SPRINKLES, W, BUTTER])
    assert real.legal and real.wins_game
    wild = check_play(FAIRY_BREAD_ORDER, [WILD, BUTTER, SPRINKLES])
    assert not wild.legal and not wild.wins_game
    assert not check_play(Order((W, HAM, CHEESE)), [W, HAM, CHEESE]).wins_game


def test_completes_lists_the_open_orders_a_play_fits():
    open_ = [Order((W, CHEESE, TOMATO)), Order((R, HAM, Ingredient.MAYO)), FAIRY_BREAD_ORDER]
    assert completes([WILD, CHEESE, TOMATO], open_) == [open_[0]]


@pytest.mark.parametrize(
    ("players", "win", "shown"), [(2, 5, 3), (3, 5, 3), (4, 3, 4), (5, 3, 5), (6, 3, 6)]
)
def test_winning_count_and_open_orders_by_table_size(players, win, shown):
    assert orders_to_win(players) == win and open_orders(players) == shown


@pytest.mark.parametrize("players", [0, 1, 7])
def test_unsupported_table_sizes(players):
    with pytest.raises(InputError):
        orders_to_win(players)


def test_winner_by_orders_and_by_fairy_bread():
    assert winner([Seat("a", 5), Seat("b", 4)]).winner == "a"
    assert winner([Seat("a", 3), Seat("b", 2), Seat("c", 0), Seat("d", 0)]).winner == "a"
    assert winner([Seat("a", 4), Seat("b", 4)]).winner is None
    fairy = winner([Seat("a", 4), Seat("b", 0, fairy_bread=True)])
    assert (fairy.winner, fairy.reason) == ("b", "fairy-bread")


def test_impossible_tables_are_flagged():
    assert winner([Seat("a", 5), Seat("b", 5)]).problems
    assert winner([Seat("a", 6), Seat("b", 0)]).problems
    assert winner([Seat("a", 0, True), Seat("b", 0, True)]).problems
    six = winner([Seat(str(i), 2) for i in range(6)])
    assert six.problems == () and six.winner is None
    assert winner([Seat(str(i), 4) for i in range(6)]).problems  # 24 > 21 regular orders


ingredient_st = st.sampled_from(list(Ingredient))


@given(st.lists(ingredient_st, min_size=3, max_size=3), st.integers(0, 2))
def test_any_valid_order_accepts_itself_and_itself_with_one_wild(ings, k):
    order = Order(tuple(ings))
    if order_problems(order):
        return
    assert check_play(order, ings).legal
    with_wild = list(ings)
    with_wild[k] = WILD
    assert check_play(order, with_wild).legal == (not order.is_fairy_bread)


def test_parsing_orders_and_cards():
    assert parse_order("fairy-bread") == FAIRY_BREAD_ORDER
    assert parse_order("Rye Bread+ham+cheese").ingredients == (R, HAM, CHEESE)
    assert parse_cards("wild, cheese,steal point") == (WILD, CHEESE, Crook.FOOD_CRITIC)
    assert card("white_bread") is W
    with pytest.raises(InputError):
        parse_order("rye-bread++ham")
    with pytest.raises(UnknownNameError):
        parse_order("rye+ham+cheese")


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["deli-duel", *args], input=stdin)


def test_cli_check_file_example():
    r = run("check", "--file", str(EX / "check.json"), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["completes"] == ["white-bread+cheese+tomato"] and doc["wins_game"] is False


def test_cli_check_exit_codes():
    assert run("check", "fairy-bread", "--play", "white-bread,butter,sprinkles").exit_code == 0
    assert run("check", "fairy-bread", "--play", "wild,butter,sprinkles").exit_code == 1
    assert run("check", "cheese+ham+tomato").exit_code == 1
    bad = run("check", "rye+ham+cheese")
    assert bad.exit_code == 2 and "unknown ingredient" in bad.output
    assert run("check").exit_code == 2


def test_cli_winner_example_and_problems():
    r = run("winner", str(EX / "winner.json"), "--json")
    doc = json.loads(r.output)
    assert r.exit_code == 0 and doc["winner"] == "Ben" and doc["orders_to_win"] == 3
    two = {"players": [{"name": "a", "completed_orders": 5}, {"name": "b", "completed_orders": 5}]}
    assert run("winner", "-", stdin=json.dumps(two)).exit_code == 1
    seven = {"players": [{"name": str(i), "completed_orders": 0} for i in range(7)]}
    r7 = run("winner", "-", "--json", stdin=json.dumps(seven))
    assert r7.exit_code == 1 and "2-6 players" in r7.output
    assert json.loads(r7.output)["orders_to_win"] is None


def test_cli_setup_and_deck():
    doc = json.loads(run("setup", "--players", "2", "--json").output)
    assert doc == {
        "players": 2,
        "orders_to_win": 5,
        "open_orders": 3,
        "fairy_bread_on_display": True,
    }
    deck = json.loads(run("deck", "--json").output)
    assert deck["draw_deck"] == 81 and deck["crooks"]["food-critic"] == 3
    assert deck["crook_list_names"]["steal-ingredient"] == "Swap Ingredients"


def seats_doc(*players: dict) -> str:
    return json.dumps({"game": "deli-duel", "players": list(players)})


@pytest.mark.parametrize(
    "done",
    [["fairy-bread"], [["white-bread", "butter", "sprinkles"]], ["sprinkles+white-bread+butter"]],
)
def test_cli_winner_knows_fairy_bread_among_completed_orders(done):
    # The rulebook: completing Fairy Bread wins at once, whatever the other counts.
    r = run(
        "winner",
        "-",
        "--json",
        stdin=seats_doc(
            {"name": "Ava", "completed_orders": ["rye-bread+ham+cheese", *done]},
            {"name": "Ben", "completed_orders": 4},
        ),
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert (doc["winner"], doc["reason"]) == ("Ava", "fairy-bread")
    # Fairy Bread is not a regular order: Ava still needs 4 of her 5.
    assert doc["needed"] == {"Ava": 4, "Ben": 1}


def test_cli_check_fairy_bread_play_wins_even_when_not_listed():
    r = run("check", "rye-bread+ham+cheese", "--play", "butter,white-bread,sprinkles", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["wins_game"] is True
    assert doc["completes"] == ["white-bread+butter+sprinkles"]
    assert [o["listed"] for o in doc["orders"]] == [True, False]
    text = run("check", "rye-bread+ham+cheese", "--play", "butter,white-bread,sprinkles")
    assert "wins the game at once" in text.output and "on display in every game" in text.output
    # A wild still cannot stand in, listed or not.
    wild = run("check", "rye-bread+ham+cheese", "--play", "wild,butter,sprinkles", "--json")
    assert wild.exit_code == 1 and json.loads(wild.output)["wins_game"] is False


@pytest.mark.parametrize(
    ("order", "needle"),
    [
        ("cheese+ham+mayo", "at least one bread"),
        (["rye-bread", "ham"], "3 ingredients, not 2"),
        ("wild+cheese+rye-bread", "crook card"),
    ],
)
def test_cli_winner_refuses_completed_orders_that_check_refuses(order, needle):
    r = run(
        "winner",
        "-",
        "--json",
        stdin=seats_doc(
            {"name": "Ava", "completed_orders": [order]}, {"name": "Ben", "completed_orders": 0}
        ),
    )
    assert r.exit_code == 1, r.output
    doc = json.loads(r.output)
    assert doc["winner"] is None and any(needle in p for p in doc["problems"])
    # ... exactly as check does, with the same exit class.
    as_text = order if isinstance(order, str) else "+".join(order)
    assert run("check", as_text).exit_code == 1


def test_cli_crook_card_in_an_order_is_exit_1_and_unknown_name_exit_2():
    crook_in = run("check", "wild+cheese+rye-bread", "--json")
    assert crook_in.exit_code == 1
    assert "crook card" in json.loads(crook_in.output)["orders"][0]["problems"][0]
    unknown = run("check", "sandwich+cheese+rye-bread")
    assert unknown.exit_code == 2 and "unknown ingredient 'sandwich'" in unknown.output
    assert len(unknown.output.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("players", "needle"),
    [
        ([{"name": "Ava"}, {"name": "Ben", "completed_orders": 1}], "completed_orders: required"),
        (
            [{"name": "Ava", "completed_orders": 1}, {"name": "ava ", "completed_orders": 2}],
            "share the name",
        ),
        ([{"name": "", "completed_orders": 1}], "non-empty name"),
    ],
)
def test_cli_winner_unreadable_tables_are_one_line_exit_2(players, needle):
    r = run("winner", "-", stdin=seats_doc(*players))
    assert r.exit_code == 2 and needle in r.output
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


@pytest.mark.parametrize("count", [1, 7])
def test_cli_winner_table_size_outside_the_game_is_exit_1(count):
    players = [{"name": f"p{i}", "completed_orders": 0} for i in range(count)]
    r = run("winner", "-", stdin=seats_doc(*players))
    assert r.exit_code == 1 and "2-6 players" in r.output


@given(
    st.lists(st.lists(ingredient_st, min_size=2, max_size=4), max_size=4),
    st.integers(0, 4),
)
def test_winner_flags_exactly_the_orders_check_refuses(orders, other):
    listed = [Order(tuple(o)) for o in orders]
    out = winner([Seat.listing("a", listed), Seat("b", other)])
    bad = [o for o in listed if order_problems(o)]
    if bad:
        assert out.winner is None and out.problems
    fairy = any(o.is_fairy_bread for o in listed)
    if not out.problems and fairy:
        assert (out.winner, out.reason) == ("a", "fairy-bread")


def test_two_plays_are_refused_not_cut_to_the_last() -> None:
    r = run("check", "white-bread+cheese+ham", "--play", "white-bread", "--play", "cheese,ham")
    assert r.exit_code == 2
    assert "--play is one play" in r.output and "--play white-bread,cheese,ham" in r.output
