"""Ink on a rectified sheet: illumination normalised, printed artwork removed, measured.

A phone photo has a light gradient and shadows, so a raw grey level says nothing about ink.
We divide each pixel by a local paper-white estimate (a morphological closing wipes out
strokes thinner than the kernel), so "ink" means "clearly darker than the paper around it".
What the sheet itself prints is known from the blank template and subtracted, leaving only
what the player wrote.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.sheet import mark_shape
from companion.vision.sheet.constants import (
    BACKGROUND_KERNEL_MM,
    CROSS_SHARPEN,
    CROSS_WEIGHTS,
    INK_RATIO_BELOW,
    MARK_ANY_INK,
    MARK_FAINT_PROBABILITY,
    PRINTED_GROW_PX,
    REVIEW_BELOW,
    SHAPE_DARK_PERCENTILE,
    SHAPE_FAINT_CONFIDENCE,
    SHAPE_FAINT_DARK,
    SHAPE_HALFWAY,
)
from companion.vision.sheet.constants_marks import (
    BARE_INK_DARK,
    BARE_SHAPE_CONFIDENCE,
    MIN_PATCH_PX,
    MIN_SHAPE_INK_PX,
)

# Downscale factor for the background estimate: the paper-white field is smooth.
_BG_SHRINK = 4


def paper_ratio(gray: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Each pixel over its local paper white (float32, 1.0 = paper, 0 = black)."""
    h, w = gray.shape[:2]
    small = cv2.resize(gray, (max(1, w // _BG_SHRINK), max(1, h // _BG_SHRINK)),
                       interpolation=cv2.INTER_AREA)
    k = max(3, int(round(BACKGROUND_KERNEL_MM * px_per_mm / _BG_SHRINK)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    # Smooth, but never below the closing: blurring alone would drag a small white area
    # (an icon's inside) down towards the dark print around it and hide faint strokes.
    bg = np.maximum(closed, cv2.GaussianBlur(closed, (0, 0), k / 2))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    ratio = gray.astype(np.float32) / np.maximum(bg, 16.0)
    return np.clip(ratio, 0.0, 1.0, out=ratio)


def ink_mask(rel: np.ndarray, below: float = INK_RATIO_BELOW) -> np.ndarray:
    """uint8 0/1: pixels clearly darker than paper (or than the print) around them."""
    return (rel < below).astype(np.uint8)


def expected_ratio(template_gray: np.ndarray, blur_px: float) -> np.ndarray:
    """How light each pixel of the blank sheet should look in a photo (float32, 1 = paper).

    Printed lines are grown by a pixel and softened like a phone lens softens them, so a
    photo that is a pixel off the template, or blurred, is not darker than expected next
    to a printed line; icons keep their white insides, where a cross still shows.
    """
    r = PRINTED_GROW_PX
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    lightest = cv2.erode(template_gray, kernel).astype(np.float32) / 255.0
    soft = np.asarray(cv2.GaussianBlur(lightest, (0, 0), blur_px), np.float32)
    return np.maximum(soft, np.float32(0.05))


def relative_ink(ratio: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The photo's lightness over what the blank sheet prints there: below 1 means ink the
    player added (an empty field reads ~1 however the sheet is printed or lit)."""
    rel = np.divide(ratio, expected, dtype=np.float32)
    return np.clip(rel, 0.0, 1.5, out=rel)


def box_px(box_mm: tuple[float, float, float, float], px_per_mm: float,
           grow_mm: float = 0.0, shift: tuple[int, int] = (0, 0)) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) pixel rectangle of a mm box, grown (or shrunk if negative)."""
    x, y, w, h = box_mm
    x0 = int(round((x - grow_mm) * px_per_mm)) + shift[0]
    y0 = int(round((y - grow_mm) * px_per_mm)) + shift[1]
    x1 = int(round((x + w + grow_mm) * px_per_mm)) + shift[0]
    y1 = int(round((y + h + grow_mm) * px_per_mm)) + shift[1]
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def crop(img: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = rect
    h, w = img.shape[:2]
    return img[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]


def ink_fraction(written: np.ndarray) -> float:
    """Share of a 0/1 patch that is ink, after removing specks of one or two pixels."""
    if written.size == 0:
        return 0.0
    opened = cv2.morphologyEx(written, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return float(opened.mean())


def logistic(x: float, low: float, high: float, at_edges: float) -> float:
    """Probability of "yes" rising from ``1-at_edges`` at ``low`` to ``at_edges`` at ``high``.

    The band between ``low`` and ``high`` is therefore exactly where confidence falls
    below ``at_edges``: the thresholds in constants define the review band.
    """
    mid = (low + high) / 2
    z_edge = math.log(at_edges / (1 - at_edges))
    scale = (high - low) / (2 * z_edge)
    z = (x - mid) / scale
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def mark_probability(share: float, blank_below: float, sure_above: float) -> float:
    """Probability an icon is marked, from the player's ink share over it.

    The logistic band between the thresholds is the review band; below it, a share that is
    not zero is still more likely a faint mark than a blank icon (whose share is exactly
    zero once printed edges are nudged away), so it reads "marked", to be reviewed.
    """
    p = logistic(share, blank_below, sure_above, REVIEW_BELOW)
    if share >= MARK_ANY_INK:
        p = max(p, MARK_FAINT_PROBABILITY)
    return p


@dataclass(frozen=True)
class StrokeShape:
    """Where a mark's ink lies on a 3x3 grid over its own extent (each in [0, 1])."""

    grid: tuple[tuple[float, ...], ...]
    aspect: float  # ink extent width / height

    @property
    def corners(self) -> tuple[float, float, float, float]:
        g = self.grid
        return g[0][0], g[0][2], g[2][0], g[2][2]


def stroke_shape(written: np.ndarray) -> StrokeShape | None:
    """Occupancy grid of the ink's robust extent; None when there is too little ink."""
    ys, xs = np.nonzero(written)
    if len(xs) < MIN_SHAPE_INK_PX:
        return None
    x0, x1 = np.percentile(xs, [2, 98])
    y0, y1 = np.percentile(ys, [2, 98])
    w, h = max(x1 - x0, 3.0), max(y1 - y0, 3.0)
    gx = np.clip(((xs - x0) / w * 3).astype(int), 0, 2)
    gy = np.clip(((ys - y0) / h * 3).astype(int), 0, 2)
    counts = np.zeros((3, 3), np.float64)
    np.add.at(counts, (gy, gx), 1.0)
    share = counts / counts.sum()
    grid = tuple(tuple(float(v) for v in row) for row in share)
    return StrokeShape(grid, float(w / h))


def point_symmetry(written: np.ndarray) -> float:
    """Overlap of a mark with itself turned 180 degrees: high for X and +, low for a check.

    Survives any rotation of the mark, unlike the corner grid.
    """
    ys, xs = np.nonzero(written)
    if len(xs) < MIN_SHAPE_INK_PX:
        return 0.0
    x0, x1 = np.percentile(xs, [2, 98])
    y0, y1 = np.percentile(ys, [2, 98])
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = max(x1 - x0, y1 - y0) / 2 + 3
    k = 16 / half
    m = np.array([[k, 0, 16 - k * cx], [0, k, 16 - k * cy]], np.float32)
    a = cv2.warpAffine(written.astype(np.float32), m, (32, 32), flags=cv2.INTER_AREA)
    a = cv2.GaussianBlur(a, (0, 0), 1.5)
    return float(np.minimum(a, a[::-1, ::-1]).sum() / max(float(a.sum()), 1e-6))


def cross_logit(written: np.ndarray) -> float | None:
    """Log-odds that a 0/1 mark is a cross (X) rather than a check (a V with a long arm).

    A logistic model on where the ink lies (3x3 grid over the mark's extent), how much it
    looks like itself turned upside down, and its aspect: an X reaches all four corners and
    is point-symmetric; a check leaves the top-left and bottom-right corners empty. None
    when there is too little ink to tell.
    """
    shape = stroke_shape(written)
    if shape is None:
        return None
    feats = [v for row in shape.grid for v in row]
    feats += [point_symmetry(written), shape.aspect, 1.0]
    return float(np.dot(CROSS_WEIGHTS, feats))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def cross_probability(written: np.ndarray) -> float:
    """Probability a 0/1 mark is a cross rather than a check (0.5 with too little ink)."""
    z = cross_logit(written)
    return 0.5 if z is None else _sigmoid(CROSS_SHARPEN * z)


def cross_probability_rel(rel: np.ndarray, below: float) -> float:
    """Probability a mark is a cross rather than a check, from its relative lightness.

    The shipped CNN (``mark_shape``) judges the patch itself; without its model file the
    logistic model on ink masks stands in. Either way a patch with too little ink under
    both ink tests has no shape (0.5), and a mark whose darkest ink is faint is never
    trusted on its shape alone. The CNN only ever saw real marks, so on a patch with barely
    any ink it is held near 0.5: there a sure shape would turn a blank icon with a faint
    "any ink" reading into a mark.
    """
    model = mark_shape.shipped()
    if model is None:
        return logistic_cross_probability_rel(rel, below)
    if min(rel.shape, default=0) < MIN_PATCH_PX:
        return 0.5
    darkest = float(np.percentile(rel, SHAPE_DARK_PERCENTILE))
    halfway = 1.0 - SHAPE_HALFWAY * (1.0 - darkest)
    if int((rel < max(below, halfway)).sum()) < MIN_SHAPE_INK_PX:
        return 0.5
    p = model.cross_probability(rel)
    if darkest > BARE_INK_DARK:  # printed-edge residue or a ghost of ink: a guess at best
        return min(max(p, 1.0 - BARE_SHAPE_CONFIDENCE), BARE_SHAPE_CONFIDENCE)
    return _faint_capped(p, darkest)


def _faint_capped(p: float, darkest: float) -> float:
    if darkest > SHAPE_FAINT_DARK:  # a faint mark: its shape is only half seen
        return min(max(p, 1.0 - SHAPE_FAINT_CONFIDENCE), SHAPE_FAINT_CONFIDENCE)
    return p


def logistic_cross_probability_rel(rel: np.ndarray, below: float) -> float:
    """The hand-made shape model: a logistic model judged on two ink masks.

    A single ink test keeps only the darkest bits of a faint or blurred pencil mark, and
    those fragments can look like either shape. So the shape is judged twice, with the
    player's ink test and with one halfway between paper and the mark's own darkest ink,
    and the two log-odds are averaged: where they disagree, the answer stays doubtful.
    A mark whose darkest ink is faint is never trusted on its shape alone.
    """
    darkest = float(np.percentile(rel, SHAPE_DARK_PERCENTILE)) if rel.size else 1.0
    halfway = 1.0 - SHAPE_HALFWAY * (1.0 - darkest)
    logits = [z for z in (cross_logit(ink_mask(rel, t)) for t in (below, halfway))
              if z is not None]
    if not logits:
        return 0.5
    return _faint_capped(_sigmoid(CROSS_SHARPEN * sum(logits) / len(logits)), darkest)
