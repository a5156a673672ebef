"""Read one grid cell: is there a die, how many pips, where is it, what colour is its face.

A cell arrives as a square patch resampled from the photo, one grid pitch wide, so every
size here is a fraction of the die: pips are found at their expected size whatever the
photo's resolution. Pips may be lighter or darker than the face; the standard faces put
every pip on a 3x3 lattice, and the count is accepted only when the pips found sit on one
of the six layouts.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.dice import constants as C
from companion.vision.dice import small_stats
from companion.vision.dice.colour import log_chroma
from companion.vision.dice.paint import read_paint, search_paint
from companion.vision.dice.pip_lattice import fit_square_lattice, pip_step


@dataclass(frozen=True)
class CellRead:
    """What one patch shows. Positions are in patch pixels (the cell centre is the middle).

    A plainly empty cell (occupied below PLAIN_EMPTY_BELOW, no standard face) is not read
    past its pips: its face colour is the patch's median, and the fields after
    ``light_pips`` keep their defaults."""

    occupied: float  # share of the cell centre that differs from the table, 0-1
    pips: int  # pips counted (0 when none were found)
    layout_ok: bool  # the pips sit on one standard layout for that count
    pip_margin: float  # weakest pip / strongest non-pip response (large = sure)
    pip_contrast: float  # grey levels between the weakest pip and the face
    center: tuple[float, float] | None  # the die's face centre from its pips
    face_bgr: tuple[float, float, float]  # median face colour, pips and highlights left out
    pip_bgr: tuple[float, float, float] | None  # median colour of the pip centres
    light_pips: bool
    even_paint: bool = True  # False: one "pip" may be a glossy highlight
    glint: bool = False  # a glint was left out of the pips
    pips_xy: tuple[tuple[float, float], ...] = ()  # the pips' centres (patch px)
    # the strongest blob of the pips' polarity that is no pip: (x, y, its strength over the
    # weakest pip's), where a glint of the lamp would show
    extra: tuple[float, float, float] | None = None
    # how far the worst pip's sub-pixel centre lies off the best-fitting square lattice
    # (lattice units): a glint falls where the lamp puts it, a painted pip on the lattice
    lattice_misfit: float = 0.0
    # a strong blob of the other polarity at the face's middle lattice point: a glint may
    # hide a dark middle pip there (a 3 read as a 2, a 5 as a 4)
    middle_hidden: bool = False
    # log-chromaticity spread of the face's four quadrants: a cell straddling the corners
    # of several dice (a grid half a die off) shows their different colours
    face_spread: float = 0.0
    # the response between two neighbouring pips stays high: a line or streak (a board
    # seam, wood grain), not separate painted dots
    joined: bool = False
    # the pips counted by paint colour at the nine lattice points (None: undecided), and
    # how clear its least clear point was (see paint.py)
    paint_pips: int | None = None
    paint_margin: float = 0.0
    paint_blind: float = 0.0  # see paint.PaintRead.blind
    # the pips were seen only by their colour off the face's shade (``_off_shade``): pale
    # pips as bright as the face, too faint for a sure count on their own
    pale: bool = False


def _layouts() -> tuple[tuple[int, frozenset[tuple[int, int]]], ...]:
    out: list[tuple[int, frozenset[tuple[int, int]]]] = []
    for n, cells in C.PIP_LAYOUTS.items():
        a = frozenset(cells)
        b = frozenset((c, -r) for r, c in cells)
        out.append((n, a))
        if b != a:
            out.append((n, b))
    return tuple(out)


# every standard face and its quarter turn, as (pips, lattice points)
LAYOUTS = _layouts()
# one polarity's evidence: the one-sided colour difference, its pip response, the blobs'
# core colours and the blobs (value, y, x)
_Side = tuple[np.ndarray, np.ndarray, list[np.ndarray], list[tuple[float, int, int]]]


def _peaks(resp: np.ndarray, box: tuple[int, int], min_dist: float) -> list[tuple[float, int, int]]:
    """Local maxima of ``resp`` inside the square ``box`` (first and past-last row and
    column, ``_face_box``) as (value, y, x), strongest first, with non-maximum suppression
    at ``min_dist`` pixels."""
    lo, hi = box
    n, m = resp.shape
    # the box and a one-pixel rim: the dilation inside the box sees the very same pixels
    # as on the whole patch (beyond the patch's edge it sees none either way)
    y0, x0 = max(lo - 1, 0), max(lo - 1, 0)
    sub = resp[y0 : min(hi + 1, n), x0 : min(hi + 1, m)]
    dil = cv2.dilate(sub, _ones_3x3())
    inner = (slice(lo - y0, hi - y0), slice(lo - x0, hi - x0))
    core = sub[inner]
    ys, xs = np.nonzero((core >= dil[inner]) & (core > 0))
    vals = core[ys, xs]
    order = np.lexsort((xs, ys, vals))[::-1]  # by value, then y, then x, all descending
    kept: list[tuple[float, int, int]] = []
    limit = min_dist**2
    for v, y, x in zip(vals[order].tolist(), (ys[order] + lo).tolist(),
                       (xs[order] + lo).tolist(), strict=True):
        for _, ky, kx in kept:
            dy, dx = y - ky, x - kx
            if dy * dy + dx * dx < limit:
                break
        else:
            kept.append((v, y, x))
            if len(kept) >= 12:
                break
    return kept


@functools.cache
def _ones_3x3() -> np.ndarray:
    """The 3x3 structuring element of a local maximum (read-only)."""
    out = np.ones((3, 3), np.uint8)
    out.flags.writeable = False
    return out


@functools.cache
def _disc_minus_ring(pip_r: float) -> np.ndarray:
    """Kernel: mean over a disc of 0.8 pip radius minus mean over a ring at 1.5-2.1 radii."""
    half = int(math.ceil(2.2 * pip_r))
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    d = np.hypot(yy, xx)
    disc = (d <= 0.8 * pip_r).astype(np.float32)
    ring = ((d >= 1.5 * pip_r) & (d <= 2.1 * pip_r)).astype(np.float32)
    kernel = disc / disc.sum() - ring / ring.sum()
    kernel.flags.writeable = False
    return kernel


@functools.cache
def _patch_grid(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row and column index of every pixel of an n x n patch, and the face region where
    pips are searched (read-only, made once per size)."""
    yy, xx = np.mgrid[0:n, 0:n]
    mid = (n - 1) / 2
    half = C.FACE_HALF_FRACTION * n
    region = (np.abs(xx - mid) <= half) & (np.abs(yy - mid) <= half)
    for a in (yy, xx, region):
        a.flags.writeable = False
    return yy, xx, region


