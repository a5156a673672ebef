"""Pip counts read by a small CNN (ONNX, run with ``cv2.dnn``): a second opinion beside the
blob counter (cell.py).

The blob counter finds pips at their expected size and accepts a count only on one of the
standard layouts; in a soft, glinting or small photo it loses a pip to a highlight or
finds one in a glint, and then can only say it is unsure. The network sees the whole face
at once, so where the counter is unsure it usually still knows the count, and where the
counter is sure but the network firmly says another count, the die goes to review. It was
trained on cell patches the reader itself cut from synthetic photos of the tuning settings
(tools/train_pips.py); its logits are divided by a temperature fitted on photos it never
saw (assets/pips.json).

The input is the patch projected on its own main colour axis (pips differ from the face
most along it, whatever the paint), then standardised: dark or light pips on any face.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.assets import asset_path
from companion.vision.dice import constants as C
from companion.vision.onnx_model import load_onnx_model, softmax_rows

PIP_MODEL_PATH = asset_path("pips.onnx")
PIP_META_PATH = asset_path("pips.json")


def pip_input(patch: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The network's input for one BGR cell patch: (PIP_NET_INPUT_PX, PIP_NET_INPUT_PX)."""
    return projected(patch, C.PIP_NET_CROP, C.PIP_NET_INPUT_PX)


def projected(patch: NDArray[np.uint8], crop: float, side: int) -> NDArray[np.float32]:
    """The middle ``crop`` of a BGR cell patch, resized to ``side`` square and projected on
    its main colour axis, standardised (the module docstring says why)."""
    n = patch.shape[0]
    m = int(round(n * (1.0 - crop) / 2))
    face = patch[m:n - m, m:n - m] if m > 0 else patch
    small = cv2.resize(face, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    colours = small.reshape(-1, 3)
    centred = colours - colours.mean(axis=0)
    cov = centred.T @ centred
    _, vecs = np.linalg.eigh(cov)
    axis = vecs[:, -1]
    # the sign: the face (the patch's median) comes out dark, pips light or dark alike
    proj = centred @ axis
    if np.median(proj) > 0:
        proj = -proj
    proj = proj / max(float(proj.std()), 1.0)
    return np.clip(proj, -4.0, 4.0).reshape(side, side).astype(np.float32)


@dataclass
class PatchNet:
    """One of the dice's small CNNs over a cell patch (pips here, cells in cell_net.py):
    the same input (``projected``) and calibrated softmax, their own crop and classes."""

    net: cv2.dnn.Net
    temperature: float
    crop: float
    side: int
    n_classes: int

    def probs(self, patches: list[NDArray[np.uint8]]) -> NDArray[np.float64]:
        """Calibrated probabilities over the network's classes, one row per patch."""
        return softmax_rows(self.net, self.temperature,
                            np.array([projected(p, self.crop, self.side) for p in patches],
                                     np.float32), self.n_classes)


def load_patch_net(model: Path, meta: Path, classes: tuple[str, ...], side: int,
                   crop: float, name: str) -> PatchNet | None:
    """The shipped network, or None before it is trained (the reader goes without)."""
    if not model.is_file():
        return None
    got = load_onnx_model(model, meta, classes, side, name)
    return PatchNet(got.net, got.temperature, crop, side, len(classes))


@cache
def pip_net() -> PatchNet | None:
    """The shipped pip network, or None before it is trained (the counter reads alone)."""
    return load_patch_net(PIP_MODEL_PATH, PIP_META_PATH, C.PIP_NET_CLASSES,
                          C.PIP_NET_INPUT_PX, C.PIP_NET_CROP, "pip")


def value_of(index: int) -> int:
    return int(C.PIP_NET_CLASSES[index])
