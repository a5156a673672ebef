"""Draw what the reader saw on the flattened sheet, so a player can check it at a glance.

Green: trusted reading. Orange: in the review list. Red: part of a rule problem. Each
container gets its points, the planter and the total are written in the margin.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import cv2
import numpy as np

from companion.games.delicious.garden import garden
from companion.games.delicious.players import FieldLike
from companion.games.delicious.symbols import (
    FRUIT_LETTERS,
    VEGETABLE_LETTERS,
    Fruit,
    Mark,
    Vegetable,
)
from companion.paper.model import FieldKind
from companion.vision.overlay import FONT, halo_text
from companion.vision.sheet.constants import (
    OVERLAY_GREEN_BGR,
    OVERLAY_ORANGE_BGR,
    OVERLAY_RED_BGR,
    OVERLAY_SCORE_BGR,
)
from companion.vision.sheet.marks import box_px
from companion.vision.sheet.reader import SheetReading, key_specs

_SHORT: dict[str, str] = {Mark.MARKED: "x", Mark.CROSS: "X", Mark.CHECK: "V", Mark.CIRCLED: "O"}


def _label(kind: FieldKind, value: str | None) -> str:
    if value is None:
        return ""
    if kind is FieldKind.VEGETABLE and value in Vegetable._value2member_map_:
        return VEGETABLE_LETTERS[Vegetable(value)]
    if kind is FieldKind.FRUIT and value in Fruit._value2member_map_:
        return FRUIT_LETTERS[Fruit(value)]
    return _SHORT.get(value, value[:2])


def draw_overlay(
    reading: SheetReading,
    violating: Collection[str] = (),
    container_points: Mapping[str, int] | None = None,
    summary: Mapping[str, int] | None = None,
    review: Collection[str] | None = None,
    readings: Mapping[str, FieldLike] | None = None,
    notes: Sequence[str] = (),
) -> np.ndarray:
    """The rectified sheet (grey, faded) with every reading drawn in colour (BGR).

    ``review`` and ``readings`` default to the sheet's own (pass the player's, after
    corrections by hand, to draw those). ``notes`` are written in red across the top of
    the sheet: what keeps it from being scored, or a verdict on the whole photo.
    """
    ppm = reading.registration.px_per_mm
    faded = (reading.rectified.astype(np.float32) * 0.55 + 255 * 0.45).astype(np.uint8)
    img = cv2.cvtColor(faded, cv2.COLOR_GRAY2BGR)
    review = set(reading.review if review is None else review)
    specs = {s.id: s for s in reading.geometry.fields}
    shown = reading.readings if readings is None else readings
    for fid, r in shown.items():
        if fid not in specs:
            continue
        spec = specs[fid]
        colour = (
            OVERLAY_RED_BGR if fid in violating
            else OVERLAY_ORANGE_BGR if fid in review
            else OVERLAY_GREEN_BGR
        )
        b = spec.box_mm
        # Where the reader found the field on this photo (a correction keeps the place).
        shift = reading.readings[fid].shift_px if fid in reading.readings else (0, 0)
        x0, y0, x1, y1 = box_px((b.x, b.y, b.w, b.h), ppm, 0.0, shift)
        if r.value is None and fid not in review and fid not in violating:
            cv2.rectangle(img, (x0, y0), (x1, y1), colour, 1)
            continue
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, 3 if fid in review else 2)
        label = _label(spec.kind, r.value)
        if fid in review:
            label = f"{label or '-'}?"
        # A small label in the box's top-left corner leaves the handwriting visible.
        size = _label_size(y0, y1)
        halo_text(img, label, (x0 + 3, y0 + int(24 * size)), size, colour, 2)
        group = getattr(r, "group", "")
        if group:  # a drawing: its group of alike drawings, named together (q3 = question 3)
            halo_text(img, group, (x0 + 3, y1 - 4), size * 0.8, colour, 2)
    taken = reading.key_drawings.looks if reading.key_drawings is not None else {}
    for spec in key_specs(reading.geometry):
        if spec.allowed[0] in taken:  # a key drawing the reader took, named by its box
            b = spec.box_mm
            x0, y0, x1, y1 = box_px((b.x, b.y, b.w, b.h), ppm, 0.0)
            cv2.rectangle(img, (x0, y0), (x1, y1), OVERLAY_GREEN_BGR, 2)
            halo_text(img, "key", (x0 + 3, y1 - 4), _label_size(y0, y1) * 0.8,
                      OVERLAY_GREEN_BGR, 2)
    if container_points is not None:
        g = garden(reading.variant)
        for c in g.containers:
            boxes = [specs[cell].box_mm for cell in c.cells if cell in specs]
            if not boxes:
                continue
            x = min(bx.x for bx in boxes) * ppm
            y = min(bx.y for bx in boxes) * ppm
            halo_text(img, f"{container_points.get(c.id, 0)} pts",
                      (int(x), int(y - 1.5 * ppm)), 0.9, OVERLAY_SCORE_BGR, 2)
    if summary:
        line = "  ".join(f"{k} {v}" for k, v in summary.items())
        halo_text(img, line, (int(6 * ppm), int(reading.geometry.page_mm[1] * ppm - 2 * ppm)),
                  0.9, OVERLAY_SCORE_BGR, 2)
    _notes(img, notes, ppm)
    return img


def _label_size(y0: int, y1: int) -> float:
    """A box's label size, for a box from ``y0`` to ``y1`` px."""
    return max(0.45, (y1 - y0) / 75)


def _notes(img: np.ndarray, notes: Sequence[str], ppm: float) -> None:
    """Each note word-wrapped to the page width, one line under another from the top."""
    scale, thick = 0.9, 2
    width = img.shape[1] - int(12 * ppm)
    y = int(30 * ppm)
    for note in notes:
        line = ""
        for word in note.split():
            trial = f"{line} {word}".strip()
            if line and cv2.getTextSize(trial, FONT, scale, thick)[0][0] > width:
                halo_text(img, line, (int(6 * ppm), y), scale, OVERLAY_RED_BGR, thick)
                y += int(12 * scale * ppm / 2.6) + 20
                line = word
            else:
                line = trial
        if line:
            halo_text(img, line, (int(6 * ppm), y), scale, OVERLAY_RED_BGR, thick)
            y += int(12 * scale * ppm / 2.6) + 20

