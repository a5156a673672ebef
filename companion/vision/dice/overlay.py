"""Draw what the dice reader saw, and cleaver cuts, on the photo.

Cells come from the reading's fitted grid, so lines follow the block's perspective: a
blade line runs along a seam between two grid columns (or rows) from the edge it enters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError, InputError
from companion.games.diced_veggies.cut import Cut
from companion.vision.dice import constants as C
from companion.vision.dice.reader import DiceReading
from companion.vision.load import load_image
from companion.vision.overlay import BLACK_BGR, FONT, halo_text, write_overlay

_LETTER: Mapping[str, str] = MappingProxyType(
    {"carrot": "C", "mushroom": "M", "onion": "O", "pepper": "P", "tomato": "T"}
)
_PALETTE = ((255, 90, 200), (255, 200, 0), (60, 220, 255), (200, 120, 255), (120, 255, 120))


def _photo(photo: str | Path | np.ndarray) -> np.ndarray:
    return photo.copy() if isinstance(photo, np.ndarray) else load_image(photo)


def _pt(p: Sequence[float] | np.ndarray) -> tuple[int, int]:
    return (int(round(p[0])), int(round(p[1])))


def _sizes(reading: DiceReading) -> tuple[float, int]:
    """The median pitch in pixels and a line thickness to go with it."""
    if not reading.dice:
        return 40.0, 2
    pitch = float(np.median([reading.grid.pitch_px(d.row, d.col) for d in reading.dice]))
    return pitch, max(1, int(round(pitch / 30)))


def _label(img: np.ndarray, text: str, at: tuple[int, int], scale: float,
           colour: tuple[int, int, int]) -> None:
    thick = max(1, int(round(scale * 2)))
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thick)
    halo_text(img, text, (at[0] - w // 2, at[1] + h // 2), scale, colour, thick, BLACK_BGR, 2)


def render_reading(photo: str | Path | np.ndarray, reading: DiceReading) -> np.ndarray:
    """The photo with every read die's cell outlined and labelled (ingredient letter and
    pips); dice sent to review are outlined in orange, gaps (cells where something stands
    unread) outlined in orange and marked "?"."""
    img = _photo(photo)
    pitch, thick = _sizes(reading)
    scale = pitch / 70
    for d in reading.dice:
        colour = C.OVERLAY_REVIEW_BGR if d.review else C.OVERLAY_GRID_BGR
        quad = reading.grid.corners(d.row, d.col)
        cv2.polylines(img, [np.round(quad).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        text = f"{_LETTER.get(d.ingredient.value, '?')}{d.value}"
        _label(img, text, _pt(reading.grid.center(d.row, d.col)), scale,
               C.OVERLAY_REVIEW_BGR if d.review else C.OVERLAY_TEXT_BGR)
    for g in reading.gaps:  # something unread stands here
        quad = reading.grid.corners(g.row, g.col)
        cv2.polylines(img, [np.round(quad).astype(np.int32)], True, C.OVERLAY_REVIEW_BGR,
                      thick, cv2.LINE_AA)
        _label(img, "?", _pt(reading.grid.center(g.row, g.col)), scale, C.OVERLAY_REVIEW_BGR)
    return img


def draw_reading(photo: str | Path | np.ndarray, reading: DiceReading,
                 out_path: str | Path) -> None:
    """Save the reading overlay (``dice read --overlay``)."""
    write_overlay(out_path, render_reading(photo, reading))


def _seam_line(
    reading: DiceReading, cut: Mapping[str, Any], rows: range, cols: range
) -> tuple[np.ndarray, np.ndarray, tuple[float, float]] | None:
    """Blade line (start at the entry edge, end) in pixels and the push direction in grid
    units, for a cut object of docs/contracts.md."""
    try:
        seam, k, end = cut["seam"], int(cut["index"]), cut.get("from")
        depth, push = cut.get("depth"), cut["push"]
    except (KeyError, TypeError, ValueError):
        return None
    margin = 0.35
    if seam == "vertical":
        x = k - 0.5
        top, bottom = rows.start - 0.5 - margin, rows.stop - 0.5 + margin
        if end == "bottom":
            a = (x, bottom)
            b = (x, rows.stop - 0.5 - depth) if depth else (x, top)
        else:
            a = (x, top)
            b = (x, rows.start - 0.5 + depth) if depth else (x, bottom)
    elif seam == "horizontal":
        y = k - 0.5
        left, right = cols.start - 0.5 - margin, cols.stop - 0.5 + margin
        if end == "right":
            a = (right, y)
            b = (cols.stop - 0.5 - depth, y) if depth else (left, y)
        else:
            a = (left, y)
            b = (cols.start - 0.5 + depth, y) if depth else (right, y)
    else:
        return None
    direction = {"left": (-1.0, 0.0), "right": (1.0, 0.0), "up": (0.0, -1.0),
                 "down": (0.0, 1.0)}.get(str(push), (0.0, 0.0))
    pts = np.array([[a], [b]], np.float64).reshape(1, 2, 2)
    img = cv2.perspectiveTransform(pts, reading.grid.h)[0]
    return img[0], img[1], direction


def _extent(reading: DiceReading) -> tuple[range, range]:
    rows = [d.row for d in reading.dice] or [0]
    cols = [d.col for d in reading.dice] or [0]
    return range(min(rows), max(rows) + 1), range(min(cols), max(cols) + 1)


def cut_name(cut: Mapping[str, Any]) -> str:
    """The cut as ``dice cuts`` lists it (``V3T2R``), from its spec or its JSON fields."""
    spec = cut.get("spec")
    if isinstance(spec, str) and spec:
        return spec
    try:
        return str(Cut.from_json(cut))
    except (CompanionError, KeyError, TypeError, ValueError):
        return ""


def _draw_blade(img: np.ndarray, reading: DiceReading, cut: Mapping[str, Any],
                colour: tuple[int, int, int], thick: int, pitch: float, label: str,
                shift: float) -> None:
    rows, cols = _extent(reading)
    line = _seam_line(reading, cut, rows, cols)
    if line is None:
        return
    a, b, (px, py) = line
    cv2.line(img, _pt(a), _pt(b), (0, 0, 0), thick * 3 + 2, cv2.LINE_AA)
    cv2.line(img, _pt(a), _pt(b), colour, thick * 3, cv2.LINE_AA)
    # push arrow from the blade's far end, and the sum where the blade enters
    tip = b + np.array([px, py]) * pitch * 0.45
    cv2.arrowedLine(img, _pt(b), _pt(tip), colour, thick * 2, cv2.LINE_AA, tipLength=0.4)
    direction = (a - b) / max(float(np.linalg.norm(a - b)), 1e-6)
    # beside the blade where it enters: out past the block's edge, a little to the side
    side = np.array([-direction[1], direction[0]])
    spot = a + direction * pitch * 0.35 + side * pitch * 0.1 * len(label) / 4
    spot = spot + np.array([0.0, shift * pitch])  # names of cuts entering at one spot stack
    _label(img, label, _pt(spot), pitch / 110, colour)


def render_cuts(photo: str | Path | np.ndarray, reading: DiceReading,
                cuts_json: Mapping[str, Any]) -> np.ndarray:
    """The reading overlay plus cuts: every cut of a ``dice cuts`` document as a blade line
    with its pip sum, or one judged cut (a ``check`` document) in green when legal and red
    when not, its taken dice outlined."""
    img = render_reading(photo, reading)
    pitch, thick = _sizes(reading)
    if "legal" in cuts_json:
        colour = C.OVERLAY_LEGAL_BGR if cuts_json.get("legal") else C.OVERLAY_ILLEGAL_BGR
        for r, c in cuts_json.get("taken", []):
            quad = np.round(reading.grid.corners(int(r), int(c))).astype(np.int32)
            cv2.polylines(img, [quad], True, colour, thick * 3, cv2.LINE_AA)
        cut = cuts_json.get("cut")
        if isinstance(cut, Mapping):
            label = f"{cut_name(cut)} {cuts_json.get('sum', '')}".strip()
            _draw_blade(img, reading, cut, colour, thick, pitch, label, 0.0)
        return img
    if cuts_json.get("take_all"):
        rows, cols = _extent(reading)
        corner = reading.grid.center(rows.start - 0.8, (cols.start + cols.stop - 1) / 2)
        _label(img, "take all", _pt(corner), pitch / 60, C.OVERLAY_LEGAL_BGR)
    seen: dict[tuple[str, int, str], int] = {}
    for i, cut in enumerate(cuts_json.get("cuts", [])):
        key = (str(cut.get("seam")), int(cut.get("index", 0)), str(cut.get("from")))
        shift = 0.3 * seen.get(key, 0)  # stack the names of cuts sharing an entry point
        seen[key] = seen.get(key, 0) + 1
        _draw_blade(img, reading, cut, _PALETTE[i % len(_PALETTE)], thick, pitch,
                    f"{cut_name(cut)} {cut.get('sum', '')}".strip(), shift)
    return img


def draw_cuts(photo_path: str | Path | np.ndarray, reading: DiceReading | None,
              cuts_json: Mapping[str, Any], out_path: str | Path) -> None:
    """Save the photo with the fitted grid, each die's reading and the cuts."""
    if reading is None:
        raise InputError("an overlay needs a photo reading")
    write_overlay(out_path, render_cuts(photo_path, reading, cuts_json))

