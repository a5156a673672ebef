"""Diced Veggies cuts on small hand-drawn blocks: every case docs/rules-readings.md names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import IllegalMoveError, InputError
from companion.games.diced_veggies.cut import Cut, End, Push, Seam
from companion.games.diced_veggies.cutting import CutOptions
from companion.games.diced_veggies.model import FACES, Block, Die, Ingredient
from tests.test_dice_engine_drawing import drawn

FULL_ONLY = CutOptions(full_length_only=True)
KIDS = CutOptions(kids=True)


def taken_sets(block: Block, options: CutOptions | None = None) -> set[frozenset]:
    return {frozenset(c.taken) for c in block.legal_cut_checks(options)}


# ---- the public constants ---------------------------------------------------------------


def test_faces_and_ingredients():
    assert FACES == (2, 2, 3, 4, 5, 6)
    assert [i.value for i in Ingredient] == ["carrot", "mushroom", "onion", "pepper", "tomato"]


# ---- corner cut -------------------------------------------------------------------------

SQUARE = """
2 3 4
5 6 2
3 2 4
"""


def test_corner_cut_takes_one_corner_die():
    block = drawn(SQUARE)
    verdict = block.check(Cut.parse("V1T1L"))
    assert verdict.legal and verdict.reasons == []
    assert verdict.taken == ((0, 0),) and verdict.sum == 2
    # the same die pushed up along the first row seam is the same cut for the player
    assert block.check(Cut.parse("H1L1U")).taken == ((0, 0),)
    listed = [c for c in block.legal_cut_checks() if c.taken == ((0, 0),)]
    assert len(listed) == 1


def test_every_corner_of_the_square_is_cuttable():
    sets = taken_sets(drawn(SQUARE))
    for corner in [(0, 0), (0, 2), (2, 0), (2, 2)]:
        assert frozenset({corner}) in sets


def test_centre_die_cannot_be_cut_alone():
    verdict = drawn(SQUARE).explain({(1, 1)})
    assert not verdict.legal
    assert any(r.startswith("not a straight push from an edge") for r in verdict.reasons)


# ---- full-length cut --------------------------------------------------------------------

TWO_ROWS = """
2 2 6
3 2 5
"""


def test_full_cut_takes_a_whole_column():
    block = drawn(TWO_ROWS)
    verdict = block.check(Cut.parse("V1L"))
    assert verdict.legal and verdict.taken == ((0, 0), (1, 0)) and verdict.sum == 5
    right = block.check(Cut.parse("V2R"))
    assert not right.legal and right.sum == 11
    assert right.reasons == ["over the limit: the pushed dice total 11 pips, more than 10"]


def test_full_length_only_option_rejects_partial_cuts():
    block = drawn(TWO_ROWS)
    assert block.check(Cut.parse("V1T1L")).legal
    verdict = block.check(Cut.parse("V1T1L"), FULL_ONLY)
    assert not verdict.legal
    assert verdict.reasons == ["only full-length cuts are allowed; this one covers 1 of 2"]
    assert all(c.is_full for c in block.legal_cuts(FULL_ONLY))


def test_full_length_only_lists_exactly_the_full_cuts():
    block = drawn(TWO_ROWS)
    # V1L 5 pips, V2L 9 pips, H1U 10 pips; V1R 15, V2R 11, H1D 10 pips
    assert sorted(str(c) for c in block.legal_cuts(FULL_ONLY)) == ["H1D", "H1U", "V1L", "V2L"]


def test_explain_partial_only_set_under_full_only():
    verdict = drawn(TWO_ROWS).explain({(0, 0)}, FULL_ONLY)
    assert not verdict.legal
    assert verdict.reasons == [
        "only a partial-depth cut takes exactly these dice, and only full-length cuts "
        "are allowed"
    ]


# ---- push past a gap --------------------------------------------------------------------

GAPPED = """
2 3 . 4
5 5 5 5
"""


def test_push_stops_at_a_gap():
    block = drawn(GAPPED)
    verdict = block.check(Cut.parse("V1T1R"))
    assert verdict.legal
    assert verdict.taken == ((0, 1),)  # (0,3) lies beyond the empty cell and stays


def test_cut_beside_an_empty_cell_pushes_nothing():
    verdict = drawn(GAPPED).check(Cut.parse("V2T1R"))
    assert not verdict.legal and verdict.taken == ()
    assert verdict.reasons == ["the cut pushes no dice"]


def test_taking_dice_across_a_gap_is_not_a_straight_push():
    verdict = drawn(GAPPED).explain({(0, 0), (0, 3)})
    assert not verdict.legal
    assert verdict.reasons == [
        "not a straight push from an edge: no seam, entry end and push side moves "
        "exactly (0,0) (0,3)"
    ]


def test_a_seam_may_run_past_an_empty_cell():
    # pushing up along the first row seam from the right over three columns: column 2
    # has no die beside the seam and adds nothing
    block = drawn(GAPPED)
    assert block.cut_for({(0, 1), (0, 3)}) == Cut.parse("H1R3U")


# ---- split block ------------------------------------------------------------------------

U_SHAPE = """
2 2 6
2 . 6
"""


def test_cut_that_splits_the_block_is_illegal():
    block = drawn(U_SHAPE)
    verdict = block.check(Cut.parse("V2T1L"))
    assert verdict.taken == ((0, 0), (0, 1)) and verdict.sum == 4
    assert not verdict.legal
    assert verdict.reasons == ["splits the block into 2 pieces: (1,0) would be cut off"]
    with pytest.raises(IllegalMoveError, match="splits the block"):
        block.cut_for({(0, 0), (0, 1)})


# ---- corner-only contact ----------------------------------------------------------------

STEP = """
2 2 .
. 6 6
"""


def test_remainder_touching_only_at_a_corner_is_illegal():
    block = drawn(STEP)
    verdict = block.check(Cut.parse("V1T1R"))
    assert verdict.taken == ((0, 1),)
    assert not verdict.legal
    assert verdict.reasons == [
        "corner-only contact: (0,0) and (1,1) would touch only at a corner"
    ]
    with pytest.raises(IllegalMoveError, match="corner-only contact"):
        block.cut_for({(0, 1)})


def test_block_json_with_corner_only_contact_is_refused():
    with pytest.raises(InputError, match="touch only at a corner"):
        drawn("""
        2 .
        . 3
        """)


# ---- over the limit ---------------------------------------------------------------------

HEAVY = """
6 6
2 2
"""


def test_over_the_limit():
    block = drawn(HEAVY)
    verdict = block.check(Cut.parse("H1U"))
    assert verdict.taken == ((0, 0), (0, 1)) and verdict.sum == 12
    assert verdict.reasons == ["over the limit: the pushed dice total 12 pips, more than 10"]
    assert block.check(Cut.parse("V1T1L")).legal  # one 6 is fine
    assert block.check(Cut.parse("H1D")).legal  # 2 + 2
    with pytest.raises(IllegalMoveError, match="over the limit"):
        block.cut_for({(0, 0), (0, 1)})


def test_exactly_ten_is_allowed():
    block = drawn("""
    6 4
    2 2
    """)
    assert block.check(Cut.parse("H1U")).legal
    assert block.check(Cut.parse("H1U")).sum == 10


def test_every_reason_is_listed():
    block = drawn("""
    6 6 2
    2 . 2
    """)
    verdict = block.check(Cut.parse("H1U"))
    assert verdict.sum == 14
    assert verdict.reasons == [
        "over the limit: the pushed dice total 14 pips, more than 10",
        "splits the block into 2 pieces: (1,2) would be cut off",
    ]
    verdict = block.check(Cut.parse("H1L2U"), FULL_ONLY)
    assert verdict.reasons == [
        "only full-length cuts are allowed; this one covers 2 of 3",
        "over the limit: the pushed dice total 12 pips, more than 10",
        "splits the block into 2 pieces: (1,0) would be cut off",
    ]


# ---- take all ---------------------------------------------------------------------------

SMALL = """
2 3
. 4
"""


def test_small_block_is_taken_whole():
    block = drawn(SMALL)
    assert block.take_all()
    assert block.legal_cuts() == []
    verdict = block.check(Cut.parse("V1T1L"))
    assert not verdict.legal
    assert verdict.reasons == [
        "the whole block totals 9 pips (at most 10): take it all without cutting"
    ]
    whole = block.explain(block.cells)
    assert whole.legal and whole.take_all and whole.sum == 9 and whole.cut is None


def test_option_to_cut_a_small_block_anyway():
    options = CutOptions(cut_when_take_all=True)
    block = drawn(SMALL)
    assert block.check(Cut.parse("V1T1L"), options).legal
    assert frozenset({(0, 0)}) in taken_sets(block, options)


def test_big_block_cannot_be_taken_whole():
    block = drawn(HEAVY)
    assert not block.take_all()
    verdict = block.explain(block.cells)
    assert not verdict.legal
    assert verdict.reasons[0] == "takes the whole block, which totals 16 pips"


def test_empty_block():
    block = Block(())
    assert not block.take_all() and block.legal_cuts() == []
    assert block.check(Cut.parse("V1L")).reasons == ["the block is empty: restock"]


# ---- the kids' three-dice variant -------------------------------------------------------


def test_kids_limit_counts_dice_not_pips():
    block = drawn("6 6 6 6 6")
    assert taken_sets(block) == {frozenset({(0, 0)}), frozenset({(0, 4)})}  # 6 + 6 > 10
    kids = taken_sets(block, KIDS)
    assert frozenset({(0, 0), (0, 1), (0, 2)}) in kids
    assert frozenset({(0, 0), (0, 1), (0, 2), (0, 3)}) not in kids
    verdict = block.check(Cut.parse("V4L"), KIDS)
    assert verdict.reasons == ["over the limit: 4 dice pushed, the kids' limit is 3"]


def test_kids_take_all_is_three_dice():
    block = drawn("6 6 6")
    assert block.take_all(KIDS) and not block.take_all()


# ---- seams and geometry -----------------------------------------------------------------


def test_outer_boundary_is_not_a_seam():
    block = drawn(SQUARE)
    for spec in ("V0R", "V3L", "H0D", "H3U"):
        verdict = block.check(Cut.parse(spec))
        assert not verdict.legal
        assert "is not between two" in verdict.reasons[0]


def test_partial_cut_from_bottom():
    block = drawn(SQUARE)
    verdict = block.check(Cut.parse("V1B1L"))
    assert verdict.legal and verdict.taken == ((2, 0),)
    verdict = block.check(Cut.parse("H2R1D"))
    assert verdict.legal and verdict.taken == ((2, 2),)


def test_depth_beyond_the_seam_covers_it_all():
    block = drawn(TWO_ROWS)
    assert block.check(Cut.parse("V1T5L")).taken == block.check(Cut.parse("V1L")).taken


def test_block_away_from_origin():
    block = Block.of([Die(3, 4, Ingredient.CARROT, 2), Die(3, 5, Ingredient.ONION, 6),
                      Die(4, 5, Ingredient.TOMATO, 6)])
    assert block.check(Cut.parse("V5T1L")).legal
    assert block.cut_for({(3, 4)}) == Cut.parse("V5L")  # (4,4) is empty: full length


def test_cut_for_finds_the_full_cut_first():
    block = drawn(TWO_ROWS)
    assert block.cut_for({(0, 0), (1, 0)}) == Cut.parse("V1L")


def test_cut_for_unknown_cells():
    verdict = drawn(TWO_ROWS).explain({(5, 5)})
    assert verdict.reasons == ["no die at (5,5)"]
    with pytest.raises(IllegalMoveError):
        drawn(TWO_ROWS).cut_for(set())


# ---- the text notation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "cut"),
    [
        ("V3L", Cut(Seam.VERTICAL, 3, End.TOP, None, Push.LEFT)),
        ("V3T2R", Cut(Seam.VERTICAL, 3, End.TOP, 2, Push.RIGHT)),
        ("V1B4L", Cut(Seam.VERTICAL, 1, End.BOTTOM, 4, Push.LEFT)),
        ("H1L4D", Cut(Seam.HORIZONTAL, 1, End.LEFT, 4, Push.DOWN)),
        ("H2R1U", Cut(Seam.HORIZONTAL, 2, End.RIGHT, 1, Push.UP)),
        ("H12U", Cut(Seam.HORIZONTAL, 12, End.LEFT, None, Push.UP)),
    ],
)
def test_notation(spec, cut):
    assert Cut.parse(spec) == cut
    assert str(cut) == spec
    assert Cut.parse(spec.lower()) == cut
    assert Cut.from_json(cut.to_json()) == cut


def test_notation_tolerates_separators():
    assert Cut.parse("v3-t2-r") == Cut.parse("V3 T2 R") == Cut.parse("V3:T2/R")


def test_full_cut_from_either_end_is_one_cut():
    assert Cut(Seam.VERTICAL, 2, End.BOTTOM, None, Push.LEFT) == Cut.parse("V2L")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "expected <V|H>"),
        ("V", "expected <V|H>"),
        ("X3L", "expected <V|H>"),
        ("V3U", "a vertical seam pushes L or R"),
        ("H3L", "a horizontal seam pushes U or D"),
        ("V3L2R", "a vertical seam is entered from T or B"),
        ("H3T2U", "a horizontal seam is entered from L or R"),
        ("V3T0R", "depth must be at least 1"),
        ("V3T2", "expected <V|H>"),
        ("V3TR", "expected <V|H>"),
    ],
)
def test_malformed_specs(spec, message):
    with pytest.raises(InputError, match=message) as info:
        Cut.parse(spec)
    assert "\n" not in str(info.value)


cuts = st.builds(
    lambda seam, index, end_i, depth, push_i: Cut(
        seam, index,
        [End.TOP, End.BOTTOM][end_i] if seam is Seam.VERTICAL else [End.LEFT, End.RIGHT][end_i],
        depth,
        [Push.LEFT, Push.RIGHT][push_i] if seam is Seam.VERTICAL else [Push.UP, Push.DOWN][push_i],
    ),
    st.sampled_from(Seam), st.integers(0, 40), st.integers(0, 1),
    st.none() | st.integers(1, 40), st.integers(0, 1),
)


@given(cuts)
def test_notation_round_trips(cut):
    assert Cut.parse(str(cut)) == cut
    assert Cut.from_json(cut.to_json()) == cut


# ---- block JSON -------------------------------------------------------------------------


def test_block_json_round_trip():
    block = drawn(SQUARE)
    assert Block.from_json(block.to_json()) == block


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], 'a "dice" list'),
        ({"dice": {}}, 'a "dice" list'),
        ({"dice": [1]}, "die #1: expected an object"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot"}]}, "missing 'value'"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "kale", "value": 2}]},
         "unknown ingredient 'kale'"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot", "value": 7}]},
         "value 7 is not a die face"),
        ({"dice": [{"row": 0, "col": "a", "ingredient": "carrot", "value": 2}]},
         "col must be an integer"),
        ({"dice": [{"row": -1, "col": 0, "ingredient": "carrot", "value": 2}]},
         "0 or more"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot", "value": 2},
                   {"row": 0, "col": 0, "ingredient": "onion", "value": 4}]},
         r"two dice overlap at \(0,0\)"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot", "value": 2},
                   {"row": 0, "col": 2, "ingredient": "onion", "value": 4}]},
         "not one connected block: they form 2 pieces"),
    ],
)
def test_bad_block_json(doc, message):
    with pytest.raises(InputError, match=message):
        Block.from_json(doc)


def test_oddities_flag_a_one_and_too_many_of_an_ingredient():
    dice = [Die(0, c, Ingredient.PEPPER, 2) for c in range(8)] + [
        Die(1, 0, Ingredient.ONION, 1)]
    notes = Block.of(dice).oddities()
    assert notes == ["onion 1 at (1,0): 1 is not a face of these dice",
                     "8 pepper dice, but the game has 7"]
