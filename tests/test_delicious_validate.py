"""Final-sheet checks: every violation code, all problems at once, table cross-checks."""

from __future__ import annotations

from companion.games.delicious.garden import (
    FRUIT_WILD,
    HONEY_FIELD,
    VEG_BONUS,
    VEG_WILD,
    choice_id,
)
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import PlantChoice
from companion.games.delicious.table import TableCode, table_check
from companion.games.delicious.validate import CODES, SheetCode, check
from tests.test_delicious_support import FULL_A, all_choices, planter, rows, sheet

TOP_FULL = {k: v for k, v in FULL_A.items()
            if k.split(".")[1] in ("wheelbarrow", "boots", "watering-can")}


def codes(state: SheetState, final: bool = True) -> list[str]:
    return [v.code for v in check(state, final=final)]


def legal_base() -> dict[str, str]:
    return {**all_choices(), **rows("boots", ["carrot", "carrot"], ["carrot"])}


def test_a_plain_legal_sheet_has_no_violations():
    assert check(sheet(legal_base())) == []


def test_wrong_value_in_a_field():
    st = SheetState.from_field_map(
        {**legal_base(), "garden.planter.r0.c0": "carrot", VEG_WILD: "fig",
         "garden.honey": "check"}, "A"
    )
    found = [v for v in check(st) if v.code == SheetCode.WRONG_VALUE]
    assert {v.fields[0] for v in found} == {"garden.planter.r0.c0", VEG_WILD, "garden.honey"}


def test_same_mixed():
    st = sheet({**all_choices(), **rows("crate", ["pepper", "onion", None])})
    assert codes(st) == [SheetCode.SAME_MIXED]


def test_different_repeat():
    st = sheet({**all_choices(), **rows("teapot", ["onion", "onion"])})
    (v,) = check(st)
    assert v.code == SheetCode.DIFFERENT_REPEAT
    assert set(v.fields) == {"garden.teapot.r0.c0", "garden.teapot.r0.c1"}


def test_pair_split_and_pairs_repeat():
    st = sheet({**all_choices(), **rows("bathtub", ["onion", "carrot", "onion", "onion"])})
    assert sorted(codes(st)) == [SheetCode.PAIR_SPLIT, SheetCode.PAIRS_REPEAT]
    half = sheet({**all_choices(), **rows("bathtub", ["onion", None, None, "carrot"])})
    assert check(half) == []  # half-filled pairs are fine


def test_bottom_up():
    st = sheet({**all_choices(), **rows("wheelbarrow", ["onion", None, "pepper"], ["carrot"])})
    (v,) = check(st)
    assert v.code == SheetCode.BOTTOM_UP
    assert v.fields == ("garden.wheelbarrow.r1.c0",)


def test_first_potter_checked_on_a_container_not_full():
    st = sheet({**legal_base(), "garden.boots.first-potter": "check",
                "garden.crate.first-potter": "cross"})
    assert codes(st) == [SheetCode.FIRST_POTTER_NOT_FULL]


def test_honey_needs_a_full_area():
    assert codes(sheet({**legal_base(), HONEY_FIELD: "circled"})) == [SheetCode.HONEY_NOT_EARNED]
    ok = sheet({**all_choices(), **TOP_FULL, HONEY_FIELD: "circled",
                "garden.wheelbarrow.tool.r1": "cross"})
    assert SheetCode.HONEY_NOT_EARNED not in codes(ok)


def test_choice_count_exactly_12():
    st = sheet({**legal_base(), choice_id(PlantChoice.TWO_AS_IS, 2): ""})
    assert codes(st) == [SheetCode.CHOICE_COUNT]
    assert codes(st, final=False) == []


def test_tool_crossed_but_its_row_or_line_is_empty():
    st = sheet({**legal_base(), "garden.crate.tool.r1": "cross",
                "garden.planter.tool.col2": "cross", "garden.boots.tool.r0": "cross"})
    found = [v.fields[0] for v in check(st) if v.code == SheetCode.TOOL_LINE_EMPTY]
    assert found == ["garden.crate.tool.r1", "garden.planter.tool.col2"]


def test_too_many_vegetables():
    # 18 cards + 1 wild spot, no tool crossed: 19 vegetables at most; garden A top is 17.
    st = sheet({**all_choices(), **TOP_FULL, VEG_BONUS: "onion", VEG_WILD: "pepper",
                **rows("crate", ["onion"])})
    assert codes(st) == [SheetCode.TOO_MANY_VEGETABLES]
    st = sheet({**all_choices(), **TOP_FULL, VEG_BONUS: "onion", VEG_WILD: "pepper",
                **rows("crate", ["onion"]), "garden.wheelbarrow.tool.r1": "cross"})
    assert codes(st) == []


