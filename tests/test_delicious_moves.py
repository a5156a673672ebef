"""Move-level play: every placement restriction, losing plants, round end, rule options."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from companion.errors import IllegalMoveError, InputError
from companion.games.delicious.constants import DEFAULT_RULES
from companion.games.delicious.game import Table, end_round
from companion.games.delicious.garden import (
    FRUIT_BONUS,
    FRUIT_WILD,
    HONEY_FIELD,
    VEG_BONUS,
    VEG_WILD,
    choice_id,
)
from companion.games.delicious.moves import (
    Move,
    Sketch,
    Source,
    apply,
    is_legal,
    legal_choices,
    legal_moves,
    legal_sketches,
)
from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import Area, Fruit, PlantChoice, Shape, Tool, Vegetable
from companion.games.delicious.validate import check
from tests.test_delicious_support import FULL_A, all_choices, card, planter, rnd, rows, sheet

TOP, BOT = Area.TOP, Area.BOTTOM
VEG, TOK = Source.VEGETABLE, Source.TOKEN
ONE, REV, TWO, ANY = (PlantChoice.ONE_AS_IS, PlantChoice.ONE_REVERSE,
                      PlantChoice.TWO_AS_IS, PlantChoice.TWO_ANYWHERE)
PEPPER, ONION, CARROT = Vegetable.PEPPER, Vegetable.ONION, Vegetable.CARROT
FIG, MELON = Fruit.FIG, Fruit.WATERMELON

# Top: pepper, hexagon, fig.  Bottom: onion, star, rake.
R = rnd(card(PEPPER, Shape.HEXAGON, FIG), card(ONION, Shape.STAR, Tool.RAKE))
EMPTY = sheet()


def sk(pos: Area, src: Source, field: str, plant: Vegetable | Fruit,
       tool: str | None = None) -> Sketch:
    return Sketch(pos, src, field, plant, tool)


def mv(choice: PlantChoice, cards: tuple[Area, ...], *sketches: Sketch, r=R) -> Move:
    return Move(r, choice, cards, tuple(sketches))


def reason(state: SheetState, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as exc:
        apply(state, move)
    return str(exc.value)


WB0 = "garden.wheelbarrow.r0.c0"
TEA0 = "garden.teapot.r0.c0"
FIG_HEX = "garden.planter.r0.c0"  # a hexagon space
STAR = "garden.planter.r1.c0"


# ---- Plant Choices and areas ---------------------------------------------------------

def test_one_as_is_top_card_goes_to_top_area():
    after = apply(EMPTY, mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FIG_HEX, FIG)))
    assert after.get(WB0) == "pepper" and after.get(FIG_HEX) == "fig"
    assert after.get(choice_id(ONE, 0)) == "marked"
    assert "area" in reason(EMPTY, mv(ONE, (TOP,), sk(TOP, VEG, TEA0, PEPPER),
                                      sk(TOP, TOK, FIG_HEX, FIG)))


def test_one_reverse_sends_the_card_to_the_other_area():
    assert is_legal(EMPTY, mv(REV, (TOP,), sk(TOP, VEG, TEA0, PEPPER),
                              sk(TOP, TOK, FIG_HEX, FIG)))
    assert "area" in reason(EMPTY, mv(REV, (TOP,), sk(TOP, VEG, WB0, PEPPER),
                                      sk(TOP, TOK, FIG_HEX, FIG)))


def test_two_as_is_top_to_top_and_bottom_to_bottom():
    ok = mv(TWO, (TOP, BOT), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FIG_HEX, FIG),
            sk(BOT, VEG, TEA0, ONION))
    assert is_legal(EMPTY, ok)
    swapped = mv(TWO, (TOP, BOT), sk(TOP, VEG, TEA0, PEPPER), sk(TOP, TOK, FIG_HEX, FIG),
                 sk(BOT, VEG, WB0, ONION))
    assert "area" in reason(EMPTY, swapped)


def test_two_anywhere_allows_both_areas():
    move = mv(ANY, (TOP, BOT), sk(TOP, VEG, TEA0, PEPPER), sk(TOP, TOK, FIG_HEX, FIG),
              sk(BOT, VEG, WB0, ONION))
    assert is_legal(EMPTY, move)


def test_choice_cards_must_match_the_option():
    assert "uses the cards" in reason(EMPTY, mv(ONE, (TOP, BOT)))
    assert "uses the cards" in reason(EMPTY, mv(TWO, (TOP,)))


def test_each_circle_once_and_legal_choices_shrink():
    used = sheet({choice_id(ONE, i): "marked" for i in range(3)})
    assert "already marked" in reason(used, mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
                                               sk(TOP, TOK, FIG_HEX, FIG)))
    assert {c for c, _ in legal_choices(used, R)} == {REV, TWO, ANY}
    st = apply(sheet({choice_id(ONE, 0): "marked"}),
               mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FIG_HEX, FIG)))
    assert st.circles_marked(ONE) == 2


# ---- containers --------------------------------------------------------------------

def test_bottom_up_any_order_within_a_row():
    st = sheet(rows("wheelbarrow", ["onion", None, None]))
    assert is_legal(st, mv(ONE, (TOP,), sk(TOP, VEG, "garden.wheelbarrow.r0.c2", PEPPER),
                           sk(TOP, TOK, FIG_HEX, FIG)))
    why = reason(st, mv(ONE, (TOP,), sk(TOP, VEG, "garden.wheelbarrow.r1.c0", PEPPER),
                        sk(TOP, TOK, FIG_HEX, FIG)))
    assert "from the bottom" in why


def test_full_container_takes_nothing():
    st = sheet({k: v for k, v in FULL_A.items() if ".boots." in k})
    assert "already filled" in reason(
        st, mv(ONE, (TOP,), sk(TOP, VEG, "garden.boots.r2.c0", PEPPER), sk(TOP, TOK, FIG_HEX, FIG))
    )
    options = legal_sketches(st, mv(ONE, (TOP,)), TOP, VEG)
    assert options and not any(".boots." in s.field for s in options)


def test_filled_space_and_wrong_vegetable():
    st = sheet(rows("wheelbarrow", ["onion"]))
    assert "already filled" in reason(st, mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER)))
    assert "shows pepper" in reason(EMPTY, mv(ONE, (TOP,), sk(TOP, VEG, WB0, CARROT)))


@pytest.mark.parametrize(
    ("start", "cell", "ok"),
    [
        (rows("boots", ["carrot"]), "garden.boots.r0.c1", False),  # same: only carrot
        (rows("boots", ["pepper"]), "garden.boots.r0.c1", True),
        (rows("wheelbarrow", ["pepper"]), "garden.wheelbarrow.r0.c1", False),  # different
        (rows("wheelbarrow", ["onion"]), "garden.wheelbarrow.r0.c1", True),
        (rows("watering-can", ["onion"]), "garden.watering-can.r0.c1", False),  # pair mate
        (rows("watering-can", ["pepper"]), "garden.watering-can.r0.c1", True),
        # another pair of the watering can already holds pepper
        (rows("watering-can", ["pepper", "pepper"]), "garden.watering-can.r1.c0", False),
        (rows("watering-can", ["onion", "onion"]), "garden.watering-can.r1.c0", True),
    ],
)
def test_container_kinds(start, cell, ok):
    move = mv(ONE, (TOP,), sk(TOP, VEG, cell, PEPPER), sk(TOP, TOK, FIG_HEX, FIG))
    assert is_legal(sheet(start), move) is ok


# ---- fruits, spots and wild follow-ups -------------------------------------------------

def test_fruit_must_match_the_garden_icon():
    assert "hexagon" in reason(EMPTY, mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
                                         sk(TOP, TOK, STAR, FIG)))
    assert "token shows fig" in reason(EMPTY, mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
                                                 sk(TOP, TOK, FIG_HEX, MELON)))


def test_bonus_spots_ignore_position_and_icon_and_are_used_once():
    move = mv(ONE, (BOT,), sk(BOT, VEG, VEG_BONUS, ONION), r=rnd(R.top, R.bottom))
    after = apply(EMPTY, move)
    assert after.get(VEG_BONUS) == "onion"
    again = mv(ONE, (BOT,), sk(BOT, VEG, VEG_BONUS, ONION))
    assert "already filled" in reason(after, again)
    fruit = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FRUIT_BONUS, FIG))
    assert apply(EMPTY, fruit).get(FRUIT_BONUS) == "fig"


def test_vegetable_wild_spot_pots_any_vegetable_anywhere():
    move = mv(ONE, (TOP,), sk(TOP, VEG, VEG_WILD, PEPPER),
              sk(TOP, Source.VEG_WILD, TEA0, CARROT), sk(TOP, TOK, FIG_HEX, FIG))
    after = apply(EMPTY, move)
    assert after.get(VEG_WILD) == "pepper" and after.get(TEA0) == "carrot"


def test_wild_follow_up_must_follow_at_once_and_obeys_bottom_up():
    late = mv(ONE, (TOP,), sk(TOP, VEG, VEG_WILD, PEPPER), sk(TOP, TOK, FIG_HEX, FIG),
              sk(TOP, Source.VEG_WILD, TEA0, CARROT))
    assert "directly follow" in reason(EMPTY, late)
    high = mv(ONE, (TOP,), sk(TOP, VEG, VEG_WILD, PEPPER),
              sk(TOP, Source.VEG_WILD, "garden.teapot.r1.c0", CARROT), sk(TOP, TOK, FIG_HEX, FIG))
    assert "from the bottom" in reason(EMPTY, high)


def test_wild_spot_cannot_feed_a_bonus_spot_unless_the_option_says_so():
    veg = mv(ONE, (TOP,), sk(TOP, VEG, VEG_WILD, PEPPER),
             sk(TOP, Source.VEG_WILD, VEG_BONUS, CARROT), sk(TOP, TOK, FIG_HEX, FIG))
    assert "bonus" in reason(EMPTY, veg)
    assert is_legal(EMPTY, veg, replace(DEFAULT_RULES, wild_extra_to_bonus=True))
    fruit = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FRUIT_WILD, FIG),
               sk(TOP, Source.FRUIT_WILD, FRUIT_BONUS, MELON))
    assert "bonus" in reason(EMPTY, fruit)


def test_fruit_wild_spot_places_any_fruit_in_any_shape():
    move = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FRUIT_WILD, FIG),
              sk(TOP, Source.FRUIT_WILD, STAR, MELON))
    assert apply(EMPTY, move).get(STAR) == "watermelon"


# ---- tools -------------------------------------------------------------------------

RAKE_ROUND = rnd(card(PEPPER, Shape.OVAL, Tool.RAKE), card(ONION, Shape.STAR, FIG))
WB_ROW0 = rows("wheelbarrow", ["onion", "carrot", "lettuce"])


def test_tool_pots_in_its_row_within_the_choice_area():
    """The rulebook's example: a top-position rake may use the wheelbarrow, not the bathtub."""
    st = sheet(WB_ROW0)
    top_rake = mv(ONE, (TOP,), sk(TOP, VEG, "garden.boots.r0.c0", PEPPER),
                  sk(TOP, TOK, "garden.wheelbarrow.r1.c0", Vegetable.MUSHROOM,
                     "garden.wheelbarrow.tool.r1"), r=RAKE_ROUND)
    after = apply(st, top_rake)
    assert after.get("garden.wheelbarrow.tool.r1") == "cross"
    bath = mv(ONE, (TOP,), sk(TOP, VEG, "garden.boots.r0.c0", PEPPER),
              sk(TOP, TOK, "garden.bathtub.r0.c0", Vegetable.MUSHROOM,
                 "garden.bathtub.tool.r0"), r=RAKE_ROUND)
    assert "area" in reason(st, bath)
    assert is_legal(st, bath, replace(DEFAULT_RULES, tool_obeys_area=False))


