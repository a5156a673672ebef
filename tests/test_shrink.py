"""Shrinking by halvings first: nearly the picture of OpenCV's one-step area shrink (a
little softer), at the size the scale asks for."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.shrink import shrink, shrink_large


def _smooth(h: int, w: int, seed: int, feature_px: int = 8) -> np.ndarray:
    """Grey noise whose blobs are about ``feature_px`` wide."""
    rng = np.random.default_rng(seed)
    noise = rng.integers(0, 256, (h // feature_px + 2, w // feature_px + 2)).astype(np.uint8)
    return np.asarray(cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC))


@settings(max_examples=40, deadline=None)
@given(h=st.integers(200, 900), w=st.integers(200, 900), scale=st.floats(0.1, 1.0),
       seed=st.integers(0, 10_000))
def test_like_one_step_area_shrink(h: int, w: int, scale: float, seed: int) -> None:
    # detail some eight new pixels wide: finer detail than that is what a shrink
    # averages away, and where the two ways weigh a new pixel's edge differently
    img = _smooth(h, w, seed, max(8, int(8 / scale)))
    got = shrink(img, scale)
    want = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    # an odd row or column dropped before a halving can cost a pixel of size
    assert abs(got.shape[0] - want.shape[0]) <= 1 and abs(got.shape[1] - want.shape[1]) <= 1
    rows, cols = min(got.shape[0], want.shape[0]), min(got.shape[1], want.shape[1])
    inner = (slice(1, rows - 1), slice(1, cols - 1))  # away from a dropped edge pixel
    diff = np.abs(got[inner].astype(int) - want[inner].astype(int))
    assert diff.mean() < 1.5 and diff.max() <= 16


def test_exact_halving_and_no_shrink() -> None:
    img = _smooth(300, 400, 1)
    assert shrink(img, 1.0) is img or np.array_equal(shrink(img, 1.0), img)
    half = shrink(img, 0.5)
    assert half.shape == (150, 200)
    assert np.array_equal(half, cv2.resize(img, (200, 150), interpolation=cv2.INTER_AREA))


def test_a_12_mp_photo_to_the_marker_search_size() -> None:
    img = _smooth(3000, 4000, 2)
    assert shrink(img, 0.4).shape == (1200, 1600)


def test_shrink_large_halves_only_large_images() -> None:
    rng = np.random.default_rng(7)
    small = rng.integers(0, 256, (1200, 1600, 3), dtype=np.uint8)
    one_step = cv2.resize(small, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    assert np.array_equal(shrink_large(small, 0.3, 3000), one_step)
    big = rng.integers(0, 256, (2250, 3000, 3), dtype=np.uint8)
    assert np.array_equal(shrink_large(big, 0.3, 3000), shrink(big, 0.3))
