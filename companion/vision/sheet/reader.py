"""Read every field of a photographed Delicious sheet, each with a confidence.

The order is fixed: register the sheet, flatten it, normalise the light, subtract the blank
sheet's own printing, then read each field by its kind. Letters go to the classifier in
one batch, restricted to the letters the field allows. Nothing here knows the rules
except ``decide``, which may only settle close calls.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache, cached_property, lru_cache, partial
from typing import Any

import cv2
import numpy as np

import layouts
from companion.errors import UnknownNameError
from companion.games.delicious.players import FieldSummary, PlayerReading
from companion.games.delicious.scoring import Score
from companion.games.delicious.symbols import Mark
from companion.games.delicious.table import TableResult, assess
from companion.games.delicious.verdicts import (
    BENT_NOTE,
    BLUR_NOTE,
    COVER_NOTE,
    GLARE_NOTE,
    LOW_DETAIL_NOTE,
    LOW_LIGHT_NOTE,
    SIGHT_NOTES,
)
from companion.games.problems import Problem
from companion.paper.model import FieldKind, FieldSpec, SheetGeometry
from companion.vision import local_fit
from companion.vision.constants import (
    FIELD_SHIFT_MAX_MM,
    LOCAL_DOUBT_MM,
    RECTIFIED_DPI,
    SHIFT_NEIGHBOUR_MM,
    SHIFT_TRUST_PX,
    SHIFT_TRUST_SCORE,
    SHIFT_WINDOW_GROW_MM,
)
from companion.vision.field_shift import ShiftTemplate, field_shifts, shift_template
from companion.vision.load import load_grey
from companion.vision.register import DELICIOUS_SHEETS, Registration, register
from companion.vision.sheet import marks
from companion.vision.sheet.constants import (
    BLANK_BLUR_PX,
    BORDER_RING_MM,
    CELL_EDGE_WRITTEN_ABOVE,
    CELL_EMPTY_BELOW,
    CELL_FAINT_DARK,
    CELL_INK_BELOW,
    CELL_STRONG_MIN,
    CELL_WRITTEN_ABOVE,
    EDGE_WRITTEN_CONFIDENCE,
    ERASED_BELOW,
    ERASED_CONFIDENCE,
    ERASED_SURE_BELOW,
    ERASED_SURE_MAX_STRONG,
    FAINT_CONFIDENCE,
    INK_SMOOTH_PX,
    LETTER_CROP_GROW_MM,
    LETTER_DOUBT_CONFIDENCE,
    LETTER_PRINT_BELOW,
    LETTER_REVIEW_BELOW,
    LOW_DETAIL_CONFIDENCE,
    LOW_LIGHT_CNR,
    LYING_FOLD_SHARE,
    LYING_FOLD_STEP_MM,
    MARK_BLANK_BELOW,
    MARK_GROW,
    MARK_INK_BELOW,
    MARK_INK_MAX,
    MARK_INK_MIN,
    MARK_SURE_ABOVE,
    MIN_CELL_PX_PER_MM,
    MIN_MARK_PX_PER_MM,
    PEN_FRACTION,
    PEN_LIKE_MIN_LETTERS,
    PEN_LIKE_SHARE,
    PEN_PERCENTILE,
    PRINTED_GROW_PX,
    REVIEW_BELOW,
    SHAPE_GROW,
    STRONG_INK_BELOW,
)
from companion.vision.sheet.constants_sketches import (
    DRAWING_CONFIDENCE,
    KEY_DRAWN_ABOVE,
    LETTER_GATE_DEFAULT,
    LETTER_SURE_GATE,
    LETTER_SURE_READ,
    SKETCH_CLASSES,
    VEGETABLE_PLANTS,
)
from companion.vision.sheet.cover import (
    CoverBlank,
    PrintEdges,
    cover_blank,
    covered_fields,
    glare_rim,
    print_edges,
)
from companion.vision.sheet.decide import Candidates, Decision, decide
from companion.vision.sheet.drawing_groups import (
    DrawingEvidence,
    DrawingGroup,
)
from companion.vision.sheet.field_reading import (
    DRAWING_NOTE,
    LETTER_DOUBT_NOTE,
    LETTER_OF_VALUE,
    LETTER_PAIR_NOTE,
    LETTER_VALUES,
    PLANTS_OF_KIND,
    FieldReading,
    written_candidates,
)
from companion.vision.sheet.glare import glared_fields
from companion.vision.sheet.letter_pairs import LetterCall, doubted_pairs
from companion.vision.sheet.light import contrast_to_noise
from companion.vision.sheet.own_drawings import OwnDrawings, drawings_from
from companion.vision.sheet.settle import group_rule, settle_drawings

# The ids of a sheet's key's boxes (key_specs): never a field id.
KEY_PREFIX = "key."
# Ink is measured with the field in place and nudged a pixel each way, keeping the least: a
# pen stroke stays put, a printed edge a pixel off the blank comes and goes.
_NUDGES_PX = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
# Blank sheet taken around a field before it is blurred like the photo, so the blur sees
# the print just outside the field.
_BLUR_MARGIN_PX = 8
MARK_VALUES: dict[FieldKind, str] = {
    FieldKind.CHOICE: Mark.MARKED,
    FieldKind.TOOL: Mark.CROSS,
    FieldKind.HONEY: Mark.CIRCLED,
}


class Reader(StrEnum):
    OURS = "ours"
    TESSERACT = "tesseract"


@dataclass(frozen=True, eq=False)
class SheetReading(FieldSummary):
    """Everything read from one photo of one sheet."""

    photo: str
    registration: Registration
    readings: dict[str, FieldReading]
    rectified: np.ndarray = field(repr=False)  # grey, RECTIFIED_DPI
    seconds: float = 0.0
    reader: str = Reader.OURS.value
    # the player's named drawings of earlier sheets (``read --drawings``; own_drawings.py)
    own_drawings: OwnDrawings | None = field(default=None, repr=False)
    # the drawings of this sheet's key, each named by its box (read_key; None: no key)
    key_drawings: OwnDrawings | None = field(default=None, repr=False)

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

    @cached_property
    def _alone(self) -> TableResult:
        """This photo checked and scored on its own, as a one-player table (a garden
        without its play sheet is not blamed for the choice marks it cannot show)."""
        return assess([PlayerReading((self,))], ["player1"])

    @property
    def violations(self) -> list[Problem]:
        """The rules the fields as read break (a misread field can be the cause)."""
        return self._alone.violations[0]

    @property
    def score(self) -> Score:
        return self._alone.scores[0]

    def group_drawings(self, readings: Mapping[str, Any], keys: Sequence[Any] = (),
                       named: Mapping[str, str] | None = None
                       ) -> tuple[dict[str, Any], tuple[DrawingGroup, ...]]:
        """``readings`` (one player's, merged from their sheets) with every drawing named
        by its group, and the groups (drawing_groups.py); ``keys``: the drawings of the
        keys of the player's sheets (``key_drawings``, None where a sheet has none);
        ``named``: the cells the player has named by hand (cell -> plant)."""
        mine = [k for k in keys if isinstance(k, OwnDrawings) and k.count]
        key = None
        for k in mine:
            key = k if key is None else key.with_newer(k)
        return settle_drawings(readings, self.variant, self.own_drawings, key, named)

    def to_json(self) -> dict[str, Any]:
        """The per-photo document of ``delicious read --json`` (docs/contracts.md)."""
        return {
            "photo": self.photo,
            "sheet": self.sheet,
            "variant": self.variant,
            "code": self.code,
            "fields": self.fields,
            "confidence": self.confidence,
            "review": self.review,
            "violations": [v.to_json() for v in self.violations],
            "score": self.score.to_json(),
            "seconds": round(self.seconds, 3),
        }


# ---- the blank sheet ---------------------------------------------------------------------


@cache
def blank_sheet(sheet: str, paper: str, variant: str, bw: bool,
                version: int = layouts.LAYOUT_VERSION) -> np.ndarray:
    """The sheet as printed (from layout ``version``), grey, at the rectified resolution
    (read-only, cached)."""
    img = layouts.render_image(sheet, paper=paper, variant=variant, dpi=RECTIFIED_DPI,
                               bw=bw, code="", version=version)
    grey = np.asarray(img.convert("L"), dtype=np.uint8)
    grey.flags.writeable = False
    return grey


def _printed_in_bw(grey: np.ndarray, sheet: str, paper: str, variant: str,
                   version: int = layouts.LAYOUT_VERSION) -> bool:
    """Was this sheet printed in black and white? Whichever blank looks more like it."""
    small = cv2.resize(grey, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    a = small.astype(np.float32) - float(small.mean())
    best, bw_best = -2.0, False
    for bw in (False, True):
        t, tt = _small_blank(sheet, paper, variant, bw, (small.shape[1], small.shape[0]),
                             version)
        ncc = float((a * t).sum() / max(float(np.sqrt((a * a).sum() * tt)), 1e-6))
        if ncc > best:
            best, bw_best = ncc, bw
    return bw_best


@cache
def _small_blank(sheet: str, paper: str, variant: str, bw: bool, size: tuple[int, int],
                 version: int = layouts.LAYOUT_VERSION) -> tuple[np.ndarray, float]:
    """The blank at ``size`` less its mean, and its sum of squares, for _printed_in_bw
    (the same for every photo of the sheet, so made once)."""
    t = cv2.resize(blank_sheet(sheet, paper, variant, bw, version), size,
                   interpolation=cv2.INTER_AREA).astype(np.float32)
    t -= float(t.mean())
    t.flags.writeable = False
    return t, float((t * t).sum())


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
    ratio: np.ndarray  # float32: photo lightness over local paper white, smoothed
    blank: np.ndarray  # uint8: the blank sheet as printed
    raw_ratio: np.ndarray  # float32: the same unsmoothed; 1 - it is aligned on
    blank_ratio: np.ndarray  # float32: the blank sheet over its own local paper white
    px_per_mm: float
    printed: PrintEdges  # the blank's edges by direction (a pencil's are not among them)
    shift_templates: dict[str, tuple[ShiftTemplate | None, ...]]  # by field id, per blur
    cover_blank: CoverBlank  # the blank's side of the cover map
    # the blank's expected lightness around a field (_rel_patch), by window and blur: a
    # mark is measured five times, nudged a pixel each way, over the same window
    expected: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict, repr=False,
                                                       compare=False)


def _box(spec: FieldSpec) -> tuple[float, float, float, float]:
    b = spec.box_mm
    return (b.x, b.y, b.w, b.h)


Align = tuple[int, int, int]  # dx, dy (px) and the index of the lens blur in BLANK_BLUR_PX


def _shift_window(spec: FieldSpec, ppm: float, shape: tuple[int, ...]
                  ) -> tuple[tuple[slice, slice], tuple[int, int, int, int], int] | None:
    """The page window a field is aligned in, the field's surroundings inside it, and the
    reach of the search (px); None when the window leaves the page."""
    x0, y0, x1, y1 = marks.box_px(_box(spec), ppm, SHIFT_WINDOW_GROW_MM)
    reach = int(round(FIELD_SHIFT_MAX_MM * ppm))
    pad = reach + 8
    h, w = shape[:2]
    if x0 - pad < 0 or y0 - pad < 0 or x1 + pad > w or y1 + pad > h:
        return None
    window = (slice(y0 - pad, y1 + pad), slice(x0 - pad, x1 + pad))
    return window, (pad, pad, pad + x1 - x0, pad + y1 - y0), reach


@dataclass(frozen=True)
class _BlankKey:
    """One sheet as printed, flattened to one page size: what every per-sheet piece of
    the blank below depends on."""

    sheet: str
    paper: str
    variant: str
    bw: bool
    size: tuple[int, int]  # the flattened page's width and height (px)
    px_per_mm: float
    version: int = layouts.LAYOUT_VERSION


class _SheetBlank:
    """What the reader derives from a blank sheet, the same for every photo of it: each
    piece made on first use and kept with the sheet (``_sheet_blank`` keeps the last
    eight sheets: up to about 55 MB each with every piece made)."""

    def __init__(self, key: _BlankKey) -> None:
        self.key = key
        self._templates: dict[tuple[FieldSpec, ...],
                              dict[str, tuple[ShiftTemplate | None, ...]]] = {}

    @cached_property
    def image(self) -> np.ndarray:
        """The blank as printed, at the page's size (uint8, 9 MB)."""
        k = self.key
        out = _fit(blank_sheet(k.sheet, k.paper, k.variant, k.bw, k.version), k.size)
        out.flags.writeable = False  # shared by every read of the sheet
        return out

    @cached_property
    def ratio(self) -> np.ndarray:
        """The blank as the reader sees a photo of it, over its own local paper white
        (float32, 15 MB)."""
        out = marks.paper_ratio(self.image, self.key.px_per_mm)
        out.flags.writeable = False
        return out

    @cached_property
    def print_edges(self) -> PrintEdges:
        """The blank's edges by direction, for finding a pencil lying on a photo of it
        (2 MB)."""
        return print_edges(self.ratio, self.key.px_per_mm)

    @cached_property
    def cover(self) -> CoverBlank:
        """The blank's side of the cover map (4 MB)."""
        return cover_blank(self.ratio, self.key.px_per_mm)

    @cached_property
    def scaled(self) -> local_fit.ScaledBlank:
        """The blank as the bent-paper check compares it (under 1 MB besides the image)."""
        return local_fit.ScaledBlank(self.image, self.key.px_per_mm)

    def shift_templates(self, specs: tuple[FieldSpec, ...]
                        ) -> dict[str, tuple[ShiftTemplate | None, ...]]:
        """Every field's printed surroundings on the blank, softened by each lens blur and
        made ready for matching (about 0.2 s to make, up to 25 MB)."""
        if specs not in self._templates:
            self._templates[specs] = _shift_templates(self.image, self.key.px_per_mm, specs)
        return self._templates[specs]


@lru_cache(maxsize=8)
def _sheet_blank(key: _BlankKey) -> _SheetBlank:
    """The blank's pieces for ``key``, kept for the last eight sheets read."""
    return _SheetBlank(key)


def _blank_for(reg: Registration, bw: bool, page: np.ndarray) -> _SheetBlank:
    """The blank's pieces for the sheet ``reg`` found, flattened to ``page``'s size."""
    label = reg.label
    return _sheet_blank(_BlankKey(label.sheet, label.paper, label.variant, bw,
                                  (page.shape[1], page.shape[0]), reg.px_per_mm,
                                  label.version))


def _shift_templates(blank: np.ndarray, ppm: float, specs: tuple[FieldSpec, ...]
                     ) -> dict[str, tuple[ShiftTemplate | None, ...]]:
    out: dict[str, tuple[ShiftTemplate | None, ...]] = {}
    for spec in specs:
        found = _shift_window(spec, ppm, blank.shape)
        if found is None:
            continue
        window, inner, reach = found
        local = 1.0 - blank[window].astype(np.float32) / 255.0  # printed artwork, 0..1
        out[spec.id] = tuple(shift_template(cv2.GaussianBlur(local, (0, 0), sigma), inner,
                                            reach) for sigma in BLANK_BLUR_PX)
    return out


def _shift(page: _Page, spec: FieldSpec) -> tuple[Align, float]:
    """Where a field sits in the photo and how blurred the photo is there.

    The blank is softened by each candidate blur in turn; the blur whose match is best
    also tells how to soften the blank before comparing ink, since a tilted photo is
    sharp on the near side of the sheet and soft on the far side.
    """
    found = _shift_window(spec, page.px_per_mm, page.blank.shape)
    templates = page.shift_templates.get(spec.id)
    if found is None or templates is None:
        return (0, 0, 1), -1.0
    window, inner, reach = found
    dark = 1.0 - page.raw_ratio[window]  # the photo's darkness, 0..1, in this window
    best: tuple[float, Align] = (-2.0, (0, 0, 1))
    for k, (dx, dy, score) in enumerate(field_shifts(dark, templates, inner, reach)):
        if score > best[0]:
            best = (score, (dx, dy, k))
    return best[1], best[0]


def _smooth_shifts(
    specs: Sequence[FieldSpec], found: dict[str, tuple[Align, float]]
) -> dict[str, Align]:
    """Each field keeps its own shift when it matched clearly or agrees with the fields
    around it, else takes their median.

    Paper bends smoothly, so true shifts vary slowly across the sheet, while a single
    field's own estimate can be pulled off by the very marks written over it.
    """
    raw = {k: v[0] for k, v in found.items()}
    centres = np.array([s.box_mm.center for s in specs], np.float64)
    vals = np.array([raw[s.id] for s in specs], np.float64)
    out: dict[str, Align] = {}
    for i, spec in enumerate(specs):
        near = np.linalg.norm(centres - centres[i], axis=1) <= SHIFT_NEIGHBOUR_MM
        med = np.median(vals[near], axis=0)
        own = vals[i]
        clear = found[spec.id][1] >= SHIFT_TRUST_SCORE
        if clear or np.abs(own[:2] - med[:2]).max() <= SHIFT_TRUST_PX:
            out[spec.id] = raw[spec.id]  # a clear match, or one its neighbours agree with
        else:
            out[spec.id] = (int(round(med[0])), int(round(med[1])), int(round(med[2])))
    return out


def _rel_patch(page: _Page, spec: FieldSpec, grow_mm: float, align: Align) -> np.ndarray:
    """Photo over blank sheet around a field (1 = nothing added), the photo side shifted
    and the blank softened as much as the photo is there."""
    x0, y0, x1, y1 = marks.box_px(_box(spec), page.px_per_mm, grow_mm)
    dx, dy, k = align
    h, w = page.ratio.shape[:2]
    x0, y0 = max(x0, 0, -dx), max(y0, 0, -dy)
    x1, y1 = min(x1, w, w - dx), min(y1, h, h - dy)
    if x1 <= x0 or y1 <= y0:
        return np.ones((1, 1), np.float32)
    photo = page.ratio[y0 + dy:y1 + dy, x0 + dx:x1 + dx]
    key = (x0, y0, x1, y1, k)
    expected = page.expected.get(key)
    if expected is None:
        m = _BLUR_MARGIN_PX
        bx0, by0 = max(0, x0 - m), max(0, y0 - m)
        local = page.blank[by0:min(h, y1 + m), bx0:min(w, x1 + m)]
        expected = marks.expected_ratio(local, BLANK_BLUR_PX[k])
        expected = expected[y0 - by0:y0 - by0 + (y1 - y0), x0 - bx0:x0 - bx0 + (x1 - x0)]
        page.expected[key] = expected
    return marks.relative_ink(photo.copy(), expected)


def _written_patch(page: _Page, spec: FieldSpec, grow_mm: float, align: Align,
                   below: float = MARK_INK_BELOW) -> np.ndarray:
    return marks.ink_mask(_rel_patch(page, spec, grow_mm, align), below)


@dataclass(frozen=True)
class _CellInk:
    """What the ink test says of a letter cell, before the sheet's own pen is known."""

    p_written: float  # probability something is written, held down when the ink is faint
    p_plain: float  # the same without that hold when some strokes are firm
    crop: np.ndarray  # grey writing area for the classifier
    dark: float  # relative lightness of the darkest strokes (PEN_PERCENTILE)
    strong: float  # share of the writing area in firm strokes (STRONG_INK_BELOW)


def _cell(page: _Page, spec: FieldSpec, shift: Align) -> _CellInk:
    """Probability something is written in a cell, its grey crop for the classifier, and
    how dark its darkest strokes are (for judging it against the player's pen).

    Faint ink only (a half-erased smudge, or a very light pencil letter) is kept uncertain.
    """
    rel = _rel_patch(page, spec, -BORDER_RING_MM, shift)
    dark = float(np.percentile(rel, PEN_PERCENTILE))
    frac = marks.ink_fraction(marks.ink_mask(rel, CELL_INK_BELOW))
    p = marks.logistic(frac, CELL_EMPTY_BELOW, CELL_WRITTEN_ABOVE, REVIEW_BELOW)
    plain = p
    strong = marks.ink_fraction(marks.ink_mask(rel, STRONG_INK_BELOW))
    if frac > CELL_EMPTY_BELOW and (strong < CELL_STRONG_MIN or dark > CELL_FAINT_DARK):
        p = min(p, FAINT_CONFIDENCE)
        if strong < CELL_STRONG_MIN:  # no firm stroke at all: faint whatever the pen
            plain = p
    if frac < CELL_WRITTEN_ABOVE:
        whole = _edge_ink(page, spec, shift)
        if whole[0] >= CELL_EDGE_WRITTEN_ABOVE and whole[0] > frac:
            # written along the border: its strokes are the cell's darkest, not the inside's
            p = plain = max(p, EDGE_WRITTEN_CONFIDENCE)
            dark, strong = min(dark, whole[1]), max(strong, whole[2])
    return _CellInk(p, plain, _letter_crop(page, spec, shift), dark, strong)


def _edge_ink(page: _Page, spec: FieldSpec, shift: Align) -> tuple[float, float, float]:
    """Ink share, darkest strokes and firm-stroke share over a cell's whole box, each the
    least inky of the box nudged a pixel each way (a printed edge a pixel off comes and
    goes, a stroke stays, as for marks); no ink at all where the box nears the page edge."""
    x0, y0, x1, y1 = marks.box_px(_box(spec), page.px_per_mm, 0.0)
    dx, dy, k = shift
    h, w = page.ratio.shape[:2]
    m = _BLUR_MARGIN_PX
    if min(x0 + dx - 1, y0 + dy - 1, x0 - m, y0 - m) < 0 or max(
            x1 + dx + 1 - w, y1 + dy + 1 - h, x1 + m - w, y1 + m - h) > 0:
        return 0.0, 1.0, 0.0
    out = (1.0, 0.0, 1.0)
    for ex, ey in _NUDGES_PX:
        rel = _rel_patch(page, spec, 0.0, (dx + ex, dy + ey, k))
        frac = marks.ink_fraction(marks.ink_mask(rel, CELL_INK_BELOW))
        if frac < CELL_EDGE_WRITTEN_ABOVE:  # too little ink in one nudge: no edge letter
            return frac, 1.0, 0.0
        out = (min(out[0], frac), max(out[1], float(np.percentile(rel, PEN_PERCENTILE))),
               min(out[2], marks.ink_fraction(marks.ink_mask(rel, STRONG_INK_BELOW))))
    return out


def _letter_crop(page: _Page, spec: FieldSpec, shift: Align) -> np.ndarray:
    """The cell for the classifier, with the sheet's own print (cell borders, planter
    shape outlines) painted over in paper white so only the handwriting is left."""
    x0, y0, x1, y1 = marks.box_px(_box(spec), page.px_per_mm, LETTER_CROP_GROW_MM)
    dx, dy = shift[0], shift[1]
    h, w = page.grey.shape[:2]
    x0, y0 = max(x0, 0, -dx), max(y0, 0, -dy)
    x1, y1 = min(x1, w, w - dx), min(y1, h, h - dy)
    crop = page.grey[y0 + dy:y1 + dy, x0 + dx:x1 + dx].copy()
    if crop.size == 0:
        return crop
    r = PRINTED_GROW_PX + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    printed = cv2.erode(page.blank[y0:y1, x0:x1], kernel) < LETTER_PRINT_BELOW
    crop[printed] = np.uint8(np.percentile(crop, 90))
    return crop


def _share_of_pen(dark: float, pen: float | None) -> float:
    """How dark a cell's strokes are next to the player's pen (``pen``: the median lightness
    of the sheet's sure letters; 1 = as dark); 1 when there is no sure letter to go by."""
    if pen is None or pen >= 1.0:
        return 1.0
    return (1.0 - dark) / (1.0 - pen)


def _mark_threshold(pen: float | None) -> float:
    """The ink test for marks, fitted to the player's pen as their letters show it.

    A soft pencil's strokes are barely darker than paper; a felt pen's are near black and
    a strict test keeps printed edges out. With no letters to go by, the default holds.
    """
    if pen is None:
        return MARK_INK_BELOW
    below = 1.0 - PEN_FRACTION * (1.0 - pen)
    return float(min(MARK_INK_MAX, max(MARK_INK_MIN, below)))


def _grow_mm(spec: FieldSpec, fraction: float) -> float:
    return fraction * min(spec.box_mm.w, spec.box_mm.h)


def _mark(page: _Page, spec: FieldSpec, shift: Align, below: float = MARK_INK_BELOW) -> float:
    """Probability an icon is marked (any fill, cross, check or ring around it).

    Ink is measured with the field nudged a pixel each way and the least is kept: a pen
    stroke stays put, while a printed edge a pixel off the blank comes and goes.
    """
    kind = spec.kind.value
    grow = _grow_mm(spec, MARK_GROW[kind])
    dx, dy, k = shift
    frac = min(
        marks.ink_fraction(_written_patch(page, spec, grow, (dx + ex, dy + ey, k), below))
        for ex, ey in _NUDGES_PX
    )
    return marks.mark_probability(frac, MARK_BLANK_BELOW[kind], MARK_SURE_ABOVE[kind])


def _first_potter(page: _Page, spec: FieldSpec, shift: Align,
                  below: float = MARK_INK_BELOW) -> Candidates:
    p_marked = _mark(page, spec, shift, below)
    rel = _rel_patch(page, spec, _grow_mm(spec, SHAPE_GROW), shift)
    p_cross = marks.cross_probability_rel(rel, below) if p_marked > 0.05 else 0.5
    return (
        (None, 1 - p_marked),
        (Mark.CROSS, p_marked * p_cross),
        (Mark.CHECK, p_marked * (1 - p_cross)),
    )


# ---- letters -----------------------------------------------------------------------------


def _letter_candidates(
    crops: Sequence[np.ndarray], kinds: Sequence[FieldKind], reader: Reader,
    trusted: Sequence[bool] = (), own: bool = False, inputs: np.ndarray | None = None,
) -> tuple[list[list[tuple[str, float]]], np.ndarray | None]:
    """Ranked (value, probability) per crop among the values its field kind allows, and
    the letter network's unit-length features per crop (None from tesseract), by which a
    player's alike letters are grouped (letter_groups.py); ``inputs``: the crops as the
    networks take them (``_net_inputs``), when already made.

    With ``own``, a doubtful letter is also compared with the sheet's sure letters (those
    in surely written cells, ``trusted``): one player wrote them all (own_letters.py).
    """
    alloweds = [sorted(LETTER_VALUES[k]) for k in kinds]
    out: list[list[tuple[str, float]]] = []
    if reader is Reader.TESSERACT:
        from companion.vision.sheet.tesseract_letters import read_letter_tesseract

        for crop, allowed, kind in zip(crops, alloweds, kinds, strict=True):
            letter, conf = read_letter_tesseract(crop, allowed)
            if letter is None or letter not in LETTER_VALUES[kind]:
                out.append([])
            else:
                out.append([(LETTER_VALUES[kind][letter], float(conf))])
        return out, None
    if not crops:
        return [], None
    if inputs is None:
        inputs = _net_inputs(crops)
    ranked, feats = _classify(inputs, alloweds, list(trusted) or [True] * len(crops), own)
    for lst, kind in zip(ranked, kinds, strict=True):
        out.append([(LETTER_VALUES[kind][letter], float(p)) for letter, p in lst])
    return out, feats


def _net_inputs(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Written cells' crops as the letter and sketch networks both take them (n, INPUT_PX,
    INPUT_PX): made once a sheet, for the two networks alike."""
    from companion.vision.sheet.letters import preprocess

    return np.stack([preprocess(c) for c in crops])


def _classify(inputs: np.ndarray, alloweds: list[list[str]], trusted: list[bool],
              own: bool) -> tuple[list[list[tuple[str, float]]], np.ndarray | None]:
    """Letters ranked among each field's, and the letter network's features, for network
    ``inputs`` (``_net_inputs``)."""
    from companion.vision.sheet.own_letters import compare_own, letter_features

    clf = _classifier()
    logits, hidden = clf.logits_and_features(inputs)
    ranked = clf.rank(inputs, alloweds, logits)
    # the network's own unit-length view of each letter (an older model without it: none)
    feats = letter_features(inputs, hidden) if hidden.size else None
    if not own:
        return ranked, feats
    return compare_own(feats if feats is not None else letter_features(inputs, hidden), ranked,
                       _letter_review_below(Reader.OURS), trusted=trusted), feats


def _letter_review_below(reader: Reader) -> float:
    """The letter probability below which a letter goes to review: the shipped model's own
    (letters.json), fitted on filled sheets of real writers it never saw
    (``sheet_review_below``, tools/fit_letter_sheets.py), else on their single crops
    (``review_below``), else LETTER_REVIEW_BELOW."""
    if reader is Reader.OURS:
        meta = _classifier().meta
        for key in ("sheet_review_below", "review_below"):
            value = meta.get(key)
            if isinstance(value, int | float) and 0.0 < value < 1.0:
                return float(value)
    return LETTER_REVIEW_BELOW


def _pair_review_below(reader: Reader) -> float:
    """The letter probability a letter needs when a doubtful letter of the same sheet was read
    between the same two letters (``sheet_pair_review_below`` of the shipped model,
    tools/fit_letter_sheets.py); 0 (no such rule) where the model has none."""
    if reader is Reader.OURS:
        value = _classifier().meta.get("sheet_pair_review_below")
        if isinstance(value, int | float) and 0.0 < value <= 1.0:
            return float(value)
    return 0.0


def letter_calls(decided: dict[str, Decision],
                 cands: dict[str, Candidates]) -> dict[str, LetterCall]:
    """Per letter field read as a letter: its letter, the runner-up letter and the letter's
    probability among the field's letters (its share of the written candidates)."""
    out: dict[str, LetterCall] = {}
    for fid, (value, _conf, _note) in decided.items():
        if value not in LETTER_OF_VALUE:
            continue
        written = [(p, v) for v, p in cands[fid] if v is not None]
        total = sum(p for p, _ in written)
        own = sum(p for p, v in written if v == value)
        others = sorted(((p, v) for p, v in written if v != value), reverse=True)
        second = LETTER_OF_VALUE.get(others[0][1], "") if others else ""
        out[fid] = (LETTER_OF_VALUE[value], second, own / total if total > 0 else 0.0)
    return out


@cache
def _classifier() -> Any:
    from companion.vision.sheet.letters import LetterClassifier

    return LetterClassifier.load()


# ---- the reader --------------------------------------------------------------------------


def _page(grey: np.ndarray, reg: Registration, bw: bool | None = None) -> _Page:
    label = reg.label
    ppm = reg.px_per_mm
    if bw is None:
        bw = _printed_in_bw(grey, label.sheet, label.paper, label.variant, label.version)
    blank = _blank_for(reg, bw, grey)
    raw = marks.paper_ratio(grey, ppm)
    ratio = cv2.GaussianBlur(raw, (0, 0), INK_SMOOTH_PX)  # sensor noise off the ink test
    return _Page(grey, ratio, blank.image, raw, blank.ratio, ppm, blank.print_edges,
                 blank.shift_templates(_aligned_specs(reg.geometry)), blank.cover)


def read_fields(
    grey: np.ndarray, reg: Registration, reader: Reader = Reader.OURS, own_letters: bool = False,
    local: local_fit.LocalFit | None = None, *, bw: bool | None = None,
) -> tuple[dict[str, FieldReading], OwnDrawings | None]:
    """Read every field of a registered sheet from its rectified grey image (``own_letters``:
    compare doubtful letters with the player's sure ones on the sheet; ``local``: the warp a
    bent sheet was flattened through, whose doubt sends fields to review; ``bw``: whether
    the sheet was printed in black and white, when already judged on this image), and the
    drawings of its key (``read_key``)."""
    page = _page(grey, reg, bw)
    geometry = reg.geometry
    key = read_key(page, geometry, local)
    cands: dict[str, Candidates] = {}
    letter_ids: list[str] = []
    letter_crops: list[np.ndarray] = []
    letter_kinds: list[FieldKind] = []
    p_written: dict[str, float] = {}
    shifts = _smooth_shifts(geometry.fields, {s.id: _shift(page, s) for s in geometry.fields})
    cells = {spec.id: _cell(page, spec, shifts[spec.id])
             for spec in geometry.fields if spec.kind in LETTER_VALUES}
    sure_darks = [c.dark for c in cells.values() if c.p_written >= REVIEW_BELOW]
    pen = float(np.median(sure_darks)) if sure_darks else None  # the player's pen, once
    erased: set[str] = set()
    for spec in geometry.fields:
        if spec.id not in cells:
            continue
        cell = cells[spec.id]
        p = cell.p_written
        share = _share_of_pen(cell.dark, pen)
        if share < ERASED_BELOW and p > 0.0:
            erased.add(spec.id)
            sure = share < ERASED_SURE_BELOW and cell.strong < ERASED_SURE_MAX_STRONG
            p = 0.0 if sure else min(p, 1.0 - ERASED_CONFIDENCE)
        elif share >= PEN_LIKE_SHARE and len(sure_darks) >= PEN_LIKE_MIN_LETTERS:
            p = cell.p_plain  # faint for a pen, but as dark as this player's own writing
        p_written[spec.id] = p
        if p > 0.02:
            letter_ids.append(spec.id)
            letter_crops.append(cell.crop)
            letter_kinds.append(spec.kind)
        cands[spec.id] = ((None, 1 - p),)
    below = _mark_threshold(pen)
    for spec in geometry.fields:
        shift = shifts[spec.id]
        if spec.kind is FieldKind.FIRST_POTTER:
            cands[spec.id] = _first_potter(page, spec, shift, below)
        elif spec.kind in MARK_VALUES:
            p = _mark(page, spec, shift, below)
            cands[spec.id] = ((None, 1 - p), (MARK_VALUES[spec.kind], p))
    trusted = [p_written[fid] >= REVIEW_BELOW for fid in letter_ids]
    inputs = _net_inputs(letter_crops) if letter_crops else None
    ranked, letter_feats = _letter_candidates(letter_crops, letter_kinds, reader, trusted,
                                              own_letters, inputs)
    letter_top = [lst[0][1] if lst else 0.0 for lst in ranked]
    drawn, as_letters = _drawings(letter_ids, inputs, letter_kinds, p_written, letter_top)
    # a letter's look, for asking alike ones once and for telling a writer's letter the
    # sketch network doubted from a doodle (settle_drawings)
    looks = ({fid: letter_feats[i] for i, fid in enumerate(letter_ids)}
             if letter_feats is not None else {})
    unread = {fid for fid, lst in zip(letter_ids, ranked, strict=True)
              if not lst and fid not in drawn}
    for fid, lst in zip(letter_ids, ranked, strict=True):
        p = p_written[fid]
        if fid in drawn:  # the group reads it from the same mixed evidence
            lst, drawn[fid] = _mixed(lst, drawn[fid])
        elif fid in as_letters:  # the same mixed evidence, kept for settle_drawings
            as_letters[fid] = _mixed(lst, as_letters[fid])[1]
        cands[fid] = written_candidates(p, lst)
    decided = decide(cands, reg.label.variant)
    glared = glared_fields(grey, page.blank, geometry.fields, reg.px_per_mm)
    covered = covered_fields(page.raw_ratio, page.blank_ratio, geometry.fields,
                             reg.px_per_mm, shifts, glare_rim(grey, reg.px_per_mm),
                             page.printed, None if local is None else partial(_on_fold, local),
                             page.cover_blank)
    letter_review_below = _letter_review_below(reader)
    pair_review_below = _pair_review_below(reader)
    doubted = (doubted_pairs(letter_calls(decided, cands), letter_review_below)
               if pair_review_below > letter_review_below else set())
    out: dict[str, FieldReading] = {}
    specs = {s.id: s for s in geometry.fields}
    for fid, (value, conf, note) in decided.items():
        ordered = tuple(sorted(cands[fid], key=lambda c: -c[1]))
        spec = specs[fid]
        clear_cross = spec.kind is FieldKind.TOOL and value is not None and conf >= REVIEW_BELOW
        cap, detail_note = (1.0, LOW_DETAIL_NOTE) if clear_cross else _detail_cap(
            reg, spec, shifts[fid])
        sharp = cap >= 1.0  # detail enough here to tell print hidden from print blurred
        if fid in erased and value is None:
            note = "faint ink, far lighter than this sheet's writing: read as erased"
        if fid in unread:  # ink but no letter from the reader: only as sure as "empty" is
            cap, note = min(cap, 1.0 - p_written[fid]), "written but no letter recognised"
        if value is not None and spec.kind in LETTER_VALUES and not note:
            letter_p = conf / max(p_written[fid], 1e-9)
            below = pair_review_below if fid in doubted else letter_review_below
            if letter_p < below and LETTER_DOUBT_CONFIDENCE < min(cap, conf):
                cap = LETTER_DOUBT_CONFIDENCE
                note = LETTER_DOUBT_NOTE if letter_p < letter_review_below else LETTER_PAIR_NOTE
        if conf > cap:
            conf, note = cap, note or detail_note
        if fid in glared and not clear_cross:  # glare hides ink, never adds it
            conf, note = min(conf, LOW_DETAIL_CONFIDENCE), GLARE_NOTE
        elif fid in covered and sharp:  # a cover's rim can look like a stroke: crosses too
            conf, note = min(conf, LOW_DETAIL_CONFIDENCE), COVER_NOTE
        if local is not None and _bent_here(local, spec):  # misplaced print adds "ink"
            conf, note = min(conf, LOW_DETAIL_CONFIDENCE), BENT_NOTE
        evidence = drawn.get(fid) if value is not None else None
        if evidence is not None:  # never trusted alone: its group names it
            conf, note = min(conf, DRAWING_CONFIDENCE), note or DRAWING_NOTE
        look = looks.get(fid) if value is not None else None
        as_drawing = as_letters.get(fid) if value is not None else None
        out[fid] = FieldReading(fid, spec.kind, value, conf, ordered, shifts[fid][:2], note,
                                evidence, letter_look=look, as_drawing=as_drawing)
    # How grainy the photo is, measured only where something is in doubt (most photos have
    # nothing to put down to the light): the grain is then the likelier cause of any doubt
    # the photo's sight (detail, focus, glare, a bend) does not already explain.
    doubtful = [fid for fid, r in out.items() if r.review and r.note not in SIGHT_NOTES]
    if doubtful and contrast_to_noise(page.raw_ratio, page.blank, page.px_per_mm) < LOW_LIGHT_CNR:
        for fid in doubtful:
            out[fid] = replace(out[fid], note=LOW_LIGHT_NOTE)
    return out, key


def key_specs(geometry: SheetGeometry) -> tuple[FieldSpec, ...]:
    """The boxes of a sheet's key, where a sketching player draws each plant once (layout
    version 2): as cells of the plant's kind, allowing that plant alone. Read as the
    player's named examples, never scored."""
    return tuple(
        FieldSpec(KEY_PREFIX + plant,
                  FieldKind.VEGETABLE if plant in VEGETABLE_PLANTS else FieldKind.FRUIT,
                  box, (plant,))
        for plant, box in geometry.key_boxes.items())


def _aligned_specs(geometry: SheetGeometry) -> tuple[FieldSpec, ...]:
    """Every box aligned on the photo: the fields, then the key's boxes."""
    return (*geometry.fields, *key_specs(geometry))


def read_key(page: _Page, geometry: SheetGeometry, local: local_fit.LocalFit | None = None
             ) -> OwnDrawings | None:
    """The drawings of the sheet's key, each named by its box (None: the sheet has no key;
    no plant: the key was left empty). A box is left out where its ink is not clearly
    written, where it holds a letter (the sketch network's letter gate), where the page
    may be bent out of place, and where the sketch network alone is as sure of another
    plant as a trusted group is (a plant drawn in the wrong box must not name the
    player's drawings)."""
    specs = key_specs(geometry)
    if not specs:
        return None
    from companion.vision.sheet.letters import preprocess
    from companion.vision.sheet.sketch_model import model_fingerprint, sketch_classifier

    shifts = _smooth_shifts(specs, {s.id: _shift(page, s) for s in specs})
    drawn: list[tuple[FieldSpec, np.ndarray]] = []
    for spec in specs:
        if local is not None and _bent_here(local, spec):
            continue
        cell = _cell(page, spec, shifts[spec.id])
        if cell.p_written >= KEY_DRAWN_ABOVE:
            drawn.append((spec, cell.crop))
    model = model_fingerprint()
    if not drawn:
        return OwnDrawings(model, {})
    scores = sketch_classifier().scores(np.stack([preprocess(c) for _, c in drawn]))
    gate, trust = _letter_gate(), group_rule().trust
    named: list[tuple[str, np.ndarray]] = []
    for i, (spec, _) in enumerate(drawn):
        plant = spec.allowed[0]
        if scores.p_letter(i) >= gate:
            continue
        best, p_best = max(_plant_probs(scores, i, spec.kind), key=lambda c: c[1])
        if best != plant and p_best >= trust:
            continue
        named.append((plant, scores.features[i]))
    return drawings_from(named, model)


def _on_fold(local: local_fit.LocalFit, line: tuple[float, float, float, float]) -> bool:
    """Does a straight line (mm) run where the bent sheet's fit is in doubt, for at least
    LYING_FOLD_SHARE of its length? The paper's own fold or lifted edge draws such a line."""
    x0, y0, x1, y1 = line
    n = max(2, int(math.hypot(x1 - x0, y1 - y0) / LYING_FOLD_STEP_MM))
    doubtful = [_doubted(local, x, y, 0.0, 0.0)
                for x, y in zip(np.linspace(x0, x1, n), np.linspace(y0, y1, n), strict=True)]
    return sum(doubtful) >= LYING_FOLD_SHARE * n


def _bent_here(local: local_fit.LocalFit, spec: FieldSpec) -> bool:
    """Is the page around this field (and the print it is aligned on) possibly further
    from where the bent sheet's fit puts it than per-field alignment can be sure of?"""
    b = spec.box_mm
    return _doubted(local, b.x, b.y, b.w, b.h)


def _doubted(local: local_fit.LocalFit, x: float, y: float, w: float, h: float) -> bool:
    """Is the bent sheet's fit in doubt over a box (mm) grown by the field shift's window,
    beyond what per-field alignment can take up?"""
    g = SHIFT_WINDOW_GROW_MM
    return local.doubt_in(x - g, y - g, w + 2 * g, h + 2 * g) > LOCAL_DOUBT_MM


def _follow_bends(grey_photo: np.ndarray, reg: Registration, grey: np.ndarray, bw: bool
                  ) -> tuple[np.ndarray, local_fit.LocalFit | None]:
    """The flattened sheet, flattened again through a fitted warp if its paper bends
    (``bw``: the sheet was printed in black and white)."""
    blank = _blank_for(reg, bw, grey).scaled
    return local_fit.follow(grey_photo, reg, grey, blank)


def _letter_gate() -> float:
    """The "letter" probability a written cell needs to be read as a letter alone."""
    from companion.vision.sheet.sketch_model import sketch_classifier

    value = sketch_classifier().meta.get("letter_gate")
    return float(value) if isinstance(value, int | float) else LETTER_GATE_DEFAULT


def _drawings(ids: Sequence[str], inputs: np.ndarray | None, kinds: Sequence[FieldKind],
              p_written: dict[str, float], letter_top: Sequence[float]
              ) -> tuple[dict[str, DrawingEvidence], dict[str, DrawingEvidence]]:
    """The written cells that may hold a drawing rather than a letter, with their evidence
    (``inputs``: the cells as the networks take them, ``_net_inputs``; ``letter_top``: the
    letter reader's probability of its best letter, per cell); and
    the cells let through as letters (by the sketch network's gate, or under it on the
    letter reader's word alone), with their evidence as drawings, should the player turn
    out to draw them (settle_drawings)."""
    if not ids or inputs is None:
        return {}, {}
    from companion.vision.sheet.sketch_model import sketch_classifier

    scores = sketch_classifier().scores(inputs)
    gate = _letter_gate()
    out: dict[str, DrawingEvidence] = {}
    as_letters: dict[str, DrawingEvidence] = {}
    for i, (fid, kind) in enumerate(zip(ids, kinds, strict=True)):
        p_letter = scores.p_letter(i)
        ev = DrawingEvidence(kind.value, _plant_probs(scores, i, kind),
                             p_written[fid], p_letter, scores.features[i],
                             tuple(float(v) for v in scores.probs[i]))
        if p_letter >= gate or (p_letter >= LETTER_SURE_GATE
                                and letter_top[i] >= LETTER_SURE_READ):
            as_letters[fid] = ev
        else:
            out[fid] = ev
    return out, as_letters


def _plant_probs(scores: Any, i: int, kind: FieldKind) -> tuple[tuple[str, float], ...]:
    """The sketch network's probabilities for crop ``i`` over the plants a cell of ``kind``
    allows, summing to 1."""
    plants = PLANTS_OF_KIND[kind]
    raw = [float(scores.probs[i, SKETCH_CLASSES.index(v)]) for v in plants]
    total = sum(raw) or 1.0
    return tuple((v, r / total) for v, r in zip(plants, raw, strict=True))


def _as_plants(mixed: list[tuple[str, float]], ev: DrawingEvidence
               ) -> tuple[tuple[str, float], ...]:
    """The mixed values in the evidence's plant order, summing to 1."""
    got = dict(mixed)
    total = sum(got.get(v, 0.0) for v, _ in ev.plants) or 1.0
    return tuple((v, got.get(v, 0.0) / total) for v, _ in ev.plants)


def _mixed(letters: list[tuple[str, float]], ev: DrawingEvidence
           ) -> tuple[list[tuple[str, float]], DrawingEvidence]:
    """A possible drawing's values as letter and sketch mixed (_with_drawing), and its
    evidence holding them among its kind's plants, with the letter reader's best reading."""
    mixed = _with_drawing(letters, ev)
    return mixed, replace(ev, plants=_as_plants(mixed, ev),
                          letter=letters[0] if letters else None)


def _with_drawing(letters: list[tuple[str, float]], ev: DrawingEvidence
                  ) -> list[tuple[str, float]]:
    """A cell's values as a letter (its share p_letter) or as a sketch (the rest)."""
    mixed = {v: ev.p_letter * q for v, q in letters}
    for v, q in ev.plants:
        mixed[v] = mixed.get(v, 0.0) + (1.0 - ev.p_letter) * q
    return sorted(mixed.items(), key=lambda c: -c[1])


def _detail_cap(reg: Registration, spec: FieldSpec, align: Align) -> tuple[float, str]:
    """The most confidence a field can earn given how much detail the photo holds there,
    and the note that says why (too far, or out of focus).

    A blank icon and a faint pencil cross over it look alike when the sheet is far away or
    out of focus, so such a field is never trusted blindly, whatever its measurements say.
    (Measured: without this cap, 14 tool crosses in 40 hard photos were missed silently.)
    A clear tool cross is exempt (see MIN_MARK_PX_PER_MM): blur hides marks, never adds them.
    """
    ppm = reg.photo_px_per_mm(*spec.box_mm.center)
    fine = spec.kind in (FieldKind.TOOL, FieldKind.FIRST_POTTER)  # marks over printed icons
    blurred = align[2] == len(BLANK_BLUR_PX) - 1
    if ppm < (MIN_MARK_PX_PER_MM if fine else MIN_CELL_PX_PER_MM):
        return LOW_DETAIL_CONFIDENCE, LOW_DETAIL_NOTE
    if fine and blurred:
        return LOW_DETAIL_CONFIDENCE, BLUR_NOTE
    return 1.0, LOW_DETAIL_NOTE


def read_image(
    bgr: np.ndarray,
    photo: str = "",
    reader: Reader | str = Reader.OURS,
    sheets: Sequence[str] = DELICIOUS_SHEETS,
    *,
    own_letters: bool = False,
) -> SheetReading:
    """Register and read one photo already in memory (BGR or grey)."""
    start = time.perf_counter()
    try:
        rd = Reader(reader)
    except ValueError:
        raise UnknownNameError(f"unknown reader {reader!r}; choose ours or tesseract") from None
    grey_photo = bgr if bgr.ndim == 2 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    reg = register(grey_photo, sheets)
    rectified = reg.rectify(grey_photo)
    label = reg.label
    bw = _printed_in_bw(rectified, label.sheet, label.paper, label.variant, label.version)
    grey, local = _follow_bends(grey_photo, reg, rectified, bw)
    # a sheet flattened again is judged again; a flat one is the very image judged above
    readings, key = read_fields(grey, reg, rd, own_letters, local,
                                bw=bw if grey is rectified else None)
    return SheetReading(photo, reg, readings, grey, time.perf_counter() - start, rd.value,
                        key_drawings=key)


def read_photo(
    path: str, reader: Reader | str = Reader.OURS, sheets: Sequence[str] = DELICIOUS_SHEETS,
    *, own_letters: bool = False,
) -> SheetReading:
    """Load, register and read one photo file; ``seconds`` includes decoding it.

    Only grey is read from a sheet, so the photo is decoded to grey alone (load_grey).
    """
    start = time.perf_counter()
    grey = load_grey(path)
    reading = read_image(grey, str(path), reader, sheets, own_letters=own_letters)
    return replace(reading, seconds=time.perf_counter() - start)
