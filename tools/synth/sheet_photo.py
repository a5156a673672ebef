"""Filled-in Delicious sheets as a player leaves them, and phone photos of them.

A page is rendered from the same layout the printer uses, then written on the way a
player would: one pen (or pencil) for the whole sheet with a little pressure change per
field, letters in handwriting, choice circles filled, crossed, ticked or ringed, First
Potter icons ticked or crossed, used tools crossed out, the honey "3" ringed; plus a few
stray marks away from the fields and sometimes a half-erased smudge in an empty cell,
which a reader must not mistake for writing. The truth is exactly the field map of the
fields that sheet carries.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

import layouts
from companion.errors import InputError, UnknownNameError
from companion.games.delicious.symbols import FRUIT_LETTERS, VEGETABLE_LETTERS, Fruit, Vegetable
from companion.paper.model import Box, FieldKind, FieldSpec, SheetGeometry
from tools.synth import constants as K
from tools.synth import handwriting, real_hands
from tools.synth.camera import CameraOptions, Photo, quad_area_fraction, shoot
from tools.synth.handwriting import Mask, PxBox
from tools.synth.sketches import SketchPlayer

DELICIOUS_SHEETS = ("delicious-garden", "delicious-play", "delicious-combo")
_MARK_KINDS = {FieldKind.CHOICE, FieldKind.FIRST_POTTER, FieldKind.TOOL, FieldKind.HONEY}


@dataclass(frozen=True)
class WritingPen:
    """What one player writes with; ``strength`` is ink opacity from 0 to 1."""

    name: str
    colour_bgr: tuple[int, int, int]
    strength: float


@dataclass(frozen=True)
class FilledSheet:
    """A written-on page and what was put on it besides the truth."""

    page_bgr: np.ndarray = field(repr=False)
    truth: dict[str, str]
    pen: WritingPen
    smudged: tuple[str, ...]  # empty fields holding a half-erased smudge
    stray_marks: int
    marks: dict[str, str] = field(default_factory=dict)  # field id -> mark drawn there
    writer: str = ""  # the real writer whose letters fill it ("" for fonts and strokes)
    sketched: tuple[str, ...] = ()  # plant fields holding a sketch, not a letter
    key_drawn: tuple[str, ...] = ()  # plants drawn in the sheet's key (layout version 2)


@dataclass(frozen=True)
class SheetPhoto:
    """A synthetic photo with everything needed to judge a reading of it."""

    photo: Photo
    truth: dict[str, str]
    sheet: str
    variant: str
    paper: str
    code: str
    seed: int
    pen: WritingPen
    smudged: tuple[str, ...]
    stray_marks: int
    marks: dict[str, str] = field(default_factory=dict)
    writer: str = ""
    sketched: tuple[str, ...] = ()
    key_drawn: tuple[str, ...] = ()

    def image(self) -> np.ndarray:
        return self.photo.image()

    def truth_json(self) -> dict[str, object]:
        """The truth as a docs/contracts.md field map, plus how the photo was made."""
        return {
            "game": "delicious",
            "variant": self.variant,
            "sheet": self.sheet,
            "paper": self.paper,
            "code": self.code,
            "fields": dict(sorted(self.truth.items())),
            "synthetic": {
                "seed": self.seed,
                "pen": self.pen.name,
                **({"writer": self.writer} if self.writer else {}),
                "smudged": list(self.smudged),
                "stray_marks": self.stray_marks,
                "marks": dict(sorted(self.marks.items())),
                **({"sketched": sorted(self.sketched)} if self.sketched else {}),
                **({"key_drawn": list(self.key_drawn)} if self.key_drawn else {}),
                "tilt_deg": round(self.photo.shot.tilt_deg, 1),
                "rotation_deg": round(self.photo.shot.rotation_deg, 1),
                "fill": round(self.photo.shot.fill, 2),
                "sheet_area": round(quad_area_fraction(self.photo.corners_px,
                                                       self.photo.shot.width_px,
                                                       self.photo.shot.height_px), 3),
                "shadow": self.photo.shot.shadow_depth > 0,
                "size_px": [self.photo.shot.width_px, self.photo.shot.height_px],
            },
        }


# ---- the blank page ---------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _blank_page(sheet: str, paper: str, variant: str, dpi: int, code: str) -> np.ndarray:
    rgb = np.asarray(
        layouts.render_image(sheet, paper=paper, variant=variant, dpi=dpi, bw=False, code=code)
        .convert("RGB")
    )
    page = np.ascontiguousarray(rgb[:, :, ::-1])
    page.setflags(write=False)
    return page


def sheet_geometry(sheet: str, paper: str = "letter", variant: str = "A") -> SheetGeometry:
    if sheet not in DELICIOUS_SHEETS:
        raise UnknownNameError(
            f"cannot fill sheet {sheet!r}; choose one of {', '.join(DELICIOUS_SHEETS)}"
        )
    geometry: SheetGeometry = layouts.geometry(sheet, paper=paper, variant=variant)
    return geometry


# ---- values to ink ------------------------------------------------------------------------


def _letter(spec: FieldSpec, value: str) -> str:
    if spec.kind is FieldKind.VEGETABLE:
        return VEGETABLE_LETTERS[Vegetable(value)]
    return FRUIT_LETTERS[Fruit(value)]


def _check_map(geometry: SheetGeometry, field_map: Mapping[str, str],
               everything: SheetGeometry) -> dict[str, str]:
    """The part of ``field_map`` on this sheet; every id must exist on the combo sheet."""
    known = {f.id: f for f in everything.fields}
    on_sheet = {f.id for f in geometry.fields}
    truth: dict[str, str] = {}
    for fid, value in field_map.items():
        spec = known.get(fid)
        if spec is None:
            raise UnknownNameError(f"no Delicious field {fid!r}")
        if value not in spec.allowed:
            raise InputError(f"field {fid} cannot hold {value!r}")
        if fid in on_sheet:
            truth[fid] = value
    return truth


def _px(box: Box, dpi: int) -> PxBox:
    s = dpi / K.MM_PER_INCH
    x0, y0 = round(box.x * s), round(box.y * s)
    return x0, y0, max(4, round((box.x + box.w) * s) - x0), max(4, round((box.y + box.h) * s) - y0)


def _grow(box: PxBox, factor: float, shape: tuple[int, ...]) -> PxBox:
    """The box scaled about its centre, kept on the page."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    nw, nh = w * factor, h * factor
    x0, y0 = max(0, round(cx - nw / 2)), max(0, round(cy - nh / 2))
    x1, y1 = min(shape[1], round(cx + nw / 2)), min(shape[0], round(cy + nh / 2))
    return x0, y0, max(4, x1 - x0), max(4, y1 - y0)