@functools.cache
def _face_box(n: int) -> tuple[int, int]:
    """The face region of an n x n patch (``_patch_grid``) as its first and past-last row,
    the same for columns: the region is that square."""
    _, _, region = _patch_grid(n)
    inside = np.flatnonzero(region.any(axis=1))
    lo, hi = int(inside[0]), int(inside[-1]) + 1
    square = np.zeros_like(region)
    square[lo:hi, lo:hi] = True
    assert np.array_equal(square, region)
    return lo, hi


@functools.cache
def _window_offsets(m: int) -> np.ndarray:
    """Flat offsets of a 3x3 window's pixels from its centre in an m-pixel-wide image, row
    by row (read-only)."""
    out = np.array([dy * m + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.intp)
    out.flags.writeable = False
    return out


def _cores(bgr: np.ndarray, peaks: list[tuple[float, int, int]]) -> list[np.ndarray]:
    """Mean colour of the 3x3 pixels around each blob (value, y, x), fewer at the patch's
    edge; the nine are summed in the same order as ``window.reshape(-1, 3).mean(axis=0)``
    so that each value is exactly that window's mean."""
    n, m = bgr.shape[:2]
    inner = [i for i, (_, y, x) in enumerate(peaks) if 1 <= y < n - 1 and 1 <= x < m - 1]
    out: list[np.ndarray] = []
    if inner:
        at = np.array([peaks[i][1] * m + peaks[i][2] for i in inner], np.intp)
        # the nine pixels of every window at once, (blob, pixel, channel), row by row
        nine = bgr.reshape(-1, 3).take(at[:, None] + _window_offsets(m), axis=0)
        acc = nine[:, 0].copy()
        for j in range(1, 9):
            acc += nine[:, j]
        acc /= 9
        out = list(acc)
    if len(inner) == len(peaks):
        return out
    by_blob = dict(zip(inner, out, strict=True))
    return [by_blob[i] if i in by_blob else
            np.asarray(bgr[max(y - 1, 0) : y + 2, max(x - 1, 0) : x + 2].reshape(-1, 3)
                       .mean(axis=0)) for i, (_, y, x) in enumerate(peaks)]


def read_cell(patch: np.ndarray, fg: np.ndarray) -> CellRead:
    """Read a BGR patch (CELL_PATCH_PX square, float or uint8); ``fg`` is a square mask of
    the same cell (any resolution) marking pixels unlike the table."""
    n = patch.shape[0]
    bgr = patch.astype(np.float32)
    b, g, r = (bgr[..., ch].copy() for ch in range(3))  # contiguous planes: faster sums
    grey = b + g  # bgr.mean(axis=2), to the last bit, without the reduction's cost
    grey += r
    grey /= 3
    yy, xx, region = _patch_grid(n)
    box = _face_box(n)
    q = fg.shape[0]  # the mask may be coarser than the patch
    middle = fg[q // 4 : q - q // 4, q // 4 : q - q // 4]
    occupied = int(np.count_nonzero(middle)) / middle.size  # its mean, counted: the same float
    # faint pips may make a face only where the cell is unlike the table: a tan table's
    # knots or a shadow are the face's own shade darkened too
    faint = occupied >= C.OCCUPIED_MIN

    face0 = _median_colour(patch, bgr, region)
    face_grey = float(face0.mean())
    pip_r = C.PIP_DIAMETER_FRACTION * n / 2
    # colour distance from the face, signed by brightness: pale pips on a pale (tan) face
    # differ more in colour than in grey level
    # the norm of (bgr - face0) over the colour axis, signed, worked out in place on the
    # planes (the same bits)
    for plane, v in ((b, face0[0]), (g, face0[1]), (r, face0[2])):
        plane -= v
        plane *= plane
    b += g
    b += r
    diff = np.sqrt(b, out=b)
    diff *= np.sign(grey - face_grey)
    # a pip is a small sharp disc: its core against a ring just outside it. A broad glossy
    # highlight lifts core and ring alike, so it scores low. Each polarity only sees its own
    # side of the face colour, so the dark seam around a face is no "light pip" at its rim.
    kernel = _disc_minus_ring(pip_r)
    sat_face = _saturation(face0)
    spacing = C.PIP_LATTICE_FRACTION * n
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    best: _Pips | None = None
    best_peaks: list[tuple[float, int, int]] = []
    sides: dict[bool, _Side] = {}

    def read_side(
        one_side: np.ndarray, light: bool, least: float = C.PIP_MIN_CONTRAST,
        faces_only: bool = False,
    ) -> tuple[_Pips, list[tuple[float, int, int]], _Side]:
        """The pips of one polarity (``one_side``: how far each pixel lies from the face
        colour on that side; ``least``: the weakest pip's least contrast there), the blobs
        as first found, and that side's evidence; ``faces_only``: the caller keeps a face
        and nothing else of this side."""
        resp = cv2.filter2D(one_side, -1, kernel, borderType=cv2.BORDER_REPLICATE)
        if faces_only and float(resp.max()) < least:
            # no blob anywhere reaches a pip's least contrast, so no face on this side:
            # what _read_pips would conclude from the first blob, without finding them
            return _Pips(0, False, 0.0, 0.0, None, (), light), [], (one_side, resp, [], [])
        peaks = _peaks(resp, box, 0.6 * spacing)
        raw = peaks
        glint = False
        if light and len(peaks) >= 3 and peaks[0][0] > C.GLINT_RATIO * peaks[1][0]:
            # pips are painted alike; one light blob far stronger than the next is the
            # lamp's glint on the plastic
            peaks, glint = peaks[1:], True
        cores = _cores(bgr, peaks)
        if light and len(peaks) > 1 and sat_face >= C.PIP_SATURATION_MIN_FACE:
            # pips are painted alike and paler than the face; a glossy highlight keeps much
            # of the face's colour, so it sits well above the palest blobs
            sats = [_saturation(c) for c in cores[:7]] + [_saturation(c) for c in cores[7:]]
            palest = min(sats[:7])
            limit = palest + C.PIP_SATURATION_RATIO * (sat_face - palest)
            # tinted pips on a pale face (bluish white on tan) are nearly as saturated as
            # the face: then saturation tells pips from highlights nothing
            if sat_face - palest < C.PIP_SATURATION_MIN_GAP:
                limit = 1.0
            keep = [sat <= limit for sat in sats]
            peaks = [p for p, k in zip(peaks, keep, strict=True) if k]
            cores = [c for c, k in zip(cores, keep, strict=True) if k]
        near = cv2.dilate(resp, ker)
        dropped = [p for p in raw if p not in peaks and p[0] >= C.PIP_REL_THRESHOLD * raw[0][0]]
        for _, y, x in dropped:
            # a blob left out as a glint says nothing about which lattice points are bare
            cv2.circle(near, (x, y), int(round(C.GLINT_MASK_LATTICE * spacing)), 0.0, -1)
        read = _read_pips(peaks, resp, near, n, spacing, light, cores, face0, least, faint)
        if light and len(peaks) >= 3 and not (read.ok and read.count >= 2):
            # no face of ours with the strongest blob: read again without it (a glint)
            other = _read_pips(peaks[1:], resp, near, n, spacing, light, cores[1:], face0,
                               least, faint)
            if other.ok and other.count >= 2:
                read, glint = other, True
        if glint or (read.ok and _on_bare_point(read, dropped, spacing)):
            read = replace(read, glint=True)
        elif light and read.ok and read.count in (3, 5) and _centre_odd(read, one_side, pip_r):
            read = replace(read, glint=True)  # the centre "pip" may be a glint: say so
        return read, raw, (one_side, resp, cores, peaks)

    for light in (True, False):
        read, raw, sides[light] = read_side(np.maximum(diff if light else -diff, 0), light)
        # the true pips are the strongest blobs; the gaps between bright pips can look
        # like a weaker set of dark ones
        if best is None or (read.ok, read.contrast) > (best.ok, best.contrast):
            best, best_peaks = read, raw
    assert best is not None
    seen_pale = False
    if not best.ok and sat_face >= C.PIP_SATURATION_MIN_FACE:
        # pale pips as bright as the face (greyish white on tan under a dim warm lamp):
        # the sign by brightness cuts each pip into a lighter and a darker half, each too
        # weak; the colour off the face's own shade sees them whole, while a shadow or a
        # seam (the face's colour darkened) shows no such difference. Only on a coloured
        # face, and only pips paler than it: a grey scrap's coloured surround is no pips
        pale, raw, side = read_side(_off_shade(bgr, face0, diff), True, C.PIP_MIN_OFF_SHADE,
                                    faces_only=True)
        if pale.ok and pale.count >= 2 and _paler(_cores(bgr, list(pale.points)), sat_face):
            best, best_peaks, sides[True] = pale, raw, side
            seen_pale = True
    if not best.ok and occupied < C.PLAIN_EMPTY_BELOW:
        # no die, no gap, no white reference can come of this cell (reader.py): its face
        # colour and the checks on its pips are not worth their time
        return CellRead(occupied, best.count, False, best.margin, best.contrast, best.center,
                        (float(face0[0]), float(face0[1]), float(face0[2])), None, best.light)
    misfit = 0.0
    if best.ok and best.count >= 3:
        one_side, resp, cores, peaks = sides[best.light]
        misfit, worst = _lattice_misfit(best.points, one_side, pip_r, spacing)
        if misfit > C.PIP_GLINT_MISFIT:
            # one blob sits well off the lattice the others share: a glint taken for a
            # pip. Read the die without it when its other pips still make a face.
            drop = best.points[worst]
            kept = [i for i, p in enumerate(peaks) if p != drop]
            other = _read_pips([peaks[i] for i in kept], resp, cv2.dilate(resp, ker), n,
                               spacing, best.light, [cores[i] for i in kept], face0)
            if other.ok and other.count >= 2:
                refit = (_lattice_misfit(other.points, one_side, pip_r, spacing)[0]
                         if other.count >= 3 else 0.0)
                if refit <= C.PIP_LATTICE_MISFIT:
                    best, misfit = replace(other, glint=True), refit
    hidden = False
    if best.ok and best.count in (2, 4) and best.center is not None:
        # a dark-pip face whose middle shows a strong light blob (or the reverse)
        resp_other = sides[not best.light][1]
        cx, cy = best.center
        radius = C.PIP_HIDDEN_RADIUS * spacing
        # the disc's bounding square: the largest response within it is the same
        y0, y1 = max(math.floor(cy - radius) - 1, 0), min(math.ceil(cy + radius) + 2, n)
        x0, x1 = max(math.floor(cx - radius) - 1, 0), min(math.ceil(cx + radius) + 2, n)
        near_middle = np.hypot(xx[y0:y1, x0:x1] - cx, yy[y0:y1, x0:x1] - cy) <= radius
        weakest = min(v for v, _, _ in best.points)
        glow = float(resp_other[y0:y1, x0:x1][near_middle].max()) / max(weakest, 1e-6)
        # what is left of a pip the glint half covers, right at the middle point
        rest = float(sides[best.light][1][round(cy), round(cx)]) / max(weakest, 1e-6)
        hidden = glow >= C.PIP_HIDDEN_SHARE or (
            glow >= C.PIP_HIDDEN_SHARE_WITH_REST and rest >= C.PIP_HIDDEN_REST)
    joined = best.ok and _joined(best, sides[best.light][1], spacing)
    extra = _strongest_other(best, best_peaks)
    face_mask = region.copy()
    pip_out = _disc(int(math.floor(1.7 * pip_r)), 1.7 * pip_r)  # the face without its pips
    half = pip_out.shape[0] // 2
    for _, py, px in best.points:
        y0, y1 = max(py - half, 0), min(py + half + 1, n)
        x0, x1 = max(px - half, 0), min(px + half + 1, n)
        face_mask[y0:y1, x0:x1] &= ~pip_out[y0 - py + half : y1 - py + half,
                                            x0 - px + half : x1 - px + half]
    spread = _quadrant_spread(patch, bgr, face_mask)
    if int(face_mask.sum()) < 20:
        face_mask = region
    # its highlights left out too: ``grey`` is the pixels' mean brightness
    bright = grey.reshape(-1).take(np.flatnonzero(face_mask))
    face_mask = face_mask & (grey <= small_stats.percentile(bright, 85))
    fb = _median_colour(patch, bgr, face_mask)
    pip_bgr = None
    if best.points:
        pb = small_stats.median_rows(np.array([bgr[py, px] for _, py, px in best.points]))
        pip_bgr = (float(pb[0]), float(pb[1]), float(pb[2]))
    return CellRead(
        occupied, best.count, best.ok, best.margin, best.contrast, best.center,
        (float(fb[0]), float(fb[1]), float(fb[2])), pip_bgr, best.light, best.even,
        best.glint, tuple((float(x), float(y)) for _, y, x in best.points), extra,
        misfit, hidden, spread, joined, pale=seen_pale,
    )


def with_paint(patch: np.ndarray, read: CellRead) -> CellRead:
    """The read with the pips also counted by paint (paint.py), on a face the blobs put on
    a standard layout (and, for light pips, on one the paint finds alone). Done once, on
    the final grid's cells."""
    if read.pip_bgr is None:
        return read
    # no face the dice have (they have no 1): let the paint look for one
    search = not read.layout_ok or read.pips < 2
    if search and (read.occupied < C.OCCUPIED_MIN or not read.light_pips):
        return read
    # Light pips: a pixel is a mix of face and pip paint (a glint whitens both). Dark pips
    # add nearly nothing to a mix, so there a pixel is face paint plus white light: the
    # face's share is as low on a glinting dark pip as on a bare one.
    other = np.array(read.pip_bgr if read.light_pips else C.PAINT_WHITE_BGR, np.float32)
    px, face = patch.astype(np.float32), np.array(read.face_bgr, np.float32)
    paint = (search_paint(px, face, other, LAYOUTS) if search
             else read_paint(px, list(read.pips_xy), face, other, LAYOUTS, read.light_pips))
    return replace(read, paint_pips=paint.count, paint_margin=paint.margin,
                   paint_blind=paint.blind)


def _joined(read: _Pips, resp: np.ndarray, spacing: float) -> bool:
    """True when, all along the way between two pips up to two lattice steps apart, the
    pip response stays nearly as strong as at the pips."""
    pts = [(float(x), float(y)) for _, y, x in read.points]
    weakest = min(v for v, _, _ in read.points)
    n = resp.shape[0]
    for i, a in enumerate(pts):
        for b in pts[i + 1 :]:
            if math.dist(a, b) > 3.0 * spacing:
                continue
            along = []
            for t in (0.3, 0.5, 0.7):  # a line is strong all along; a glint only at one spot
                mx = min(n - 1, max(0, round(a[0] + t * (b[0] - a[0]))))
                my = min(n - 1, max(0, round(a[1] + t * (b[1] - a[1]))))
                along.append(float(resp[my, mx]))
            if min(along) >= C.PIP_JOINED_SHARE * weakest:
                return True
    return False


@functools.cache
def _quadrants(n: int) -> tuple[np.ndarray, ...]:
    """The four quarter masks of an n x n patch, split at its middle (read-only, made once
    per size)."""
    yy, xx, _ = _patch_grid(n)
    mid = (n - 1) / 2
    out = []
    for low_y in (True, False):
        for low_x in (True, False):
            q = ((yy < mid) == low_y) & ((xx < mid) == low_x)
            q.flags.writeable = False
            out.append(q)
    return tuple(out)


@functools.cache
def _quadrant_labels(n: int) -> np.ndarray:
    """For the patch's three channels stacked one above the other (3n x n): each pixel's
    channel and quarter as 4 * channel + quarter (quarters in the order of
    ``_quadrants``), 8-bit, read-only."""
    labels = np.zeros((n, n), np.uint8)
    for i, quarter in enumerate(_quadrants(n)):
        labels[quarter] = i
    out = np.concatenate([labels + 4 * ch for ch in range(3)]).astype(np.uint8)
    out.flags.writeable = False
    return out


def _quadrant_spread(patch: np.ndarray, bgr: np.ndarray, face_mask: np.ndarray) -> float:
    """How far the face colours of the patch's four quarters lie apart (log chroma): one
    die's face is one colour, the corners of several dice are not."""
    if patch.dtype != np.uint8 or not face_mask.flags.c_contiguous:
        medians = [_median_colour(patch, bgr, face_mask & q) if
                   int(np.count_nonzero(face_mask & q)) >= 20 else None
                   for q in _quadrants(bgr.shape[0])]
    else:
        medians = _quarter_medians(patch, face_mask, 20)
    chroma = [log_chroma(m.tolist()) for m in medians if m is not None]
    if len(chroma) < 2:
        return 0.0
    # np.max(np.linalg.norm(arr - np.median(arr, axis=0), axis=1)) of the (k, 2) chroma,
    # to the last bit, without the array calls' cost on so few numbers
    mid = [small_stats.median([float(c[j]) for c in chroma]) for j in (0, 1)]
    out = 0.0
    for c in chroma:
        d0, d1 = float(c[0]) - mid[0], float(c[1]) - mid[1]
        out = max(out, math.sqrt(d0 * d0 + d1 * d1))  # x * x: pow() may round otherwise
    return out


def _quarter_medians(patch: np.ndarray, mask: np.ndarray, least: int) -> list[np.ndarray | None]:
    """``_median_colour`` of each quarter of an 8-bit patch under ``mask`` (None where fewer
    than ``least`` pixels), from one (value, channel and quarter) histogram."""
    n = patch.shape[0]
    planes = np.ascontiguousarray(patch.transpose(2, 0, 1)).reshape(3 * n, n)
    masks = np.tile(mask.view(np.uint8), (3, 1))
    cdf = cv2.calcHist([planes, _quadrant_labels(n)], [0, 1], masks, [256, 12],
                       [0, 256, 0, 12]).cumsum(axis=0)  # (value, 4 * channel + quarter)
    count = cdf[-1, :4].astype(np.int64)
    by_channel = cdf.reshape(256, 3, 4)  # (value, channel, quarter)
    lo = (by_channel < (count - 1) // 2 + 1).sum(axis=0).astype(np.float32)
    hi = (by_channel < count // 2 + 1).sum(axis=0).astype(np.float32)
    med = (lo + hi) / np.float32(2)  # (channel, quarter)
    return [np.ascontiguousarray(med[:, i]) if count[i] >= least else None for i in range(4)]


@dataclass(frozen=True)
class _Pips:
    count: int
    ok: bool
    margin: float
    contrast: float
    center: tuple[float, float] | None
    points: tuple[tuple[float, int, int], ...]
    light: bool

    gap: float = 0.0  # (weakest pip - strongest other) / strongest pip
    even: bool = True  # all pips look painted alike
    glint: bool = False  # a much brighter blob was left out as the lamp's glint

    def beats(self, other: _Pips) -> bool:
        if self.ok != other.ok:
            return self.ok
        return self.gap > other.gap


def _read_pips(
    peaks: list[tuple[float, int, int]], core: np.ndarray, near: np.ndarray, n: int,
    spacing: float, light: bool, cores: list[np.ndarray], face: np.ndarray,
    min_contrast: float = C.PIP_MIN_CONTRAST, faint: bool = False,
) -> _Pips:
    """Choose how many of the strongest blobs are pips: the count whose pips sit on a
    standard layout and stand out most from everything else on the die's pip lattice
    (``faint``: fainter blobs may make such a face, where the cell is surely no table)."""
    best = _Pips(0, False, 0.0, 0.0, None, (), light)
    if not peaks:
        return best
    top = peaks[0][0]
    contrasts = [float(core[y, x]) for _, y, x in peaks]
    least = C.PIP_FAINT_SHARE * min_contrast if faint else min_contrast
    mid = (n - 1) / 2
    for k in range(1, min(6, len(peaks)) + 1):
        chosen = peaks[:k]
        weakest = chosen[-1][0]
        contrast = min(contrasts[:k])
        weak = contrast < min_contrast
        if weakest < C.PIP_REL_THRESHOLD * top or contrast < least:
            break
        cy = sum(y for _, y, _ in chosen) / k
        cx = sum(x for _, _, x in chosen) / k
        if k == 1:
            ok = math.hypot(cx - mid, cy - mid) < 0.2 * n
            cells: set[tuple[int, int]] = {(0, 0)}
            s = spacing
        else:
            s, found = _on_layout(chosen, cx, cy, spacing)
            ok = found is not None and any(num == k and found == lay for num, lay in LAYOUTS)
            cells = found or set()
        if weak and (k < 2 or not ok):
            continue  # faint blobs make a face only on a layout (and see below)
        even = k < 3 or not light or _same_paint(cores[:k], face)  # highlights are light
        rest = 0.0
        reach = 1.4 * s
        for v, y, x in peaks[k:]:
            if max(abs(y - cy), abs(x - cx)) <= reach:
                rest = max(rest, v)
        # the lattice's rows and columns once each, not once per point
        ys = [min(n - 1, max(0, round(cy + r * s))) for r in (-1, 0, 1)]
        xs = [min(n - 1, max(0, round(cx + c * s))) for c in (-1, 0, 1)]
        for r, y in zip((-1, 0, 1), ys, strict=True):
            for c, x in zip((-1, 0, 1), xs, strict=True):
                if (r, c) not in cells:
                    rest = max(rest, float(near[y, x]))
        margin = min(20.0, weakest / max(rest, 0.05 * weakest))
        # the count is where the responses drop most in absolute terms: a glossy highlight
        # sits well below the pips and well above the bare face
        gap = (weakest - rest) / top
        if weak and margin < C.PIP_FAINT_MARGIN:
            continue  # faint blobs make a face only standing far above the rest
        cand = _Pips(k, ok, margin, contrast, (cx, cy), tuple(chosen), light, gap, even)
        if cand.beats(best):
            best = cand
    return best


def _on_bare_point(
    read: _Pips, blobs: list[tuple[float, int, int]], spacing: float
) -> bool:
    """True when a blob left out as a glint sits where the face lacks a pip: the glint may
    hide one, or be read as one on a like die, so the count is doubtful."""
    if read.center is None or not blobs:
        return False
    cx, cy = read.center
    taken = {(round((y - cy) / spacing), round((x - cx) / spacing)) for _, y, x in read.points}
    for _, y, x in blobs:
        r, c = (y - cy) / spacing, (x - cx) / spacing
        if abs(round(r)) <= 1 and abs(round(c)) <= 1 and (round(r), round(c)) not in taken:
            # the glint's mask covers this bare point: its evidence was set aside
            if math.hypot(r - round(r), c - round(c)) <= C.GLINT_MASK_LATTICE:
                return True
    return False


@functools.cache
def _disc(r: int, radius: float) -> np.ndarray:
    """Pixels within ``radius`` of the middle of a (2r + 1)-pixel square (read-only)."""
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    inside = np.hypot(xx, yy) <= radius
    inside.flags.writeable = False
    return inside


def _centroid(img: np.ndarray, x: int, y: int, radius: float) -> tuple[float, float]:
    """Sub-pixel centre of the blob at (x, y): the brightness-weighted mean within
    ``radius`` above the window's 30th percentile."""
    n = img.shape[0]
    r = int(math.ceil(radius))
    y0, y1, x0, x1 = max(y - r, 0), min(y + r + 1, n), max(x - r, 0), min(x + r + 1, n)
    win = img[y0:y1, x0:x1]
    inside = _disc(r, radius)[y0 - y + r : y1 - y + r, x0 - x + r : x1 - x + r]
    w = np.maximum(win - small_stats.percentile(win[inside], 30), 0) * inside  # np.clip's own
    total = float(w.sum())
    if total <= 0:
        return float(x), float(y)
    xs = np.arange(x0, x1)
    ys = np.arange(y0, y1)[:, None]
    return float((w * xs).sum() / total), float((w * ys).sum() / total)


def _lattice_misfit(
    points: tuple[tuple[float, int, int], ...], one_side: np.ndarray, pip_r: float,
    spacing: float,
) -> tuple[float, int]:
    """Fit a square lattice (centre, scale and turn) to the pips' sub-pixel centres; the
    largest residual in lattice units, and which pip it belongs to."""
    xy = [_centroid(one_side, x, y, 1.3 * pip_r) for _, y, x in points]
    sol, res = fit_square_lattice([(x, y) for _, y, x in points], spacing, xy)
    err = np.hypot(res[:, 0], res[:, 1]) / max(float(np.hypot(sol[2], sol[3])), 1e-6)
    worst = int(np.argmax(err))
    return float(err[worst]), worst


@functools.cache
def _core_and_rim(pip_r: float) -> tuple[np.ndarray, np.ndarray]:
    """A blob's core and rim (see ``_flatness``) on a square centred on it (read-only)."""
    half = int(math.ceil(max(1.0, C.GLINT_CORE_FRACTION * pip_r, C.GLINT_RIM_FRACTION[1] * pip_r)))
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1]
    d = np.hypot(yy, xx)
    core = d <= max(1.0, C.GLINT_CORE_FRACTION * pip_r)
    rim = (d >= C.GLINT_RIM_FRACTION[0] * pip_r) & (d <= C.GLINT_RIM_FRACTION[1] * pip_r)
    for a in (core, rim):
        a.flags.writeable = False
    return core, rim


def _flatness(one_side: np.ndarray, y: int, x: int, pip_r: float) -> float:
    """How light a blob stays towards its rim, against its centre: a painted pip is a flat
    disc, a glint fades from a bright point."""
    core_mask, rim_mask = _core_and_rim(pip_r)
    half = core_mask.shape[0] // 2
    n, m = one_side.shape
    y0, y1, x0, x1 = max(y - half, 0), min(y + half + 1, n), max(x - half, 0), min(x + half + 1, m)
    win = one_side[y0:y1, x0:x1]
    cut = (slice(y0 - y + half, y1 - y + half), slice(x0 - x + half, x1 - x + half))
    # the same pixels in the same order as masking the whole patch
    core = win[core_mask[cut]]
    rim = win[rim_mask[cut]]
    c = float(core.mean()) if core.size else 0.0
    return float(rim.mean()) / c if c > 0 and rim.size else 1.0


def _strongest_other(
    read: _Pips, peaks: list[tuple[float, int, int]]
) -> tuple[float, float, float] | None:
    if not read.points:
        return None
    weakest = min(v for v, _, _ in read.points)
    others = [p for p in peaks if p not in read.points]
    if not others or weakest <= 0:
        return None
    v, y, x = max(others)
    return (float(x), float(y), float(v) / weakest)


def _centre_odd(read: _Pips, one_side: np.ndarray, pip_r: float) -> bool:
    """True when the middle pip of a 3 or 5 is unlike the corner pips (much stronger, or
    fading from a point), as a glint over the face's centre would be."""
    cx, cy = read.center or (0.0, 0.0)
    centre = min(read.points, key=lambda p: math.hypot(p[1] - cy, p[2] - cx))
    others = [p for p in read.points if p != centre]
    if not others:
        return False
    if centre[0] > C.GLINT_SUSPECT_RATIO * float(np.median([v for v, _, _ in others])):
        return True
    flat = [_flatness(one_side, y, x, pip_r) for _, y, x in others]
    mine = _flatness(one_side, centre[1], centre[2], pip_r)
    return mine < C.GLINT_FLAT_SHARE * float(np.median(flat))


def _off_shade(bgr: np.ndarray, face: np.ndarray, diff: np.ndarray) -> np.ndarray:
    """Each pixel's colour distance from the face (``diff``, signed by brightness) less
    its part along the face's own colour: what no lighter or darker shade of the face
    explains (grey levels)."""
    u = face / max(float(np.linalg.norm(face)), 1.0)
    along = bgr @ u.astype(np.float32)
    along -= float(face @ u)
    out = diff * diff
    out -= along * along
    np.maximum(out, 0.0, out=out)
    return np.sqrt(out, out=out)


def _paler(cores: list[np.ndarray], sat_face: float) -> bool:
    """True when the pips' cores (their median colour) are less saturated than the face."""
    return bool(cores) and _saturation(small_stats.median_rows(np.array(cores))) < sat_face


def _saturation(bgr: np.ndarray) -> float:
    values = bgr.tolist()
    hi, lo = float(max(values)), float(min(values))
    return (hi - lo) / max(hi, 1.0)


def _same_paint(cores: list[np.ndarray], face: np.ndarray) -> bool:
    """All pips of a die are painted alike; a glossy highlight taken for a pip is the face
    colour lightened, and sits apart from the real pips' colour."""
    pip = small_stats.median_rows(np.array(cores))
    scale = max(small_stats.norm(pip - face), 1.0)
    return all(small_stats.norm(c - pip) <= C.PIP_COLOUR_SPREAD * scale for c in cores)


def _on_layout(
    chosen: list[tuple[float, int, int]], cx: float, cy: float, spacing: float
) -> tuple[float, set[tuple[int, int]] | None]:
    """The lattice spacing and the lattice points the blobs sit on (None if off-lattice)."""
    offs = [(y - cy, x - cx) for _, y, x in chosen]
    s = pip_step([(float(x), float(y)) for _, y, x in chosen], spacing)
    s = min(max(s, C.PIP_SPACING_RANGE[0] * spacing), C.PIP_SPACING_RANGE[1] * spacing)
    cells = set()
    for dy, dx in offs:
        r, c = round(dy / s), round(dx / s)
        if abs(r) > 1 or abs(c) > 1:
            return s, None
        if math.hypot(dy - r * s, dx - c * s) > C.PIP_LAYOUT_TOLERANCE * s:
            return s, None
        cells.add((r, c))
    return s, cells


def _median_colour(patch: np.ndarray, bgr: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``np.median(bgr[mask], axis=0)``, to the last bit; from channel histograms under the
    mask when the patch is 8-bit (no pixels gathered, no sorting)."""
    if patch.dtype != np.uint8 or mask.dtype != np.bool_ or not mask.flags.c_contiguous:
        return np.asarray(np.median(bgr[mask], axis=0))
    m = mask.view(np.uint8)
    cdf = np.stack([cv2.calcHist([patch], [ch], m, [256], [0, 256]).ravel()
                    for ch in range(3)]).cumsum(axis=1)  # counts, exact in float32
    n = int(cdf[0, -1])
    if n == 0:
        return np.asarray(np.median(bgr[mask], axis=0))
    lo = (cdf < (n - 1) // 2 + 1).sum(axis=1).astype(np.float32)  # the middle one or two
    hi = (cdf < n // 2 + 1).sum(axis=1).astype(np.float32)
    return np.asarray((lo + hi) / np.float32(2))
