"""Field maps and sheet state: strict loading, round trips, immutability."""

from __future__ import annotations

import json

import pytest

from companion.errors import InputError, UnknownNameError
from companion.fileio import read_json_object
from companion.games.delicious.fieldmap import FieldMap, load_field_map
from companion.games.delicious.state import SheetState

DOC = {"game": "delicious", "variant": "B", "player": "ann",
       "fields": {"garden.wheelbarrow.r0.c0": "pepper", "garden.planter.r2.c3": "fig",
                  "play.choice.2-as-is.0": "marked", "garden.boots.first-potter": "check",
                  "garden.honey": ""}}


def test_load_from_mapping_text_and_path(tmp_path):
    path = tmp_path / "ann.json"
    path.write_text(json.dumps(DOC))
    for source in (DOC, json.dumps(DOC), read_json_object(path), read_json_object(str(path))):
        fm = load_field_map(source)
        assert fm == FieldMap("B", {k: v for k, v in DOC["fields"].items() if v}, "ann")
    assert load_field_map(read_json_object(path)).to_json()["fields"] == load_field_map(DOC).fields


def test_variant_defaults_to_a():
    assert load_field_map({"fields": {}}).variant == "A"


@pytest.mark.parametrize(
    ("doc", "error", "needle"),
    [
        ({"fields": {"garden.bogus": "x"}}, UnknownNameError, "unknown field id"),
        ({"fields": {"garden.honey": "check"}}, UnknownNameError, "honey field"),
        ({"variant": "Q", "fields": {}}, UnknownNameError, "unknown variant 'Q'"),
        ({"variant": 3, "fields": {}}, InputError, "variant"),
        ({"player": 4, "fields": {}}, InputError, "player"),
        ({"fields": []}, InputError, "fields"),
        ({"game": "deli-duel", "fields": {}}, InputError, "deli-duel"),
    ],
)
def test_malformed_maps_raise_one_clear_line(doc, error, needle):
    with pytest.raises(error) as exc:
        load_field_map(doc)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_state_round_trips_and_is_copy_on_write():
    fields = {k: v for k, v in DOC["fields"].items() if v}
    st = SheetState.from_field_map(fields, "B")
    assert st.to_field_map() == dict(sorted(fields.items()))
    changed = st.with_values({"garden.honey": "circled", "garden.planter.r2.c3": None})
    assert st.to_field_map() == dict(sorted(fields.items()))  # unchanged
    assert changed.honey and changed.get("garden.planter.r2.c3") is None
    assert SheetState.from_field_map(changed.to_field_map(), "B") == changed
    assert hash(SheetState.from_field_map(fields, "B")) == hash(st)


def test_state_refuses_unknown_ids_and_variants_but_keeps_odd_values():
    with pytest.raises(UnknownNameError):
        SheetState.from_field_map({"garden.nowhere": "x"}, "A")
    with pytest.raises(UnknownNameError):
        SheetState.empty("Z")
    odd = SheetState.from_field_map({"garden.planter.r0.c0": "carrot"}, "A")
    assert odd.get("garden.planter.r0.c0") == "carrot" and odd.fruit("garden.planter.r0.c0") is None
