"""Diced Veggies: judging a before/after pair, turn rules and final scoring."""

from __future__ import annotations

import pytest

from companion.errors import IllegalMoveError, InputError
from companion.games.diced_veggies.compare import judge_change
from companion.games.diced_veggies.cut import Cut
from companion.games.diced_veggies.model import Block, Die, Ingredient
from companion.games.diced_veggies.scoring import (
    CookedRecipe,
    PlayerTally,
    from_json,
    score,
)
from companion.games.diced_veggies.turn import (
    GameOptions,
    Player,
    Restock,
    TurnLimits,
    discards_needed,
    end_of_turn_problems,
    end_triggered,
    final_turns,
    restock,
    restock_status,
    use_chef_token,
)
from tests.test_dice_engine_drawing import drawn

BEFORE = """
c2 m3 o4 p5
t6 c2 m3 o4
p5 t6 c2 m3
"""


# ---- judging the change between two blocks ---------------------------------------------


def test_judge_a_legal_cut_in_place():
    before = drawn(BEFORE)
    after = before.without({(0, 0), (0, 1)})
    verdict = judge_change(before, after)
    assert verdict.legal and verdict.reasons == []
    assert verdict.taken == ((0, 0), (0, 1)) and verdict.sum == 5
    assert verdict.cut == Cut.parse("V2T1L")
    assert verdict.offset == (0, 0)


def test_judge_a_nudged_block():
    before = drawn(BEFORE)
    after = before.without({(2, 3)}).moved(1, -2)  # the rest slid on the table
    verdict = judge_change(before, after)
    assert verdict.legal
    assert verdict.taken == ((2, 3),) and verdict.offset == (-1, 2)


def test_judge_an_illegal_split():
    before = drawn(BEFORE)
    after = before.without({(1, 0), (1, 1), (1, 2), (1, 3)})  # the middle row
    verdict = judge_change(before, after)
    assert not verdict.legal
    assert "not a straight push from an edge" in verdict.reasons[0]
    assert any("over the limit" in r for r in verdict.reasons)
    assert any("splits the block" in r for r in verdict.reasons)


def test_judge_reports_a_changed_die_and_an_extra_one():
    before = drawn(BEFORE)
    dice = [d for d in before.without({(0, 0)}).dice if d.cell != (2, 3)]
    dice += [Die(2, 3, Ingredient.TOMATO, 6), Die(3, 0, Ingredient.ONION, 2)]
    verdict = judge_change(before, Block.of(dice))
    assert not verdict.legal
    assert verdict.taken == ((0, 0),)
    assert verdict.reasons == [
        "die at (2,3) changed from mushroom 3 to tomato 6",
        "a onion 2 appeared at (3,0), where the block had no die",
    ]
    assert len(verdict.changed) == 1 and len(verdict.extra) == 1


def test_judge_nothing_taken():
    before = drawn(BEFORE)
    verdict = judge_change(before, before.moved(0, 3))
    assert not verdict.legal and verdict.reasons == ["no dice were taken"]


def test_judge_everything_taken():
    small = drawn("c2 t6")
    verdict = judge_change(small, Block(()))
    assert verdict.legal and verdict.take_all and verdict.sum == 8
    big = drawn(BEFORE)
    verdict = judge_change(big, Block(()))
    assert not verdict.legal
    assert verdict.reasons == [
        "takes the whole block, which totals 45 pips",
        "over the limit: the pushed dice total 45 pips, more than 10",
    ]


def test_judge_accepts_a_split_after_block():
    before = drawn("""
    c2 m3 t6
    o4 .  p5
    """)
    after = Block.of([Die(1, 0, Ingredient.ONION, 4), Die(0, 2, Ingredient.TOMATO, 6),
                      Die(1, 2, Ingredient.PEPPER, 5)], require_connected=False)
    verdict = judge_change(before, after)
    assert not verdict.legal
    assert verdict.cut == Cut.parse("V2L")  # (1,1) is empty, so the full seam does it
    assert verdict.reasons == ["splits the block into 2 pieces: (1,0) would be cut off"]


# ---- restocking and the Chef token ------------------------------------------------------


def test_restock_status():
    assert restock_status(Block(())) is Restock.REQUIRED
    assert restock_status(drawn("c2 m3 o4 p5")) is Restock.ALLOWED  # no tomato
    assert restock_status(drawn("c2 m3 o4 p5 t6")) is Restock.NOT_ALLOWED


def test_restock_rolls_every_unheld_die_and_returns_tokens():
    players = [
        Player("Ana", dice=(Die(0, 0, Ingredient.CARROT, 2),) * 3, chef_token=False),
        Player("Ben", dice=(Die(0, 0, Ingredient.ONION, 4),) * 5),
    ]
    dice, after = restock(drawn("c2 m3"), players)
    assert dice == 35 - 8
    assert all(p.chef_token for p in after)
    assert players[0].chef_token is False  # inputs are not changed
    with pytest.raises(IllegalMoveError, match="only when an ingredient is missing"):
        restock(drawn("c2 m3 o4 p5 t6"), players)


