"""Glare: where a reflection has washed the photo out to white, ink may be gone.

A bright reflection clips the sensor: paper and pen alike come out pure white, so a cell
under it reads empty, confidently and wrongly. Clipped pixels are easy to see on the
flattened photo; a field mostly covered by them is never trusted, and its note says why
(``companion.games.delicious.verdicts`` turns many such notes into one verdict).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from companion.paper.model import FieldSpec
from companion.vision.sheet.constants import (
    GLARE_FIELD_SHARE,
    GLARE_LEVEL,
    GLARE_PAGE_SHARE_MAX,
)
from companion.vision.sheet.marks import box_px, crop


def glared_fields(grey: np.ndarray, specs: Iterable[FieldSpec], px_per_mm: float) -> set[str]:
    """Ids of the fields whose box is mostly clipped white on the rectified photo.

    A photo clipped nearly everywhere is overexposed rather than glared (its ink is still
    dark), so it marks no field.
    """
    clipped = grey >= GLARE_LEVEL
    if float(clipped.mean()) > GLARE_PAGE_SHARE_MAX:
        return set()
    out: set[str] = set()
    for spec in specs:
        b = spec.box_mm
        patch = crop(clipped, box_px((b.x, b.y, b.w, b.h), px_per_mm))
        if patch.size and float(patch.mean()) >= GLARE_FIELD_SHARE:
            out.add(spec.id)
    return out
