"""Mark fields: quiet printed art under them, the marked-or-blank decision, check or cross."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import layouts
from companion.paper.model import FieldKind
from companion.vision.constants import RECTIFIED_PX_PER_MM
from companion.vision.sheet import marks
from companion.vision.sheet.constants import (
    MARK_BLANK_BELOW,
    MARK_FAINT_PROBABILITY,
    MARK_INK_BELOW,
    MARK_SURE_ABOVE,
    REVIEW_BELOW,
)
from companion.vision.sheet.reader import blank_sheet
from tools.synth.handwriting import draw_mark

MARKED_OVER_ART = (FieldKind.TOOL, FieldKind.FIRST_POTTER)


@pytest.mark.parametrize("bw", [False, True])
def test_icons_under_marks_print_light_but_visible(bw: bool) -> None:
    """Where a cross or check crosses the icon, no printed pixel is darker than mid-grey
    (the old dense art printed near black there), yet the icon is still drawn."""
    geometry = layouts.geometry("delicious-combo", "letter", "A")
    blank = blank_sheet("delicious-combo", "letter", "A", bw)
    fields = [f for f in geometry.fields if f.kind in MARKED_OVER_ART]
    assert len(fields) >= 20
    for f in fields:
        b = f.box_mm
        centre = marks.crop(blank, marks.box_px((b.x, b.y, b.w, b.h), RECTIFIED_PX_PER_MM,
                                                -0.2 * min(b.w, b.h)))
        assert int(centre.min()) >= 120, f.id
        assert float((centre < 200).mean()) > 0.1, f.id


def test_blank_icon_is_confidently_empty() -> None:
    for kind in ("tool", "first-potter"):
        p = marks.mark_probability(0.0, MARK_BLANK_BELOW[kind], MARK_SURE_ABOVE[kind])
        assert 1 - p >= REVIEW_BELOW


def test_faint_ink_reads_marked_but_goes_to_review() -> None:
    """A blurred pencil cross can leave a 0.3% ink share: marked, not trusted."""
    p = marks.mark_probability(0.003, MARK_BLANK_BELOW["tool"], MARK_SURE_ABOVE["tool"])
    assert p == pytest.approx(MARK_FAINT_PROBABILITY)
    assert 0.5 < p < REVIEW_BELOW


def test_clear_ink_is_confidently_marked() -> None:
    p = marks.mark_probability(0.05, MARK_BLANK_BELOW["tool"], MARK_SURE_ABOVE["tool"])
    assert p >= REVIEW_BELOW


@given(st.floats(0.0, 0.3), st.floats(0.0, 0.05))
def test_mark_probability_rises_with_ink(share: float, more: float) -> None:
    low, high = MARK_BLANK_BELOW["tool"], MARK_SURE_ABOVE["tool"]
    p = marks.mark_probability(share, low, high)
    assert 0.0 <= p <= 1.0
    assert marks.mark_probability(share + more, low, high) >= p


def _rel(kind: str, seed: int, paper: float = 1.0, ink: float = 0.0) -> np.ndarray:
    """A mark as relative lightness: 1 is paper; ``ink`` is how dark the darkest stroke is."""
    img = np.full((80, 80), 255, np.uint8)
    draw_mark(img, (8, 8, 64, 64), kind, np.random.default_rng(seed))
    dark = 1.0 - img.astype(np.float32) / 255.0
    dark /= max(float(dark.max()), 1e-6)
    return np.asarray(paper - (paper - ink) * dark, np.float32)


@pytest.mark.parametrize("ink", [0.1, 0.6, 0.75])  # felt pen, pencil, faint pencil
def test_check_or_cross_from_lightness(ink: float) -> None:
    """Right for nearly every clean mark, whatever the pen; never confidently wrong."""
    crosses = [marks.cross_probability_rel(_rel("cross", s, ink=ink), MARK_INK_BELOW)
               for s in range(40)]
    checks = [marks.cross_probability_rel(_rel("check", s, ink=ink), MARK_INK_BELOW)
              for s in range(40)]
    assert np.mean([p > 0.5 for p in crosses]) >= 0.95
    assert np.mean([p < 0.5 for p in checks]) >= 0.95
    assert not any(p < 1 - REVIEW_BELOW for p in crosses)
    assert not any(p > REVIEW_BELOW for p in checks)
    assert np.mean([p >= REVIEW_BELOW for p in crosses]) >= 0.5  # and mostly sure of it


def test_blank_patch_has_no_shape() -> None:
    assert marks.cross_probability_rel(np.ones((30, 30), np.float32), MARK_INK_BELOW) == 0.5
    assert marks.cross_probability_rel(np.ones((0, 0), np.float32), MARK_INK_BELOW) == 0.5


def test_faint_mark_shape_is_never_trusted() -> None:
    """Blurred pencil at 90% of paper lightness: its shape may be guessed, not trusted."""
    for kind in ("cross", "check"):
        for s in range(10):
            p = marks.cross_probability_rel(_rel(kind, s, ink=0.9), MARK_INK_BELOW + 0.05)
            assert 1 - REVIEW_BELOW < p < REVIEW_BELOW
