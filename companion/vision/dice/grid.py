"""Find the block in a photo and fit its grid, DiceKeys-style: the dice spacing and angle
come from the whole block at once, not from any single die.

The grid is a homography from grid coordinates (x = col, y = row; a cell's centre sits on
integers) to image pixels. It starts as a rotated square lattice fitted to the seams between
dice, and is then refined to the die centres the cell reader finds (a photo is a slight
perspective, not a square lattice).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.dice import constants as C


@dataclass(frozen=True)
class DiceGrid:
    """Cell (row, col) -> image pixels through ``h`` (grid x = col, y = row)."""

    h: np.ndarray  # 3x3, grid -> image pixels
    rows: range  # candidate rows of the fitted lattice
    cols: range

    def center(self, row: float, col: float) -> tuple[float, float]:
        p = self.h @ np.array([col, row, 1.0])
        return (float(p[0] / p[2]), float(p[1] / p[2]))

    def corners(self, row: int, col: int) -> np.ndarray:
        """The cell's four corners (tl, tr, br, bl) in image pixels, shape (4, 2)."""
        g = np.array(
            [[col - 0.5, row - 0.5], [col + 0.5, row - 0.5], [col + 0.5, row + 0.5],
             [col - 0.5, row + 0.5]],
            dtype=np.float64,
        )
        return cv2.perspectiveTransform(g[None], self.h)[0]

    def pitch_px(self, row: float, col: float) -> float:
        a = self.center(row, col - 0.5)
        b = self.center(row, col + 0.5)
        c = self.center(row - 0.5, col)
        d = self.center(row + 0.5, col)
        return (math.dist(a, b) + math.dist(c, d)) / 2

    def scaled(self, factor: float) -> DiceGrid:
        """The same grid for an image scaled by ``factor``."""
        s = np.diag([factor, factor, 1.0])
        return DiceGrid(s @ self.h, self.rows, self.cols)

    def shifted(self, drow: int, dcol: int) -> DiceGrid:
        """Renumber cells so that old (drow, dcol) becomes (0, 0)."""
        t = np.array([[1, 0, dcol], [0, 1, drow], [0, 0, 1.0]])
        rows = range(self.rows.start - drow, self.rows.stop - drow)
        cols = range(self.cols.start - dcol, self.cols.stop - dcol)
        return DiceGrid(self.h @ t, rows, cols)


@dataclass(frozen=True)
class Background:
    """What the surface under the block looks like.

    On a table: Lab colour clusters sampled from the frame border, and how far from them a
    pixel must be to be something else. On the mat: the paper is the white reference, and
    anything with colour (every die has some) is foreground; the grey print is not.
    """

    centres: np.ndarray  # (k, 3) Lab (OpenCV float scale: L 0-100)
    threshold: float  # Lab distance (table) or chroma (mat) beyond which a pixel is foreground
    gains: np.ndarray | None = None  # per-channel BGR gains making the paper neutral (mat)

    def foreground(self, bgr: np.ndarray, lab: np.ndarray | None = None) -> np.ndarray:
        """Pixels unlike the surface; ``lab``: ``to_lab(bgr)`` where the caller has it."""
        if self.gains is not None:
            # to_lab(np.clip(bgr * gains, 0, 255)), in place (the same bits)
            balanced = (bgr * self.gains.astype(np.float32)).astype(np.float32, copy=False)
            np.clip(balanced, 0, 255, out=balanced)
            balanced /= 255.0
            lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2Lab)
            return np.hypot(lab[..., 1], lab[..., 2]) > self.threshold
        lab = to_lab(bgr) if lab is None else lab
        planes = [lab[..., ch] for ch in range(3)]  # views: splitting copies cost more
        # the Lab distance to the nearest cluster: the least squared distance, then one
        # square root (the same bits as the least of the distances); computed in place,
        # as fresh image-sized arrays cost more than the arithmetic
        least: np.ndarray | None = None
        d = np.empty(lab.shape[:2], lab.dtype)
        sq = np.empty_like(d)
        for c in self.centres.astype(np.float32):
            np.subtract(planes[0], c[0], out=d)
            np.multiply(d, d, out=sq)
            for plane, v in ((planes[1], c[1]), (planes[2], c[2])):
                np.subtract(plane, v, out=d)
                d *= d
                sq += d
            if least is None:
                least, sq = sq, np.empty_like(sq)
            else:
                np.minimum(least, sq, out=least)
        if least is None:
            return np.ones(bgr.shape[:2], bool)
        return np.sqrt(least, out=least) > self.threshold


