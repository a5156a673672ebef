"""Scoring: the rulebook's own examples, each container kind, bonuses and ranking."""

from __future__ import annotations

import pytest

from companion.games.delicious.garden import FRUIT_BONUS, HONEY_FIELD, VEG_BONUS
from companion.games.delicious.scoring import Score, line_points, rank, score
from companion.games.delicious.symbols import Fruit
from tests.test_delicious_support import FULL_A, planter, rows, sheet

B, S, W, G, FIG = (
    Fruit.BLUEBERRY,
    Fruit.STRAWBERRY,
    Fruit.WATERMELON,
    Fruit.GOLDEN_RASPBERRY,
    Fruit.FIG,
)


def test_rulebook_wheelbarrow_first_player_11_second_player_2():
    first = sheet(
        {
            **rows("wheelbarrow", ["broccoli", "carrot", "lettuce"], ["mushroom", "onion"],
                   ["pepper"]),
            "garden.wheelbarrow.first-potter": "check",
        }
    )
    second = sheet(
        {
            **rows("wheelbarrow", ["pepper", "carrot", "lettuce"], ["onion", None]),
            "garden.wheelbarrow.first-potter": "cross",
        }
    )
    s1, s2 = score(first), score(second)
    assert s1.containers["wheelbarrow"] + s1.first_potter == 11
    assert s1.total == 11
    assert s2.containers["wheelbarrow"] == 2  # the extra onion in row 2 scores nothing
    assert s2.total == 2


def test_rulebook_three_blueberries_strawberry_watermelon_scores_3():
    assert line_points([B, B, B, S, W]) == 3  # 3 of a kind (3) beats 3 different (1)
    st = sheet(planter(0, ["blueberry", "blueberry", "blueberry", "strawberry", "watermelon"]))
    assert score(st).planter_lines["row0"] == 3


@pytest.mark.parametrize(
    ("line", "points"),
    [
        ([B, B, None, None, None], 0),  # fewer than 3 fruits never score
        ([B, S, W, None, None], 1),
        ([B, S, W, G, None], 2),
        ([B, S, W, G, FIG], 3),
        ([B, B, B, B, None], 4),
        ([B, B, B, B, B], 5),
        ([B, B, S, B, B], 0),  # a different fruit splits the run; 2 kinds only
        ([B, B, None, B, S], 0),  # an empty space splits the run too
        ([B, S, B, B, B], 3),
        ([W, W, W, W], 4),  # a column of four
        ([B, S, W, G], 2),
    ],
)
def test_line_points(line, points):
    assert line_points(line) == points


def test_same_container_rows_are_not_added():
    st = sheet(rows("boots", ["carrot", "carrot"], ["carrot", "carrot"], ["carrot"]))
    assert score(st).containers["boots"] == 7
    st = sheet(rows("boots", ["carrot", "carrot"], ["carrot", "carrot"]))
    assert score(st).containers["boots"] == 4


def test_pairs_container_scores_its_highest_full_row():
    st = sheet(rows("bathtub", ["onion", "onion", "pepper", "pepper"], ["mushroom", None]))
    assert score(st).containers["bathtub"] == 3
    st = sheet(rows("watering-can", ["onion", "onion"], ["pepper", "pepper"]))
    assert score(st).containers["watering-can"] == 5


def test_different_container_partial_row_scores_nothing():
    st = sheet(rows("teapot", ["onion", None]))
    assert score(st).containers["teapot"] == 0
    st = sheet(rows("teapot", ["onion", "carrot"], ["pepper", "lettuce"], ["mushroom"]))
    assert score(st).containers["teapot"] == 8


def test_vegetable_bonus_two_per_container_max_12():
    st = sheet({**FULL_A, VEG_BONUS: "pepper"})
    # pepper sits in wheelbarrow, watering-can, crate, teapot
    assert score(st).veg_bonus == 8
    every = {f"garden.{c}.r0.c0": "onion" for c in
             ("wheelbarrow", "boots", "watering-can", "bathtub", "crate", "teapot")}
    assert score(sheet({**every, VEG_BONUS: "onion"})).veg_bonus == 12


def test_fruit_bonus_one_per_fruit_and_honey():
    st = sheet(
        {
            **planter(0, ["fig", "fig", None, "fig", None]),
            **planter(3, ["fig", None, None, None, "blueberry"]),
            FRUIT_BONUS: "fig",
            HONEY_FIELD: "circled",
        }
    )
    sc = score(st)
    assert sc.fruit_bonus == 4
    assert sc.honey == 3


def test_total_is_sum_of_breakdown_in_json():
    st = sheet({**FULL_A, VEG_BONUS: "carrot", "garden.boots.first-potter": "check"})
    doc = score(st).to_json()
    assert set(doc) == {"total", "breakdown"}  # exactly the docs/contracts.md shape
    b = doc["breakdown"]
    assert doc["total"] == sum(b["containers"].values()) + sum(
        b[k] for k in ("planter", "veg_bonus", "fruit_bonus", "honey", "first_potter")
    )
    assert set(b) == {"containers", "planter", "veg_bonus", "fruit_bonus", "honey",
                      "first_potter"}
    assert b["containers"] == {"wheelbarrow": 10, "boots": 7, "watering-can": 9,
                               "bathtub": 8, "crate": 7, "teapot": 8}
    assert b["first_potter"] == 1


def _score(total: int, planter: int, checks: int) -> Score:
    rest = total - planter - checks
    return Score({"wheelbarrow": rest}, planter, 0, 0, 0, checks,
                 first_potter_checks=tuple(f"c{i}" for i in range(checks)))


def test_rank_most_points_first():
    st = rank([_score(20, 3, 0), _score(30, 0, 0)], ["ann", "bob"])
    assert [(s.place, s.player, s.decided_by) for s in st] == [
        (1, "bob", "points"), (2, "ann", "points")
    ]


def test_rank_tie_broken_by_planter_then_first_potter_then_shared():
    st = rank(
        [_score(30, 5, 1), _score(30, 8, 0), _score(30, 5, 2), _score(30, 5, 2)],
        ["a", "b", "c", "d"],
    )
    got = [(s.place, s.player, s.shared, s.decided_by) for s in st]
    assert got == [
        (1, "b", False, "planter"),
        (2, "c", True, "shared"),
        (2, "d", True, "shared"),
        (4, "a", False, "first potter"),
    ]
