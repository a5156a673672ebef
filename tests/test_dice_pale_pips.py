"""Pale pips as bright as their face: greyish white pips on a tan die under a dim warm lamp
differ from the face in colour, hardly in brightness. The brightness-signed distance cuts
each into a lighter and a darker half, both too weak; the colour off the face's own shade
sees them whole. A shade of the face itself (a shadow, a seam, a darker knot of a tan
table) is never taken for such pips."""

import numpy as np
import pytest

from companion.vision.dice import constants as C
from companion.vision.dice.cell import _off_shade, read_cell
from tests.dice_faces import face

N = C.CELL_PATCH_PX
TAN_FACE = (61.0, 95.0, 141.0)  # BGR, a tan die under a warm lamp (tuning photo wider-021)
GREY_PIP = (80.0, 104.0, 138.0)  # its pips: greyer, a little brighter
EMPTY_MASK = np.zeros((16, 16), bool)  # the table model took the tan die for wood


def _face(value: int, pip: tuple[float, float, float], seed: int = 0) -> np.ndarray:
    """A tan face filling the cell, ``value`` soft pips painted ``pip``, a little noise."""
    img = face(TAN_FACE, value, np.array(pip, np.float32), edge=1.5)
    rng = np.random.default_rng(seed)
    img += rng.normal(0.0, 1.5, img.shape).astype(np.float32)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
def test_pale_pips_as_bright_as_the_face_are_counted(value):
    patch = _face(value, GREY_PIP, seed=value)
    # each pip is barely brighter or darker than the face: below the pips' least contrast
    grey = patch.astype(np.float32).mean(axis=2)
    assert abs(float(np.mean(GREY_PIP)) - float(np.mean(TAN_FACE))) < 10
    assert float(grey.max() - np.median(grey)) < C.PIP_MIN_CONTRAST + 5
    read = read_cell(patch, EMPTY_MASK)
    assert (read.pips, read.layout_ok) == (value, True)
    assert read.light_pips
    assert read.pip_margin >= C.PIP_ALONE_MARGIN  # clear enough to mark a die on its own


@pytest.mark.parametrize("value", [2, 4, 6])
def test_a_darker_shade_of_the_face_makes_no_pips(value):
    # the face's own colour darkened at the pip places (a shadow, knots of a tan table):
    # nothing off the face's shade, so the pale side sees nothing
    b, g, r = TAN_FACE
    patch = _face(value, (0.88 * b, 0.88 * g, 0.88 * r), seed=10 + value)
    read = read_cell(patch, EMPTY_MASK)
    assert not (read.layout_ok and read.pips >= 2)


def test_off_shade_ignores_shading_and_keeps_a_change_of_colour():
    face = np.array(TAN_FACE, np.float32)
    px = np.array([[face * 0.6, face * 1.2, np.array(GREY_PIP, np.float32)]])
    dist = np.linalg.norm(px - face, axis=-1)
    grey = px.mean(axis=-1)
    diff = dist * np.sign(grey - float(face.mean()))
    off = _off_shade(px, face, diff)
    assert off[0, 0] < 0.1 and off[0, 1] < 0.1  # darker or lighter: the face's own shade
    assert off[0, 2] > 0.8 * dist[0, 2]  # the grey pip: nearly all its difference is colour
