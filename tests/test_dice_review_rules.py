"""Review rules for dice the reader could otherwise name wrongly with full confidence: a
face whose pip step is not the photo's, the paint overturning the blobs right where a glint
lies, and a colour margin measured in the families' own scatter."""

import numpy as np

from companion.vision.dice import constants as C
from companion.vision.dice.cell import CellRead
from companion.vision.dice.colour import CENTROIDS, INGREDIENT_NAMES
from companion.vision.dice.families import family_scatter, name_families
from companion.vision.dice.reader import _off_step, _pips_by_paint, _unchecked

N = C.CELL_PATCH_PX
MID = (N - 1) / 2
STEP = C.PIP_LATTICE_FRACTION * N


def _read(points, step=STEP, **kw) -> CellRead:
    xy = tuple((MID + c * step, MID + r * step) for r, c in points)
    cx = sum(x for x, _ in xy) / len(xy)
    cy = sum(y for _, y in xy) / len(xy)
    base = {"occupied": 1.0, "pips": len(points), "layout_ok": True, "pip_margin": 20.0,
            "pip_contrast": 60.0, "center": (cx, cy), "face_bgr": (60.0, 120.0, 230.0),
            "pip_bgr": (238.0, 244.0, 246.0), "light_pips": True, "pips_xy": xy}
    base.update(kw)
    return CellRead(**base)


FOUR = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
TWO = [(-1, 1), (1, -1)]


def test_a_two_whose_step_is_not_the_photos_is_found():
    """One photo's dice share one pip step: a 2 made of a corner pip and a glint near the
    middle is too small (its step 0.7 of the others'), while 2s and 4s on the photo's
    own step, a little larger or smaller as the grid allows, pass."""
    reads = [_read(FOUR, STEP * 0.93), _read(FOUR, STEP * 0.95), _read(FOUR, STEP * 0.97),
             _read(TWO, STEP * 1.05), _read(TWO, STEP * 0.85), _read(TWO, STEP * 0.66)]
    assert _off_step(reads) == {5}
    assert _off_step(reads[3:]) == set()  # too few faces of three pips or more to judge


def test_the_paint_does_not_overturn_the_blobs_at_the_glint_unless_clearly():
    """The blobs read a 2 and set a glint aside at its middle; the paint reads that middle
    as a pip. Light over a bare tan face draws it towards a pale pip, so a narrow paint
    margin there leaves the die in review; a clear one settles it, and so does a narrow one
    when the glint lies on a point both counts leave bare."""
    glint_mid = _read(TWO, glint=True, extra=(MID, MID, 2.5), paint_pips=3, paint_margin=0.12)
    flags: list[str] = []
    value, settled, conf = _pips_by_paint(glint_mid, True, 1.0, flags)
    assert (value, settled) == (3, False)
    assert conf < C.REVIEW_BELOW and "pips-by-paint" in flags
    clear = _read(TWO, glint=True, extra=(MID, MID, 2.5), paint_pips=3, paint_margin=0.3)
    assert _pips_by_paint(clear, True, 1.0, []) == (3, True, 1.0)
    corner = (MID - STEP, MID - STEP, 2.5)  # bare on a 2 and on a 3
    aside = _read(TWO, glint=True, extra=corner, paint_pips=3, paint_margin=0.12)
    assert _pips_by_paint(aside, True, 1.0, []) == (3, True, 1.0)


def test_a_family_spread_wide_in_the_photo_makes_its_neighbour_less_sure():
    """Seven carrots close together and seven tomatoes: a die a fifth of the way from the
    carrots to the tomatoes is a sure carrot when the tomatoes lie tight, and in doubt
    when this photo's tomatoes scatter wide (their own scatter measured, not assumed)."""
    rng = np.random.default_rng(2)
    k = {n: CENTROIDS[INGREDIENT_NAMES.index(n)] for n in INGREDIENT_NAMES}
    others = [k[n] + rng.normal(0, 0.02, 2) for n in ("mushroom", "onion", "pepper")
              for _ in range(7)]
    carrots = [k["carrot"] + rng.normal(0, 0.02, 2) for _ in range(7)]
    die = k["carrot"] + 0.2 * (k["tomato"] - k["carrot"])
    tight = [k["tomato"] + rng.normal(0, 0.02, 2) for _ in range(7)]
    axis = (k["carrot"] - k["tomato"]) / np.linalg.norm(k["carrot"] - k["tomato"])
    wide = [k["tomato"] + axis * t for t in (-0.7, -0.5, -0.3, 0.0, 0.3, 0.5, 0.7)]
    sure = name_families([*others, *carrots, *tight, die], np.zeros(2), True)[-1]
    doubt = name_families([*others, *carrots, *wide, die], np.zeros(2), True)[-1]
    assert sure.ingredient == doubt.ingredient == "carrot"
    assert sure.confidence >= C.REVIEW_BELOW > doubt.confidence
    d = np.linalg.norm(np.array([*carrots, *wide])[:, None] - np.array(
        [k["carrot"], k["tomato"]])[None], axis=-1) / C.COLOUR_SPREAD
    assert family_scatter(d)[0] == 1.0 < family_scatter(d)[1]


def test_a_highlight_the_paint_barely_agrees_with_leaves_the_die_in_doubt():
    """A 3 whose middle blob is unlike the others (a highlight, maybe) and whose paint
    agrees only narrowly stays in doubt: a highlight over a bare face draws the paint
    towards a pale pip too. A clear paint reading settles it."""
    three = [(-1, -1), (0, 0), (1, 1)]
    narrow = _read(three, even_paint=False, paint_pips=3, paint_margin=0.12)
    assert _pips_by_paint(narrow, True, 0.6, [])[1] is False
    clear = _read(three, even_paint=False, paint_pips=3, paint_margin=0.3)
    assert _pips_by_paint(clear, True, 0.6, []) == (3, True, 1.0)


def test_a_count_the_paint_could_not_check_needs_clear_pips():
    """Where the paint is undecided the blobs' count stands alone: clear by far it is sure,
    a little clear it goes to review; a count the paint read is left to the paint rules."""
    assert _unchecked(_read(FOUR, pip_margin=5.0))
    assert not _unchecked(_read(FOUR, pip_margin=C.PIP_UNCHECKED_SURE_MARGIN + 1))
    assert not _unchecked(_read(FOUR, pip_margin=5.0, paint_pips=4, paint_margin=0.2))
