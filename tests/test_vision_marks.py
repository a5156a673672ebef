"""Ink measures: light normalisation, the review band, check-or-cross shapes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.vision.sheet import marks
from companion.vision.sheet.constants import REVIEW_BELOW
from tools.synth.handwriting import draw_mark

PPM = 200 / 25.4


def _lit_paper(h: int = 400, w: int = 600) -> np.ndarray:
    """Blank paper under a strong light gradient with a hard-edged shadow across it."""
    x = np.linspace(0, 1, w)[None, :]
    light = 230 - 110 * x + np.zeros((h, 1))
    light[:, w // 2:] *= 0.6
    return np.clip(light, 0, 255).astype(np.uint8)


def test_blank_paper_under_gradient_and_shadow_has_no_ink() -> None:
    """Raw intensity would call the dark half ink; the ratio to local paper does not."""
    page = cv2.GaussianBlur(_lit_paper(), (0, 0), 12)  # a soft shadow edge, ~1.5 mm
    ratio = marks.paper_ratio(page, PPM)
    mask = marks.ink_mask(ratio)
    band = mask[:, 20:-20]  # the image border has no paper around it to compare with
    assert band.mean() < 0.002
    assert (page < 128).mean() > 0.2  # the naive test really would have failed


def test_stroke_in_shadow_is_ink() -> None:
    page = cv2.GaussianBlur(_lit_paper(), (0, 0), 12)
    cv2.line(page, (420, 100), (560, 300), 30, 3)  # in the shadowed, darker half
    ratio = marks.paper_ratio(page, PPM)
    mask = marks.ink_mask(ratio)
    assert mask[150:260, 440:540].mean() > 0.02
    assert mask[20:80, 20:200].mean() == 0.0


@given(st.floats(0.0, 0.2), st.floats(0.001, 0.05), st.floats(0.001, 0.2))
def test_logistic_is_monotone_and_edges_match_review(x: float, low: float, gap: float) -> None:
    high = low + gap
    p = marks.logistic(x, low, high, REVIEW_BELOW)
    assert 0.0 <= p <= 1.0
    assert marks.logistic(x + 0.01, low, high, REVIEW_BELOW) >= p
    assert marks.logistic(high, low, high, REVIEW_BELOW) == pytest.approx(REVIEW_BELOW, abs=1e-6)
    assert marks.logistic(low, low, high, REVIEW_BELOW) == pytest.approx(
        1 - REVIEW_BELOW, abs=1e-6)


def test_relative_ink_ignores_print() -> None:
    blank = np.full((40, 40), 255, np.uint8)
    blank[:, 18:22] = 0  # a printed line
    photo = np.ones((40, 40), np.float32)
    photo[:, 18:22] = 0.1
    photo = cv2.GaussianBlur(photo, (0, 0), 1.2)  # the same line, as blurred as a lens does
    photo = np.roll(photo, 1, axis=1)  # and a pixel off
    rel = marks.relative_ink(photo.copy(), marks.expected_ratio(blank, 1.2))
    assert (rel < 0.9).mean() < 0.05
    photo[5:35, 5:8] = 0.3  # the player's stroke on white paper
    rel = marks.relative_ink(photo, marks.expected_ratio(blank, 1.2))
    assert (rel[5:35, 5:8] < 0.9).all()


def _mark(kind: str, seed: int) -> np.ndarray:
    img = np.full((80, 80), 255, np.uint8)
    draw_mark(img, (8, 8, 64, 64), kind, np.random.default_rng(seed))
    return (img < 235).astype(np.uint8)  # any visible ink, pencil included


def test_cross_versus_check_on_synthetic_pen_marks() -> None:
    """Measured on the synthetic handwriting: crosses high, checks low, few in between."""
    crosses = [marks.cross_probability(_mark("cross", s)) for s in range(60)]
    checks = [marks.cross_probability(_mark("check", s)) for s in range(60)]
    assert np.mean([p > 0.5 for p in crosses]) >= 0.95
    assert np.mean([p < 0.5 for p in checks]) >= 0.95
    # a confident answer (beyond the review band) is right
    assert not any(p < 1 - REVIEW_BELOW for p in crosses)
    assert not any(p > REVIEW_BELOW for p in checks)


def test_too_little_ink_has_no_shape() -> None:
    assert marks.stroke_shape(np.zeros((20, 20), np.uint8)) is None
    assert marks.cross_probability(np.zeros((20, 20), np.uint8)) == 0.5


def test_box_px_grows_and_shifts() -> None:
    assert marks.box_px((10.0, 20.0, 5.0, 5.0), 2.0) == (20, 40, 30, 50)
    assert marks.box_px((10.0, 20.0, 5.0, 5.0), 2.0, 1.0, (3, -2)) == (21, 36, 35, 50)
