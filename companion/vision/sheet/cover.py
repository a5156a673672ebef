"""Covered fields: something lying on the sheet (a card, a hand, a cup) hides its print.

A cell under a card reads empty, confidently and wrongly, exactly as one under glare does;
and, as for glare, the sheet's own printing tells: around every field the blank sheet
prints frame lines and artwork, which any photo of the sheet shows darker than the paper
beside them. Where most of that print has no dark pixel near it, something lies over the
field. Unlike glare's clipped white, a cover can be any colour: the photo is judged over
its local paper white (``paper_ratio``), which adapts to a card's or a hand's own
lightness, so the print's darkness is what goes missing under light and dark covers alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import cv2
import numpy as np

from companion.paper.model import FieldSpec
from companion.vision.sheet.constants import (
    COVER_AREA_MIN_PRINTED,
    COVER_AREA_MM,
    COVER_FIELD_SHARE,
    COVER_GLARE_RIM_MM,
    COVER_MAP_PX_PER_MM,
    COVER_MAP_REACH_MM,
    COVER_MARGIN_MM,
    COVER_MIN_PRINTED_PX,
    COVER_PRINTED_BELOW,
    COVER_REACH_MM,
    COVER_SEEN_SHARE,
    COVER_WINDOW_MM,
    GLARE_LEVEL,
)
from companion.vision.sheet.marks import box_px, crop


def _unseen(darkest: np.ndarray, blank_ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blank's print (bool) and the print the photo does not show: no pixel near it
    (``darkest``, the photo's darkest within reach, over its paper white) as much as
    COVER_SEEN_SHARE of the print's own depth below the paper."""
    printed = blank_ratio < COVER_PRINTED_BELOW
    return printed, printed & ((1.0 - darkest) < COVER_SEEN_SHARE * (1.0 - blank_ratio))


def unseen_print(ratio: np.ndarray, blank_ratio: np.ndarray, spec: FieldSpec, px_per_mm: float,
                 shift: tuple[int, int] = (0, 0), glare: np.ndarray | None = None
                 ) -> float | None:
    """The share of the print around a field that the photo does not show (0 all seen, 1
    none); None when the blank prints too little there to judge.

    ``ratio`` is the photo over its local paper white (1 = paper), ``blank_ratio`` the
    blank sheet's own (at the photo's size: a wide printed fill is its own "paper" there,
    and so never judged), ``shift`` where the field sits in the photo (px), ``glare``
    where a reflection may have washed it out (print lost there is glare's, not a cover's).
    """
    b = spec.box_mm
    box = (b.x, b.y, b.w, b.h)
    printed_rect = box_px(box, px_per_mm, COVER_WINDOW_MM)
    r = max(1, int(round(COVER_REACH_MM * px_per_mm)))
    photo_rect = box_px(box, px_per_mm, COVER_WINDOW_MM + COVER_REACH_MM, shift)
    expected = crop(blank_ratio, printed_rect)
    photo = crop(ratio, photo_rect)
    if photo.shape[0] < expected.shape[0] + 2 * r or photo.shape[1] < expected.shape[1] + 2 * r:
        return None  # the window leaves the page
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))
    darkest = cv2.erode(photo, kernel)[r:r + expected.shape[0], r:r + expected.shape[1]]
    printed, unseen = _unseen(darkest, expected)
    n = int(printed.sum())
    if n < COVER_MIN_PRINTED_PX:
        return None
    if glare is not None:
        unseen &= ~crop(glare, photo_rect)[r:r + expected.shape[0], r:r + expected.shape[1]]
    return float(unseen.sum()) / n


def hidden_print(ratio: np.ndarray, blank_ratio: np.ndarray, px_per_mm: float,
                 glare: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Where a cover lies, on a coarse grid of the page: most of the print within
    COVER_AREA_MM unseen, grown by COVER_MARGIN_MM; and the grid's px per mm.

    Grown because a cover's rim fools the reader where its print still shows: the paper
    white is judged over a few millimetres, so the band inside a dark cover's edge looks
    like ink (and shows the print's darkness), and its shadow darkens the paper beside it.
    Judged on a grid of COVER_MAP_PX_PER_MM, since a cover is many millimetres wide (a
    tenth of the work of the photo's own pixels).
    """
    r = max(1, int(round(COVER_MAP_REACH_MM * px_per_mm)))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))
    printed, unseen = _unseen(cv2.erode(ratio, kernel), blank_ratio)
    if glare is not None:
        unseen &= ~glare
    h, w = ratio.shape[:2]
    scale = COVER_MAP_PX_PER_MM / px_per_mm
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    # shares of each grid cell's pixels that are print, and print unseen
    p_share = cv2.resize(printed.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    u_share = cv2.resize(unseen.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    a = max(3, int(round(COVER_AREA_MM * COVER_MAP_PX_PER_MM)) | 1)
    n_printed = cv2.blur(p_share, (a, a))
    n_unseen = cv2.blur(u_share, (a, a))
    hidden = ((n_printed >= COVER_AREA_MIN_PRINTED)
              & (n_unseen >= COVER_FIELD_SHARE * n_printed)).astype(np.uint8)
    m = max(1, int(round(COVER_MARGIN_MM * COVER_MAP_PX_PER_MM)))
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * m + 1, 2 * m + 1))
    return cv2.dilate(hidden, grow) > 0, COVER_MAP_PX_PER_MM


def glare_rim(grey: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Where a reflection may have washed the print out (bool): clipped white (the glare
    check's own level) and COVER_GLARE_RIM_MM around it, where a spot's soft rim washes the
    print out without clipping it. Print lost there is glare's to report, not a cover's."""
    clipped = (grey >= GLARE_LEVEL).astype(np.uint8)
    r = max(1, int(round(COVER_GLARE_RIM_MM * px_per_mm)))
    out: np.ndarray = cv2.dilate(clipped, cv2.getStructuringElement(
        cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))) > 0
    return out


def covered_fields(ratio: np.ndarray, blank_ratio: np.ndarray, specs: Iterable[FieldSpec],
                   px_per_mm: float, shifts: Mapping[str, tuple[int, ...]],
                   glare: np.ndarray | None = None) -> set[str]:
    """Ids of the fields around which most of the print is hidden, or which lie within a
    cover's margin; print lost where a reflection may have washed it out (``glare``, from
    :func:`glare_rim`) is left to the glare check."""
    near, grid_ppm = hidden_print(ratio, blank_ratio, px_per_mm, glare)
    out: set[str] = set()
    for spec in specs:
        dx, dy = shifts.get(spec.id, (0, 0))[:2]
        b = spec.box_mm
        if crop(near, box_px((b.x, b.y, b.w, b.h), grid_ppm)).any():
            out.add(spec.id)
            continue
        share = unseen_print(ratio, blank_ratio, spec, px_per_mm, (dx, dy), glare)
        if share is not None and share >= COVER_FIELD_SHARE:
            out.add(spec.id)
    return out