def choose_pen(rng: np.random.Generator) -> WritingPen:
    name, colour, (lo, hi) = K.PENS[int(rng.integers(len(K.PENS)))]
    return WritingPen(name, colour, float(rng.uniform(lo, hi)))


def _widen(coverage: np.ndarray, min_px: float) -> np.ndarray:
    """Thicken strokes narrower than a real pen line (width estimated as 2 x area / perimeter)."""
    mask = (coverage > 0.35).astype(np.uint8)
    area = int(mask.sum())
    if area == 0:
        return coverage
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    perimeter = sum(cv2.arcLength(c, True) for c in contours)
    width = 2.0 * area / max(perimeter, 1.0)
    if width >= min_px:
        return coverage
    r = max(1, math.ceil((min_px - width) / 2))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return np.asarray(cv2.dilate(coverage, disc), dtype=np.float32)


def _with_pen(page: np.ndarray, box: PxBox, pen: WritingPen, rng: np.random.Generator,
              draw: str, what: str, fonts: str, dpi: int, writer: str | None = None,
              sketch: Callable[[int, int, np.random.Generator], Mask] | None = None) -> None:
    """Draw a letter or mark on a white layer, then lay it on the page in this pen's ink.

    Going through a layer keeps one pen per sheet whatever ink the drawing helper would
    pick on its own; its strokes' shading survives as relative darkness.
    """
    x, y, w, h = box
    layer = np.full((h, w), 255, np.uint8)
    if sketch is not None:
        layer = np.clip(255.0 - 255.0 * sketch(w, h, rng), 0, 255).astype(np.uint8)
    elif draw == "letter":
        handwriting.draw_letter(layer, (0, 0, w, h), what, rng, fonts=fonts, writer=writer)
    else:
        handwriting.draw_mark(layer, (0, 0, w, h), what, rng)
    coverage = (255.0 - layer.astype(np.float32)) / 255.0
    coverage = _widen(coverage, K.MIN_STROKE_MM * dpi / K.MM_PER_INCH)
    peak = float(np.percentile(coverage[coverage > 0.05], 95)) if (coverage > 0.05).any() else 1
    strength = pen.strength * (1.0 + K.PRESSURE_JITTER * float(rng.uniform(-1, 1)))
    alpha = np.clip(coverage / max(peak, 0.2), 0.0, 1.0) * min(strength, 1.0)
    region = page[y:y + h, x:x + w].astype(np.float32)
    ink = np.array(pen.colour_bgr, np.float32)
    out = region * (1.0 - alpha[:, :, None]) + ink * alpha[:, :, None]
    page[y:y + h, x:x + w] = np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _mark_for(spec: FieldSpec, value: str, rng: np.random.Generator) -> tuple[str, float]:
    """Which mark a player draws for a value, and how much it overshoots the icon."""
    if spec.kind is FieldKind.CHOICE:
        kind = str(rng.choice(K.CHOICE_MARKS, p=K.CHOICE_MARK_WEIGHTS))
        if kind == "circle":
            return kind, float(rng.uniform(*K.HONEY_RING_GROW))
        return kind, 1.0 if kind == "fill" else float(rng.uniform(*K.MARK_GROW))
    if spec.kind is FieldKind.HONEY:
        return "circle", float(rng.uniform(*K.HONEY_RING_GROW))
    return value, float(rng.uniform(*K.MARK_GROW))  # "check" or "cross"