def test_too_many_fruits():
    fruit_rows = {**planter(0, ["fig"] * 5), **planter(1, ["fig"] * 5),
                  **planter(2, ["fig"] * 5), **planter(3, ["fig", "fig", "fig", None, None])}
    st = sheet({**all_choices(), **fruit_rows})  # 18 fruits from 18 tokens: fine
    assert codes(st) == []
    st = sheet({**all_choices(), **fruit_rows, "garden.boots.tool.r0": "cross",
                **rows("boots", ["carrot"])})  # that tool was a token not showing a fruit
    assert codes(st) == [SheetCode.TOO_MANY_FRUITS]
    st = sheet({**all_choices(), **fruit_rows, FRUIT_WILD: "fig",
                "garden.planter.r3.c3": "fig"})  # the wild spot paid for the 19th... and 20th
    assert codes(st) == [SheetCode.TOO_MANY_FRUITS]


def test_every_problem_at_once_and_every_code_covered():
    st = sheet({
        **rows("crate", ["pepper", "onion", "onion"], ["onion"]),
        **rows("teapot", ["onion", "onion"]),
        "garden.teapot.first-potter": "check",
        HONEY_FIELD: "circled",
        "garden.planter.tool.row0": "cross",
    })
    got = set(codes(st))
    assert {SheetCode.SAME_MIXED, SheetCode.DIFFERENT_REPEAT, SheetCode.FIRST_POTTER_NOT_FULL,
            SheetCode.HONEY_NOT_EARNED, SheetCode.CHOICE_COUNT, SheetCode.TOOL_LINE_EMPTY,
            SheetCode.TOO_MANY_VEGETABLES} <= got
    assert len(CODES) == len(set(CODES)) == 12
    for v in check(st):
        assert v.to_json() == {"code": v.code, "fields": list(v.fields), "message": v.message}
        assert v.message and "\n" not in v.message


# ---- several sheets at one table ------------------------------------------------------

BOOTS_FULL = rows("boots", ["carrot", "carrot"], ["carrot", "carrot"], ["carrot"])


def tcodes(*sheets: SheetState) -> list[list[str]]:
    return [[v.code for v in vs] for vs in table_check(list(sheets))]


def test_table_first_potter_checked_by_one_not_crossed_by_other():
    a = sheet({**BOOTS_FULL, "garden.boots.first-potter": "check"})
    b = sheet({**BOOTS_FULL})  # also full, but neither checked nor crossed
    c = sheet({"garden.boots.first-potter": "cross"})
    got = table_check([a, b, c])
    assert [[v.code for v in vs] for vs in got] == [[], [TableCode.FIRST_POTTER_NOT_CROSSED], []]
    assert "full" in got[1][0].message


def test_table_shared_first_potter_is_fine():
    a = sheet({**BOOTS_FULL, "garden.boots.first-potter": "check"})
    assert tcodes(a, a) == [[], []]


def test_table_full_container_nobody_checked():
    assert tcodes(sheet(BOOTS_FULL), sheet({})) == [[TableCode.FIRST_POTTER_UNCLAIMED], []]


def test_table_cross_nobody_explains():
    assert tcodes(sheet({"garden.crate.first-potter": "cross"}), sheet({})) == [
        [TableCode.FIRST_POTTER_CROSS_UNEXPLAINED], []
    ]


def test_table_honey_unclaimed_and_claimed():
    marks = {f"garden.{c}.first-potter": "check" for c in ("wheelbarrow", "boots",
                                                           "watering-can")}
    crosses = {k: "cross" for k in marks}
    full = sheet({**TOP_FULL, **marks})
    assert tcodes(full, sheet(crosses)) == [[TableCode.HONEY_UNCLAIMED], []]
    claimed = sheet({**TOP_FULL, **marks, HONEY_FIELD: "circled"})
    assert tcodes(claimed, sheet(crosses)) == [[], []]


def test_table_mixed_variants_are_flagged():
    got = tcodes(sheet({}, "A"), sheet({}, "B"))
    assert got == [[TableCode.MIXED_VARIANTS], [TableCode.MIXED_VARIANTS]]


def test_one_sheet_has_no_table_checks():
    assert tcodes(sheet(BOOTS_FULL)) == [[]]
