"""Faint pips (drilled pips on a pale die under a dim lamp): under the usual contrast floor
they make a face only on a standard layout of two or more pips standing far above
everything else on the die's lattice."""

import numpy as np
import pytest

from companion.vision.dice import constants as C
from companion.vision.dice.cell import read_cell
from tests.dice_faces import face, paint_pip

TAN = (86.0, 105.0, 108.0)  # a tan die's face in the photo that showed the miss


def _read(value: int, depth: float, blob: float = 0.0):
    """A tan face whose pips are ``depth`` grey levels darker, and a smudge ``blob`` levels
    darker on the middle lattice point (bare on a 2 or a 4)."""
    img = face(TAN, value, np.array(TAN) - depth)
    if blob:
        img = paint_pip(img, 0, 0, np.array(TAN) - blob)
    return read_cell(np.clip(img, 0, 255).astype(np.uint8), np.ones((16, 16), bool))


@pytest.mark.parametrize("value", [2, 4])
def test_a_faint_face_alone_on_its_lattice_is_read(value):
    read = _read(value, 10)
    assert C.PIP_FAINT_SHARE * C.PIP_MIN_CONTRAST <= read.pip_contrast < C.PIP_MIN_CONTRAST
    assert (read.pips, read.layout_ok) == (value, True)
    assert read.pip_margin >= C.PIP_FAINT_MARGIN


def test_one_faint_blob_is_no_face():
    assert _read(1, 10).pips == 0  # our dice have no 1s; faint texture would pass as one


@pytest.mark.parametrize("value", [2, 4])
def test_a_faint_face_with_other_marks_on_its_lattice_is_not_read(value):
    read = _read(value, 10, blob=5)
    assert not (read.layout_ok and read.pips == value)
    sure = _read(value, 20, blob=5)  # the same smudge beside clear pips changes nothing
    assert (sure.pips, sure.layout_ok) == (value, True)


def test_blobs_under_the_faint_floor_are_no_pips():
    assert _read(2, 6).pips == 0


def test_faint_pips_where_the_cell_looks_like_the_table_are_no_face():
    """A tan table's knots are the face's own shade darkened too: only a cell unlike the
    table (the foreground mask) may show a faint face."""
    img = face(TAN, 2, np.array(TAN) - 10)
    read = read_cell(np.clip(img, 0, 255).astype(np.uint8), np.zeros((16, 16), bool))
    assert not (read.layout_ok and read.pips == 2)
