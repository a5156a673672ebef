"""small_stats gives numpy's very floats (the dice readings must not move by a bit)."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from companion.vision.dice import cell, small_stats
from companion.vision.dice import constants as C

FLOATS = st.floats(0.0, 300.0, width=32, allow_nan=False)


def _arrays(dtype: type, max_side: int = 400) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(dtype, st.integers(1, max_side), elements=FLOATS)


@settings(max_examples=300, deadline=None)
@given(values=st.one_of(_arrays(np.float32), _arrays(np.float64)),
       q=st.sampled_from([30, 50, 85, 99, 0, 100]))
def test_percentile_and_median_match_numpy(values: np.ndarray, q: int) -> None:
    got = small_stats.percentile(values, q)
    want = np.percentile(values, q)
    assert got == want and np.asarray(got).dtype == np.asarray(want).dtype
    assert small_stats.median_of(values) == float(np.median(values))
    assert small_stats.median(values.tolist()) == float(np.median(values.tolist()))


@settings(max_examples=300, deadline=None)
@given(rows=hnp.arrays(np.float32, st.tuples(st.integers(1, 8), st.just(3)), elements=FLOATS))
def test_median_rows_and_norm_match_numpy(rows: np.ndarray) -> None:
    got, want = small_stats.median_rows(rows), np.median(rows, axis=0)
    assert np.array_equal(got, want) and got.dtype == want.dtype
    assert small_stats.norm(rows[0] - got) == float(np.linalg.norm(rows[0] - want))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), share=st.floats(0.0, 1.0))
def test_quarter_medians_match_masked_medians(seed: int, share: float) -> None:
    rng = np.random.default_rng(seed)
    patch = rng.integers(0, int(rng.integers(1, 257)), (64, 64, 3), dtype=np.uint8)
    mask = rng.random((64, 64)) < share
    got = cell._quarter_medians(patch, mask, 20)
    for med, quarter in zip(got, cell._quadrants(64), strict=True):
        px = patch.astype(np.float32)[mask & quarter]
        if len(px) < 20:
            assert med is None
        else:
            assert med is not None and np.array_equal(med, np.median(px, axis=0))


def _peaks_on_whole_patch(resp: np.ndarray, region: np.ndarray,
                          min_dist: float) -> list[tuple[float, int, int]]:
    """The peak search as it was, over the whole patch and its region mask."""
    dil = cv2.dilate(resp, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((resp >= dil) & region & (resp > 0))
    vals = resp[ys, xs]
    order = np.lexsort((xs, ys, vals))[::-1]
    kept: list[tuple[float, int, int]] = []
    for v, y, x in zip(vals[order].tolist(), ys[order].tolist(), xs[order].tolist(),
                       strict=True):
        if all((y - ky) ** 2 + (x - kx) ** 2 >= min_dist**2 for _, ky, kx in kept):
            kept.append((v, y, x))
            if len(kept) >= 12:
                break
    return kept


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([16, 33, 64]))
def test_peaks_in_the_face_box_match_the_whole_patch(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    resp = cv2.GaussianBlur(rng.normal(0.0, 10.0, (n, n)).astype(np.float32), (0, 0), 1.5)
    _, _, region = cell._patch_grid(n)
    spacing = 0.6 * C.PIP_LATTICE_FRACTION * n
    assert cell._peaks(resp, cell._face_box(n), spacing) == _peaks_on_whole_patch(
        resp, region, spacing)