def to_lab(bgr: np.ndarray) -> np.ndarray:
    scaled = bgr.astype(np.float32)
    scaled /= 255.0  # in place: the same bits as ``bgr.astype(np.float32) / 255.0``
    return cv2.cvtColor(scaled, cv2.COLOR_BGR2Lab)


def background_model(bgr: np.ndarray, region: np.ndarray | None = None,
                     lab: np.ndarray | None = None) -> Background:
    """Cluster the surface's colours from the frame border (or from ``region`` pixels);
    ``lab``: ``to_lab(bgr)`` where the caller has it."""
    lab = to_lab(bgr) if lab is None else lab
    h, w = lab.shape[:2]
    if region is None:
        band = max(4, int(min(h, w) * C.BORDER_BAND_FRACTION))
        region = np.zeros((h, w), bool)
        region[:band], region[-band:], region[:, :band], region[:, -band:] = True, True, True, True
    px = lab[region].reshape(-1, 3).astype(np.float32)
    if len(px) > 20000:
        px = px[:: len(px) // 20000]
    k = min(C.BACKGROUND_CLUSTERS, len(px))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)
    labels0 = np.zeros((len(px), 1), np.int32)
    _, labels, centres = cv2.kmeans(px, k, labels0, crit, 2, cv2.KMEANS_PP_CENTERS)
    labels, centres = np.asarray(labels), np.asarray(centres)
    d = np.linalg.norm(px - centres[labels.ravel()], axis=1)
    spread = float(np.percentile(d, 99))
    return Background(centres, max(12.0, 1.6 * spread))


def paper_model(bgr: np.ndarray, band: np.ndarray) -> Background:
    """The mat: white-balance on its paper, then colour means die."""
    px = bgr[band].reshape(-1, 3).astype(np.float32)
    bright = px.mean(axis=1)
    paper = np.median(px[bright >= np.percentile(bright, 50)], axis=0)
    gains = float(paper.mean()) / np.maximum(paper, 1.0)
    return Background(to_lab(paper.reshape(1, 1, 3)).reshape(1, 3), C.MAT_CHROMA_MIN, gains)


def block_mask(fg: np.ndarray, min_area_px: float) -> np.ndarray:
    """The block's connected foreground: the largest blob and blobs close to it."""
    k = max(3, int(round(math.sqrt(fg.size) / 300)) | 1)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    m = cv2.morphologyEx(fg.astype(np.uint8), cv2.MORPH_OPEN, ker)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, ker)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    if n <= 1:
        return np.zeros_like(fg, bool)
    areas = stats[1:, cv2.CC_STAT_AREA]
    best = int(np.argmax(areas)) + 1
    if areas[best - 1] < min_area_px:
        return np.zeros_like(fg, bool)
    keep = labels == best
    ring = np.ones((2 * k + 1, 2 * k + 1), np.uint8)
    taken = {best}
    while True:  # dice a few mm apart: take blobs near the block, then blobs near those
        grow = cv2.dilate(keep.astype(np.uint8), ring, iterations=3)
        near = set(np.unique(labels[grow > 0]).tolist()) - taken - {0}
        new = [i for i in near if areas[i - 1] >= min_area_px * 0.05]
        if not new:
            break
        for i in new:
            keep |= labels == i
        taken |= set(new)
    return _join_die_blobs(keep, labels, stats, taken, min_area_px)


def _join_die_blobs(
    keep: np.ndarray, labels: np.ndarray, stats: np.ndarray, taken: set[int],
    min_area_px: float,
) -> np.ndarray:
    """Add the blobs of die size lying within a share of their own width of the block.
    On a dark table a die's shadow and side walls look like the table, so spaced dice show
    as separate tops whose gaps grow with the dice's size in the photo, not in pixels."""
    while True:
        todo = [i for i in range(1, len(stats)) if i not in taken
                and stats[i, cv2.CC_STAT_AREA] >= min_area_px]
        if not todo:
            return keep
        dist = cv2.distanceTransform((~keep).astype(np.uint8), cv2.DIST_L2, 3)
        new = []
        for i in todo:
            x, y, w, h = (int(v) for v in stats[i, :4])
            part = dist[y : y + h, x : x + w][labels[y : y + h, x : x + w] == i]
            reach = C.BLOCK_JOIN_WIDTH * math.sqrt(float(stats[i, cv2.CC_STAT_AREA]))
            if part.size and float(part.min()) <= reach:
                new.append(i)
        if not new:
            return keep
        for i in new:
            keep |= labels == i
        taken |= set(new)