def test_tool_planter_line_any_fruit_any_shape():
    move = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
              sk(TOP, TOK, "garden.planter.r1.c2", MELON, "garden.planter.tool.row1"),
              r=RAKE_ROUND)
    assert apply(EMPTY, move).get("garden.planter.tool.row1") == "cross"
    wrong_line = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
                    sk(TOP, TOK, "garden.planter.r2.c2", MELON, "garden.planter.tool.row1"),
                    r=RAKE_ROUND)
    assert "marks planter row1 only" in reason(EMPTY, wrong_line)
    veg_in_planter = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
                        sk(TOP, TOK, "garden.planter.r1.c2", ONION, "garden.planter.tool.row1"),
                        r=RAKE_ROUND)
    assert "takes a fruit" in reason(EMPTY, veg_in_planter)


def test_tool_icon_must_match_and_be_uncrossed():
    wrong = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
               sk(TOP, TOK, "garden.planter.r0.c2", MELON, "garden.planter.tool.row0"),
               r=RAKE_ROUND)
    assert "not a rake icon" in reason(EMPTY, wrong)
    crossed = sheet({"garden.planter.tool.row1": "cross"})
    again = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER),
               sk(TOP, TOK, "garden.planter.r1.c2", MELON, "garden.planter.tool.row1"),
               r=RAKE_ROUND)
    assert "already crossed" in reason(crossed, again)
    fig_cross = mv(ONE, (BOT,), sk(BOT, VEG, TEA0, ONION),
                   sk(BOT, TOK, STAR, FIG, "garden.planter.tool.row1"), r=RAKE_ROUND)
    assert "only a tool token" in reason(EMPTY, fig_cross)


