"""Loading one of our shipped classifiers: an ONNX file run with ``cv2.dnn``, and its JSON.

The JSON beside each model records the class order, the input size and the temperature
fitted on validation data; a model whose classes or input differ from what the code expects
is refused rather than silently misread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import InputError


@dataclass
class OnnxModel:
    """A loaded network, the temperature its logits are divided by, and its metadata."""

    net: cv2.dnn.Net
    temperature: float
    meta: dict[str, object] = field(default_factory=dict)


def load_onnx_model(model: Path, meta_path: Path, classes: tuple[str, ...], input_px: int,
                    what: str) -> OnnxModel:
    """Load ``model`` and check its metadata (``what`` names it in errors, e.g. "letter")."""
    if not model.is_file():
        raise InputError(f"{what} model not found: {model}")
    meta: dict[str, object] = {}
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text())
    found = tuple(str(c) for c in meta.get("classes", classes))  # type: ignore[attr-defined]
    if found != classes:
        raise InputError(f"{what} model {model} has classes {found}, expected {classes}")
    if int(meta.get("input_px", input_px)) != input_px:  # type: ignore[call-overload]
        raise InputError(f"{what} model {model} wants another input size")
    net = cv2.dnn.readNetFromONNX(str(model))
    temperature = float(meta.get("temperature", 1.0))  # type: ignore[arg-type]
    return OnnxModel(net, temperature, meta)


def softmax_rows(net: cv2.dnn.Net, temperature: float, inputs: NDArray[np.float32],
                 classes: int) -> NDArray[np.float64]:
    """Calibrated probabilities of a one-channel image classifier for (n, H, W) inputs,
    one row each: the softmax of its logits divided by ``temperature``."""
    if len(inputs) == 0:
        return np.zeros((0, classes))
    net.setInput(np.ascontiguousarray(inputs[:, None], np.float32))
    z = np.asarray(net.forward(), np.float64).reshape(len(inputs), classes)
    z = z / temperature
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)
