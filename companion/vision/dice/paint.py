"""Pips told by their paint, not by their brightness.

A lamp's glint adds light to whatever it falls on: over a bare face it leaves the face's
own colour in every channel it does not clip, over a pip it leaves the pip's. So each
pixel is split into a share of the face colour and a share of the pip colour (the glint
mixes into both); a lattice point whose ring (the pip's body, its glinting core left out)
holds little face colour carries a pip. Read at all nine lattice points, this gives a
count independent of which blob is brightest, and settles a 3 against a 2 (a 5 against a
4) whose middle holds a glint. A dark pip adds next to nothing to a mix, so on dice with
dark pips the second colour is white light instead (cell.with_paint): a glinting dark pip
is that light alone, a glinting bare face still holds its paint.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.dice import constants as C
from companion.vision.dice import small_stats
from companion.vision.dice.pip_lattice import fit_square_lattice


@dataclass(frozen=True)
class PaintRead:
    count: int | None  # pips on a standard layout by paint; None when undecided
    # the least clear lattice point: how far its face share lies inside the pip or bare
    # band (0 = on a threshold, larger = surer)
    margin: float
    shares: tuple[float, ...]  # face share at the nine lattice points, row by row
    # the largest share of a lattice point's ring with a clipped channel: there the mix
    # was fitted on two channels, which always fit, so the paint saw nothing it could check
    blind: float = 0.0


@functools.cache
def _ring_mask(n: int) -> np.ndarray:
    """The ring between a pip's core and its rim, on a square centred on the pip
    (read-only)."""
    pip_r = C.PIP_DIAMETER_FRACTION * n / 2
    half = int(math.ceil(C.PAINT_RING_PIP_R[1] * pip_r)) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    d = np.hypot(yy, xx)
    ring = (d >= C.PAINT_RING_PIP_R[0] * pip_r) & (d <= C.PAINT_RING_PIP_R[1] * pip_r)
    ring.flags.writeable = False
    return ring


@functools.cache
def _ring_offsets(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel offsets (dy, dx) of the ring's pixels from the pip's centre (read-only)."""
    ring = _ring_mask(n)
    half = ring.shape[0] // 2
    dy, dx = (v.astype(np.float32) - half for v in np.nonzero(ring))
    dy.flags.writeable = False
    dx.flags.writeable = False
    return dy, dx


def face_share(px: np.ndarray, face: np.ndarray, pip: np.ndarray) -> np.ndarray:
    """For each BGR pixel (N x 3), the share of the face colour in a face + pip mix, fitted
    on its unclipped channels (NaN where two or more clip)."""
    clipped = px >= C.PAINT_CLIP_LEVEL
    n_clip = clipped.sum(axis=1)
    out = np.full(len(px), np.nan, np.float32)
    basis = np.stack([face, pip], axis=1).astype(np.float64)  # 3 x 2
    for drop in (None, 0, 1, 2):
        if drop is None:
            sel = n_clip == 0
            ch = [0, 1, 2]
        else:
            sel = clipped[:, drop] & (n_clip == 1)
            ch = [c for c in range(3) if c != drop]
        if not sel.any():
            continue
        m = basis[ch]
        if abs(np.linalg.det(m.T @ m)) < 1e-6:
            continue
        out[sel] = (np.linalg.pinv(m) @ px[sel][:, ch].T.astype(np.float64))[0]
    return out


def _lattice(points: list[tuple[float, float]], spacing: float) -> tuple[float, ...]:
    """Least-squares square lattice (centre x, y and step vector a, b) through the pips."""
    return tuple(float(v) for v in fit_square_lattice(points, spacing)[0])


