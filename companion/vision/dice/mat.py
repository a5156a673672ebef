"""Find our printed dice mat in a photo: its four corner markers give the paper plane
(scale in mm, and the die size it is printed for, so the dice pitch is known in advance),
the region the block lies in, and a white reference (the paper) for white balance."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import ImageError
from companion.paper.model import CORNER_MARKER_IDS, SheetGeometry
from companion.vision.dice import constants as C
from companion.vision.register import (
    PAPERS,
    find_markers,
    layout_geometry,
    marker_corners_mm,
    marker_homography,
)


@dataclass(frozen=True)
class MatView:
    corners_px: np.ndarray  # (4, 2) inner corners of markers 0..3, image pixels
    marker_polys: tuple[np.ndarray, ...]  # each marker's outline, image pixels
    mm_to_px: np.ndarray | None  # homography page mm -> image px, when the layout is known
    px_per_mm: float | None  # near the page centre
    area_mm: tuple[float, float, float, float] | None = None  # printed block area x, y, w, h
    die_mm: float | None = None  # the die the mat is printed for (its grid pitch), mm

    def region(self, shape: tuple[int, ...]) -> np.ndarray:
        """Pixels between the markers, markers excluded."""
        m = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(self.corners_px).astype(np.int32), 1)
        for poly in self.marker_polys:
            cv2.fillConvexPoly(m, np.round(_grow(poly, 1.3)).astype(np.int32), 0)
        return m.astype(bool)

    def paper_band(self, shape: tuple[int, ...]) -> np.ndarray:
        """A band just inside the marker quad, mostly bare paper."""
        inner = np.zeros(shape[:2], np.uint8)
        c = self.corners_px
        centre = c.mean(axis=0)
        cv2.fillConvexPoly(inner, np.round(c).astype(np.int32), 1)
        shrunk = centre + (c - centre) * 0.9
        cv2.fillConvexPoly(inner, np.round(shrunk).astype(np.int32), 0)
        return inner.astype(bool) & self.region(shape)

    def block_area(
        self, shape: tuple[int, ...], margins_mm: tuple[float, float] = C.MAT_AREA_MARGIN_MM,
        scale: float = 1.0,
    ) -> np.ndarray:
        """The printed block area grown by ``margins_mm`` (towards the corner guide, away
        from it), in an image scaled by ``scale``; the region between the markers when the
        layout is not known."""
        if self.area_mm is None or self.mm_to_px is None:
            return self.region(shape)
        x, y, bw, bh = self.area_mm
        g, f = margins_mm
        quad = np.array([[x - g, y - g], [x + bw + f, y - g], [x + bw + f, y + bh + f],
                         [x - g, y + bh + f]], np.float64)
        px = cv2.perspectiveTransform(quad[None], self.mm_to_px)[0] * scale
        m = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(px).astype(np.int32), 1)
        return m.astype(bool)


def _grow(poly: np.ndarray, factor: float) -> np.ndarray:
    c = poly.mean(axis=0)
    return c + (poly - c) * factor


def find_mat(bgr: np.ndarray) -> MatView | None:
    """The mat in ``bgr`` from its corner markers, or None when it is not in the photo.

    The markers are found by the code that finds every sheet's (``register.find_markers``),
    without its harder searches when a first look finds none (most photos of dice on a
    table).
    With the mat's printed geometry two markers are enough (one may be cut off or covered);
    without it all four are needed.
    """
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    found = {i: c.astype(np.float64) for i, c in find_markers(grey, search_blind=False).items()}
    fit = _page_fit(found) if len(found) >= 2 else None
    if fit is not None:
        h, geo = fit
        w, hh = geo.page_mm
        mid = np.array([w / 2, hh / 2])
        polys, inner = [], []
        for sq in marker_corners_mm(geo).values():
            px = cv2.perspectiveTransform(sq[None].astype(np.float64), h)[0]
            polys.append(px)
            inner.append(px[np.argmin(np.linalg.norm(sq - mid, axis=1))])
        a = h @ np.array([w / 2, hh / 2, 1.0])
        b = h @ np.array([w / 2 + 10, hh / 2, 1.0])
        ppm = math.dist(a[:2] / a[2], b[:2] / b[2]) / 10
        box = geo.extra.get("block_area_mm")
        area = None if box is None else tuple(float(v) for v in box)
        die = geo.extra.get("die_mm")
        return MatView(np.array(inner), tuple(polys), h, ppm, area,  # type: ignore[arg-type]
                       None if die is None else float(die))
    if len(found) < 4:
        return None
    polys_found = tuple(found[i] for i in CORNER_MARKER_IDS)
    centre = np.mean([p.mean(axis=0) for p in polys_found], axis=0)
    inner_found = np.array(
        [p[np.argmin(np.linalg.norm(p - centre, axis=1))] for p in polys_found]
    )
    return MatView(inner_found, polys_found, None, None)


def _page_fit(found: dict[int, np.ndarray]) -> tuple[np.ndarray, SheetGeometry] | None:
    """Page mm -> image px from the markers found, using the mat's printed geometry and
    trying each paper size; None without the layout or when nothing fits."""
    try:
        geos = [layout_geometry(C.MAT_SHEET, paper, "A") for paper in PAPERS]  # made once
    except Exception:  # the layout is optional here: without it the mat only gives colour
        return None
    best: tuple[float, np.ndarray, SheetGeometry] | None = None
    for geo in geos:
        try:
            to_mm, res = marker_homography(found, geo, 1.0)
        except ImageError:
            continue
        if res <= C.MAT_MAX_RESIDUAL_MM and (best is None or res < best[0]):
            best = (res, np.linalg.inv(to_mm), geo)
    return (best[1], best[2]) if best else None
