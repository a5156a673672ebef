"""small_stats gives numpy's very floats (the dice readings must not move by a bit)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from companion.vision.dice import cell, small_stats

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