def test_tool_before_or_after_the_cards_vegetable():
    st = sheet(rows("wheelbarrow", ["onion", "carrot", None]))
    veg_first = mv(ONE, (TOP,), sk(TOP, VEG, "garden.wheelbarrow.r0.c2", PEPPER),
                   sk(TOP, TOK, "garden.wheelbarrow.r1.c0", Vegetable.LETTUCE,
                      "garden.wheelbarrow.tool.r1"), r=RAKE_ROUND)
    assert is_legal(st, veg_first)
    tool_first = Move(RAKE_ROUND, ONE, (TOP,), tuple(reversed(veg_first.sketches)))
    assert "from the bottom" in reason(st, tool_first)


# ---- losing plants -------------------------------------------------------------------

def test_a_placeable_vegetable_may_not_be_dropped():
    move = mv(ONE, (TOP,), sk(TOP, TOK, FIG_HEX, FIG))
    assert "lost only when" in reason(EMPTY, move)
    assert is_legal(EMPTY, move, replace(DEFAULT_RULES, must_place_vegetable=False))


def test_a_plant_with_no_spot_is_lost_without_penalty():
    full_top = {k: v for k, v in FULL_A.items()
                if k.split(".")[1] in ("wheelbarrow", "boots", "watering-can")}
    st = sheet({**full_top, VEG_WILD: "onion", VEG_BONUS: "onion",
                **{p: "fig" for r in range(4) for p in planter(r, ["x"] * 5)},
                FRUIT_WILD: "fig", FRUIT_BONUS: "fig"})
    nothing = mv(ONE, (TOP,))
    after = apply(st, nothing)
    assert after.circles_marked(ONE) == 1
    assert after.to_field_map().keys() - st.to_field_map().keys() == {choice_id(ONE, 0)}


