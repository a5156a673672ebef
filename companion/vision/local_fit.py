"""Follow a sheet that does not lie flat: a smooth warp fitted to the sheet's own print.

Four corner markers fix a flat sheet. Paper lifted off the table (a curled edge, a corner
turned up) breaks that: a lifted marker pulls the whole fit, and the bent strip is
foreshortened, so fields near it sit millimetres from where the markers put them, and the
printed outline of an empty box, off its blank, reads as ink. The printed sheet holds far
more reference points than four: blocks of its artwork are found in the flattened photo
(coarse then fine, by normalised cross-correlation), their offsets smoothed into a
displacement field (normalised convolution: a weighted average that stays smooth where
blocks are few) and the photo flattened again through it.

Where the fit cannot vouch for the page (blocks disagree with the smooth field, or none
were found, as on a steep curl), the reader is told how far off the page may be there, and
sends the fields there to review rather than read them with full confidence.

A sheet whose print sits where the markers say (a flat sheet) is left exactly as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from companion.vision import constants as K
from companion.vision.constants import (
    LOCAL_BLOCK_MIN_STD,
    LOCAL_DOUBT_RANK,
    LOCAL_ENGAGE_MM,
    LOCAL_MIN_SUPPORT,
    LOCAL_NODE_MM,
    LOCAL_OUTLIER_MM,
    LOCAL_SMOOTH_MM,
)
from companion.vision.register import Registration
from companion.vision.shrink import shrink

# Benches switch the check off to measure the reader without it (a context variable, not a
# global: each thread or task sees its own).
_ON: ContextVar[bool] = ContextVar("local_fit_on", default=True)


def enabled() -> bool:
    """Whether bent paper is followed (True unless a bench switched it off)."""
    return _ON.get()


@contextlib.contextmanager
def switched_off() -> Iterator[None]:
    """Read as if this module did not exist (benches comparing before and after)."""
    token = _ON.set(False)
    try:
        yield
    finally:
        _ON.reset(token)


@dataclass(frozen=True)
class Level:
    """One pass of block matching: resolution, block size, spacing and search reach."""

    px_per_mm: float
    block_mm: float
    stride_mm: float
    reach_mm: float
    min_score: float


@dataclass(frozen=True)
class Anchor:
    """A block of print found in the photo: its centre on the sheet (mm), how far from
    there it was found (mm) and how well it matched."""

    x_mm: float
    y_mm: float
    dx_mm: float
    dy_mm: float
    score: float


@dataclass(frozen=True, eq=False)
class LocalFit:
    """The displacement field a bent sheet was flattened through, on a grid of nodes
    ``LOCAL_NODE_MM`` apart, and how far the page may still be off at each node (mm; inf
    where no print vouched for it)."""

    dx_mm: np.ndarray
    dy_mm: np.ndarray
    doubt_mm: np.ndarray
    anchors: tuple[Anchor, ...]

    def doubt_in(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> float:
        """The largest doubt over a box on the sheet (mm)."""
        n = LOCAL_NODE_MM
        rows, cols = self.doubt_mm.shape
        c0, r0 = max(0, int(np.floor(x_mm / n))), max(0, int(np.floor(y_mm / n)))
        c1 = min(cols, int(np.ceil((x_mm + w_mm) / n)) + 1)
        r1 = min(rows, int(np.ceil((y_mm + h_mm) / n)) + 1)
        if c1 <= c0 or r1 <= r0:
            return float("inf")
        return float(self.doubt_mm[r0:r1, c0:c1].max())


@dataclass(frozen=True, eq=False)
class _Field:
    dx: np.ndarray
    dy: np.ndarray
    support: np.ndarray

    def displacement(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        r, c = _node(self.dx.shape, x_mm, y_mm)
        return float(self.dx[r, c]), float(self.dy[r, c])


def _node(shape: tuple[int, ...], x_mm: float, y_mm: float) -> tuple[int, int]:
    rows, cols = shape[:2]
    c = min(max(round(x_mm / LOCAL_NODE_MM), 0), cols - 1)
    r = min(max(round(y_mm / LOCAL_NODE_MM), 0), rows - 1)
    return r, c


LOCAL_COARSE = Level(*K.LOCAL_COARSE)
_MAP_STEP_PX = 8  # the flattening map is computed on this grid and interpolated
LOCAL_FINE = Level(*K.LOCAL_FINE)
# The fine pass searches around the coarse field's offsets, clipped to this (mm).
_GUESS_MAX_MM = K.LOCAL_COARSE[3] + 2.0


def _small(img: np.ndarray, px_per_mm: float, want: float) -> np.ndarray:
    return np.asarray(shrink(img, want / px_per_mm), np.float32)


@dataclass(frozen=True, eq=False)
class ScaledBlank:
    """A blank sheet at the flattened photo's resolution, with its copies at the fit's two
    levels made on first use: the same for every photo of the sheet, so a caller that keeps
    one per sheet spares each read a shrink of the whole page (about a tenth of a
    flat sheet's check)."""

    image: np.ndarray  # grey, the flattened photo's size
    px_per_mm: float

    @cached_property
    def coarse(self) -> np.ndarray:
        return _small(self.image, self.px_per_mm, LOCAL_COARSE.px_per_mm)

    @cached_property
    def fine(self) -> np.ndarray:
        return _small(self.image, self.px_per_mm, LOCAL_FINE.px_per_mm)


def _peak(scores: np.ndarray, loc: tuple[int, int]) -> tuple[float, float]:
    """Sub-pixel peak by a parabola through the best score and its neighbours."""
    x, y = loc
    out = [float(x), float(y)]
    for axis, (k, n) in enumerate(((x, scores.shape[1]), (y, scores.shape[0]))):
        if 0 < k < n - 1:
            a = scores[y, k - 1] if axis == 0 else scores[k - 1, x]
            b = scores[y, k]
            c = scores[y, k + 1] if axis == 0 else scores[k + 1, x]
            den = a - 2 * b + c
            if den < 0:
                out[axis] += min(max(0.5 * float(a - c) / float(den), -0.5), 0.5)
    return out[0], out[1]


def match_blocks(photo: np.ndarray, blank: np.ndarray, page_mm: tuple[float, float],
                 level: Level, guess: _Field | None = None) -> list[Anchor]:
    """Blocks of the blank found in the photo (both flattened, at ``level.px_per_mm``),
    searched ``level.reach_mm`` around where ``guess`` (or nothing) puts them."""
    ppm = level.px_per_mm
    half = int(round(level.block_mm * ppm / 2))
    reach = int(round(level.reach_mm * ppm))
    pad = reach + 2 + (int(round(_GUESS_MAX_MM * ppm)) if guess is not None else 0)
    padded = cv2.copyMakeBorder(photo, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    h, w = blank.shape[:2]
    out: list[Anchor] = []
    xs = np.arange(level.block_mm / 2, page_mm[0] - level.block_mm / 2 + 1e-6, level.stride_mm)
    ys = np.arange(level.block_mm / 2, page_mm[1] - level.block_mm / 2 + 1e-6, level.stride_mm)
    for y_mm in ys:
        for x_mm in xs:
            cx, cy = int(round(x_mm * ppm)), int(round(y_mm * ppm))
            if cx - half < 0 or cy - half < 0 or cx + half > w or cy + half > h:
                continue
            templ = blank[cy - half:cy + half, cx - half:cx + half]
            if float(templ.std()) < LOCAL_BLOCK_MIN_STD:
                continue  # plain paper: nothing to align on
            gx = gy = 0
            if guess is not None:
                gdx, gdy = guess.displacement(x_mm, y_mm)
                room = pad - reach - 2
                gx = min(max(round(gdx * ppm), -room), room)
                gy = min(max(round(gdy * ppm), -room), room)
            x0, y0 = cx - half - reach + gx + pad, cy - half - reach + gy + pad
            window = padded[y0:y0 + 2 * half + 2 * reach, x0:x0 + 2 * half + 2 * reach]
            scores = cv2.matchTemplate(window, templ, cv2.TM_CCOEFF_NORMED)
            _, best, _, loc = cv2.minMaxLoc(scores)
            if best < level.min_score:
                continue
            px, py = _peak(scores, (int(loc[0]), int(loc[1])))
            out.append(Anchor(float(x_mm), float(y_mm), (px - reach + gx) / ppm,
                              (py - reach + gy) / ppm, float(best)))
    return out


def _reject_outliers(anchors: list[Anchor], radius_mm: float) -> list[Anchor]:
    """Drop blocks whose offset differs from their neighbours' median by more than
    LOCAL_OUTLIER_MM: a block locked onto the wrong one of a row of alike boxes."""
    if len(anchors) < 3:
        return anchors
    xy = np.array([(a.x_mm, a.y_mm) for a in anchors])
    d = np.array([(a.dx_mm, a.dy_mm) for a in anchors])
    gap = xy[:, None, :] - xy[None, :, :]
    close = (gap * gap).sum(axis=2) <= radius_mm * radius_mm
    np.fill_diagonal(close, False)
    keep: list[Anchor] = []
    for i, a in enumerate(anchors):
        near = close[i]
        if near.sum() < 2:
            keep.append(a)
            continue
        med = np.median(d[near], axis=0)
        if float(np.abs(d[i] - med).max()) <= LOCAL_OUTLIER_MM:
            keep.append(a)
    return keep


def smooth_field(anchors: list[Anchor], page_mm: tuple[float, float], smooth_mm: float
                 ) -> _Field:
    """Offsets at every node: the anchors' offsets averaged with Gaussian weights (their
    match scores times the distance falloff), and the weight each node got (support)."""
    cols = int(np.ceil(page_mm[0] / LOCAL_NODE_MM)) + 1
    rows = int(np.ceil(page_mm[1] / LOCAL_NODE_MM)) + 1
    wsum = np.zeros((rows, cols), np.float64)
    xsum = np.zeros_like(wsum)
    ysum = np.zeros_like(wsum)
    for a in anchors:
        r, c = _node((rows, cols), a.x_mm, a.y_mm)
        wsum[r, c] += a.score
        xsum[r, c] += a.score * a.dx_mm
        ysum[r, c] += a.score * a.dy_mm
    sigma = smooth_mm / LOCAL_NODE_MM
    blur = {"ksize": (0, 0), "sigmaX": sigma, "borderType": cv2.BORDER_CONSTANT}
    w = cv2.GaussianBlur(wsum, **blur)  # type: ignore[call-overload]
    safe = np.maximum(w, 1e-9)
    dx = cv2.GaussianBlur(xsum, **blur) / safe  # type: ignore[call-overload]
    dy = cv2.GaussianBlur(ysum, **blur) / safe  # type: ignore[call-overload]
    # A single anchor's weight at its own node, for scale: support is in anchors' worth.
    unit = cv2.GaussianBlur(_impulse(sigma), **blur).max()  # type: ignore[call-overload]
    return _Field(dx, dy, w / max(float(unit), 1e-9))


def _impulse(sigma: float) -> np.ndarray:
    n = 2 * int(np.ceil(3 * sigma)) + 1
    out = np.zeros((n, n), np.float64)
    out[n // 2, n // 2] = 1.0
    return out


def _residuals(anchors: list[Anchor], field: _Field, page_mm: tuple[float, float],
               smooth_mm: float) -> np.ndarray:
    """How far the anchors sit from the smooth field, per node: the second worst of the
    anchors within ``smooth_mm`` (a square), so one block pulled off by the player's own ink
    over it is not taken for a bend, while a bend the field misses moves several."""
    rows, cols = field.dx.shape
    if not anchors:
        return np.zeros((rows, cols), np.float32)
    at = np.array([_node((rows, cols), a.x_mm, a.y_mm) for a in anchors])
    off = np.array([np.hypot(a.dx_mm - field.dx[r, c], a.dy_mm - field.dy[r, c])
                    for a, (r, c) in zip(anchors, at, strict=True)], np.float32)
    h = int(round(smooth_mm / LOCAL_NODE_MM))
    near_r = np.abs(np.arange(rows)[:, None] - at[None, :, 0]) <= h
    near_c = np.abs(np.arange(cols)[:, None] - at[None, :, 1]) <= h
    near = near_r[:, None, :] & near_c[None, :, :]
    vals = np.where(near, off[None, None, :], np.float32(0.0))
    k = min(LOCAL_DOUBT_RANK, len(anchors))
    return np.asarray(np.partition(vals, -k, axis=2)[:, :, -k], np.float32)


def coarse(rectified: np.ndarray, blank: ScaledBlank, page_mm: tuple[float, float]
           ) -> list[Anchor]:
    """Large blocks of print found far around where the markers put them (cheap: about a
    hundred blocks at 1 px/mm), enough to tell whether the sheet is bent."""
    photo = _small(rectified, blank.px_per_mm, LOCAL_COARSE.px_per_mm)
    return _reject_outliers(match_blocks(photo, blank.coarse, page_mm, LOCAL_COARSE),
                            2.5 * LOCAL_COARSE.stride_mm)


def bent(rough: list[Anchor]) -> bool:
    """Does print sit further from the markers' fit than the reader's per-field alignment
    reaches? (A flat sheet's blocks sit within about 2 mm, a curled edge's 3 to 15.)"""
    return any(np.hypot(a.dx_mm, a.dy_mm) >= LOCAL_ENGAGE_MM for a in rough)


def fit(rectified: np.ndarray, blank: ScaledBlank, page_mm: tuple[float, float],
        rough: list[Anchor] | None = None) -> LocalFit:
    """The displacement of the flattened photo against its blank sheet, and its doubt."""
    if rough is None:
        rough = coarse(rectified, blank, page_mm)
    guess = smooth_field(rough, page_mm, 1.5 * LOCAL_COARSE.stride_mm)
    fine_photo = _small(rectified, blank.px_per_mm, LOCAL_FINE.px_per_mm)
    found = match_blocks(fine_photo, blank.fine, page_mm, LOCAL_FINE, guess)
    anchors = _reject_outliers(found, 1.6 * LOCAL_FINE.stride_mm)
    field = smooth_field(anchors, page_mm, LOCAL_SMOOTH_MM)
    doubt = _residuals(anchors, field, page_mm, LOCAL_SMOOTH_MM)
    doubt[field.support < LOCAL_MIN_SUPPORT] = np.inf
    return LocalFit(field.dx.astype(np.float32), field.dy.astype(np.float32), doubt,
                    tuple(anchors))


def flatten(photo_grey: np.ndarray, reg: Registration, local: LocalFit) -> np.ndarray:
    """The sheet flattened through the markers' homography and the fitted field."""
    w, h = reg.size_px
    ppm = reg.px_per_mm
    # Where each rectified pixel comes from in the photo is smooth: work it out every
    # _MAP_STEP_PX pixels and interpolate (grid point k sits exactly at pixel k * step).
    step = _MAP_STEP_PX
    gys, gxs = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float32)
    scale = np.float32(1.0 / (ppm * LOCAL_NODE_MM))  # rectified px -> node units
    dx = cv2.remap(local.dx_mm, gxs * scale, gys * scale, cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_REPLICATE)
    dy = cv2.remap(local.dy_mm, gxs * scale, gys * scale, cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_REPLICATE)
    pts = np.dstack([gxs + dx * np.float32(ppm), gys + dy * np.float32(ppm)])
    inv = np.linalg.inv(reg.homography)
    coarse_src = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), inv)
    coarse_src = coarse_src.reshape(gxs.shape + (2,)).astype(np.float32)
    to_grid = np.array([[1.0 / step, 0.0, 0.0], [0.0, 1.0 / step, 0.0]], np.float32)
    src = cv2.warpAffine(coarse_src, to_grid, (w, h),
                         flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.remap(photo_grey, src, None, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE))


def follow(photo_grey: np.ndarray, reg: Registration, rectified: np.ndarray,
           blank: ScaledBlank) -> tuple[np.ndarray, LocalFit | None]:
    """The flattened sheet, re-flattened through a fitted warp when the print shows it bent,
    with that fit (None, and ``rectified`` untouched, for a flat sheet or when switched off).
    """
    if not enabled():
        return rectified, None
    page_mm = reg.geometry.page_mm
    rough = coarse(rectified, blank, page_mm)
    if not bent(rough):
        return rectified, None
    local = fit(rectified, blank, page_mm, rough)
    return flatten(photo_grey, reg, local), local
