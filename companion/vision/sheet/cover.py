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

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

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
    LYING_ALIKE,
    LYING_BLUR_PX,
    LYING_BORDER_MM,
    LYING_CANNY_LOW,
    LYING_DIRECTIONS,
    LYING_END_MM,
    LYING_EVEN,
    LYING_FOLLOW_MM,
    LYING_FOLLOW_RUN_MM,
    LYING_FOLLOW_SHARE,
    LYING_GAP_MM,
    LYING_MIN_LENGTH_MM,
    LYING_PRINT_MM,
    LYING_PX_PER_MM,
    LYING_REACH_MM,
    LYING_SIDE_MM,
    LYING_SUPPORT,
)
from companion.vision.sheet.marks import box_px, crop


def _unseen(darkest: np.ndarray, blank_ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blank's print (bool) and the print the photo does not show (``_unseen_of``)."""
    printed = _printed(blank_ratio)
    return printed, _unseen_of(darkest, printed, _seen_depth(blank_ratio))


def _printed(blank_ratio: np.ndarray) -> np.ndarray:
    """Where the blank prints lines and edges the cover check looks for (bool)."""
    return np.asarray(blank_ratio < COVER_PRINTED_BELOW)


def _seen_depth(blank_ratio: np.ndarray) -> np.ndarray:
    """How far below its paper white a photo must be near each pixel of print to show it."""
    return np.asarray(COVER_SEEN_SHARE * (1.0 - blank_ratio))


def _unseen_of(darkest: np.ndarray, printed: np.ndarray, seen_depth: np.ndarray
               ) -> np.ndarray:
    """The print the photo does not show: no pixel near it (``darkest``, the photo's darkest
    within reach, over its paper white) as much as COVER_SEEN_SHARE of the print's own
    depth below the paper."""
    return np.asarray(printed & ((1.0 - darkest) < seen_depth))


@dataclass(frozen=True, eq=False)
class CoverBlank:
    """The blank's side of the cover map (``hidden_print``), the same for every photo of
    a sheet: made once per sheet (``cover_blank``), it spares each read a fifth of the
    map's work (the print's depth, a float a pixel, is worked out again each read rather
    than kept: four times the memory for a few milliseconds)."""

    printed: np.ndarray  # bool, the page: the blank's print
    printed_near: np.ndarray  # the cover grid: the share of print within COVER_AREA_MM


def _map_size(shape: tuple[int, ...], px_per_mm: float) -> tuple[int, int]:
    """The cover grid's (width, height) for a page of ``shape`` (COVER_MAP_PX_PER_MM)."""
    h, w = shape[:2]
    scale = COVER_MAP_PX_PER_MM / px_per_mm
    return max(1, round(w * scale)), max(1, round(h * scale))


def _area_share(mask: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The share of each cover-grid cell's pixels in ``mask``, averaged over COVER_AREA_MM."""
    share = cv2.resize(mask.astype(np.float32), _map_size(mask.shape, px_per_mm),
                       interpolation=cv2.INTER_AREA)
    a = max(3, int(round(COVER_AREA_MM * COVER_MAP_PX_PER_MM)) | 1)
    return np.asarray(cv2.blur(share, (a, a)))


def cover_blank(blank_ratio: np.ndarray, px_per_mm: float) -> CoverBlank:
    """The blank's side of the cover map, from the blank over its own paper white."""
    printed = _printed(blank_ratio)
    return CoverBlank(printed, _area_share(printed, px_per_mm))


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
                 glare: np.ndarray | None = None, blank: CoverBlank | None = None
                 ) -> tuple[np.ndarray, float]:
    """Where a cover lies, on a coarse grid of the page: most of the print within
    COVER_AREA_MM unseen, grown by COVER_MARGIN_MM; and the grid's px per mm.

    Grown because a cover's rim fools the reader where its print still shows: the paper
    white is judged over a few millimetres, so the band inside a dark cover's edge looks
    like ink (and shows the print's darkness), and its shadow darkens the paper beside it.
    Judged on a grid of COVER_MAP_PX_PER_MM, since a cover is many millimetres wide (a
    tenth of the work of the photo's own pixels). ``blank``: :func:`cover_blank` of
    ``blank_ratio``, when kept for the sheet.
    """
    if blank is None:
        blank = cover_blank(blank_ratio, px_per_mm)
    r = max(1, int(round(COVER_MAP_REACH_MM * px_per_mm)))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))
    unseen = _unseen_of(cv2.erode(ratio, kernel), blank.printed, _seen_depth(blank_ratio))
    if glare is not None:
        unseen &= ~glare
    n_printed = blank.printed_near
    n_unseen = _area_share(unseen, px_per_mm)
    hidden = ((n_printed >= COVER_AREA_MIN_PRINTED)
              & (n_unseen >= COVER_FIELD_SHARE * n_printed)).astype(np.uint8)
    m = max(1, int(round(COVER_MARGIN_MM * COVER_MAP_PX_PER_MM)))
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * m + 1, 2 * m + 1))
    return cv2.dilate(hidden, grow) > 0, COVER_MAP_PX_PER_MM


