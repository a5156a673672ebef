"""Read every field of a photographed Delicious sheet, each with a confidence.

The order is fixed: register the sheet, flatten it, normalise the light, subtract the blank
sheet's own printing, then read each field by its kind. Letters go to the classifier in
one batch, restricted to the letters the field allows. Nothing here knows the rules
except ``decide``, which may only settle close calls.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

import cv2
import numpy as np

import layouts
from companion.errors import UnknownNameError
from companion.games.delicious.symbols import FRUIT_LETTERS, VEGETABLE_LETTERS
from companion.paper.model import FieldKind, FieldSpec, SheetGeometry
from companion.vision import marks
from companion.vision.constants import (
    BORDER_RING_MM,
    CELL_EMPTY_BELOW,
    CELL_WRITTEN_ABOVE,
    FIELD_SHIFT_MAX_MM,
    MARK_BLANK_BELOW,
    MARK_GROW,
    MARK_SURE_ABOVE,
    RECTIFIED_DPI,
    REVIEW_BELOW,
    SHIFT_WINDOW_GROW_MM,
)
from companion.vision.decide import Candidates, decide
from companion.vision.load import load_image
from companion.vision.register import DELICIOUS_SHEETS, Registration, field_shift, register

LETTER_VALUES: dict[FieldKind, dict[str, str]] = {
    FieldKind.VEGETABLE: {letter: v.value for v, letter in VEGETABLE_LETTERS.items()},
    FieldKind.FRUIT: {letter: f.value for f, letter in FRUIT_LETTERS.items()},
}
MARK_VALUES: dict[FieldKind, str] = {
    FieldKind.CHOICE: "marked",
    FieldKind.TOOL: "cross",
    FieldKind.HONEY: "circled",
}


class Reader(StrEnum):
    OURS = "ours"
    TESSERACT = "tesseract"


@dataclass(frozen=True)
class FieldReading:
    """One field's reading: the value (None = empty), its confidence, the alternatives."""

    id: str
    kind: FieldKind
    value: str | None
    confidence: float
    candidates: tuple[tuple[str | None, float], ...]
    shift_px: tuple[int, int] = (0, 0)
    note: str = ""

    @property
    def review(self) -> bool:
        return self.confidence < REVIEW_BELOW


@dataclass(frozen=True, eq=False)
class SheetReading:
    """Everything read from one photo of one sheet."""

    photo: str
    registration: Registration
    readings: dict[str, FieldReading]
    rectified: np.ndarray = field(repr=False)  # grey, RECTIFIED_DPI
    seconds: float = 0.0
    reader: str = Reader.OURS.value

    @property
    def sheet(self) -> str:
        return self.registration.label.sheet

    @property
    def variant(self) -> str:
        return self.registration.label.variant

    @property
    def code(self) -> str:
        return self.registration.label.code

    @property
    def geometry(self) -> SheetGeometry:
        return self.registration.geometry

    @property
    def fields(self) -> dict[str, str]:
        """Non-empty readings, as a field map holds them."""
        return {k: r.value for k, r in sorted(self.readings.items()) if r.value is not None}

    @property
    def confidence(self) -> dict[str, float]:
        return {k: round(r.confidence, 4) for k, r in sorted(self.readings.items())}

    @property
    def review(self) -> list[str]:
        """Fields not certain enough to trust, least certain first."""
        doubtful = [r for r in self.readings.values() if r.review]
        return [r.id for r in sorted(doubtful, key=lambda r: (r.confidence, r.id))]

    def to_json(self) -> dict[str, Any]:
        return {
            "photo": self.photo,
            "sheet": self.sheet,
            "variant": self.variant,
            "code": self.code,
            "fields": self.fields,
            "confidence": self.confidence,
            "review": self.review,
            "seconds": round(self.seconds, 3),
        }


# ---- the blank sheet ---------------------------------------------------------------------


@cache
def blank_sheet(sheet: str, paper: str, variant: str) -> np.ndarray:
    """The sheet as printed, grey, at the rectified resolution (read-only, cached)."""
    img = layouts.render_image(sheet, paper=paper, variant=variant, dpi=RECTIFIED_DPI,
                               bw=True, code="")
    grey = np.asarray(img.convert("L"), dtype=np.uint8)
    grey.flags.writeable = False
    return grey


