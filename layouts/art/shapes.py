"""Planter space outlines. Each shape's silhouette differs at a glance in black and white:
six corners, none, or five spikes."""

from __future__ import annotations

import math

from companion.games.delicious.symbols import Shape
from layouts.pen import Point

STAR_INNER_RATIO = 0.64  # a fat star leaves room to write in the middle
STAR_GROWTH = 1.16  # stars look small next to hexagons of the same circumradius


def hexagon_points(cx: float, cy: float, r: float) -> list[Point]:
    """Flat-topped hexagon with circumradius r."""
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)]


def star_points(cx: float, cy: float, r: float, inner: float = STAR_INNER_RATIO) -> list[Point]:
    """Five-pointed star, one point straight up, circumradius r."""
    pts = []
    for k in range(10):
        a = math.radians(-90 + 36 * k)
        rr = r if k % 2 == 0 else r * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def writing_square(shape: Shape, size: float, quiet: float) -> float:
    """Side of the blank writing square inside a space ``size`` mm across."""
    r = size / 2
    if shape is Shape.HEXAGON:
        inscribed = r * math.sqrt(3) / 2
    elif shape is Shape.OVAL:
        inscribed = min(r, r * 0.84) * 0.95
    else:
        inscribed = _star_inscribed(r * STAR_GROWTH)
    return 2 * (inscribed / math.sqrt(2)) - quiet


def _star_inscribed(r: float) -> float:
    """Distance from the centre to the star's nearest edge."""
    ox, oy = 0.0, -r
    a = math.radians(-54)
    ix, iy = r * STAR_INNER_RATIO * math.cos(a), r * STAR_INNER_RATIO * math.sin(a)
    cross = abs(ox * iy - oy * ix)
    return cross / math.hypot(ix - ox, iy - oy)