def glare_rim(grey: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    """Where a reflection may have washed the print out (bool): clipped white (the glare
    check's own level) and COVER_GLARE_RIM_MM around it, where a spot's soft rim washes the
    print out without clipping it. Print lost there is glare's to report, not a cover's.
    None when nothing is clipped (most photos: the map is not made)."""
    clipped = (grey >= GLARE_LEVEL).astype(np.uint8)
    if not clipped.any():
        return None
    r = max(1, int(round(COVER_GLARE_RIM_MM * px_per_mm)))
    out: np.ndarray = cv2.dilate(clipped, cv2.getStructuringElement(
        cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))) > 0
    return out


@dataclass(frozen=True, eq=False)
class PrintEdges:
    """The blank's edges on the lying-things grid, by direction: bit k of a pixel is set
    where an edge of direction k or a neighbouring one lies within LYING_PRINT_MM
    (``near``) or LYING_FOLLOW_MM (``follow``). The same for every photo of a sheet."""

    near: np.ndarray
    follow: np.ndarray


def _on_grid(ratio: np.ndarray, px_per_mm: float) -> np.ndarray:
    """``ratio`` (1 = paper) as uint8 on a grid of LYING_PX_PER_MM."""
    s = LYING_PX_PER_MM / px_per_mm
    size = (max(1, round(ratio.shape[1] * s)), max(1, round(ratio.shape[0] * s)))
    # bilinear, not area: a tenth of the time, and the grid is blurred before edges are sought
    small = cv2.resize(ratio, size, interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.clip(small * 255.0, 0, 255), np.uint8)


def _directions(grey: np.ndarray) -> np.ndarray:
    """Each pixel's gradient direction, folded to a half turn, as one of LYING_DIRECTIONS
    bins (uint8): an edge and its own print differ in place, never in direction."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    turn = cv2.phase(gx, gy, angleInDegrees=True)  # 0 .. 360
    bins = (turn * (LYING_DIRECTIONS / 180.0)).astype(np.uint8)
    return np.asarray(bins % np.uint8(LYING_DIRECTIONS), np.uint8)


def _disc(mm: float) -> np.ndarray:
    r = max(1, int(round(mm * LYING_PX_PER_MM)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def print_edges(blank_ratio: np.ndarray, px_per_mm: float) -> PrintEdges:
    """The blank sheet's edges by direction (see :class:`PrintEdges`)."""
    grey = cv2.GaussianBlur(_on_grid(blank_ratio, px_per_mm), (0, 0), 1.0)
    edges = cv2.Canny(grey, 40, 80) > 0
    turn = _directions(grey)
    near = np.zeros(grey.shape, np.uint8)
    follow = np.zeros(grey.shape, np.uint8)
    for k in range(LYING_DIRECTIONS):
        alike = [(k - 1) % LYING_DIRECTIONS, k, (k + 1) % LYING_DIRECTIONS]
        same = (edges & np.isin(turn, alike)).astype(np.uint8)
        bit = np.uint8(1 << k)
        near |= np.where(cv2.dilate(same, _disc(LYING_PRINT_MM)) > 0, bit, np.uint8(0))
        follow |= np.where(cv2.dilate(same, _disc(LYING_FOLLOW_MM)) > 0, bit, np.uint8(0))
    near.flags.writeable = follow.flags.writeable = False
    return PrintEdges(near, follow)