def test_chef_token_changes_type_or_number_once():
    ana = Player("Ana", dice=(Die(0, 0, Ingredient.TOMATO, 2), Die(0, 1, Ingredient.PEPPER, 5)))
    # the rulebook's Stuffed Peppers example: the tomato's 2 becomes a 6
    changed = use_chef_token(ana, 0, value=6)
    assert changed.dice[0] == Die(0, 0, Ingredient.TOMATO, 6)
    assert not changed.chef_token
    with pytest.raises(IllegalMoveError, match="already spent"):
        use_chef_token(changed, 1, ingredient=Ingredient.ONION)
    with pytest.raises(IllegalMoveError, match="not both"):
        use_chef_token(ana, 0, value=6, ingredient=Ingredient.ONION)
    with pytest.raises(IllegalMoveError, match="not a face"):
        use_chef_token(ana, 0, value=1)
    with pytest.raises(IllegalMoveError, match="without Chef tokens"):
        use_chef_token(ana, 0, value=6, options=GameOptions.kids())
    assert use_chef_token(ana, 1, ingredient=Ingredient.ONION).dice[1].ingredient is (
        Ingredient.ONION)


# ---- end of a turn and of the game ------------------------------------------------------


def test_end_of_turn_limits():
    p = Player("Ana", dice=(Die(0, 0, Ingredient.CARROT, 2),) * 10, recipes_in_hand=3,
               hypes_in_hand=2)
    assert discards_needed(p) == {"dice": 2, "recipes": 1}
    assert end_of_turn_problems(p) == [
        "Ana keeps 10 dice; the limit is 8, discard 2",
        "Ana keeps 3 recipes; the limit is 2, discard 1",
    ]
    assert discards_needed(p, TurnLimits(dice=10, recipes=3)) == {}


def test_end_trigger_and_final_turns():
    players = [Player("A", cooked=6), Player("B", cooked=5)]
    assert not end_triggered(players)
    assert end_triggered(players, GameOptions.kids(6))
    assert end_triggered([Player("A", cooked=5)], GameOptions.kids(5))
    assert final_turns(4, 1) == (2, 3, 0)
    with pytest.raises(InputError):
        GameOptions.kids(4)


# ---- final scoring ----------------------------------------------------------------------


def test_rulebook_scoring_example():
    # Paella 9 + hype 6, Pizza 8, Fajitas 7 + 3 + 3: 36 so far
    ana = PlayerTally("Ana", (CookedRecipe(9, (6,)), CookedRecipe(8), CookedRecipe(7, (3, 3))))
    assert [r.points for r in ana.recipes] == [15, 8, 13]
    assert ana.total == 36


def test_ties_share_the_victory():
    a = PlayerTally("A", (CookedRecipe(10, (5,)),) + (CookedRecipe(1),) * 6)
    b = PlayerTally("B", (CookedRecipe(21),))
    c = PlayerTally("C", (CookedRecipe(3),))
    result = score([c, a, b])
    assert result.winners == ("A", "B")
    assert [(rank, p.name) for rank, p in result.ranking] == [(1, "A"), (1, "B"), (3, "C")]
    assert result.to_json()["shared"] is True
    assert result.violations == ()


def test_score_state_document_and_violations():
    players, options = from_json({
        "kids": True, "recipes_to_end": 5,
        "players": [{"name": "Kim", "recipes": [{"stars": 3, "hype": 2}]}],
    })
    result = score(players, options)
    assert [v.code for v in result.violations] == ["hype-without-cards", "game-not-over"]
    assert result.players[0].total == 5


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "JSON object"),
        ({"players": []}, "non-empty"),
        ({"game": "dulce", "players": [{"name": "A"}]}, "not 'diced-veggies'"),
        ({"players": [{"recipes": []}]}, "needs a \"name\""),
        ({"players": [{"name": "A"}, {"name": "A"}]}, "two players are called"),
        ({"players": [{"name": "Ann"}, {"name": "ann "}]}, "two players are called 'ann'"),
        # as the store compares names (NFKC): full-width letters, a decomposed ë, two spaces
        ({"players": [{"name": "Ann"}, {"name": "Ａｎｎ"}]}, "two players are called 'Ａｎｎ'"),
        ({"players": [{"name": "Zoë"}, {"name": "Zoe\u0308"}]}, "two players are called"),
        ({"players": [{"name": "Ann B"}, {"name": "ann  b"}]}, "two players are called"),
        ({"players": [{"name": "A", "recipes": [{"hype": 2}]}]}, "missing \"stars\""),
        ({"players": [{"name": "A", "recipes": [{"stars": -1}]}]}, "0 or more"),
        ({"players": [{"name": "A", "recipes": [{"stars": 2, "hype": "x"}]}]}, "hype"),
        ({"kids": True, "recipes_to_end": 9, "players": [{"name": "A"}]}, "kids' game ends"),
    ],
)
def test_bad_score_state(doc, message):
    with pytest.raises(InputError, match=message):
        from_json(doc)
