"""Where the lamp's glint sits on the dice of one photo.

One lamp, dice faces parallel, one camera: the glint falls at nearly the same spot of
every die's face. Dice whose glint lies off their pips show that spot; a die whose only
doubtful pip (the middle one of a 3 or a 5, which a 2 or a 4 lacks) sits on it is then
read with low confidence instead of a guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from companion.vision.dice import constants as C
from companion.vision.dice.cell import CellRead


def _rel(read: CellRead, x: float, y: float) -> tuple[float, float] | None:
    if read.center is None:
        return None
    n = C.CELL_PATCH_PX
    return ((x - read.center[0]) / n, (y - read.center[1]) / n)


def glint_spot(reads: Sequence[CellRead]) -> tuple[float, float] | None:
    """The face position (die-centre relative, in pitch units) where several dice show a
    strong blob that is no pip; None when no such spot is shared."""
    pts = []
    for rd in reads:
        if rd.layout_ok and rd.light_pips and rd.extra is not None:
            x, y, strength = rd.extra
            rel = _rel(rd, x, y)
            if rel is not None and strength >= C.GLINT_SPOT_MIN_STRENGTH:
                pts.append(rel)
    if len(pts) < C.GLINT_SPOT_MIN_DICE:
        return None
    arr = np.array(pts)
    d = np.linalg.norm(arr[:, None] - arr[None], axis=-1)
    close = d <= C.GLINT_SPOT_RADIUS
    i = int(np.argmax(close.sum(axis=1)))
    if int(close[i].sum()) < C.GLINT_SPOT_MIN_DICE:
        return None
    spot = np.median(arr[close[i]], axis=0)
    return (float(spot[0]), float(spot[1]))


def middle_pip_on_spot(read: CellRead, spot: tuple[float, float] | None) -> bool:
    """True when the read is a 3 or a 5 and its middle pip sits on the glint spot."""
    if spot is None or read.pips not in (3, 5) or not read.pips_xy or read.center is None:
        return False
    cx, cy = read.center
    mx, my = min(read.pips_xy, key=lambda p: math.hypot(p[0] - cx, p[1] - cy))
    rel = _rel(read, mx, my)
    return rel is not None and math.dist(rel, spot) <= C.GLINT_SPOT_RADIUS