Segment = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm on the page


def _along(grid: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The grid's values along a segment (grid px), one a pixel."""
    n = max(2, int(math.hypot(x1 - x0, y1 - y0)))
    xs = np.clip(np.linspace(x0, x1, n).round().astype(int), 0, grid.shape[1] - 1)
    ys = np.clip(np.linspace(y0, y1, n).round().astype(int), 0, grid.shape[0] - 1)
    return np.asarray(grid[ys, xs])


def _follows_print(follow: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether a segment (grid px) lies along print of its own direction for most of its
    length: a printed line the photo shows a little further off than LYING_PRINT_MM."""
    k = int(((math.degrees(math.atan2(y1 - y0, x1 - x0)) + 90.0) % 180.0)
            // (180.0 / LYING_DIRECTIONS)) % LYING_DIRECTIONS
    return float(((_along(follow, x0, y0, x1, y1) >> k) & 1).mean()) >= LYING_FOLLOW_SHARE


def _support(edges: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> float:
    """The share of a segment's length (grid px) that lies on an edge pixel: a pencil's
    side is an edge nearly all along; chance alignments of print are sparse."""
    return float((_along(edges, x0, y0, x1, y1) > 0).mean())


def lying_lines(ratio: np.ndarray, printed: PrintEdges, px_per_mm: float) -> list[Segment]:
    """Long straight edges in the photo that the blank does not print (mm on the page):
    the sides of a pencil or a pen lying on the sheet."""
    grey = cv2.GaussianBlur(_on_grid(ratio, px_per_mm), (0, 0), LYING_BLUR_PX)
    if grey.shape != printed.near.shape:
        return []  # a photo of another size than the blank's: nothing to compare with
    edges = cv2.Canny(grey, LYING_CANNY_LOW, 2.5 * LYING_CANNY_LOW)
    edges[((printed.near >> _directions(grey)) & 1) > 0] = 0
    b = int(round(LYING_BORDER_MM * LYING_PX_PER_MM))
    edges[:b], edges[-b:], edges[:, :b], edges[:, -b:] = 0, 0, 0, 0
    # a pencil's edge is a little wavy on the grid: thickened so its pixels meet in one line
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    length = LYING_MIN_LENGTH_MM * LYING_PX_PER_MM
    found = cv2.HoughLinesP(edges, 1, np.pi / 180, int(0.3 * length), minLineLength=int(length),
                            maxLineGap=int(LYING_GAP_MM * LYING_PX_PER_MM))
    if found is None:
        return []
    grid = grey.astype(np.float32) / 255.0
    # every segment is followed, even one beside another: where the strip beside an edge
    # ends depends on which pixel row the edge was found on
    mm = 1.0 / LYING_PX_PER_MM
    out: list[Segment] = []
    for x0, y0, x1, y1 in found.reshape(-1, 4).tolist():
        if _follows_print(printed.follow, x0, y0, x1, y1):
            continue
        if _support(edges, x0, y0, x1, y1) < LYING_SUPPORT:
            continue
        followed = _followed(grid, x0, y0, x1, y1)
        if followed is not None:
            a0, b0, a1, b1 = followed
            out.append((a0 * mm, b0 * mm, a1 * mm, b1 * mm))
    return out


def _followed(grid: np.ndarray, x0: float, y0: float, x1: float, y1: float
              ) -> tuple[float, float, float, float] | None:
    """The segment (grid px) stretched along its axis while the strip beside it, on
    either side, looks as it does along the segment (LYING_ALIKE); None when neither
    side's strip looks alike along the segment itself within LYING_EVEN (the mean
    difference): a pencil looks the same all along, while edges of print a bent page
    moved, lined up by chance (corners of a row of cells), have cells, letters and paper
    beside them by turns."""
    span = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / span, (y1 - y0) / span
    reach = float(math.hypot(*grid.shape))
    t = np.arange(-reach, reach, 1.0, dtype=np.float32)
    run = max(1, int(round(LYING_FOLLOW_RUN_MM * LYING_PX_PER_MM)))
    a, b = int(reach), int(reach + span)  # the segment's own part of ``t``
    if b - a < run:
        return None
    lo, hi = a, b
    side = LYING_SIDE_MM * LYING_PX_PER_MM
    steady = False
    for across in (np.arange(1.0, side + 1.0), -np.arange(1.0, side + 1.0)):
        mx = (x0 + t[None, :] * ux - across[:, None] * uy).astype(np.float32)
        my = (y0 + t[None, :] * uy + across[:, None] * ux).astype(np.float32)
        strip = cv2.remap(grid, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=-1.0)
        look = np.median(strip[:, a:b], axis=1)
        off = np.abs(strip - look[:, None]).mean(axis=0)
        off[(strip < 0).any(axis=0)] = np.inf  # off the page
        if float(np.mean(off[a:b])) > LYING_EVEN:
            continue
        steady = True
        alike = np.convolve(off, np.ones(run) / run, mode="same") <= LYING_ALIKE
        j = b
        while j < len(t) and alike[j]:
            j += 1
        k = a
        while k > 0 and alike[k - 1]:
            k -= 1
        lo, hi = min(lo, k), max(hi, j)
    if not steady:
        return None
    return (x0 + float(t[lo]) * ux, y0 + float(t[lo]) * uy,
            x0 + float(t[hi - 1]) * ux, y0 + float(t[hi - 1]) * uy)


def fields_near_lines(lines: Sequence[Segment], specs: Iterable[FieldSpec]) -> set[str]:
    """Ids of the fields whose box lies within LYING_REACH_MM of a line stretched
    LYING_END_MM past both its ends."""
    specs = list(specs)
    if not lines or not specs:
        return set()
    x = np.array([s.box_mm.x for s in specs])[:, None]
    y = np.array([s.box_mm.y for s in specs])[:, None]
    w = np.array([s.box_mm.w for s in specs])[:, None]
    h = np.array([s.box_mm.h for s in specs])[:, None]
    hit = np.zeros(len(specs), bool)
    for x0, y0, x1, y1 in lines:
        span = math.hypot(x1 - x0, y1 - y0)
        if span <= 0:
            continue
        t = np.arange(-LYING_END_MM, span + LYING_END_MM + 0.5, 0.5)[None, :]
        px, py = x0 + t * (x1 - x0) / span, y0 + t * (y1 - y0) / span
        dx = np.maximum(np.maximum(x - px, px - (x + w)), 0.0)
        dy = np.maximum(np.maximum(y - py, py - (y + h)), 0.0)
        hit |= (np.hypot(dx, dy) <= LYING_REACH_MM).any(axis=1)
    return {s.id for s, on in zip(specs, hit, strict=True) if on}


def covered_fields(ratio: np.ndarray, blank_ratio: np.ndarray, specs: Iterable[FieldSpec],
                   px_per_mm: float, shifts: Mapping[str, tuple[int, ...]],
                   glare: np.ndarray | None = None, printed: PrintEdges | None = None,
                   fold: Callable[[Segment], bool] | None = None,
                   blank: CoverBlank | None = None) -> set[str]:
    """Ids of the fields around which most of the print is hidden, or which lie within a
    cover's margin, or near a long thin thing lying on the sheet (found where ``printed``,
    the blank's :func:`print_edges`, is given; a line ``fold`` says runs along the paper's
    own bend is left to the bent-paper check); print lost where a reflection may have
    washed it out (``glare``, from :func:`glare_rim`) is left to the glare check;
    ``blank``: :func:`cover_blank` of ``blank_ratio``, when kept for the sheet."""
    specs = list(specs)
    near, grid_ppm = hidden_print(ratio, blank_ratio, px_per_mm, glare, blank)
    out: set[str] = set()
    if printed is not None:
        lines = lying_lines(ratio, printed, px_per_mm)
        out |= fields_near_lines([q for q in lines if fold is None or not fold(q)], specs)
    for spec in specs:
        if spec.id in out:
            continue
        dx, dy = shifts.get(spec.id, (0, 0))[:2]
        b = spec.box_mm
        if crop(near, box_px((b.x, b.y, b.w, b.h), grid_ppm)).any():
            out.add(spec.id)
            continue
        share = unseen_print(ratio, blank_ratio, spec, px_per_mm, (dx, dy), glare)
        if share is not None and share >= COVER_FIELD_SHARE:
            out.add(spec.id)
    return out
