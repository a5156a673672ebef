"""Plant sketches read by a small CNN (ONNX, run with ``cv2.dnn``), beside the letters.

A plant cell may hold a letter or a sketch. The network sees the same normalised cell as
the letter classifier (letters.preprocess) and scores the eleven plants and "letter"; its
logits are divided by a temperature fitted on players it never saw (assets/sketches.json).
Its last hidden layer describes how a drawing looks, so a player's alike drawings can be
grouped (drawing_groups.py). Each cell is also read in a few test-time views (mirrored,
turned, shrunk, bolder: constants_sketches.SKETCH_VIEW_*): a real drawing unlike the ones
it learnt can be read confidently wrong in one view, rarely alike in all of them.
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
    SKETCH_VIEW_SCALE,
    SKETCH_VIEW_THICKEN_PX,
    SKETCH_VIEW_TURNS_DEG,
)


@dataclass(frozen=True)
class SketchScores:
    """Per cell: calibrated probabilities over SKETCH_CLASSES and the unit-length features."""

    probs: NDArray[np.float64]  # (n, classes)
    features: NDArray[np.float32]  # (n, d), each row of length 1 (or 0 for an empty input)

    def p_letter(self, i: int) -> float:
        return float(self.probs[i, SKETCH_CLASSES.index(LETTER_CLASS)])


def consensus(views: NDArray[np.float64]) -> NDArray[np.float64]:
    """One cell's views' probabilities (views, classes) as one: their mean log-probability,
    so a class is as likely as its average view makes it and one confidently wrong view
    does not carry the cell."""
    z = np.log(np.maximum(views, 1e-12)).mean(axis=0)
    p = np.exp(z - z.max())
    return np.asarray(p / p.sum(), np.float64)


def sketch_views(inputs: NDArray[np.float32]) -> NDArray[np.float32]:
    """(n, views, P, P): each preprocessed input as it is, mirrored, turned by each of
    SKETCH_VIEW_TURNS_DEG, shrunk to SKETCH_VIEW_SCALE and drawn bolder."""
    px = inputs.shape[-1]
    centre = (px / 2, px / 2)
    warps = [cv2.getRotationMatrix2D(centre, t, 1.0) for t in SKETCH_VIEW_TURNS_DEG]
    warps.append(cv2.getRotationMatrix2D(centre, 0.0, SKETCH_VIEW_SCALE))
    bold = np.ones((SKETCH_VIEW_THICKEN_PX + 1,) * 2, np.uint8)
    out = []
    for x in inputs:
        views = [x, x[:, ::-1]]
        views += [cv2.warpAffine(x, m, (px, px), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0) for m in warps]
        views.append(cv2.dilate(x, bold))
        out.append(np.stack(views))
    return np.ascontiguousarray(np.stack(out), np.float32)


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
        p, f = self._forward(np.asarray(inputs, np.float32))
        return SketchScores(p, f)

    def view_probs(self, inputs: NDArray[np.float32]) -> NDArray[np.float64]:
        """(n, views, classes): the probabilities of each input in every test-time view
        (sketch_views, the plain view first). Only the cells that are drawings need them."""
        n, c = len(inputs), len(SKETCH_CLASSES)
        if n == 0:
            return np.zeros((0, 0, c))
        views = sketch_views(np.asarray(inputs, np.float32))
        p, _ = self._forward(views.reshape(-1, *views.shape[2:]))
        return p.reshape(n, views.shape[1], c)

    def _forward(self, inputs: NDArray[np.float32]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float32]]:
        n = len(inputs)
        self.net.setInput(np.ascontiguousarray(inputs[:, None, :, :], np.float32))
        names = list(self.net.getUnconnectedOutLayersNames())
        out, feats = self.net.forward(names[:2])
        z = np.asarray(out, np.float64).reshape(n, len(SKETCH_CLASSES)) / self.temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        f = np.asarray(feats, np.float32).reshape(n, -1)
        f /= np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)
        return p, f


@cache
def sketch_classifier() -> SketchClassifier:
    return SketchClassifier.load()


@cache
def model_fingerprint(path: Path = SKETCH_MODEL_PATH) -> str:
    """A short digest of the network's file and of the views it reads a cell in:
    thresholds fitted on one network's outputs (assets/sketches.json "group_model") are
    only used with that network read that way."""
    views = repr((SKETCH_VIEW_TURNS_DEG, SKETCH_VIEW_SCALE, SKETCH_VIEW_THICKEN_PX)).encode()
    return hashlib.sha256(Path(path).read_bytes() + views).hexdigest()[:16]