def _free_spot(rng: np.random.Generator, geometry: SheetGeometry, size_mm: float,
               tries: int = 60) -> Box | None:
    """A square away from every field, marker and the QR code, or None if none found."""
    c = K.STRAY_MARK_CLEARANCE_MM
    keep_out = [f.box_mm for f in geometry.fields]
    keep_out += list(geometry.key_boxes.values())
    keep_out += [Box(m.center_mm[0] - m.size_mm / 2, m.center_mm[1] - m.size_mm / 2,
                     m.size_mm, m.size_mm) for m in geometry.markers]
    if geometry.qr_box_mm is not None:
        keep_out.append(geometry.qr_box_mm)
    pw, ph = geometry.page_mm
    margin = 8.0
    for _ in range(tries):
        x = float(rng.uniform(margin, pw - margin - size_mm))
        y = float(rng.uniform(margin, ph - margin - size_mm))
        if all(x + size_mm + c < b.x or b.x + b.w + c < x or y + size_mm + c < b.y
               or b.y + b.h + c < y for b in keep_out):
            return Box(x, y, size_mm, size_mm)
    return None


def fill_sheet(
    sheet: str,
    field_map: Mapping[str, str],
    variant: str = "A",
    rng: np.random.Generator | None = None,
    fonts: str = "heldout",
    dpi: int = K.PAGE_DPI,
    *,
    paper: str = "letter",
    code: str = "",
    smudge: bool | None = None,
    writer: str | None = None,
    sketcher: SketchPlayer | None = None,
    key: bool = False,
) -> FilledSheet:
    """Render ``sheet`` and write ``field_map`` on it (only the fields that sheet has).

    ``fonts`` may name a part of the real writers (``real-test`` etc., see
    ``tools.synth.real_hands``): every letter then comes from one writer of it, the
    given ``writer`` or one drawn at random, as one player fills one sheet.

    Stray marks and the smudge come from a stream of their own, spawned from ``rng``: how
    many random draws the letters take depends on which fonts are installed, and that must
    not decide whether a sheet gets a smudge. ``smudge`` forces one (True) or none (False);
    None leaves it to chance (``SMUDGE_CHANCE``). ``sketcher``: the plants that player
    sketches are drawn, in their way, instead of written (tools/synth/sketches.py);
    ``key``: they also draw each of them once in the sheet's key (layout version 2), from
    a stream of its own (the rest of the sheet is the same with or without it).
    """
    rng = rng if rng is not None else np.random.default_rng()
    extras_rng = rng.spawn(1)[0]
    geometry = sheet_geometry(sheet, paper, variant)
    everything = geometry if sheet == "delicious-combo" else sheet_geometry(
        "delicious-combo", paper, variant)
    truth = _check_map(geometry, field_map, everything)
    page = _blank_page(sheet, paper, variant, dpi, code).copy()
    pen = choose_pen(rng)
    if writer is None and fonts in {r.value for r in real_hands.RealSplit}:
        hands = real_hands.writers(fonts)
        writer = hands[int(rng.integers(len(hands)))]
    marks: dict[str, str] = {}
    sketched: list[str] = []
    for spec in geometry.fields:
        value = truth.get(spec.id)
        if value is None:
            continue
        box = _px(spec.box_mm, dpi)
        if spec.kind in (FieldKind.VEGETABLE, FieldKind.FRUIT) and sketcher is not None \
                and sketcher.sketches(value):
            grown = _grow(box, float(rng.uniform(*K.SKETCH_GROW)), page.shape)
            _with_pen(page, grown, pen, rng, "sketch", value, fonts, dpi,
                      sketch=functools.partial(sketcher.alpha, value))
            sketched.append(spec.id)
        elif spec.kind in (FieldKind.VEGETABLE, FieldKind.FRUIT):
            grown = _grow(box, float(rng.uniform(*K.LETTER_GROW)), page.shape)
            _with_pen(page, grown, pen, rng, "letter", _letter(spec, value), fonts, dpi,
                      writer)
        elif spec.kind in _MARK_KINDS:
            kind, grow = _mark_for(spec, value, rng)
            marks[spec.id] = kind
            _with_pen(page, _grow(box, grow, page.shape), pen, rng, "mark", kind, fonts, dpi)
        else:
            raise InputError(f"cannot write a {spec.kind} field ({spec.id})")

    key_drawn: list[str] = []
    if key and sketcher is not None:
        key_rng = rng.spawn(1)[0]
        for plant, b in geometry.key_boxes.items():
            if sketcher.sketches(plant):
                grown = _grow(_px(b, dpi), float(key_rng.uniform(*K.SKETCH_GROW)),
                              page.shape)
                _with_pen(page, grown, pen, key_rng, "sketch", plant, fonts, dpi,
                          sketch=functools.partial(sketcher.alpha, plant))
                key_drawn.append(plant)

    strays = 0
    for _ in range(int(extras_rng.integers(K.STRAY_MARKS[0], K.STRAY_MARKS[1] + 1))):
        spot = _free_spot(extras_rng, geometry, float(extras_rng.uniform(*K.STRAY_MARK_MM)))
        if spot is not None:
            _with_pen(page, _px(spot, dpi), pen, extras_rng, "mark", "scribble", fonts, dpi)
            strays += 1

    smudged: list[str] = []
    empty = [f for f in geometry.fields
             if f.id not in truth and f.kind in (FieldKind.VEGETABLE, FieldKind.FRUIT)]
    wanted = extras_rng.random() < K.SMUDGE_CHANCE if smudge is None else smudge
    if empty and wanted:
        target = empty[int(extras_rng.integers(len(empty)))]
        handwriting.draw_mark(page, _px(target.box_mm, dpi), "smudge", extras_rng)
        smudged.append(target.id)
    return FilledSheet(page, truth, pen, tuple(smudged), strays, marks, writer or "",
                       tuple(sketched), tuple(key_drawn))