def read_paint(
    bgr: np.ndarray, points: list[tuple[float, float]], face: np.ndarray, pip: np.ndarray,
    layouts: tuple[tuple[int, frozenset[tuple[int, int]]], ...], between_is_bare: bool = False,
) -> PaintRead:
    """Read which lattice points carry paint, on the lattice through ``points`` (the pips
    the blobs gave, patch pixels x, y); ``face`` and ``pip`` are BGR colours.
    ``between_is_bare``: (light pips) a lone point between the pip and bare bands is bare."""
    n = bgr.shape[0]
    spacing = C.PIP_LATTICE_FRACTION * n
    if len(points) < 2 or float(np.linalg.norm(face - pip)) < C.PAINT_MIN_COLOUR_GAP:
        return PaintRead(None, 0.0, ())
    cx, cy, a, b = _lattice(points, spacing)
    dy, dx = _ring_offsets(n)
    xs, ys, owner = [], [], []
    for v in (-1, 0, 1):
        for u in (-1, 0, 1):
            x, y = cx + a * u - b * v, cy + b * u + a * v
            xs.append(np.rint(x + dx))
            ys.append(np.rint(y + dy))
            owner.append(len(xs) - 1)
    xi = np.clip(np.concatenate(xs), 0, n - 1).astype(np.intp)
    yi = np.clip(np.concatenate(ys), 0, n - 1).astype(np.intp)
    ring_px = bgr[yi, xi]
    shares_px = face_share(ring_px, face, pip).reshape(9, -1)
    blind = float((ring_px >= C.PAINT_CLIP_LEVEL).any(axis=1).reshape(9, -1).mean(axis=1).max())
    shares = []
    for row in shares_px:
        ok = row[~np.isnan(row)]
        shares.append(small_stats.median_of(ok) if ok.size >= C.PAINT_MIN_PIXELS else math.nan)
    # the corner pips (every face has two) give the share a painted pip shows here
    corner = [s for i, s in enumerate(shares) if i in (0, 2, 6, 8) and s < C.PAINT_CORNER_MAX]
    if len(corner) < 2:
        return PaintRead(None, 0.0, tuple(shares))
    ref = small_stats.median(corner)
    scale = max(1.0 - ref, C.PAINT_MIN_SCALE)
    painted: set[tuple[int, int]] = set()
    margin = math.inf
    between = 0
    for i, s in enumerate(shares):
        if math.isnan(s):
            return PaintRead(None, 0.0, tuple(shares))
        t = (s - ref) / scale
        if t <= C.PAINT_PIP_BELOW:
            painted.add((i // 3 - 1, i % 3 - 1))
            margin = min(margin, C.PAINT_PIP_BELOW - t)
        elif t >= C.PAINT_BARE_ABOVE:
            margin = min(margin, t - C.PAINT_BARE_ABOVE)
        elif between_is_bare and not between:
            # light added to a pale pip leaves it pip-coloured, added to the bare face
            # it draws the face towards the pip: one point between the bands is bare
            # face under a glint. The count is then no surer than that point.
            between, margin = 1, 0.0
        else:
            return PaintRead(None, 0.0, tuple(shares))
    found = frozenset(painted)
    count = next((k for k, lay in layouts if lay == found), None)
    return PaintRead(count, margin if count is not None else 0.0, tuple(shares), blind)


@functools.cache
def _ring_kernel(n: int) -> np.ndarray:
    kernel = _ring_mask(n).astype(np.float32)
    kernel.flags.writeable = False
    return kernel


def search_paint(
    bgr: np.ndarray, face: np.ndarray, pip: np.ndarray,
    layouts: tuple[tuple[int, frozenset[tuple[int, int]]], ...],
) -> PaintRead:
    """Where the blobs found no standard face (a glint outshining the pips, say), look
    for the pip lattice by paint alone: lattices square to the cell, around its middle,
    each read at its nine points; the clearest one that makes a standard face wins."""
    n = bgr.shape[0]
    if float(np.linalg.norm(face - pip)) < C.PAINT_MIN_COLOUR_GAP:
        return PaintRead(None, 0.0, ())
    share = face_share(bgr.reshape(-1, 3), face, pip).reshape(n, n)
    valid = ~np.isnan(share)
    kernel = _ring_kernel(n)
    num = cv2.filter2D(np.where(valid, share, 0).astype(np.float32), -1, kernel,
                       borderType=cv2.BORDER_REPLICATE)
    den = cv2.filter2D(valid.astype(np.float32), -1, kernel, borderType=cv2.BORDER_REPLICATE)
    ring = np.where(den >= C.PAINT_MIN_PIXELS, num / np.maximum(den, 1.0), np.nan)
    mid = (n - 1) / 2
    reach = C.PAINT_SEARCH_CENTRE * n
    offs = np.arange(-reach, reach + 1e-9, 1.0)
    base = C.PIP_LATTICE_FRACTION * n
    cx, cy, sp = np.meshgrid(mid + offs, mid + offs, base * np.array(C.PAINT_SEARCH_SPACING))
    cx, cy, sp = cx.ravel(), cy.ravel(), sp.ravel()
    grid = np.array([(v, u) for v in (-1, 0, 1) for u in (-1, 0, 1)], np.float64)
    xs = np.rint(cx[:, None] + sp[:, None] * grid[None, :, 1]).astype(np.intp)
    ys = np.rint(cy[:, None] + sp[:, None] * grid[None, :, 0]).astype(np.intp)
    inside = ((xs >= 0) & (xs < n) & (ys >= 0) & (ys < n)).all(axis=1)
    shares = ring[np.clip(ys, 0, n - 1), np.clip(xs, 0, n - 1)]  # (K, 9)
    corners = shares[:, [0, 2, 6, 8]]
    painted_corner = np.where(corners < C.PAINT_CORNER_MAX, corners, np.nan)
    enough = (~np.isnan(painted_corner)).sum(axis=1) >= 2
    ok = inside & enough & ~np.isnan(shares).any(axis=1)
    if not ok.any():
        return PaintRead(None, 0.0, ())
    ref = np.nanmedian(np.where(ok[:, None], painted_corner, 0.0), axis=1)
    t = (shares - ref[:, None]) / np.maximum(1.0 - ref, C.PAINT_MIN_SCALE)[:, None]
    pipish = t <= C.PAINT_PIP_BELOW
    bare = t >= C.PAINT_BARE_ABOVE
    ok &= (pipish | bare).all(axis=1)
    margin = np.where(pipish, C.PAINT_PIP_BELOW - t, t - C.PAINT_BARE_ABOVE).min(axis=1)
    # the clearest lattice whose painted points make a standard face
    order = np.flatnonzero(ok)[np.argsort(-margin[ok])]
    # each lattice's painted points as a code: point i (row by row) is bit i
    codes = pipish[order].astype(np.intp) @ (1 << np.arange(9))
    counts = _layout_counts(layouts)[codes]
    faces = np.flatnonzero(counts >= 0)
    if not faces.size:
        return PaintRead(None, 0.0, ())
    return PaintRead(int(counts[faces[0]]), float(margin[order[faces[0]]]), ())


@functools.cache
def _layout_counts(
    layouts: tuple[tuple[int, frozenset[tuple[int, int]]], ...],
) -> np.ndarray:
    """The pips of the first layout with each set of painted points, by the set's code
    (point (row, col) is bit 3 * (row + 1) + col + 1; -1: no standard face), read-only."""
    out = np.full(1 << 9, -1, np.intp)
    for count, points in layouts:
        code = sum(1 << (3 * (r + 1) + c + 1) for r, c in points)
        if out[code] < 0:
            out[code] = count
    out.flags.writeable = False
    return out
