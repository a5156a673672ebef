"""Is a die on this cell, and what count: a small CNN (ONNX, run with ``cv2.dnn``) trained
on every cell of the reader's lattices, bare ones included (tools/train_cells.py).

The pip network (pip_net.py) learnt dice only, so on bare table it still names a count;
this one also knows a cell holding no die. The reader asks it of cells beside the block
that its blobs and paint did not read as a die: a die hardly unlike the table (a tan die
on paper) or whose pips a glint merged shows its outline and a face's layout all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.assets import asset_path
from companion.vision.dice import constants as C
from companion.vision.dice.pip_net import projected
from companion.vision.onnx_model import load_onnx_model, softmax_rows

CELL_MODEL_PATH = asset_path("cells.onnx")
CELL_META_PATH = asset_path("cells.json")


def cell_input(patch: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The network's input for one BGR cell patch: (CELL_NET_INPUT_PX, CELL_NET_INPUT_PX)."""
    return projected(patch, C.CELL_NET_CROP, C.CELL_NET_INPUT_PX)


@dataclass
class CellNet:
    net: cv2.dnn.Net
    temperature: float

    def probs(self, patches: list[NDArray[np.uint8]]) -> NDArray[np.float64]:
        """Calibrated probabilities over CELL_NET_CLASSES, one row per patch."""
        return softmax_rows(self.net, self.temperature,
                            np.array([cell_input(p) for p in patches], np.float32),
                            len(C.CELL_NET_CLASSES))


@cache
def cell_net() -> CellNet | None:
    """The shipped network, or None before it is trained (the reader goes without)."""
    if not CELL_MODEL_PATH.is_file():
        return None
    got = load_onnx_model(CELL_MODEL_PATH, CELL_META_PATH, C.CELL_NET_CLASSES,
                          C.CELL_NET_INPUT_PX, "cell")
    return CellNet(got.net, got.temperature)