def grid_axes(gx: np.ndarray, gy: np.ndarray, mask: np.ndarray) -> tuple[float, float]:
    """Directions (radians) of the gradients across column seams and across row seams.

    They are found separately, so a slightly skewed (perspective) block keeps both; the
    first is within 45 degrees of the image x axis, the second of the y axis.
    """
    gxm, gym = gx[mask], gy[mask]
    mag = np.hypot(gxm, gym)
    ang = np.mod(np.arctan2(gym, gxm), np.pi)  # edge polarity does not matter
    bins = 180
    hist, _ = np.histogram(ang, bins=bins, range=(0, np.pi), weights=mag**2)
    hist = np.convolve(np.concatenate([hist[-4:], hist, hist[:4]]), np.ones(5) / 5, "same")[4:-4]

    def peak(lo: float, width: float) -> float:
        idx = np.arange(bins)
        centres = (idx + 0.5) * np.pi / bins
        sel = np.mod(centres - lo, np.pi) <= width
        i = int(idx[sel][np.argmax(hist[sel])])
        left, right = hist[i - 1], hist[(i + 1) % bins]
        denom = left - 2 * hist[i] + right
        frac = 0.5 * (left - right) / denom if denom != 0 else 0.0
        return float((i + 0.5 + frac) * np.pi / bins)

    first = peak(0.0, np.pi)
    second = peak(first + np.radians(60), np.radians(60))
    a, b = sorted((first, second), key=lambda t: abs(math.sin(t)))  # a: nearer image x
    a = a - np.pi if a > np.pi / 2 else a
    return float(a), float(b)