def test_an_unused_tool_is_fine_unless_the_option_demands_it():
    move = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), r=RAKE_ROUND)
    assert is_legal(EMPTY, move)
    assert not is_legal(EMPTY, move, replace(DEFAULT_RULES, must_use_tool=True))


def test_a_gift_sketched_twice_is_refused():
    move = mv(TWO, (TOP, BOT), sk(TOP, VEG, WB0, PEPPER),
              sk(TOP, VEG, "garden.wheelbarrow.r0.c1", PEPPER))
    assert "twice" in reason(EMPTY, move)


# ---- legal_moves ---------------------------------------------------------------------

def _nearly_done() -> SheetState:
    """Everything full but one wheelbarrow space; one 1-as-is circle left."""
    values = {**all_choices(), **FULL_A, VEG_WILD: "onion", VEG_BONUS: "onion",
              FRUIT_WILD: "fig", FRUIT_BONUS: "fig",
              **{p: "fig" for r in range(4) for p in planter(r, ["x"] * 5)}}
    values.pop(choice_id(ONE, 2))
    values.pop("garden.wheelbarrow.r2.c0")
    return sheet(values)


def test_legal_moves_exact_in_a_small_position():
    moves = list(legal_moves(_nearly_done(), R))
    assert sorted(str(m) for m in moves) == sorted([
        str(mv(ONE, (TOP,), sk(TOP, VEG, "garden.wheelbarrow.r2.c0", PEPPER))),
        str(mv(ONE, (BOT,))),  # the onion has nowhere to go in the bottom area
    ])


