"""Paper that does not lie flat: an edge that curls up, an edge lifted off the table, a
curled corner, as 3-D surfaces the virtual camera photographs.

Paper does not stretch, so a bent strip is rolled up, not pushed: a point at arc length
``s`` past the bend line lands ``h(s) <= s`` from it, ``z(s)`` above the table. The
profile bends at a constant curvature over ``arc`` (the whole strip for a curl, a short
hinge for a lifted edge) and runs straight beyond it, so it never folds back on itself.
The lifted part is lit by its own slope (brighter facing the light, darker turned away)
and casts a shadow on the table; both come from here too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np


class BendKind(StrEnum):
    CURL = "curl"  # an edge rolling up at a constant curvature (paper fresh off a roll)
    LIFT = "lift"  # an edge lifted off the table: a short hinge, then straight
    CORNER = "corner"  # one corner curled up, across a line cutting it off


@dataclass(frozen=True)
class Bend:
    """One bend of one photo; distances in mm of a letter-size page's long side."""

    kind: BendKind
    where: int  # edge (0 top, 1 right, 2 bottom, 3 left) or corner (0 TL, 1 TR, 2 BR, 3 BL)
    reach_mm: float  # from the page's edge (or corner) to where the paper leaves the table
    angle_deg: float  # how steeply the bent paper rises at its end of the profile
    hinge_mm: float  # radius of a lifted edge's hinge (unused by curls and corners)
    light_elevation_deg: float  # the light's height above the table, for the shading


@dataclass(frozen=True)
class BendGeometry:
    """A bend placed on a page of ``page_w`` x ``page_h`` px: the bend line, the direction
    into the bent part, and the profile's radius and curved length (px)."""

    origin: np.ndarray  # a point on the bend line (page px)
    normal: np.ndarray  # unit vector from the bend line into the bent part
    radius: float
    arc: float
    angle: float  # radians

    def arc_length(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Signed distance past the bend line (<= 0: flat on the table)."""
        return (x - self.origin[0]) * self.normal[0] + (y - self.origin[1]) * self.normal[1]

    def profile(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(progress along the normal, height, slope in radians) at arc length ``s``."""
        s = np.maximum(s, 0.0)
        r, arc, ang = self.radius, self.arc, self.angle
        bent = np.minimum(s, arc)
        theta = bent / r
        along = r * np.sin(theta)
        up = r * (1.0 - np.cos(theta))
        rest = s - bent
        return along + rest * math.cos(ang), up + rest * math.sin(ang), theta

    def surface(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                              np.ndarray]:
        """Where page point (x, y) lies once bent: (x', y') on the table's plane and its
        height above the table (page px)."""
        s = self.arc_length(x, y)
        along, up, _ = self.profile(s)
        pull = np.where(s > 0.0, along - s, 0.0)
        return x + pull * self.normal[0], y + pull * self.normal[1], np.where(s > 0.0, up, 0.0)

    def shading(self, x: np.ndarray, y: np.ndarray, light_dir_deg: float,
                elevation_deg: float, ambient: float = 0.35) -> np.ndarray:
        """Light on the bent paper relative to flat paper (1 on the table)."""
        s = self.arc_length(x, y)
        _, _, theta = self.profile(s)
        theta = np.where(s > 0.0, np.minimum(theta, self.angle), 0.0)
        e, d = math.radians(elevation_deg), math.radians(light_dir_deg)
        towards = math.cos(d) * self.normal[0] + math.sin(d) * self.normal[1]
        facing = -np.sin(theta) * math.cos(e) * towards + np.cos(theta) * math.sin(e)
        direct = np.maximum(facing, 0.0) / math.sin(e)
        return np.clip(ambient + (1.0 - ambient) * direct, 0.3, 1.3).astype(np.float32)


def place(bend: Bend, page_w: int, page_h: int, px_per_mm: float) -> BendGeometry:
    """The bend on a page of this size: its line, direction and profile in page px."""
    reach = bend.reach_mm * px_per_mm
    angle = math.radians(bend.angle_deg)
    if bend.kind is BendKind.CORNER:
        corner = np.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]],
                          np.float64)[bend.where]
        normal = np.sign(corner - [page_w / 2, page_h / 2]) / math.sqrt(2.0)
        origin = corner - normal * reach
    else:
        normals = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], np.float64)
        normal = normals[bend.where]
        edge_point = np.array([[page_w / 2, 0], [page_w, page_h / 2], [page_w / 2, page_h],
                               [0, page_h / 2]], np.float64)[bend.where]
        origin = edge_point - normal * reach
    if bend.kind is BendKind.LIFT:
        radius = bend.hinge_mm * px_per_mm
        arc = min(radius * angle, reach)
        angle = arc / radius  # a hinge longer than the strip ends less steep
    else:
        arc = reach
        radius = reach / max(angle, 1e-3)
    return BendGeometry(origin, normal, radius, arc, angle)
