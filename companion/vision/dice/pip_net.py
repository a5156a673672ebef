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
class PipNet:
    net: cv2.dnn.Net
    temperature: float

    def probs(self, patches: list[NDArray[np.uint8]]) -> NDArray[np.float64]:
        """Calibrated probabilities over PIP_NET_CLASSES, one row per patch."""
        return softmax_rows(self.net, self.temperature,
                            np.array([pip_input(p) for p in patches], np.float32),
                            len(C.PIP_NET_CLASSES))


@cache
def pip_net() -> PipNet | None:
    """The shipped network, or None before it is trained (the counter reads alone)."""
    if not PIP_MODEL_PATH.is_file():
        return None
    got = load_onnx_model(PIP_MODEL_PATH, PIP_META_PATH, C.PIP_NET_CLASSES,
                          C.PIP_NET_INPUT_PX, "pip")
    return PipNet(got.net, got.temperature)


def value_of(index: int) -> int:
    return int(C.PIP_NET_CLASSES[index])
