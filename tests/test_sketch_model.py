"""The sketch network and its members: pooled as the mean of their calibrated logs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from companion.errors import InputError
from companion.vision.sheet.constants_sketches import (
    LETTER_CLASS,
    SKETCH_CLASSES,
    SKETCH_META_PATH,
    SKETCH_MODEL_PATH,
)
from companion.vision.sheet.letter_ensemble import log_softmax
from companion.vision.sheet.sketch_model import SketchClassifier, model_fingerprint


def _copy(dst: Path, name: str, **meta: object) -> Path:
    """The shipped network under another name, its JSON changed by ``meta``."""
    model = dst / f"{name}.onnx"
    shutil.copyfile(SKETCH_MODEL_PATH, model)
    got = json.loads(SKETCH_META_PATH.read_text())
    got.pop("members", None)
    got.update(meta)
    model.with_suffix(".json").write_text(json.dumps(got))
    return model


def _inputs(n: int = 6) -> np.ndarray:
    rng = np.random.default_rng(3)
    x = np.zeros((n, 32, 32), np.float32)
    for i in range(n):  # a few strokes each, as ink on blank paper
        for _ in range(3):
            r, c = rng.integers(4, 28, 2)
            x[i, r - 2:r + 2, 4:28] = 1.0 if i % 2 else 0.0
            x[i, 4:28, c - 1:c + 1] = 1.0
    return x


def test_members_pool_the_plants_by_the_mean_of_their_logs(tmp_path: Path) -> None:
    alone = SketchClassifier.load(_copy(tmp_path, "alone", temperature=1.0))
    member = _copy(tmp_path, "b", temperature=2.5)
    both = SketchClassifier.load(_copy(tmp_path, "a", temperature=1.0, members=[member.name]))
    assert len(both.members) == 1 and not alone.members
    x = _inputs()
    p1 = alone.scores(x).probs
    z = np.log(p1)  # the network's logits up to a constant per row, at temperature 1
    pooled = np.exp(log_softmax((log_softmax(z, 1.0) + log_softmax(z, 2.5)) / 2, 1.0))
    li = SKETCH_CLASSES.index(LETTER_CLASS)
    plants = np.delete(pooled, li, axis=1)
    plants /= plants.sum(axis=1, keepdims=True)
    got = both.scores(x)
    np.testing.assert_allclose(got.probs.sum(axis=1), 1.0, rtol=1e-9)
    # whether a cell is a letter: the first network's alone (the gate is fitted on it)
    np.testing.assert_allclose(got.probs[:, li], p1[:, li], rtol=1e-9)
    # which plant: the pooled members, in the share the first network leaves to drawings
    np.testing.assert_allclose(np.delete(got.probs, li, axis=1),
                               plants * (1.0 - p1[:, li:li + 1]), rtol=1e-6, atol=1e-12)
    # a member softer than the first network makes a drawing's best plant less sure
    best = np.delete(p1, li, axis=1)
    best /= best.sum(axis=1, keepdims=True)
    assert np.all(plants.max(axis=1) <= best.max(axis=1) + 1e-9)
    assert np.any(plants.max(axis=1) < best.max(axis=1) - 1e-3)
    # the features (grouping's look) stay the first network's
    np.testing.assert_allclose(got.features, alone.scores(x).features, rtol=1e-6)


def test_the_fingerprint_covers_the_members(tmp_path: Path) -> None:
    member = _copy(tmp_path, "b")
    first = _copy(tmp_path, "a", members=[member.name])
    before = model_fingerprint(first)
    model_fingerprint.cache_clear()
    member.write_bytes(member.read_bytes() + b"\0")
    assert model_fingerprint(first) != before
    model_fingerprint.cache_clear()


def test_a_missing_or_malformed_member_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        SketchClassifier.load(_copy(tmp_path, "a", members=["nowhere.onnx"]))
    with pytest.raises(InputError, match="members must be a list"):
        SketchClassifier.load(_copy(tmp_path, "c", members="b.onnx"))