def test_legal_moves_are_legal_and_distinct():
    st = sheet({**all_choices(), **rows("wheelbarrow", ["onion", "carrot", None])})
    st = st.with_values({choice_id(TWO, 2): "", choice_id(ANY, 2): ""})
    moves = list(itertools.islice(legal_moves(st, RAKE_ROUND), 400))
    assert len(moves) == 400
    assert len({frozenset(m.sketches) | {m.choice} for m in moves}) == len(moves)
    assert all(is_legal(st, m) for m in moves)
    for m in moves[:50]:
        assert check(apply(st, m), final=False) == []


# ---- round end ------------------------------------------------------------------------

BOOTS_ALMOST = rows("boots", ["pepper", "pepper"], ["pepper", "pepper"])
BOOTS_LAST = "garden.boots.r2.c0"


def test_first_potter_shared_by_same_round_finishers_and_crossed_by_others():
    before = [sheet(BOOTS_ALMOST), sheet(BOOTS_ALMOST), sheet(BOOTS_ALMOST)]
    after = [before[0].with_values({BOOTS_LAST: "pepper"}),
             before[1].with_values({BOOTS_LAST: "pepper"}), before[2]]
    settled = end_round(before, after)
    assert [s.get("garden.boots.first-potter") for s in settled] == ["check", "check", "cross"]
    # a later finisher gets nothing more
    later = [settled[0], settled[1], settled[2].with_values({BOOTS_LAST: "pepper"})]
    assert end_round(settled, later)[2].get("garden.boots.first-potter") == "cross"
    solo = end_round(before, after, replace(DEFAULT_RULES, shared_first_potter=False))
    assert [s.get("garden.boots.first-potter") for s in solo] == ["check", "cross", "cross"]


def test_jar_of_honey_goes_to_the_first_to_fill_an_area():
    top = {k: v for k, v in FULL_A.items()
           if k.split(".")[1] in ("wheelbarrow", "boots", "watering-can")}
    before = [sheet({**top, BOOTS_LAST: ""}), sheet({})]
    after = [sheet(top), sheet({})]
    settled = end_round(before, after)
    assert settled[0].get(HONEY_FIELD) == "circled"
    assert settled[1].get(HONEY_FIELD) is None
    # once claimed, nobody else circles it
    late = end_round([settled[0], sheet({**top, BOOTS_LAST: ""})], [settled[0], sheet(top)])
    assert late[1].get(HONEY_FIELD) is None


def test_table_plays_a_round_for_everyone():
    table = Table.new(2)
    m1 = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER), sk(TOP, TOK, FIG_HEX, FIG))
    m2 = mv(ONE, (BOT,), sk(BOT, VEG, TEA0, ONION))
    nxt = table.play(R, [m1, m2])
    assert nxt.rounds_played == 1 and nxt.sheets[1].get(TEA0) == "onion"
    with pytest.raises(IllegalMoveError, match="player 2"):
        table.play(R, [m1, mv(ONE, (BOT,), sk(BOT, VEG, WB0, ONION))])


def test_rulebook_pepper_in_the_wheelbarrow_two_legal_spaces():
    st = sheet(rows("wheelbarrow", ["onion", None, None]))
    options = legal_sketches(st, mv(ONE, (TOP,)), TOP, VEG)
    in_wheelbarrow = sorted(s.field for s in options if ".wheelbarrow." in s.field)
    assert in_wheelbarrow == ["garden.wheelbarrow.r0.c1", "garden.wheelbarrow.r0.c2"]
    assert not any(s.field.startswith(("garden.bathtub", "garden.crate", "garden.teapot"))
                   for s in options)


def test_a_placeable_fruit_may_not_be_dropped_unless_the_option_allows():
    move = mv(ONE, (TOP,), sk(TOP, VEG, WB0, PEPPER))
    assert "token could still go" in reason(EMPTY, move)
    assert is_legal(EMPTY, move, replace(DEFAULT_RULES, must_place_fruit=False))


def test_moves_round_trip_through_json():
    rec = simulate_game(5, 2, "B")
    for moves in rec.moves:
        for m in moves:
            assert Move.from_json(m.to_json()) == m
    with pytest.raises(InputError):
        Move.from_json({"round": rec.rounds[0].to_json(), "choice": "3-cards", "cards": []})
    with pytest.raises(InputError):
        Move.from_json({"choice": "1-as-is"})
