"""Check or cross? A small CNN (ONNX, run with ``cv2.dnn``) judges a mark's shape.

The input is the reader's relative-lightness patch over an icon (1 = nothing added), so the
printed icon is already divided out. Logits are divided by a temperature fitted on
validation photos (``assets/marks.json``), so a probability means what it says. Whether the
icon is marked at all is the reader's call (it measures ink), not the classifier's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import InputError
from companion.vision.onnx_model import load_onnx_model
from companion.vision.sheet.constants_marks import (
    INK_FLOOR,
    INK_PERCENTILE,
    INPUT_PX,
    MARK_CLASSES,
    META_PATH,
    MIN_PATCH_PX,
    MODEL_PATH,
)


def preprocess(rel: np.ndarray) -> NDArray[np.float32]:
    """Network input (INPUT_PX square, ink 1 on paper 0) from a relative-lightness patch.

    Darkness is stretched to the mark's own darkest ink, so a pencil mark and a felt pen
    mark look alike; the floor keeps an empty patch's grain from being blown up.
    """
    patch = np.asarray(rel)
    if patch.ndim != 2 or min(patch.shape) < MIN_PATCH_PX:
        raise InputError(f"mark patch must be a 2-D array of at least {MIN_PATCH_PX}x"
                         f"{MIN_PATCH_PX} px, got shape {patch.shape}")
    if not np.issubdtype(patch.dtype, np.number) or not np.isfinite(patch).all():
        raise InputError("mark patch must hold finite numbers")
    ink = np.clip(1.0 - patch.astype(np.float32), 0.0, 1.0)
    top = float(np.percentile(ink, INK_PERCENTILE))
    ink = np.clip(ink / max(top, INK_FLOOR), 0.0, 1.0)
    h, w = ink.shape
    interp = cv2.INTER_AREA if min(h, w) >= INPUT_PX else cv2.INTER_LINEAR
    out = cv2.resize(ink, (INPUT_PX, INPUT_PX), interpolation=interp)
    return np.asarray(out, np.float32)


@dataclass
class MarkClassifier:
    """The shipped check-or-cross CNN. Build it with :meth:`load`; reuse one instance."""

    net: cv2.dnn.Net
    temperature: float
    meta: dict[str, object] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path | None = None) -> MarkClassifier:
        """Load the ONNX model and its JSON metadata (same name, ``.json``)."""
        model = Path(path) if path is not None else MODEL_PATH
        meta_path = model.with_suffix(".json") if path is not None else META_PATH
        loaded = load_onnx_model(model, meta_path, MARK_CLASSES, INPUT_PX, "mark")
        return cls(net=loaded.net, temperature=loaded.temperature, meta=loaded.meta)

    def logits(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """Raw network scores (n, 2) for preprocessed inputs (n, INPUT_PX, INPUT_PX)."""
        if len(inputs) == 0:
            return np.zeros((0, len(MARK_CLASSES)), np.float32)
        self.net.setInput(np.ascontiguousarray(inputs[:, None, :, :], np.float32))
        out = np.asarray(self.net.forward(), np.float32)
        return out.reshape(len(inputs), len(MARK_CLASSES))

    def cross_probability(self, rel: np.ndarray) -> float:
        """Probability that the mark in a relative-lightness patch is a cross, not a check."""
        z = self.logits(preprocess(rel)[None])[0].astype(np.float64) / self.temperature
        d = float(z[MARK_CLASSES.index("cross")] - z[MARK_CLASSES.index("check")])
        return 1.0 / (1.0 + np.exp(-max(-50.0, min(50.0, d))))


@functools.cache
def shipped() -> MarkClassifier | None:
    """The shipped model, loaded once; None when its file is missing."""
    return MarkClassifier.load() if MODEL_PATH.is_file() else None
