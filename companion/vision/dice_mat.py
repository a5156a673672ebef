"""Find our printed dice mat in a photo: its four corner markers give the paper plane
(scale in mm, so the dice pitch is known in advance), the region the block lies in, and
a white reference (the paper) for white balance."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import constants_dice as C


@dataclass(frozen=True)
class MatView:
    corners_px: np.ndarray  # (4, 2) inner corners of markers 0..3, image pixels
    marker_polys: tuple[np.ndarray, ...]  # each marker's outline, image pixels
    mm_to_px: np.ndarray | None  # homography page mm -> image px, when the layout is known
    px_per_mm: float | None  # near the page centre

    def region(self, shape: tuple[int, ...]) -> np.ndarray:
        """Pixels between the markers, markers excluded."""
        m = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(self.corners_px).astype(np.int32), 1)
        for poly in self.marker_polys:
            grown = _grow(poly, 1.3)
            cv2.fillConvexPoly(m, np.round(grown).astype(np.int32), 0)
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


def _grow(poly: np.ndarray, factor: float) -> np.ndarray:
    c = poly.mean(axis=0)
    return c + (poly - c) * factor


def find_mat(bgr: np.ndarray) -> MatView | None:
    """The mat's markers in ``bgr``, or None when the photo does not show all four."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = det.detectMarkers(grey)
    if ids is None:
        return None
    found: dict[int, np.ndarray] = {}
    for c, i in zip(corners, ids.ravel(), strict=True):
        if int(i) in C.MAT_MARKER_IDS and int(i) not in found:
            found[int(i)] = c.reshape(4, 2).astype(np.float64)
    if len(found) < 4:
        return None
    polys = tuple(found[i] for i in C.MAT_MARKER_IDS)
    centre = np.mean([p.mean(axis=0) for p in polys], axis=0)
    # the marker corner nearest the page centre bounds the playing area
    inner = np.array([p[np.argmin(np.linalg.norm(p - centre, axis=1))] for p in polys])
    mm_to_px, ppm = _page_homography(found)
    return MatView(inner, polys, mm_to_px, ppm)


def _page_homography(found: dict[int, np.ndarray]) -> tuple[np.ndarray | None, float | None]:
    """Fit the page to the markers using the mat's printed geometry, trying each paper."""
    try:
        import layouts

        geos = [layouts.geometry(C.MAT_SHEET, paper, "A") for paper in C.MAT_PAPERS]
    except Exception:  # the layout is optional here: without it the mat only gives colour
        return None, None
    best: tuple[float, np.ndarray, float] | None = None
    for geo in geos:
        src, dst = [], []
        for m in geo.markers:
            if m.id not in found:
                continue
            (x, y), s = m.center_mm, m.size_mm
            src += [[x - s / 2, y - s / 2], [x + s / 2, y - s / 2], [x + s / 2, y + s / 2],
                    [x - s / 2, y + s / 2]]
            dst += list(found[m.id])
        if len(src) < 16:
            continue
        h, _ = cv2.findHomography(np.array(src), np.array(dst), 0)
        if h is None:
            continue
        back = cv2.perspectiveTransform(np.array(dst, np.float64)[None], np.linalg.inv(h))[0]
        res = float(np.mean(np.linalg.norm(back - np.array(src), axis=1)))
        if res > C.MAT_MAX_RESIDUAL_MM:
            continue
        w, hh = geo.page_mm
        a = h @ np.array([w / 2, hh / 2, 1.0])
        b = h @ np.array([w / 2 + 10, hh / 2, 1.0])
        ppm = math.dist(a[:2] / a[2], b[:2] / b[2]) / 10
        if best is None or res < best[0]:
            best = (res, h, ppm)
    return (best[1], best[2]) if best else (None, None)
