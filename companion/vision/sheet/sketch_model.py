"""Plant sketches read by a small CNN (ONNX, run with ``cv2.dnn``), beside the letters.

A plant cell may hold a letter or a sketch. The network sees the same normalised cell as
the letter classifier (letters.preprocess) and scores the eleven plants and "letter"; its
logits are divided by a temperature fitted on players it never saw (assets/sketches.json).
Its last hidden layer describes how a drawing looks, so a player's alike drawings can be
grouped (drawing_groups.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.onnx_model import load_onnx_model
from companion.vision.sheet.constants_letters import INPUT_PX
from companion.vision.sheet.constants_sketches import (
    LETTER_CLASS,
    SKETCH_CLASSES,
    SKETCH_META_PATH,
    SKETCH_MODEL_PATH,
)


@dataclass(frozen=True)
class SketchScores:
    """Per cell: calibrated probabilities over SKETCH_CLASSES and the unit-length features."""

    probs: NDArray[np.float64]  # (n, classes)
    features: NDArray[np.float32]  # (n, d), each row of length 1 (or 0 for an empty input)

    def p_letter(self, i: int) -> float:
        return float(self.probs[i, SKETCH_CLASSES.index(LETTER_CLASS)])


@dataclass
class SketchClassifier:
    net: cv2.dnn.Net
    temperature: float
    meta: dict[str, object]

    @classmethod
    def load(cls, path: str | Path | None = None) -> SketchClassifier:
        model = Path(path) if path is not None else SKETCH_MODEL_PATH
        meta = model.with_suffix(".json") if path is not None else SKETCH_META_PATH
        got = load_onnx_model(model, meta, SKETCH_CLASSES, INPUT_PX, "sketch")
        return cls(got.net, got.temperature, got.meta)

    def scores(self, inputs: NDArray[np.float32]) -> SketchScores:
        """Scores for preprocessed inputs (n, INPUT_PX, INPUT_PX)."""
        n = len(inputs)
        if n == 0:
            return SketchScores(np.zeros((0, len(SKETCH_CLASSES))), np.zeros((0, 0), np.float32))
        self.net.setInput(np.ascontiguousarray(inputs[:, None, :, :], np.float32))
        names = list(self.net.getUnconnectedOutLayersNames())
        out, feats = self.net.forward(names[:2])
        z = np.asarray(out, np.float64).reshape(n, len(SKETCH_CLASSES)) / self.temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        f = np.asarray(feats, np.float32).reshape(n, -1)
        f /= np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)
        return SketchScores(p, f)


@cache
def sketch_classifier() -> SketchClassifier:
    return SketchClassifier.load()


@cache
def model_fingerprint(path: Path = SKETCH_MODEL_PATH) -> str:
    """A short digest of the network's file: thresholds fitted on one network's outputs
    (assets/sketches.json "group_model") are only used with that network."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
