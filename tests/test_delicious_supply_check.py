"""Sheets checked against the night's community supply: what it cannot explain goes to
review, named by field, and nothing is changed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.delicious.garden import VEG_WILD, garden
from companion.games.delicious.read_table import TableSheet, pair_table
from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.supply import supply
from companion.games.delicious.supply_check import MismatchCode, check_against_supply
from companion.games.delicious.symbols import Fruit, Tool, Vegetable
from tests.fake_readings import FakeField

NO_PEPPER = 7963  # a seed whose 24 cards hold no pepper (all five were set aside)
CELL = "garden.wheelbarrow.r0.c0"


def test_the_pinned_seed_shows_no_pepper_card():
    assert Vegetable.PEPPER not in {r.card.card.vegetable for r in supply(NO_PEPPER).reveals()}


def test_a_plant_no_card_showed_is_flagged():
    found = check_against_supply({CELL: "pepper"}, "A", supply(NO_PEPPER))
    assert [(m.code, m.subject, m.fields) for m in found] == [
        (MismatchCode.PLANT, "pepper", (CELL,))]
    assert "0 pepper cards" in found[0].message


def test_a_misread_plant_on_a_played_sheet_is_flagged_on_that_field():
    record = simulate_game(NO_PEPPER)
    fields = dict(record.field_maps[0])
    assert check_against_supply(fields, record.variant, supply(NO_PEPPER)) == []
    cell = next(c for c, v in fields.items() if c.startswith("garden.wheelbarrow.r0")
                and v != "pepper")
    fields[cell] = "pepper"  # the reader took another vegetable for a pepper
    found = check_against_supply(fields, record.variant, supply(NO_PEPPER))
    assert [m.subject for m in found] == ["pepper"] and cell in found[0].fields


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(["A", "B"]))
def test_every_legally_played_sheet_agrees_with_its_supply(seed, variant):
    record = simulate_game(seed, players=2, variant=variant)
    for fields in record.field_maps:
        assert check_against_supply(fields, variant, supply(seed)) == []


def test_another_nights_supply_does_not_explain_a_sheet():
    record = simulate_game(1, players=3)
    assert all(check_against_supply(f, "A", supply(2)) for f in record.field_maps)


def _shown(seed: int, kind: type) -> set[Any]:
    return {r.face for r in supply(seed).reveals() if isinstance(r.face, kind)}


def test_a_crossed_tool_explains_one_plant_in_its_row_and_no_more():
    g = garden("A")
    seed = NO_PEPPER
    icon = next(i for i in g.tool_icons if i.container and i.tool in _shown(seed, Tool))
    assert icon.container is not None and icon.row is not None
    row = g.container(icon.container).rows[icon.row].cells
    one = {row[0]: "pepper", icon.field: "cross"}
    assert check_against_supply(one, "A", supply(seed)) == []
    two = {**one, row[1]: "pepper"} if len(row) > 1 else {**one, CELL: "pepper"}
    assert [m.subject for m in check_against_supply(two, "A", supply(seed))] == ["pepper"]


def test_the_vegetable_wild_spot_explains_one_vegetable():
    base = {VEG_WILD: "onion", CELL: "pepper"}
    onion_shown = any(r.card.card.vegetable is Vegetable.ONION
                      for r in supply(NO_PEPPER).reveals())
    assert onion_shown and check_against_supply(base, "A", supply(NO_PEPPER)) == []
    more = {**base, "garden.wheelbarrow.r0.c1": "pepper"}
    assert check_against_supply(more, "A", supply(NO_PEPPER))


def test_a_fruit_needs_a_token_on_a_card_of_its_space_shape():
    g = garden("A")
    seed = 0
    missing = next(iter(set(Fruit) - _shown(seed, Fruit)))
    space = g.planter[0].id
    found = check_against_supply({space: str(missing)}, "A", supply(seed))
    assert found and found[0].fields == (space,) and "0 " + str(missing) in found[0].message


def test_a_tool_crossed_more_often_than_the_supply_showed_it():
    g = garden("A")
    sp = supply(3)
    shown = [r.face for r in sp.reveals() if isinstance(r.face, Tool)]
    tool = min(Tool, key=lambda t: (shown.count(t), str(t)))
    icons = [i.field for i in g.tool_icons if i.tool is tool][:shown.count(tool) + 1]
    if len(icons) <= shown.count(tool):
        pytest.skip("the garden has no more icons of the rarest tool")
    found = check_against_supply({f: "cross" for f in icons}, "A", sp)
    assert [(m.code, m.subject, set(m.fields)) for m in found] == [
        (MismatchCode.TOOL, str(tool), set(icons))]


def test_fields_set_by_hand_are_trusted():
    assert check_against_supply({CELL: "pepper"}, "A", supply(NO_PEPPER), trusted=[CELL]) == []


# ---- through the shared read path (CLI and web) ------------------------------------


@dataclass(frozen=True)
class _Sheet:
    photo: str = "combo.jpg"
    sheet: str = "delicious-combo"
    code: str = "AAAA"
    variant: str = "A"
    seconds: float = 1.0
    readings: dict[str, FakeField] = field(default_factory=lambda: {
        CELL: FakeField(CELL, "pepper", 0.99),
        "garden.wheelbarrow.r0.c1": FakeField("garden.wheelbarrow.r0.c1", "onion", 0.99)})

    def to_json(self) -> dict[str, Any]:
        return {"photo": self.photo, "sheet": self.sheet}


def test_a_mismatch_becomes_a_review_item_and_changes_nothing():
    paired = pair_table([TableSheet(1, _Sheet())])
    plain = paired.score().document
    checked = paired.score(supply=supply(NO_PEPPER)).document
    assert "supply" not in plain and plain["review"] == []
    assert checked["review"] == [CELL]
    assert checked["fields"] == plain["fields"] and checked["score"] == plain["score"]
    assert [m["subject"] for m in checked["supply"]] == ["pepper"]
    assert checked["supply"][0]["fields"] == [CELL]
    json.dumps(checked)
    marks = paired.score(supply=supply(NO_PEPPER)).marks(1)[1]
    assert CELL in marks.review and any(n.startswith("supply: ") for n in marks.notes)


def test_a_field_confirmed_by_hand_leaves_review():
    paired = pair_table([TableSheet(1, _Sheet(), corrections=((CELL, "pepper"),))])
    doc = paired.score(supply=supply(NO_PEPPER)).document
    assert doc["review"] == [] and doc["supply"] == []
