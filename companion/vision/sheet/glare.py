"""Glare: where a reflection has washed the photo out to white, ink may be gone.

A bright reflection clips the sensor: paper and pen alike come out pure white, so a cell
under it reads empty, confidently and wrongly. Clipped paper alone is no sign (a bright,
well-exposed photo clips its paper and keeps every stroke), but the sheet's own printing
is: where the blank sheet is dark and the photo is white all around, a reflection has
taken the ink. A field whose surroundings have lost their print is never trusted, and its
note says why (``companion.games.delicious.verdicts`` turns many notes into one verdict).
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from companion.paper.model import FieldSpec
from companion.vision.sheet.constants import (
    GLARE_FIELD_SHARE,
    GLARE_LEVEL,
    GLARE_MIN_PRINTED_PX,
    GLARE_PRINTED_BELOW,
    GLARE_REACH_MM,
    GLARE_WINDOW_MM,
)
from companion.vision.sheet.marks import box_px, crop


def glared_fields(grey: np.ndarray, blank: np.ndarray, specs: Iterable[FieldSpec],
                  px_per_mm: float) -> set[str]:
    """Ids of the fields around which the printing has vanished into clipped white."""
    r = max(1, int(round(GLARE_REACH_MM * px_per_mm)))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))
    washed = cv2.erode(grey, kernel) >= GLARE_LEVEL  # not one dark pixel anywhere near
    printed = blank < GLARE_PRINTED_BELOW
    out: set[str] = set()
    for spec in specs:
        b = spec.box_mm
        rect = box_px((b.x, b.y, b.w, b.h), px_per_mm, GLARE_WINDOW_MM)
        ink = crop(printed, rect)
        if int(ink.sum()) < GLARE_MIN_PRINTED_PX:
            continue
        if float(crop(washed, rect)[ink].mean()) >= GLARE_FIELD_SHARE:
            out.add(spec.id)
    return out
