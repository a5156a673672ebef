"""One cell's pips beside a lamp glint: a glint off the pip lattice is no pip, and a count a
glint could have changed is flagged rather than trusted."""

import math

import numpy as np
import pytest

from companion.vision.dice import constants as C
from companion.vision.dice.cell import read_cell
from tests.dice_faces import LATTICE_PX, MID, face, paint_pip

N = C.CELL_PATCH_PX
FACE_BGR = (60, 120, 230)  # an orange face
PIP_BGR = (238, 244, 246)
DARK_PIP_BGR = (28, 30, 38)
LAYOUTS = C.PIP_LAYOUTS


def _patch(value: int, glint_at: tuple[float, float] | None = None, dark: bool = False,
           glint_sigma: float = 0.045, glint_peak: float = 230.0,
           exposure: float = 1.0, shape: str = "round") -> np.ndarray:
    """A die face filling one cell, pips (of ``shape``) on the standard lattice, and
    optionally a clipped Gaussian glint at ``glint_at`` (lattice units from the middle)."""
    img = face(FACE_BGR, value, np.array(DARK_PIP_BGR if dark else PIP_BGR), shape=shape)
    img *= exposure
    if glint_at is not None:
        yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
        gx, gy = MID + glint_at[1] * LATTICE_PX, MID + glint_at[0] * LATTICE_PX
        spread = 2 * (glint_sigma * N) ** 2
        glow = glint_peak * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / spread)
        img = img + glow[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _doubtful(read) -> bool:
    return read.glint or read.middle_hidden or read.lattice_misfit > C.PIP_LATTICE_MISFIT


@pytest.mark.parametrize("value", [2, 3, 4, 5])
def test_clean_faces_read_surely(value):
    read = read_cell(_patch(value), np.ones((16, 16), bool))
    assert (read.pips, read.layout_ok) == (value, True)
    assert not _doubtful(read)
    assert read.lattice_misfit < 0.05


@pytest.mark.parametrize("value, at", [(2, (0.3, 0.1)), (2, (-0.25, 0.2)), (4, (0.28, -0.1))])
def test_a_glint_beside_the_middle_is_not_counted_as_a_pip(value, at):
    read = read_cell(_patch(value, at), np.ones((16, 16), bool))
    # read without the glint, and flagged: a glint near the middle could hide a pip
    assert read.pips == value
    assert _doubtful(read)


@pytest.mark.parametrize("value, at", [(3, (0.25, 0.1)), (5, (-0.2, -0.15))])
def test_a_glint_hiding_a_dark_middle_pip_is_flagged(value, at):
    read = read_cell(_patch(value, at, dark=True, glint_sigma=0.06), np.ones((16, 16), bool))
    assert read.pips == value or _doubtful(read)


@pytest.mark.parametrize("shift, flagged", [(0.0, False), (0.06, False), (0.22, True)])
def test_a_pip_off_the_lattice_the_others_share_is_doubtful(shift, flagged):
    """A 3 whose middle "pip" is moved along one axis: the sub-pixel lattice fit sees it."""
    patch = paint_pip(_patch(2), 0.0, shift, np.array(PIP_BGR)).astype(np.uint8)
    read = read_cell(patch, np.ones((16, 16), bool))
    assert read.pips in (2, 3)
    assert (read.pips == 3 and read.lattice_misfit > C.PIP_LATTICE_MISFIT
            or read.glint) == flagged
    if not flagged:
        assert read.pips == 3
    assert math.isfinite(read.lattice_misfit)


def _paint(patch: np.ndarray):
    from companion.vision.dice.cell import with_paint

    return with_paint(patch, read_cell(patch, np.ones((16, 16), bool)))


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
def test_the_paint_count_agrees_on_clean_faces(value):
    read = _paint(_patch(value))
    assert read.paint_pips == value
    assert read.paint_margin >= C.PAINT_SURE_MARGIN


@pytest.mark.parametrize("value, at, peak", [
    (2, (0.0, 0.0), 230), (2, (0.15, -0.1), 230), (4, (0.05, 0.05), 230),
    (3, (0.0, 0.0), 100), (3, (0.2, 0.1), 150), (5, (-0.1, 0.15), 120)])
def test_a_glint_over_the_middle_is_settled_by_the_paint_around_it(value, at, peak):
    """A glint right on the middle lattice point: whatever the blobs make of it, the ring
    around the glint's core shows face colour (no pip) or pip paint (a pip)."""
    read = _paint(_patch(value, at, glint_sigma=0.05, glint_peak=peak, exposure=0.8))
    assert read.paint_pips == value


def test_a_middle_pip_clipped_all_over_is_left_undecided():
    """Every pixel of the pip clipped white: paint cannot tell a pip from a glint there."""
    read = _paint(_patch(3, (0.0, 0.0), glint_sigma=0.05, glint_peak=230))
    assert read.paint_pips in (None, 3)


def test_a_glint_on_a_bare_face_keeps_the_face_colour_in_its_unclipped_channels():
    from companion.vision.dice.paint import face_share

    face = np.array(FACE_BGR, np.float32)
    pip = np.array(PIP_BGR, np.float32)
    lit = np.clip(face + 60, 0, 255)[None]  # red channel clipped
    assert float(face_share(lit, face, pip)[0]) > 0.7
    assert abs(float(face_share(pip[None], face, pip)[0])) < 0.1


@pytest.mark.parametrize("at, peak", [((0.0, -1.0), 150), ((1.0, 1.0), 230), ((0.5, 0.5), 230)])
def test_a_glint_that_breaks_the_blobs_face_leaves_the_paint_to_find_it(at, peak):
    """A bright glint on or between a 6's pips: where the blobs make no standard face, the
    paint searched on lattices square to the cell still reads the 6 (at the smaller pip
    size the blobs mostly see past the glint and read the 6 themselves)."""
    read = _paint(_patch(6, at, glint_sigma=0.05, glint_peak=peak, exposure=0.8))
    if read.layout_ok:
        assert read.pips == 6
        return
    assert read.paint_pips == 6
    assert read.paint_margin >= C.PAINT_SURE_MARGIN


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
def test_the_paint_count_agrees_on_clean_faces_with_dark_pips(value):
    read = _paint(_patch(value, dark=True))
    assert read.paint_pips == value
    assert read.paint_margin >= C.PAINT_SURE_MARGIN


@pytest.mark.parametrize("value, at, peak", [
    (5, (0.0, 0.0), 120), (5, (0.1, -0.05), 150), (3, (0.0, 0.0), 120),
    (4, (0.0, 0.0), 120), (2, (0.05, 0.0), 150)])
def test_a_glint_over_a_dark_middle_pip_is_settled_by_the_paint_around_it(value, at, peak):
    """Dark pips under a glint: a glinting dark pip is white light with no face paint in
    it, a glinting bare face is face paint plus that light, so the ring tells them apart."""
    read = _paint(_patch(value, at, dark=True, glint_sigma=0.05, glint_peak=peak,
                         exposure=0.8))
    assert read.paint_pips == value


def test_a_dark_pip_lit_white_holds_no_face_colour():
    from companion.vision.dice.paint import face_share

    face = np.array(FACE_BGR, np.float32)
    white = np.array(C.PAINT_WHITE_BGR, np.float32)
    dark = np.array(DARK_PIP_BGR, np.float32)
    lit_pip = np.clip(dark + 120, 0, 255)[None]
    lit_face = np.clip(face * 0.8 + 40, 0, 255)[None]
    assert abs(float(face_share(lit_pip, face, white)[0])) < 0.15
    assert float(face_share(lit_face, face, white)[0]) > 0.7


def test_the_paint_says_where_it_saw_only_clipped_pixels():
    """Clean faces leave every ring unclipped; a glint over the middle of an orange face
    clips the face's red all round it, where the two-channel mix always fits: the read says
    so (``paint_blind``) and a glint's doubt is then not settled by the paint."""
    assert _paint(_patch(3)).paint_blind == 0.0
    read = _paint(_patch(2, (0.0, 0.0), glint_sigma=0.05, glint_peak=150))
    assert (read.pips, read.paint_pips) == (3, 2)  # the blobs took the glint for a pip
    assert read.paint_blind > C.PAINT_BLIND_MAX


def _hazy_middle(value: int, face_share: float) -> np.ndarray:
    """A face whose middle lattice point (bare on a 2 or 4) shows face and pip paint mixed,
    as a glint's light over the bare face does under blur."""
    img = _patch(value).astype(np.float32)
    yy, xx = np.mgrid[0:N, 0:N]
    mid = (N - 1) / 2
    pip_r = C.PIP_DIAMETER_FRACTION * N / 2
    disc = np.hypot(xx - mid, yy - mid) <= 1.2 * pip_r
    img[disc] = face_share * np.array(FACE_BGR) + (1 - face_share) * np.array(PIP_BGR)
    return img.astype(np.uint8)


@pytest.mark.parametrize("value", [2, 4])
def test_a_lone_point_between_pip_and_bare_is_read_bare(value):
    """Added light moves a bare face towards a pale pip's colour but leaves a pip
    pip-coloured: a lone middle point between the two bands is bare face, read so at no
    margin (the die stays in review); without that reading the paint is undecided."""
    from companion.vision.dice.cell import LAYOUTS as ALL
    from companion.vision.dice.paint import read_paint

    patch = _hazy_middle(value, 0.45)
    mid = (N - 1) / 2
    s = C.PIP_LATTICE_FRACTION * N
    points = [(mid + c * s, mid + r * s) for r, c in LAYOUTS[value]]
    face, pip = np.array(FACE_BGR, np.float32), np.array(PIP_BGR, np.float32)
    px = patch.astype(np.float32)
    assert read_paint(px, points, face, pip, ALL).count is None
    read = read_paint(px, points, face, pip, ALL, between_is_bare=True)
    assert (read.count, read.margin) == (value, 0.0)
