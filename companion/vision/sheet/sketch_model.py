"""Plant sketches read by a small CNN (ONNX, run with ``cv2.dnn``), beside the letters.

A plant cell may hold a letter or a sketch. The network sees the same normalised cell as
the letter classifier (letters.preprocess) and scores the eleven plants and "letter"; its
logits are divided by a temperature fitted on players it never saw (assets/sketches.json).
Its last hidden layer describes how a drawing looks, so a player's alike drawings can be
grouped (drawing_groups.py).

Other members (``members`` in the JSON: networks trained on other players with other
weights) may read every cell too: which plant a drawing is then comes from the mean of the
members' logs (letter_ensemble.mean_scores), so a drawing one member reads otherwise is
doubted, not trusted. A network alone is sure of wrong plants on drawings unlike its
players'; networks that learnt apart are rarely sure of the same wrong one. Whether a cell
is a letter stays the first network's alone, as do the features: the letter gate is fitted
on that network (pooled, the most letter-like calibration sketch sets a gate few real
letters pass).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import InputError
from companion.vision.onnx_model import OnnxModel, load_onnx_model
from companion.vision.sheet.constants_letters import INPUT_PX
from companion.vision.sheet.constants_sketches import (
    LETTER_CLASS,
    SKETCH_CLASSES,
    SKETCH_META_PATH,
    SKETCH_MODEL_PATH,
)
from companion.vision.sheet.letter_ensemble import EnsembleMean, log_softmax, mean_scores


@dataclass(frozen=True)
class SketchScores:
    """Per cell: calibrated probabilities over SKETCH_CLASSES and the unit-length features."""

    probs: NDArray[np.float64]  # (n, classes)
    features: NDArray[np.float32]  # (n, d), each row of length 1 (or 0 for an empty input)

    def p_letter(self, i: int) -> float:
        return float(self.probs[i, SKETCH_CLASSES.index(LETTER_CLASS)])


def _load(model: Path, meta: Path) -> OnnxModel:
    return load_onnx_model(model, meta, SKETCH_CLASSES, INPUT_PX, "sketch")


def _forward(net: cv2.dnn.Net, inputs: NDArray[np.float32]
             ) -> tuple[NDArray[np.float64], NDArray[np.float32]]:
    """Raw logits (n, classes) and hidden features (n, d) of one network."""
    n = len(inputs)
    net.setInput(np.ascontiguousarray(inputs[:, None, :, :], np.float32))
    names = list(net.getUnconnectedOutLayersNames())
    out, feats = net.forward(names[:2])
    return (np.asarray(out, np.float64).reshape(n, len(SKETCH_CLASSES)),
            np.asarray(feats, np.float32).reshape(n, -1))


@dataclass
class SketchClassifier:
    net: cv2.dnn.Net
    temperature: float
    meta: dict[str, object]
    members: tuple[OnnxModel, ...] = ()  # the other networks, each with its temperature

    @classmethod
    def load(cls, path: str | Path | None = None, members: bool = True) -> SketchClassifier:
        """The network at ``path`` (the shipped one by default) and, with ``members``, the
        other networks its JSON names (files beside it)."""
        model = Path(path) if path is not None else SKETCH_MODEL_PATH
        meta = model.with_suffix(".json") if path is not None else SKETCH_META_PATH
        got = _load(model, meta)
        names = got.meta.get("members", []) if members else []
        if not isinstance(names, list):
            raise InputError(f"sketch model {model}: members must be a list of file names")
        others = tuple(_load(model.parent / str(n), (model.parent / str(n)).with_suffix(".json"))
                       for n in names)
        return cls(got.net, got.temperature, got.meta, others)

    def scores(self, inputs: NDArray[np.float32]) -> SketchScores:
        """Scores for preprocessed inputs (n, INPUT_PX, INPUT_PX)."""
        n = len(inputs)
        if n == 0:
            return SketchScores(np.zeros((0, len(SKETCH_CLASSES))), np.zeros((0, 0), np.float32))
        logits, f = _forward(self.net, inputs)
        p = np.exp(log_softmax(logits, self.temperature))
        f /= np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)
        if not self.members:
            return SketchScores(p, f)
        runs = [logits, *(_forward(m.net, inputs)[0] for m in self.members)]
        temps = [self.temperature, *(m.temperature for m in self.members)]
        pooled = np.exp(mean_scores(runs, temps, 1.0, EnsembleMean.LOG))
        # whether a cell is a letter stays the first network's (the letter gate is fitted on
        # it); which plant a drawing is, all members' (their plants renormalised)
        li = SKETCH_CLASSES.index(LETTER_CLASS)
        plants = np.delete(pooled, li, axis=1)
        plants /= np.maximum(plants.sum(axis=1, keepdims=True), 1e-300)
        p = np.insert(plants * (1.0 - p[:, li:li + 1]), li, p[:, li], axis=1)
        return SketchScores(p, f)


@cache
def sketch_classifier() -> SketchClassifier:
    return SketchClassifier.load()


@cache
def model_fingerprint(path: Path = SKETCH_MODEL_PATH) -> str:
    """A short digest of the network's file and its members' files: thresholds fitted on
    one ensemble's outputs (assets/sketches.json "group_model") are only used with it."""
    digest = hashlib.sha256(Path(path).read_bytes())
    meta = path.with_suffix(".json")
    names = json.loads(meta.read_text()).get("members", []) if meta.is_file() else []
    for name in names if isinstance(names, list) else []:
        digest.update((path.parent / str(name)).read_bytes())
    return digest.hexdigest()[:16]
