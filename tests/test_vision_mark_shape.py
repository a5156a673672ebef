"""The check-or-cross CNN: loads, judges clean marks surely, refuses bad patches."""

from __future__ import annotations

import numpy as np
import pytest

from companion.errors import InputError
from companion.vision.sheet import mark_shape, marks
from companion.vision.sheet.constants import MARK_INK_BELOW, REVIEW_BELOW
from companion.vision.sheet.constants_marks import INPUT_PX, MARK_CLASSES, MODEL_PATH
from tools.synth.handwriting import draw_mark

needs_model = pytest.mark.skipif(not MODEL_PATH.is_file(), reason="no shipped mark model")


def _rel(kind: str, seed: int, ink: float = 0.2, side: int = 60) -> np.ndarray:
    """A mark as the reader's relative lightness (1 = paper) in an icon-sized patch."""
    img = np.full((side, side), 255, np.uint8)
    m = side // 8
    draw_mark(img, (m, m, side - 2 * m, side - 2 * m), kind, np.random.default_rng(seed))
    dark = 1.0 - img.astype(np.float32) / 255.0
    dark /= max(float(dark.max()), 1e-6)
    return np.asarray(1.0 - (1.0 - ink) * dark, np.float32)


@needs_model
def test_model_loads_with_its_metadata() -> None:
    model = mark_shape.shipped()
    assert model is not None
    assert model.meta["classes"] == list(MARK_CLASSES)
    assert 0.2 < model.temperature < 10
    assert MODEL_PATH.stat().st_size < 150 * 1024
    assert model.logits(np.zeros((0, INPUT_PX, INPUT_PX), np.float32)).shape == (0, 2)


@needs_model
@pytest.mark.parametrize("side", [40, 60, 90])
def test_clean_marks_are_judged_right_and_surely(side: int) -> None:
    model = mark_shape.shipped()
    assert model is not None
    crosses = [model.cross_probability(_rel("cross", s, side=side)) for s in range(20)]
    checks = [model.cross_probability(_rel("check", s, side=side)) for s in range(20)]
    assert min(crosses) > 0.5 and max(checks) < 0.5
    assert np.mean([p >= REVIEW_BELOW for p in crosses]) >= 0.8
    assert np.mean([p <= 1 - REVIEW_BELOW for p in checks]) >= 0.8


@needs_model
def test_reader_entry_point_uses_the_model() -> None:
    rel = _rel("cross", 3)
    model = mark_shape.shipped()
    assert model is not None
    assert marks.cross_probability_rel(rel, MARK_INK_BELOW) == pytest.approx(
        model.cross_probability(rel))


def test_blank_patch_has_no_shape() -> None:
    blank = np.ones((50, 50), np.float32)
    assert marks.cross_probability_rel(blank, MARK_INK_BELOW) == 0.5
    specks = blank.copy()
    specks[10, 10] = specks[30, 40] = 0.2  # two dark pixels are no mark
    assert marks.cross_probability_rel(specks, MARK_INK_BELOW) == 0.5


def test_preprocess_stretches_ink_to_the_mark() -> None:
    x = mark_shape.preprocess(_rel("cross", 1, ink=0.6))
    assert x.shape == (INPUT_PX, INPUT_PX) and x.dtype == np.float32
    assert x.max() == pytest.approx(1.0, abs=0.05) and x.min() >= 0.0
    blank = mark_shape.preprocess(np.full((40, 40), 0.99, np.float32))
    assert blank.max() <= 0.15  # paper grain is not blown up into a mark


@pytest.mark.parametrize("bad", [
    np.ones((2, 2), np.float32),
    np.ones((10, 10, 3), np.float32),
    np.full((10, 10), np.nan, np.float32),
    np.array([["a"] * 8] * 8),
])
def test_bad_patch_raises_input_error(bad: np.ndarray) -> None:
    with pytest.raises(InputError):
        mark_shape.preprocess(bad)


def test_missing_model_file_raises_input_error(tmp_path: object) -> None:
    with pytest.raises(InputError, match="not found"):
        mark_shape.MarkClassifier.load(f"{tmp_path}/none.onnx")
