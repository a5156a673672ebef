"""Ink that is no one letter (outlier exposure in tools/train_letters.py): pieces of two
different real letters, clearly apart, never a whole letter; the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from tools.synth import real_hands
from tools.train_letters import OUTLIER_GAP, _fitted, _piece, outlier_strokes

needs_data = pytest.mark.skipif(not real_hands.available(),
                                reason="real handwriting (UNIPEN) not in ../shared")

TWO_STROKES = (np.array([[0.0, 0.0], [0.0, 1.0]]), np.array([[0.0, 0.0], [0.5, 0.3]]))
ONE_STROKE = (np.column_stack([np.linspace(0, 1, 20), np.linspace(0, 1, 20) ** 2]),)


def test_a_piece_is_never_the_whole_letter() -> None:
    for seed in range(40):
        rng = np.random.default_rng(seed)
        many = _piece(TWO_STROKES, rng)
        assert 1 <= len(many) < len(TWO_STROKES)
        one = _piece(ONE_STROKE, rng)
        assert len(one) == 1 and 3 <= len(one[0]) < len(ONE_STROKE[0])


def test_fitted_pieces_are_one_high_and_squeezed() -> None:
    wide = [np.array([[0.0, 0.0], [3.0, 1.0]])]
    out, end = _fitted(wide, 0.5, 0.6)
    allp = np.concatenate(out)
    assert allp[:, 1].min() == pytest.approx(0.0) and allp[:, 1].max() == pytest.approx(1.0)
    assert allp[:, 0].min() == pytest.approx(0.5) and end == pytest.approx(1.1)


@needs_data
def test_outliers_are_two_pieces_apart_and_seeded() -> None:
    split = real_hands.RealSplit.TRAIN.value
    for i in range(30):
        a = outlier_strokes(np.random.default_rng([3, i]), split)
        b = outlier_strokes(np.random.default_rng([3, i]), split)
        assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
        xs = sorted((float(s[:, 0].min()), float(s[:, 0].max())) for s in a)
        # some gap of at least the smallest drawn one separates a left and a right group
        gaps = [lo - max(hi for _, hi in xs[:k]) for k, (lo, _) in enumerate(xs) if k]
        assert max(gaps) >= OUTLIER_GAP[0] - 1e-9


@needs_data
def test_the_shipped_networks_doubt_ink_that_is_no_one_letter() -> None:
    """A retrain without --outliers trusted about a quarter of these; the shipped ones 2%."""
    from companion.vision.sheet.letters import LetterClassifier
    from tools.bench_letters import make_outlier_crops

    clf = LetterClassifier.load()
    floor = float(clf.meta["ensemble"]["review_below"])
    crops = make_outlier_crops(real_hands.RealSplit.CALIB.value, n=200)
    ranked = clf.classify_many(crops.crops, crops.alloweds)
    trusted = sum(r[0][1] >= floor for r in ranked)
    assert trusted <= 0.08 * len(ranked)
