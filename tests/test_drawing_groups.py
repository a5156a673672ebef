"""Grouping a player's alike drawings and naming each group once."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
from companion.vision.sheet.drawing_groups import DrawingEvidence, GroupRule, group_drawings

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
    groups = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99))
    assert [(g.fields, g.guess, g.trusted) for g in groups] == [
        (("c0", "c1", "c2", "c3"), "carrot", False), (("m0", "m1", "m2"), "mushroom", True)]


def test_a_group_is_as_sure_as_its_average_drawing_not_their_product() -> None:
    # the same drawing made again misleads alike: four 0.9s are no 0.9999
    drawn = {f"c{i}": _ev("vegetable", "carrot", 0.9, 0) for i in range(4)}
    (group,) = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99))
    assert group.guess == "carrot" and not group.trusted
    assert abs(group.confidence - 0.9) < 1e-6


def test_a_drawing_that_disagrees_with_its_group_is_its_own_question() -> None:
    drawn = {f"c{i}": _ev("vegetable", "carrot", 0.999, 0) for i in range(3)}
    drawn["odd"] = _ev("vegetable", "broccoli", 0.95, 0)  # looks alike, reads otherwise
    groups = {g.fields: g for g in group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99))}
    assert groups[("odd",)].guess == "broccoli"
    assert not groups[("odd",)].trusted
    assert groups[("c0", "c1", "c2")].trusted


def test_fruit_and_vegetable_cells_never_share_a_group() -> None:
    drawn = {"v": _ev("vegetable", "carrot", 0.9, 0), "f": _ev("fruit", "fig", 0.9, 0)}
    groups = group_drawings(drawn, CHOICES, GroupRule(0.9, 0.5))
    assert sorted(g.fields for g in groups) == [("f",), ("v",)]
    assert {g.guess for g in groups} == {"carrot", "fig"}
    q = groups[0].question_json()
    assert set(q) == {"id", "fields", "guess", "choices", "what"} and q["id"].startswith("q")
    assert q["what"] == "drawing"


def _mixed(kind: str, probs: dict[str, float], look: int, network: tuple[float, ...] = (),
           dim: int = 8) -> DrawingEvidence:
    plants = CHOICES[kind]
    rest = (1.0 - sum(probs.values())) / max(len(plants) - len(probs), 1)
    f = np.full(dim, 0.05, np.float32)
    f[look] = 1.0
    return DrawingEvidence(kind, tuple((v, probs.get(v, rest)) for v in plants), 0.99, 0.01,
                           f / np.linalg.norm(f), network)


def test_six_copies_of_an_ambiguous_drawing_are_one_question_not_a_sure_group() -> None:
    # summed log evidence made six 0.6s a 0.9999 carrot; the same drawing made again is
    # one drawing's evidence
    drawn = {f"c{i}": _mixed("vegetable", {"carrot": 0.6, "pepper": 0.3}, 0) for i in range(6)}
    (group,) = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.95))
    assert not group.trusted and group.fields == tuple(sorted(drawn))
    assert abs(group.confidence - 0.6) < 1e-6


def _network(on_plants: float, plant: str = "carrot") -> tuple[float, ...]:
    from companion.vision.sheet.constants_sketches import LETTER_CLASS, SKETCH_CLASSES

    net = [0.0] * len(SKETCH_CLASSES)
    net[SKETCH_CLASSES.index(plant)] = on_plants
    net[SKETCH_CLASSES.index(LETTER_CLASS)] = 1.0 - on_plants
    return tuple(net)


def test_a_drawing_the_network_half_takes_for_a_letter_is_not_trusted() -> None:
    # among the vegetables alone it is a sure carrot, but the network gave the vegetables
    # only 0.4: it has not seen such a drawing
    rule = GroupRule(0.3, 0.95, on_kind=0.8)
    odd = {f"c{i}": _mixed("vegetable", {"carrot": 0.999}, 0, _network(0.4)) for i in range(3)}
    sure = {f"c{i}": _mixed("vegetable", {"carrot": 0.999}, 0, _network(0.99)) for i in range(3)}
    assert not group_drawings(odd, CHOICES, rule)[0].trusted
    assert group_drawings(sure, CHOICES, rule)[0].trusted


def test_a_group_unlike_its_plants_calibration_drawings_is_not_trusted() -> None:
    near = np.full(8, 0.05)
    near[0] = 1.0
    far = np.full(8, 0.05)
    far[5] = 1.0
    drawn = {f"c{i}": _mixed("vegetable", {"carrot": 0.999}, 0) for i in range(3)}
    for centre, trusted in ((near, True), (far, False)):
        rule = GroupRule(0.3, 0.95, typical=0.8, centres={"carrot": tuple(centre)})
        assert group_drawings(drawn, CHOICES, rule)[0].trusted is trusted


def test_two_groups_guessing_one_plant_are_not_both_trusted() -> None:
    # one player draws different plants differently: two sure "carrot" groups that look
    # apart cannot both be carrots, so the match takes one of them from its guess
    a = {f"a{i}": _mixed("vegetable", {"carrot": 0.999}, 0) for i in range(2)}
    b = {f"b{i}": _mixed("vegetable", {"carrot": 0.995}, 1) for i in range(2)}
    groups = group_drawings(a | b, CHOICES, GroupRule(0.1, 0.95))
    assert len(groups) == 2 and sum(g.trusted for g in groups) == 1
    unmatched = group_drawings(a | b, CHOICES, GroupRule(0.1, 0.95, match=False))
    assert all(g.trusted for g in unmatched)


def test_a_players_groups_are_matched_to_different_plants() -> None:
    # a sure carrot group, and a group that leans carrot but could be onion: the match
    # gives it onion, as its question's guess, untrusted
    sure = {f"c{i}": _mixed("vegetable", {"carrot": 0.999}, 0) for i in range(2)}
    lean = {f"o{i}": _mixed("vegetable", {"carrot": 0.55, "onion": 0.4}, 3) for i in range(2)}
    groups = {g.fields: g for g in group_drawings(sure | lean, CHOICES, GroupRule(0.1, 0.95))}
    assert groups[("o0", "o1")].guess == "onion" and not groups[("o0", "o1")].trusted


def test_a_weakly_different_member_stays_in_its_groups_question() -> None:
    drawn = {f"c{i}": _mixed("vegetable", {"carrot": 0.7, "pepper": 0.25}, 0) for i in range(3)}
    drawn["p"] = _mixed("vegetable", {"carrot": 0.35, "pepper": 0.6}, 0)
    (group,) = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.95))
    assert group.fields == ("c0", "c1", "c2", "p") and not group.trusted


def test_a_group_fit_of_another_network_trusts_nothing(monkeypatch: Any) -> None:
    from companion.vision.sheet import settle
    from companion.vision.sheet.sketch_model import model_fingerprint, sketch_classifier

    meta = sketch_classifier().meta
    monkeypatch.setitem(meta, "group_model", model_fingerprint())
    assert settle.group_rule().trust < 1.0
    monkeypatch.setitem(meta, "group_model", "another network")
    assert settle.group_rule().trust > 1.0  # every group a question until refitted


def test_cells_the_rules_keep_apart_never_share_a_group() -> None:
    # a "different" container's two cells hold two vegetables: a lone look-alike that
    # fits the group's plant least is asked about on its own
    drawn = {"w.a": _mixed("vegetable", {"pepper": 0.85}, 0),
             "w.b": _mixed("vegetable", {"pepper": 0.4, "carrot": 0.35}, 0),
             "x": _mixed("vegetable", {"pepper": 0.9}, 0)}
    together = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99))
    assert [g.fields for g in together] == [("w.a", "w.b", "x")]
    apart = {frozenset(("w.a", "w.b"))}
    split = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99), apart)
    assert sorted(g.fields for g in split) == [("w.a", "x"), ("w.b",)]


def test_a_gardens_different_and_pairs_containers_keep_cells_apart() -> None:
    from companion.games.delicious.garden import garden
    from companion.games.delicious.symbols import ContainerKind

    g = garden("A")
    apart = g.apart()
    for c in g.containers:
        cells = c.cells
        pairs = {frozenset((a, b)) for i, a in enumerate(cells) for b in cells[i + 1:]}
        if c.kind is ContainerKind.DIFFERENT:
            assert pairs <= apart
        elif c.kind is ContainerKind.SAME:
            assert not pairs & apart
        else:  # the two cells of one pair hold one vegetable
            assert all(frozenset(p) not in apart for p in c.pairs)
            assert pairs & apart


def _sketch_says(plant: str) -> tuple[float, ...]:
    from companion.vision.sheet.constants_sketches import SKETCH_CLASSES

    return tuple(0.9 if c == plant else 0.01 for c in SKETCH_CLASSES)


def test_a_cell_let_through_on_a_letter_trusts_its_group_only_where_the_sketch_agrees(
        ) -> None:
    """A drawer's cell the letter reader was sure of (read as a drawing, its plants leaning
    on that letter) counts towards a trusted group only where the sketch network's own
    reading agrees: otherwise it is asked apart and the drawings stay trusted."""
    from dataclasses import replace

    drawn = {f"o{i}": _ev("vegetable", "onion", 0.999, 0) for i in range(3)}
    lettuce_as_o = replace(_mixed("vegetable", {"onion": 0.95}, 0, _sketch_says("lettuce")),
                           on_word=True)
    groups = {g.fields: g for g in group_drawings({**drawn, "x": lettuce_as_o}, CHOICES,
                                                  GroupRule(0.3, 0.99))}
    assert groups[("o0", "o1", "o2")].trusted
    assert not groups[("x",)].trusted
    onion_as_o = replace(lettuce_as_o, network=_sketch_says("onion"))
    (group,) = group_drawings({**drawn, "x": onion_as_o}, CHOICES, GroupRule(0.3, 0.99))
    assert group.trusted and group.fields == ("o0", "o1", "o2", "x")
    alone = group_drawings({"x": lettuce_as_o}, CHOICES, GroupRule(0.3, 0.9))
    assert [(g.guess, g.trusted) for g in alone] == [("onion", False)]
    # the same cell not let through on a letter backs the group as before
    (group,) = group_drawings({**drawn, "x": replace(lettuce_as_o, on_word=False)}, CHOICES,
                              GroupRule(0.3, 0.99))
    assert group.trusted


def _at(kind: str, probs: dict[str, float], angle: float) -> DrawingEvidence:
    """A drawing whose look lies ``angle`` radians round from the first axis."""
    f = np.zeros(8, np.float32)
    f[0], f[1] = np.cos(angle), np.sin(angle)
    rest = (1.0 - sum(probs.values())) / (len(CHOICES[kind]) - len(probs))
    return DrawingEvidence(kind, tuple((v, probs.get(v, rest)) for v in CHOICES[kind]), 0.99,
                           0.01, f)


def test_two_questions_about_one_plant_drawn_alike_are_asked_once() -> None:
    # two looks 0.25 apart (cosine distance): two groups at the tight grouping distance,
    # one question once questions with one guess join within 0.3
    turn = float(np.arccos(0.75))
    drawn = {"a1": _at("vegetable", {"carrot": 0.6, "pepper": 0.3}, 0.0),
             "a2": _at("vegetable", {"carrot": 0.6, "pepper": 0.3}, 0.0),
             "b1": _at("vegetable", {"carrot": 0.5, "pepper": 0.4}, turn)}
    asked = group_drawings(drawn, CHOICES, GroupRule(0.2, 0.99, merge=0.3))
    assert [(g.fields, g.guess, g.trusted) for g in asked] == [
        (("a1", "a2", "b1"), "carrot", False)]
    apart = group_drawings(drawn, CHOICES, GroupRule(0.2, 0.99, merge=0.0))
    assert sorted(g.fields for g in apart) == [("a1", "a2"), ("b1",)]
    # cells the rules keep apart stay two questions
    kept = group_drawings(drawn, CHOICES, GroupRule(0.2, 0.99, merge=0.3),
                          {frozenset(("a1", "b1"))})
    assert sorted(g.fields for g in kept) == [("a1", "a2"), ("b1",)]


def test_questions_with_different_guesses_are_never_joined() -> None:
    turn = float(np.arccos(0.75))
    drawn = {"a": _at("vegetable", {"carrot": 0.6, "pepper": 0.3}, 0.0),
             "b": _at("vegetable", {"pepper": 0.6, "carrot": 0.3}, turn)}
    groups = group_drawings(drawn, CHOICES, GroupRule(0.2, 0.99, merge=0.3))
    assert sorted((g.fields, g.guess) for g in groups) == [(("a",), "carrot"),
                                                            (("b",), "pepper")]


def test_a_trusted_group_is_never_joined_with_a_question() -> None:
    turn = float(np.arccos(0.75))
    drawn = {"a": _at("vegetable", {"carrot": 0.999}, 0.0),
             "b": _at("vegetable", {"carrot": 0.6, "pepper": 0.3}, turn)}
    groups = group_drawings(drawn, CHOICES, GroupRule(0.2, 0.99, merge=0.3))
    assert sorted((g.fields, g.trusted) for g in groups) == [(("a",), True), (("b",), False)]


# ---- answers rule plants out for the player's other drawings ------------------------------

def _two_doubtful_groups() -> dict[str, DrawingEvidence]:
    # two plants the network hesitates between, drawn unalike (looks 0 and 1)
    drawn = {f"a{i}": _mixed("vegetable", {"carrot": 0.6, "pepper": 0.398}, 0) for i in range(3)}
    drawn |= {f"b{i}": _mixed("vegetable", {"carrot": 0.5, "pepper": 0.498}, 1)
              for i in range(2)}
    return drawn


def test_a_plant_named_for_some_drawings_is_ruled_out_for_the_others() -> None:
    drawn = _two_doubtful_groups()
    rule = GroupRule(0.3, 0.99, match=False)
    assert [g.trusted for g in group_drawings(drawn, CHOICES, rule)] == [False, False]
    named = {f"a{i}": "carrot" for i in range(3)}
    groups = {g.fields: g for g in group_drawings(drawn, CHOICES, rule, named=named)}
    other = groups[("b0", "b1")]
    assert (other.guess, other.trusted, other.own) == ("pepper", True, "answers")
    assert other.confidence > 0.99
    # the answered group itself is left to the player's answer
    assert not groups[("a0", "a1", "a2")].trusted


def test_drawings_like_the_ones_named_keep_that_plant() -> None:
    # the second group looks like the first (one plant's drawings cut in two): not ruled out
    from dataclasses import replace

    drawn = _two_doubtful_groups()
    near = np.full(8, 0.05, np.float32)
    near[:2] = 1.0, 1.5  # between the first group's look and the second's
    drawn |= {f"b{i}": replace(drawn[f"b{i}"], features=near / np.linalg.norm(near))
              for i in range(2)}
    apart = 1.0 - float(drawn["a0"].features @ drawn["b0"].features)
    assert 0.3 < apart < 0.6  # too far to group, near enough to be one plant
    named = {f"a{i}": "carrot" for i in range(3)}
    groups = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99, match=False, merge=0.0),
                            named=named)
    b = next(g for g in groups if g.fields == ("b0", "b1"))
    assert not b.trusted and b.own == ""


def test_a_letter_named_rules_no_drawing_out() -> None:
    # a player may write P in some cells and draw peppers in others
    from dataclasses import replace

    drawn = _two_doubtful_groups()
    drawn |= {f"a{i}": replace(drawn[f"a{i}"], p_letter=0.8) for i in range(3)}
    named = {f"a{i}": "carrot" for i in range(3)}
    groups = group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99, match=False), named=named)
    assert not next(g for g in groups if g.fields == ("b0", "b1")).trusted


def test_a_trusted_group_whose_plant_the_player_named_elsewhere_is_asked() -> None:
    drawn = {f"m{i}": _ev("vegetable", "mushroom", 0.999, 1) for i in range(3)}
    drawn |= {f"x{i}": _ev("vegetable", "mushroom", 0.5, 0) for i in range(2)}
    rule = GroupRule(0.3, 0.99, match=False)
    before = {g.fields: g.trusted for g in group_drawings(drawn, CHOICES, rule)}
    assert before[("m0", "m1", "m2")]
    named = {"x0": "mushroom", "x1": "mushroom"}
    after = {g.fields: g for g in group_drawings(drawn, CHOICES, rule, named=named)}
    assert not after[("m0", "m1", "m2")].trusted


def test_a_group_asked_because_of_an_answer_guesses_among_the_plants_left() -> None:
    drawn = {f"m{i}": _mixed("vegetable", {"mushroom": 0.995, "onion": 0.004}, 1)
             for i in range(3)}
    drawn |= {f"x{i}": _ev("vegetable", "mushroom", 0.5, 0) for i in range(2)}
    named = {"x0": "mushroom", "x1": "mushroom"}
    after = {g.fields: g for g in group_drawings(drawn, CHOICES, GroupRule(0.3, 0.99,
                                                                           match=False),
                                                 named=named)}
    m = after[("m0", "m1", "m2")]
    assert (m.trusted, m.guess, m.own) == (False, "onion", "")
