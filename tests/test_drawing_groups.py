"""Grouping a player's alike drawings and naming each group once."""

from __future__ import annotations

import numpy as np

from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
from companion.vision.sheet.drawing_groups import DrawingEvidence, group_drawings

CHOICES = {"vegetable": VEGETABLE_PLANTS, "fruit": FRUIT_PLANTS}


def _ev(kind: str, best: str, p: float, look: int, dim: int = 8) -> DrawingEvidence:
    plants = CHOICES[kind]
    rest = (1.0 - p) / (len(plants) - 1)
    f = np.full(dim, 0.05, np.float32)
    f[look] = 1.0
    return DrawingEvidence(kind, tuple((v, p if v == best else rest) for v in plants), 0.99,
                           0.01, f / np.linalg.norm(f))


def test_alike_drawings_form_one_group_and_one_question() -> None:
    drawn = {f"c{i}": _ev("vegetable", "carrot", 0.7, 0) for i in range(4)}
    drawn |= {f"m{i}": _ev("vegetable", "mushroom", 0.999, 1) for i in range(3)}
    groups = group_drawings(drawn, CHOICES, 0.3, 0.99)
    assert [(g.fields, g.guess, g.trusted) for g in groups] == [
        (("c0", "c1", "c2", "c3"), "carrot", False), (("m0", "m1", "m2"), "mushroom", True)]


def test_a_group_is_as_sure_as_its_average_drawing_not_their_product() -> None:
    # the same drawing made again misleads alike: four 0.9s are no 0.9999
    drawn = {f"c{i}": _ev("vegetable", "carrot", 0.9, 0) for i in range(4)}
    (group,) = group_drawings(drawn, CHOICES, 0.3, 0.99)
    assert group.guess == "carrot" and not group.trusted
    assert abs(group.confidence - 0.9) < 1e-6


def test_a_drawing_that_disagrees_with_its_group_is_its_own_question() -> None:
    drawn = {f"c{i}": _ev("vegetable", "carrot", 0.999, 0) for i in range(3)}
    drawn["odd"] = _ev("vegetable", "broccoli", 0.95, 0)  # looks alike, reads otherwise
    groups = {g.fields: g for g in group_drawings(drawn, CHOICES, 0.3, 0.99)}
    assert groups[("odd",)].guess == "broccoli"
    assert not groups[("odd",)].trusted
    assert groups[("c0", "c1", "c2")].trusted


def test_fruit_and_vegetable_cells_never_share_a_group() -> None:
    drawn = {"v": _ev("vegetable", "carrot", 0.9, 0), "f": _ev("fruit", "fig", 0.9, 0)}
    groups = group_drawings(drawn, CHOICES, 0.9, 0.5)
    assert sorted(g.fields for g in groups) == [("f",), ("v",)]
    assert {g.guess for g in groups} == {"carrot", "fig"}
    q = groups[0].question_json()
    assert set(q) == {"id", "fields", "guess", "choices"} and q["id"].startswith("q")
