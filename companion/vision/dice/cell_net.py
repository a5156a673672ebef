"""Is a die on this cell, and what count: a small CNN (ONNX, run with ``cv2.dnn``) trained
on every cell of the reader's lattices, bare ones included (tools/train_cells.py).

The pip network (pip_net.py) learnt dice only, so on bare table it still names a count;
this one also knows a cell holding no die. The reader asks it of cells beside the block
that its blobs and paint did not read as a die: a die hardly unlike the table (a tan die
on paper) or whose pips a glint merged shows its outline and a face's layout all the same.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

from companion.vision.assets import asset_path
from companion.vision.dice import constants as C
from companion.vision.dice.pip_net import PatchNet, load_patch_net, projected

CELL_MODEL_PATH = asset_path("cells.onnx")
CELL_META_PATH = asset_path("cells.json")


def cell_input(patch: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The network's input for one BGR cell patch: (CELL_NET_INPUT_PX, CELL_NET_INPUT_PX)."""
    return projected(patch, C.CELL_NET_CROP, C.CELL_NET_INPUT_PX)


@cache
def cell_net() -> PatchNet | None:
    """The shipped cell network, or None before it is trained (the reader goes without)."""
    return load_patch_net(CELL_MODEL_PATH, CELL_META_PATH, C.CELL_NET_CLASSES,
                          C.CELL_NET_INPUT_PX, C.CELL_NET_CROP, "cell")