def _profiles(
    gx: np.ndarray, gy: np.ndarray, mask: np.ndarray, ta: float, tb: float
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Edge energy of column seams along direction ``ta`` and of row seams along ``tb``."""
    ys, xs = np.nonzero(mask)
    gxs, gys = gx[mask], gy[mask]  # in the same (row by row) order as ys, xs
    out = []
    for t in (ta, tb):
        c, s = math.cos(t), math.sin(t)
        along = gxs * c + gys * s
        across = -gxs * s + gys * c
        w = np.where(np.abs(along) > 2.5 * np.abs(across), np.abs(along), 0)
        pos = xs * c + ys * s
        p0 = float(pos.min())
        out.append((np.bincount((pos - p0).astype(int), weights=w), p0))
    (pu, u0), (pv, v0) = out
    return pu, pv, u0, v0


def _highpass(p: np.ndarray, sigma: float) -> np.ndarray:
    if len(p) < 3:
        return p.astype(np.float64)
    smooth = cv2.GaussianBlur(p.reshape(1, -1).astype(np.float32), (0, 0), sigma).ravel()
    return np.maximum(p - smooth, 0)


def _autocorr(p: np.ndarray) -> np.ndarray:
    q = p - p.mean()
    n = len(q)
    f = np.fft.rfft(q, 2 * n)
    ac = np.fft.irfft(f * np.conj(f))[:n]
    return ac / max(float(ac[0]), 1e-9)


def grid_pitch(
    pu: np.ndarray, pv: np.ndarray, prior: float | None = None,
    tolerance: float = C.PITCH_PRIOR_TOLERANCE,
) -> float | None:
    """Dice spacing in pixels: the strongest repeat of the seam profiles."""
    hu, hv = _highpass(pu, 12.0), _highpass(pv, 12.0)
    n = max(len(hu), len(hv))
    acs = [_autocorr(x) for x in (hu, hv) if len(x) > 2 * C.MIN_PITCH_PX]
    if not acs:
        return None
    m = max(len(a) for a in acs)
    ac = np.zeros(m)
    for a in acs:
        ac[: len(a)] += a
    # the seams of a slightly skewed block do not line up exactly: smooth the repeat
    ac = np.asarray(cv2.GaussianBlur(ac.reshape(1, -1), (0, 0), 2.0), np.float64).ravel()
    lo = C.MIN_PITCH_PX
    hi = max(len(hu), len(hv)) - 2
    if prior is not None:
        lo = max(lo, int(prior * (1 - tolerance)))
        hi = min(hi, int(prior * (1 + tolerance)) + 1)
    if hi <= lo + 2:
        return float(prior) if prior is not None else (float(n) if n > C.MIN_PITCH_PX else None)
    seg = ac[lo:hi]
    # a repeat at either end of the allowed lags is a peak too when the lags just outside
    # fall away from it (a tilted camera can show the dice's tops nearly a quarter larger
    # than the mat's print predicts)
    peaks = [i for i in range(len(seg)) if 0 < i + lo < len(ac) - 1
             and ac[i + lo] >= ac[i + lo - 1] and ac[i + lo] >= ac[i + lo + 1]]
    if not peaks:
        return float(prior) if prior is not None else None
    best = max(peaks, key=lambda i: seg[i])
    # prefer the fundamental when a peak near half the lag is nearly as strong
    if prior is None:
        half = [i for i in peaks if abs((i + lo) * 2 - (best + lo)) <= 3]
        if half and seg[half[0]] >= C.HALF_PITCH_RATIO * seg[best]:
            best = half[0]
    i = best + lo
    a, b, c = ac[i - 1], ac[i], ac[i + 1]
    denom = a - 2 * b + c
    return float(i + (0.5 * (a - c) / denom if denom != 0 else 0.0))


def _comb_fit(p: np.ndarray, pitch0: float, span: float = 0.1) -> tuple[float, float]:
    """(pitch, phase) of the seam lattice along one profile: the comb whose teeth sit on
    the most edge energy on average, searched near ``pitch0``."""
    sm = cv2.GaussianBlur(p.reshape(1, -1).astype(np.float32), (0, 0), max(1.0, 0.04 * pitch0))
    sm = sm.ravel().astype(np.float64)
    n = len(sm)
    xs = np.arange(n, dtype=np.float64)
    base = float(sm.mean())  # a tooth off the seams costs what one on a seam gains
    best = (-np.inf, pitch0, 0.0)
    for pitch in np.arange(pitch0 * (1 - span), pitch0 * (1 + span), 0.25):
        phases = np.arange(0.0, pitch, 0.5)
        teeth = int(n // pitch) + 1
        pos = phases[:, None] + pitch * np.arange(teeth)[None, :]
        valid = pos <= n - 1
        vals = (np.interp(np.where(valid, pos, 0), xs, sm) - base) * valid
        score = vals.sum(axis=1)
        i = int(np.argmax(score))
        if score[i] > best[0]:
            best = (float(score[i]), float(pitch), float(phases[i]))
    return best[1], best[2]


def outline_axes(mask: np.ndarray) -> tuple[float, float] | None:
    """The block outline's axes (its least enclosing rectangle's sides), in grid_axes's
    convention; None for an empty mask."""
    pts = cv2.findNonZero(mask.astype(np.uint8))
    if pts is None:
        return None
    t = math.radians(cv2.minAreaRect(pts)[2])
    a, b = sorted((t % math.pi, (t + math.pi / 2) % math.pi), key=lambda x: abs(math.sin(x)))
    return (a - math.pi if a > math.pi / 2 else a), b


def fit_lattice(
    grey: np.ndarray, mask: np.ndarray, prior_pitch: float | None = None,
    axes: tuple[float, float] | None = None,
) -> DiceGrid | None:
    """The (affine) lattice that best explains the seams inside ``mask``, along ``axes``
    (the seams' gradient directions, radians) or the strongest edge directions there."""
    dil = cv2.dilate(mask.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    ta, tb = grid_axes(gx, gy, dil) if axes is None else axes
    pu, pv, u0, v0 = _profiles(gx, gy, dil, ta, tb)
    pitch = grid_pitch(pu, pv, prior_pitch)
    if pitch is None:  # a lone die: no repeat to measure, its size is the pitch
        pitch = math.sqrt(float(mask.sum()))
    if pitch < C.MIN_PITCH_PX:
        return None
    # each axis may differ a little (a skewed view): fit its own comb near the common repeat
    pitch_u, phu = _comb_fit(pu, pitch)
    pitch_v, phv = _comb_fit(pv, pitch)
    # grid x = col: u = u0 + phu + (col + 0.5) * pitch_u; likewise v for rows
    ou, ov = u0 + phu + 0.5 * pitch_u, v0 + phv + 0.5 * pitch_v
    g = np.array([[math.cos(ta), math.sin(ta)], [math.cos(tb), math.sin(tb)]])  # x -> (u, v)
    ginv = np.linalg.inv(g)
    a = ginv @ np.diag([pitch_u, pitch_v])
    t = ginv @ np.array([ou, ov])
    h = np.array([[a[0, 0], a[0, 1], t[0]], [a[1, 0], a[1, 1], t[1]], [0, 0, 1.0]])
    ncols = int(math.ceil((len(pu) - phu) / pitch_u))
    nrows = int(math.ceil((len(pv) - phv) / pitch_v))
    return trim(DiceGrid(h, range(-1, nrows + 1), range(-1, ncols + 1)), mask)


def trim(grid: DiceGrid, mask: np.ndarray, scale: float = 1.0) -> DiceGrid:
    """Keep the cells whose centre lies on the block, plus a ring of one cell around; the
    mask may be a copy of the image scaled by ``scale``. Cells are searched a few beyond
    the grid's current range, so a refitted grid can grow."""
    hgt, wid = mask.shape
    offs = np.array([-0.25, 0.0, 0.25])
    h = np.diag([scale, scale, 1.0]) @ grid.h
    # nine points in each cell, every cell at once: (cell, point, xy), cells row by row
    rs = np.arange(grid.rows.start - 2, grid.rows.stop + 2, dtype=np.float64)
    cs = np.arange(grid.cols.start - 2, grid.cols.stop + 2, dtype=np.float64)
    rr, cc = np.meshgrid(rs, cs, indexing="ij")
    dx, dy = np.meshgrid(offs, offs, indexing="ij")  # dx outer, dy inner
    pts = np.stack([cc.reshape(-1, 1) + dx.reshape(1, -1),
                    rr.reshape(-1, 1) + dy.reshape(1, -1)], axis=-1)
    img = cv2.perspectiveTransform(pts.reshape(1, -1, 2), h)[0].round().astype(int)
    img = img.reshape(pts.shape)
    ok = (img[..., 0] >= 0) & (img[..., 0] < wid) & (img[..., 1] >= 0) & (img[..., 1] < hgt)
    on = np.zeros(ok.shape, bool)
    on[ok] = mask[img[..., 1][ok], img[..., 0][ok]]
    seen = ok.sum(axis=1)
    hit = (seen > 0) & (on.sum(axis=1) / np.maximum(seen, 1) >= 0.3)
    if not hit.any():
        return grid
    hit_rows, hit_cols = rr.ravel()[hit], cc.ravel()[hit]
    return DiceGrid(
        grid.h, range(int(hit_rows.min()) - 1, int(hit_rows.max()) + 2),
        range(int(hit_cols.min()) - 1, int(hit_cols.max()) + 2),
    )


def refine(
    grid: DiceGrid, found: Sequence[tuple[int, int, float, float]], pitch_px: float
) -> DiceGrid:
    """Fit the grid to die centres (row, col, x, y) found in the image; cells whose centre
    lies far off are outliers and do not pull the fit. A refit that changes the grid's scale
    or angle a lot is not believed (a few misread dice cannot reshape the block)."""
    if len(found) < 4:
        return grid
    src = np.array([[c, r] for r, c, _, _ in found], np.float64)
    dst = np.array([[x, y] for _, _, x, y in found], np.float64)
    rows = {r for r, *_ in found}
    cols = {c for _, c, *_ in found}
    thr = C.MAX_CELL_OFFSET_PITCH * pitch_px
    new: DiceGrid | None = None
    if len(rows) >= 2 and len(cols) >= 2 and len(found) >= 6:
        h, inl = cv2.findHomography(src, dst, cv2.RANSAC, thr)
        if h is not None and inl is not None and inl.sum() >= max(6, 0.6 * len(found)):
            new = DiceGrid(h, grid.rows, grid.cols)
    if new is None:
        a, inl = cv2.estimateAffinePartial2D(
            src, dst, method=cv2.RANSAC, ransacReprojThreshold=thr
        )
        if a is None or inl is None or inl.sum() < max(3, 0.6 * len(found)):
            return grid
        new = DiceGrid(np.vstack([a, [0, 0, 1.0]]), grid.rows, grid.cols)
    return new if _similar(grid, new, src.mean(axis=0)) else grid


def _similar(old: DiceGrid, new: DiceGrid, at: np.ndarray) -> bool:
    """Same scale and axes near grid point ``at`` (x = col, y = row), within tolerance."""
    def frame(g: DiceGrid) -> tuple[np.ndarray, np.ndarray]:
        c = np.array(g.center(at[1], at[0]))
        return np.array(g.center(at[1], at[0] + 1)) - c, np.array(g.center(at[1] + 1, at[0])) - c

    for u, v in zip(frame(old), frame(new), strict=True):
        nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        ratio = nv / max(nu, 1e-9)
        cos = float(u @ v) / max(nu * nv, 1e-9)
        if abs(ratio - 1) > C.REFIT_MAX_SCALE_CHANGE or cos < math.cos(
            math.radians(C.REFIT_MAX_TURN_DEG)
        ):
            return False
    return True