def render_sheet_photo(
    sheet: str,
    field_map: Mapping[str, str],
    seed: int,
    *,
    variant: str = "A",
    fonts: str = "heldout",
    camera: CameraOptions | None = None,
    paper: str = "letter",
    code: str = "",
    dpi: int = K.PAGE_DPI,
    smudge: bool | None = None,
    writer: str | None = None,
    sketcher: SketchPlayer | None = None,
    key: bool = False,
) -> SheetPhoto:
    """Fill a sheet and photograph it; the same arguments always give the same JPEG."""
    fill_rng, camera_rng = np.random.default_rng(seed).spawn(2)
    filled = fill_sheet(sheet, field_map, variant, fill_rng, fonts, dpi, paper=paper, code=code,
                        smudge=smudge, writer=writer, sketcher=sketcher, key=key)
    photo = shoot(filled.page_bgr, camera_rng, camera or CameraOptions())
    return SheetPhoto(photo, filled.truth, sheet, variant, paper, code, seed, filled.pen,
                      filled.smudged, filled.stray_marks, filled.marks, filled.writer,
                      filled.sketched, filled.key_drawn)


def make_photo(
    sheet: str,
    field_map: Mapping[str, str],
    seed: int,
    *,
    variant: str = "A",
    fonts: str = "heldout",
    camera: CameraOptions | None = None,
    paper: str = "letter",
    code: str = "",
    dpi: int = K.PAGE_DPI,
) -> tuple[np.ndarray, dict[str, str]]:
    """A BGR phone photo of ``sheet`` filled with ``field_map``, and the truth: the field
    map restricted to the fields printed on that sheet."""
    shot = render_sheet_photo(sheet, field_map, seed, variant=variant, fonts=fonts,
                              camera=camera, paper=paper, code=code, dpi=dpi)
    return shot.image(), shot.truth