@cache
def _printed(sheet: str, paper: str, variant: str, px_per_mm: float) -> np.ndarray:
    mask = marks.printed_mask(blank_sheet(sheet, paper, variant), px_per_mm)
    mask.flags.writeable = False
    return mask


def _fit(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Match a template to the rectified size (they can differ by a rounding pixel)."""
    if img.shape[1] == size[0] and img.shape[0] == size[1]:
        return img
    return cv2.resize(img, size, interpolation=cv2.INTER_NEAREST)


# ---- per-kind measurements ----------------------------------------------------------------


@dataclass(frozen=True)
class _Page:
    """The rectified page and what the reader derives from it once."""

    grey: np.ndarray
    ink: np.ndarray  # 0/1 everything dark
    written: np.ndarray  # 0/1 dark and not printed: the player's own ink
    darkness: np.ndarray  # float32 0..1 for alignment
    blank_dark: np.ndarray  # float32 0..1 printed artwork
    px_per_mm: float


def _box(spec: FieldSpec) -> tuple[float, float, float, float]:
    b = spec.box_mm
    return (b.x, b.y, b.w, b.h)


def _shift(page: _Page, spec: FieldSpec) -> tuple[int, int]:
    ppm = page.px_per_mm
    rect = marks.box_px(_box(spec), ppm, SHIFT_WINDOW_GROW_MM)
    return field_shift(page.darkness, page.blank_dark, rect, int(round(FIELD_SHIFT_MAX_MM * ppm)))


def _written_patch(page: _Page, spec: FieldSpec, grow_mm: float,
                   shift: tuple[int, int]) -> np.ndarray:
    rect = marks.box_px(_box(spec), page.px_per_mm, grow_mm, shift)
    return marks.crop(page.written, rect)


def _cell(page: _Page, spec: FieldSpec, shift: tuple[int, int]) -> tuple[float, np.ndarray]:
    """Probability something is written in a cell, and its grey crop for the classifier."""
    patch = _written_patch(page, spec, -BORDER_RING_MM, shift)
    frac = marks.ink_fraction(patch)
    p = marks.logistic(frac, CELL_EMPTY_BELOW, CELL_WRITTEN_ABOVE, REVIEW_BELOW)
    rect = marks.box_px(_box(spec), page.px_per_mm, 0.0, shift)
    return p, marks.crop(page.grey, rect)


def _mark(page: _Page, spec: FieldSpec, shift: tuple[int, int]) -> tuple[float, np.ndarray]:
    """Probability an icon is marked (any fill, cross, check or ring around it)."""
    b = spec.box_mm
    grow = MARK_GROW.get(spec.kind.value, 0.3) * min(b.w, b.h)
    patch = _written_patch(page, spec, grow, shift)
    frac = marks.ink_fraction(patch)
    p = marks.logistic(frac, MARK_BLANK_BELOW[spec.kind.value], MARK_SURE_ABOVE[spec.kind.value],
                       REVIEW_BELOW)
    return p, patch


def _first_potter(page: _Page, spec: FieldSpec, shift: tuple[int, int]) -> Candidates:
    p_marked, patch = _mark(page, spec, shift)
    p_cross = marks.cross_probability(patch) if p_marked > 0.05 else 0.5
    return (
        (None, 1 - p_marked),
        ("cross", p_marked * p_cross),
        ("check", p_marked * (1 - p_cross)),
    )


# ---- letters -----------------------------------------------------------------------------


def _letter_candidates(
    crops: Sequence[np.ndarray], kinds: Sequence[FieldKind], reader: Reader
) -> list[list[tuple[str, float]]]:
    """Ranked (value, probability) per crop among the values its field kind allows."""
    alloweds = [sorted(LETTER_VALUES[k]) for k in kinds]
    out: list[list[tuple[str, float]]] = []
    if reader is Reader.TESSERACT:
        from companion.vision.tesseract_letters import read_letter_tesseract

        for crop, allowed, kind in zip(crops, alloweds, kinds, strict=True):
            letter, conf = read_letter_tesseract(crop, allowed)
            if letter is None or letter not in LETTER_VALUES[kind]:
                out.append([])
            else:
                out.append([(LETTER_VALUES[kind][letter], float(conf))])
        return out
    ranked = _classifier().classify_many(list(crops), alloweds) if crops else []
    for lst, kind in zip(ranked, kinds, strict=True):
        out.append([(LETTER_VALUES[kind][letter], float(p)) for letter, p in lst])
    return out


@cache
def _classifier() -> Any:
    from companion.vision.letters import LetterClassifier

    return LetterClassifier.load()


# ---- the reader --------------------------------------------------------------------------


def _page(grey: np.ndarray, reg: Registration) -> _Page:
    label = reg.label
    ppm = reg.px_per_mm
    size = (grey.shape[1], grey.shape[0])
    blank = _fit(blank_sheet(label.sheet, label.paper, label.variant), size)
    printed = _fit(_printed(label.sheet, label.paper, label.variant, ppm), size)
    ratio = marks.paper_ratio(grey, ppm)
    ink = marks.ink_mask(ratio)
    written = ink & (1 - printed)
    darkness = 1.0 - ratio
    blank_dark = 1.0 - blank.astype(np.float32) / 255.0
    return _Page(grey, ink, written, darkness, blank_dark, ppm)


def read_fields(
    grey: np.ndarray, reg: Registration, reader: Reader = Reader.OURS
) -> dict[str, FieldReading]:
    """Read every field of a registered sheet from its rectified grey image."""
    page = _page(grey, reg)
    geometry = reg.geometry
    cands: dict[str, Candidates] = {}
    shifts: dict[str, tuple[int, int]] = {}
    letter_ids: list[str] = []
    letter_crops: list[np.ndarray] = []
    letter_kinds: list[FieldKind] = []
    p_written: dict[str, float] = {}
    for spec in geometry.fields:
        shift = _shift(page, spec)
        shifts[spec.id] = shift
        if spec.kind in LETTER_VALUES:
            p, crop_grey = _cell(page, spec, shift)
            p_written[spec.id] = p
            if p > 0.02:
                letter_ids.append(spec.id)
                letter_crops.append(crop_grey)
                letter_kinds.append(spec.kind)
            cands[spec.id] = ((None, 1 - p),)
        elif spec.kind is FieldKind.FIRST_POTTER:
            cands[spec.id] = _first_potter(page, spec, shift)
        elif spec.kind in MARK_VALUES:
            p, _ = _mark(page, spec, shift)
            cands[spec.id] = ((None, 1 - p), (MARK_VALUES[spec.kind], p))
    ranked = _letter_candidates(letter_crops, letter_kinds, reader)
    for fid, lst in zip(letter_ids, ranked, strict=True):
        p = p_written[fid]
        cands[fid] = ((None, 1 - p), *((v, p * q) for v, q in lst))
    decided = decide(cands, reg.label.variant)
    out: dict[str, FieldReading] = {}
    kinds = {s.id: s.kind for s in geometry.fields}
    for fid, (value, conf, note) in decided.items():
        ordered = tuple(sorted(cands[fid], key=lambda c: -c[1]))
        out[fid] = FieldReading(fid, kinds[fid], value, conf, ordered, shifts[fid], note)
    return out


def read_image(
    bgr: np.ndarray,
    photo: str = "",
    reader: Reader | str = Reader.OURS,
    sheets: Sequence[str] = DELICIOUS_SHEETS,
) -> SheetReading:
    """Register and read one photo already in memory (BGR or grey)."""
    start = time.perf_counter()
    try:
        rd = Reader(reader)
    except ValueError:
        raise UnknownNameError(f"unknown reader {reader!r}; choose ours or tesseract") from None
    grey_photo = bgr if bgr.ndim == 2 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    reg = register(grey_photo, sheets)
    grey = reg.rectify(grey_photo)
    readings = read_fields(grey, reg, rd)
    return SheetReading(photo, reg, readings, grey, time.perf_counter() - start, rd.value)


def read_photo(
    path: str, reader: Reader | str = Reader.OURS, sheets: Sequence[str] = DELICIOUS_SHEETS
) -> SheetReading:
    """Load, register and read one photo file; ``seconds`` includes decoding it."""
    start = time.perf_counter()
    bgr = load_image(path)
    reading = read_image(bgr, str(path), reader, sheets)
    return SheetReading(reading.photo, reading.registration, reading.readings,
                        reading.rectified, time.perf_counter() - start, reading.reader)
