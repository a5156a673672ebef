"""A player's named drawings kept from one sheet to the next: the file, and how a group is
named by them (companion.vision.sheet.own_drawings)."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError
from companion.vision.sheet.constants_sketches import (
    FRUIT_PLANTS,
    OWN_DRAWING_CONFIDENCE,
    OWN_DRAWINGS_PER_PLANT,
    VEGETABLE_PLANTS,
)
from companion.vision.sheet.drawing_groups import DrawingEvidence, DrawingGroup
from companion.vision.sheet.own_drawings import (
    OwnDrawings,
    drawings_from,
    load_drawings,
    name_by_own,
    save_drawings_file,
)

D = 8


def _unit(*xs: float) -> np.ndarray:
    v = np.zeros(D)
    v[:len(xs)] = xs
    return v / np.linalg.norm(v)


CARROT, ONION, BETWEEN = _unit(1, 0), _unit(0, 1), _unit(1, 1)


def _own() -> OwnDrawings:
    return drawings_from([("carrot", CARROT), ("onion", ONION), ("carrot", _unit(1, 0.1))],
                         "net1")


def test_a_group_like_one_plants_drawings_only_is_named_by_them() -> None:
    own = _own()
    assert own.name([_unit(1, 0.05), _unit(1, -0.05)], VEGETABLE_PLANTS, 0.35) == "carrot"
    assert own.name([ONION], VEGETABLE_PLANTS, 0.35) == "onion"
    # as alike to both plants' drawings: no name; too far from every one: no name
    assert own.name([BETWEEN], VEGETABLE_PLANTS, 0.35) is None
    assert own.name([_unit(0, 0, 1)], VEGETABLE_PLANTS, 0.35) is None
    # a plant the cells do not allow is never given
    assert own.name([CARROT], FRUIT_PLANTS, 0.35) is None
    # one drawing of the group unlike the plant's keeps the whole group from its name
    assert own.name([CARROT, CARROT, _unit(0.3, 1)], VEGETABLE_PLANTS, 0.35) is None


def _ev(look: np.ndarray) -> DrawingEvidence:
    return DrawingEvidence("vegetable", (("carrot", 0.5), ("onion", 0.5)), 1.0, 0.0, look)


def test_groups_named_trusted_or_asked_by_the_players_own_drawings() -> None:
    drawn = {"a": _ev(CARROT), "b": _ev(CARROT), "c": _ev(ONION), "d": _ev(_unit(0, 0, 1))}
    groups = [DrawingGroup("q1", "vegetable", ("a", "b"), "onion", 0.7, False, VEGETABLE_PLANTS),
              DrawingGroup("q2", "vegetable", ("c",), "carrot", 0.999, True, VEGETABLE_PLANTS),
              DrawingGroup("q3", "vegetable", ("d",), "lettuce", 0.7, False, VEGETABLE_PLANTS)]
    a, c, d = name_by_own(groups, drawn, _own(), 0.35)
    assert (a.guess, a.trusted, a.own, a.confidence) == ("carrot", True, "earlier",
                                                          OWN_DRAWING_CONFIDENCE)
    assert (c.guess, c.trusted) == ("onion", False)  # trusted, but the player says otherwise
    assert d == groups[2]  # like none of the player's drawings: left as it was


def test_the_file_round_trips_and_keeps_the_newest_drawings(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    save_drawings_file(_own(), path)
    back = load_drawings(path)
    assert back.model == "net1" and back.plants() == ["carrot", "onion"]
    assert np.allclose(back.looks["carrot"], _own().looks["carrot"], atol=1e-4)
    many = drawings_from([("carrot", _unit(1, k / 100)) for k in range(40)], "net1")
    assert len(many.looks["carrot"]) == OWN_DRAWINGS_PER_PLANT
    merged = _own().with_newer(drawings_from([("fig", _unit(0, 0, 1))], "net1"))
    assert merged.plants() == ["carrot", "onion", "fig"] and merged.count == 4
    assert _own().with_newer(drawings_from([("fig", CARROT)], "net2")).plants() == ["fig"]
    assert _own().with_newer(_own()).count == 3  # the same sheet saved again: no repeats
    renamed = _own().with_newer(drawings_from([("lettuce", ONION)], "net1"))  # corrected
    assert renamed.plants() == ["carrot", "lettuce"] and renamed.count == 3


@pytest.mark.parametrize("doc, words", [
    ([], "not a drawings file"),
    ({"format": "companion-dice-colours", "version": 1}, "not a drawings file"),
    ({"format": "companion-drawings", "version": 9, "model": "x", "plants": {}}, "version"),
    ({"format": "companion-drawings", "version": 1, "plants": {}}, '"model"'),
    ({"format": "companion-drawings", "version": 1, "model": "x",
      "plants": {"kale": [[1.0]]}}, "not a plant"),
    ({"format": "companion-drawings", "version": 1, "model": "x",
      "plants": {"fig": [[1.0], [1.0, 0.0]]}}, "rows of numbers"),
    ({"format": "companion-drawings", "version": 1, "model": "x",
      "plants": {"fig": [[1.0]], "onion": [[1.0, 0.0]]}}, "rows of numbers"),
    ({"format": "companion-drawings", "version": 1, "model": "x",
      "plants": {"fig": [[3.0, 4.0]]}}, "not a look"),
])
def test_a_wrong_file_is_refused_in_one_line(tmp_path: Path, doc: Any, words: str) -> None:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=words) as err:
        load_drawings(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_a_missing_or_broken_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_drawings(tmp_path / "none.json")
    (tmp_path / "bad.json").write_bytes(b"\xff{")
    with pytest.raises(InputError, match="not a JSON drawings file"):
        load_drawings(tmp_path / "bad.json")


def test_a_hostile_file_is_refused_in_one_line(tmp_path: Path) -> None:
    for name, text, words in (("deep.json", "[" * 100_000 + "]" * 100_000, "not a JSON"),
                              ("big.json", '{"version": ' + "9" * 5000 + "}", "too large")):
        (tmp_path / name).write_text(text)
        with pytest.raises(InputError, match=words) as err:
            load_drawings(tmp_path / name)
        assert str(tmp_path / name) in str(err.value) and "\n" not in str(err.value)
    os.mkfifo(tmp_path / "fifo")  # would wait for a writer forever
    with pytest.raises(InputError, match="not a regular file"):
        load_drawings(tmp_path / "fifo")


def test_a_drawings_file_is_read_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {"format": "companion-drawings", "version": 1, "model": "x",
           "plants": {"fig": [[0.6, 0.8]]}}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(doc)))
    assert load_drawings("-").plants() == ["fig"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("{"))
    with pytest.raises(InputError, match="^stdin: not a JSON drawings file"):
        load_drawings("-")


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.floats() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=4)
                    | st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=12),
       st.sampled_from(["plants", "model", "version"]))
def test_any_json_is_read_or_refused_cleanly(junk: Any, key: str) -> None:
    doc = {"format": "companion-drawings", "version": 1, "model": "x",
           "plants": {"fig": [[1.0, 0.0]]}}
    doc[key] = junk
    try:
        OwnDrawings.from_json(doc)
    except InputError:
        pass


def test_the_own_distance_is_the_fitted_one_or_the_grouping_distance() -> None:
    from companion.vision.sheet.drawing_groups import GroupRule

    assert GroupRule.from_meta({"group_distance": 0.3}).own_distance == 0.3
    assert GroupRule.from_meta({"group_distance": 0.3, "group_own": 0.4}).own_distance == 0.4
    assert GroupRule.from_meta({"group_distance": 0.3, "group_own": "x"}).own_distance == 0.3
