"""Rules settle close calls between letters, and never overrule a confident reading."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.vision.sheet.constants import REVIEW_BELOW
from companion.vision.sheet.decide import Candidates, decide

# Variant A: boots is a *same* container (r0: c0 c1, r1: c0 c1, r2: c0),
# wheelbarrow a *different* one, watering-can holds *pairs* (r0.c0 with r0.c1).
SURE_ONION: Candidates = ((None, 0.0), ("onion", 0.97), ("carrot", 0.03))
CLOSE_CALL: Candidates = ((None, 0.0), ("carrot", 0.52), ("onion", 0.48))


def test_same_container_breaks_a_close_call() -> None:
    cands = {
        "garden.boots.r0.c0": SURE_ONION,
        "garden.boots.r0.c1": SURE_ONION,
        "garden.boots.r1.c0": CLOSE_CALL,
    }
    out = decide(cands, "A")
    value, conf, note = out["garden.boots.r1.c0"]
    assert value == "onion"
    assert "same" in note
    assert conf > 0.5


def test_confident_reading_is_never_overruled() -> None:
    confident_carrot: Candidates = ((None, 0.0), ("carrot", 0.97), ("onion", 0.03))
    cands = {
        "garden.boots.r0.c0": SURE_ONION,
        "garden.boots.r0.c1": SURE_ONION,
        "garden.boots.r1.c0": confident_carrot,
    }
    out = decide(cands, "A")
    assert out["garden.boots.r1.c0"][0] == "carrot"  # validation will report the mix


def test_far_apart_candidates_are_left_alone() -> None:
    unsure: Candidates = ((None, 0.0), ("carrot", 0.8), ("onion", 0.2))
    cands = {"garden.boots.r0.c0": SURE_ONION, "garden.boots.r0.c1": unsure}
    assert decide(cands, "A")["garden.boots.r0.c1"][0] == "carrot"


def test_different_container_disfavours_a_repeat() -> None:
    cands = {
        "garden.wheelbarrow.r0.c0": SURE_ONION,
        "garden.wheelbarrow.r0.c1": ((None, 0.0), ("onion", 0.51), ("carrot", 0.49)),
    }
    assert decide(cands, "A")["garden.wheelbarrow.r0.c1"][0] == "carrot"


def test_pair_partner_breaks_a_close_call() -> None:
    cands = {
        "garden.watering-can.r0.c0": SURE_ONION,
        "garden.watering-can.r0.c1": CLOSE_CALL,
    }
    assert decide(cands, "A")["garden.watering-can.r0.c1"][0] == "onion"


def test_marks_pass_through() -> None:
    cands = {"garden.honey": ((None, 0.1), ("circled", 0.9))}
    assert decide(cands, "A")["garden.honey"] == ("circled", 0.9, "")


probs = st.floats(0.0, 1.0)


@given(probs, probs, probs, probs)
def test_a_trusted_reading_keeps_its_value(e: float, a: float, b: float, c: float) -> None:
    """Whatever its neighbours say, a reading trusted on its own keeps its value."""
    cell: Candidates = ((None, e), ("carrot", a), ("onion", b), ("pepper", c))
    alone = decide({"garden.boots.r1.c0": cell}, "A")["garden.boots.r1.c0"]
    together = decide(
        {"garden.boots.r0.c0": SURE_ONION, "garden.boots.r0.c1": SURE_ONION,
         "garden.boots.r1.c0": cell}, "A")["garden.boots.r1.c0"]
    if alone[1] >= REVIEW_BELOW:
        assert together[0] == alone[0]
    assert 0.0 <= together[1] <= 1.0 + 1e-9


EMPTY: Candidates = ((None, 0.99), ("onion", 0.01))
FULL_BOOTS = {f"garden.boots.{c}": SURE_ONION for c in ("r0.c0", "r0.c1", "r1.c0", "r1.c1",
                                                         "r2.c0")}


def test_unsure_check_on_an_unfinished_container_becomes_a_cross() -> None:
    """A check needs a full container: a doubtful check over a surely empty cell is more
    likely a cross, but the field stays in review."""
    doubtful_check: Candidates = ((None, 0.0), ("check", 0.85), ("cross", 0.15))
    cands = {**FULL_BOOTS, "garden.boots.r2.c0": EMPTY,
             "garden.boots.first-potter": doubtful_check}
    value, conf, note = decide(cands, "A")["garden.boots.first-potter"]
    assert value == "cross" and conf < REVIEW_BELOW and "full container" in note


def test_check_on_a_full_container_or_a_sure_check_is_kept() -> None:
    doubtful_check: Candidates = ((None, 0.0), ("check", 0.85), ("cross", 0.15))
    full = {**FULL_BOOTS, "garden.boots.first-potter": doubtful_check}
    assert decide(full, "A")["garden.boots.first-potter"][0] == "check"
    sure_check: Candidates = ((None, 0.0), ("check", 0.97), ("cross", 0.03))
    unfinished = {**FULL_BOOTS, "garden.boots.r2.c0": EMPTY,
                  "garden.boots.first-potter": sure_check}
    assert decide(unfinished, "A")["garden.boots.first-potter"][0] == "check"  # reported


def test_a_rule_never_turns_a_likely_blank_into_a_mark() -> None:
    faint: Candidates = ((None, 0.4), ("check", 0.35), ("cross", 0.25))
    cands = {**FULL_BOOTS, "garden.boots.r2.c0": EMPTY, "garden.boots.first-potter": faint}
    assert decide(cands, "A")["garden.boots.first-potter"][0] is None


def test_unsure_honey_with_no_full_area_reads_not_circled() -> None:
    unsure: Candidates = ((None, 0.4), ("circled", 0.6))
    top_gap = {"garden.wheelbarrow.r0.c0": EMPTY, "garden.bathtub.r0.c0": EMPTY}
    value, conf, note = decide({**top_gap, "garden.honey": unsure}, "A")["garden.honey"]
    assert value is None and conf < REVIEW_BELOW and "full area" in note
    # one area with no surely empty cell: the honey may well be circled
    assert decide({"garden.bathtub.r0.c0": EMPTY, "garden.honey": unsure},
                  "A")["garden.honey"][0] == "circled"
