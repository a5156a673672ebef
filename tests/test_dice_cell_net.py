"""The cell network: it tells a die from bare table, and how its training labels cells."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.dice import constants as C
from companion.vision.dice.cell_net import cell_input, cell_net
from tests.test_dice_pips import _patch
from tools.train_cells import LABEL_DIE_PITCH, LABEL_EMPTY_PITCH, label_cells

NONE = C.CELL_NET_CLASSES.index(C.CELL_NET_NONE)


def test_cells_are_labelled_by_the_nearest_die_and_left_out_in_between() -> None:
    truth = {(0, 0): 4, (0, 1): 6}
    at = {(0, 0): (100.0, 100.0), (0, 1): (200.0, 100.0)}
    pitch = 100.0
    centres = [(100.0 + 0.9 * LABEL_DIE_PITCH * pitch, 100.0),  # on the 4
               (200.0, 100.0),  # on the 6
               (100.0, 100.0 + 1.01 * LABEL_EMPTY_PITCH * pitch),  # bare, below the 4
               (150.0, 100.0)]  # astride both
    got = label_cells(centres, truth, at, pitch)
    assert got == [C.CELL_NET_CLASSES.index("4"), C.CELL_NET_CLASSES.index("6"), NONE, None]
    assert label_cells([(0.0, 0.0)], {}, {}, pitch) == [NONE]


def test_the_input_is_the_whole_cell_at_the_networks_size() -> None:
    x = cell_input(_patch(5))
    assert x.shape == (C.CELL_NET_INPUT_PX, C.CELL_NET_INPUT_PX)
    flat = np.full((C.CELL_PATCH_PX, C.CELL_PATCH_PX, 3), 128, np.uint8)
    assert np.isfinite(cell_input(flat)).all()


@pytest.mark.parametrize("seed", range(3))
def test_the_shipped_network_sees_no_die_on_bare_table(seed: int) -> None:
    net = cell_net()
    assert net is not None, "assets/cells.onnx is missing: make train"
    rng = np.random.default_rng(seed)
    tone = rng.uniform(60, 220, size=3)
    grain = rng.normal(0, 6, size=(C.CELL_PATCH_PX, C.CELL_PATCH_PX, 1))
    bare = np.clip(tone + grain, 0, 255).astype(np.uint8)
    p = net.probs([bare])
    assert 1.0 - float(p[0, NONE]) < C.CELL_NET_DIE_AT, p.round(3)


@pytest.mark.parametrize("dark", [False, True])
def test_the_shipped_network_sees_a_die_and_its_count_on_a_clean_face(dark: bool) -> None:
    net = cell_net()
    assert net is not None, "assets/cells.onnx is missing: make train"
    for value in (2, 3, 4, 5, 6):
        p = net.probs([_patch(value, dark=dark)])[0]
        assert 1.0 - float(p[NONE]) >= C.CELL_NET_DIE_AT, (value, p.round(3))
        assert C.CELL_NET_CLASSES[int(p.argmax())] == str(value), (value, p.round(3))
