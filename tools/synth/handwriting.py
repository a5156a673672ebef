"""Synthetic handwriting: capital letters and pen marks drawn into image boxes.

Used to train the letter classifier and to fill synthetic sheets. Letters come either from
handwriting fonts (see ``fonts.py``, split into train and held-out families) or from our own
stroke skeletons with jitter, so the code still works where no font is installed. Every
random choice is taken from the caller's generator, so one seed gives one picture.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence
from enum import StrEnum

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from tools.synth import real_hands
from tools.synth.fonts import FontSplit, font_families

PxBox = tuple[int, int, int, int]  # x, y, w, h in pixels (paper.model.PxBox is in mm)
Points = NDArray[np.float64]  # (n, 2) x, y
Mask = NDArray[np.float32]  # alpha in [0, 1]

SUPERSAMPLE = 4  # strokes are drawn at this multiple and area-averaged down
FONT_RENDER_PX = 160  # font size (px) used for the high-resolution glyph mask
LETTER_SIZE_FRACTION = (0.5, 0.9)  # glyph's larger extent relative to the box
SLANT_DEG = (-14.0, 20.0)  # positive leans right, as most hands do
ROTATION_DEG = 7.0  # +- extra rotation
STROKE_REL = (0.06, 0.14)  # stroke letters: pen width / glyph height
MARK_STROKE_REL = (0.035, 0.08)  # marks: pen width / smaller box side
# Real pen trajectories (real_hands): drawn with a pen model of our own.
REAL_SIZE_FRACTION = (0.45, 1.0)  # up to touching the box's edge
REAL_SLANT_DEG = (-10.0, 12.0)  # on top of the writer's own slant
REAL_PEN_REL = (0.045, 0.15)  # pen width / letter height: fine ballpoint to felt marker
REAL_PRESSURE = (0.55, 1.0)  # per stroke; width follows pressure
REAL_TAPER_CHANCE = 0.5  # strokes thinning at their ends (a ballpoint's lift-off)
REAL_WARP = 0.03  # smooth displacement of the trajectory (sd, in letter heights)
# Small letters a font may draw for their capital: many people write their G as a g (like
# a 9). Stroke letters draw the capital.
LOWER_FORMS = frozenset("g")


class FontSet(StrEnum):
    TRAIN = "train"
    HELDOUT = "heldout"
    STROKES = "strokes"
    ALL = "all"


class MarkKind(StrEnum):
    CHECK = "check"
    CROSS = "cross"
    CIRCLE = "circle"
    FILL = "fill"
    SCRIBBLE = "scribble"
    SMUDGE = "smudge"


# ---------------------------------------------------------------- stroke skeletons


def _line(*pts: tuple[float, float]) -> Points:
    return np.array(pts, dtype=np.float64)


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float) -> Points:
    """Elliptic arc, angles in degrees with y pointing down (90 = bottom)."""
    n = max(4, int(abs(a1 - a0) / 8))
    t = np.radians(np.linspace(a0, a1, n))
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def _join(*parts: Points) -> Points:
    return np.concatenate(parts, axis=0)


# Each builder draws one random hand's version of a letter: shape parameters (bowl sizes,
# bar lengths, openings, leg spread) are drawn continuously, not picked from a few variants.
Skeleton = list[Points]
U = Callable[[float, float], float]


def _b(u: U, pick: Callable[[int], int]) -> Skeleton:
    mid = u(0.4, 0.56)
    top_w, low_w = u(0.55, 0.85), 0.0
    low_w = top_w * u(1.0, 1.3)
    flat = u(0.0, 0.5)  # straight part of each bowl, as a fraction of its width
    stem = _line((0, 0), (0, 1))
    r_top, r_low = top_w * (1 - flat), low_w * (1 - flat)
    upper = _join(_line((0, 0), (top_w - r_top, 0)),
                  _arc(top_w - r_top, mid / 2, r_top, mid / 2, -90, 90),
                  _line((top_w - r_top, mid), (0, mid)))
    lower = _join(_line((0, mid), (low_w - r_low, mid)),
                  _arc(low_w - r_low, (1 + mid) / 2, r_low, (1 - mid) / 2, -90, 90),
                  _line((low_w - r_low, 1.0), (0, 1.0)))
    if pick(3) == 0:  # one stroke: down the stem, back up, both bowls
        return [_join(stem[::-1], upper, lower)]
    return [stem, upper, lower]


def _c(u: U, pick: Callable[[int], int]) -> Skeleton:
    return [_arc(0.5, 0.5, 0.5, 0.5, u(-20, -65), u(-295, -340))]


def _f(u: U, pick: Callable[[int], int]) -> Skeleton:
    top, bar_y, bar = u(0.55, 1.0), u(0.38, 0.56), u(0.4, 0.85)
    lead = u(-0.12, 0.05)  # bars may start a little left of the stem
    bar_line = _line((lead, bar_y), (bar, bar_y + u(-0.04, 0.04)))
    if pick(2) == 0:
        return [_line((top, u(-0.05, 0.05)), (0, 0), (0, 1)), bar_line]
    return [_line((0, 0), (0, 1)), _line((lead, 0), (top, u(-0.05, 0.05))), bar_line]


def _g(u: U, pick: Callable[[int], int]) -> Skeleton:
    start = u(-25, -60)
    style = pick(3)
    bar_y = u(0.5, 0.65)
    if style == 0:  # arc runs into an inward bar
        end = u(-355, -375)
        arc = _arc(0.5, 0.5, 0.5, 0.5, start, end)
        return [_join(arc, _line(tuple(arc[-1]), (u(0.45, 0.7), bar_y)))]
    arc = _arc(0.5, 0.5, 0.5, 0.5, start, u(-330, -350))
    bar = _line((u(0.4, 0.65), bar_y), (1.0, bar_y))
    if style == 1:  # bar and a spur down to the bowl
        return [arc, _join(bar, _line((1.0, bar_y), (1.0, u(0.95, 1.1))))]
    return [arc, bar]


def _l(u: U, pick: Callable[[int], int]) -> Skeleton:
    return [_line((0, 0), (0, 1), (u(0.55, 0.95), 1 + u(-0.06, 0.03)))]


def _m(u: U, pick: Callable[[int], int]) -> Skeleton:
    splay, valley, vx = u(0.0, 0.18), u(0.45, 1.0), u(0.42, 0.58)
    left_top, right_top = (splay, 0), (1 - splay * u(0.5, 1.5), u(-0.03, 0.05))
    pts = [(0, 1), left_top, (vx, valley), right_top, (1, 1)]
    if pick(3) == 0:  # left leg drawn on its own
        return [_line(*pts[:2]), _line(*pts[1:])]
    return [_line(*pts)]


def _o(u: U, pick: Callable[[int], int]) -> Skeleton:
    a0 = u(-130, 60)
    sweep = u(345, 400) * (1 if pick(2) else -1)
    return [_arc(0.5, 0.5, 0.5, 0.5, a0, a0 + sweep)]


def _p(u: U, pick: Callable[[int], int]) -> Skeleton:
    bowl_h, bowl_w, flat = u(0.4, 0.62), u(0.6, 1.0), u(0.0, 0.5)
    r = bowl_w * (1 - flat)
    bowl = _join(_line((0, 0), (bowl_w - r, 0)), _arc(bowl_w - r, bowl_h / 2, r, bowl_h / 2,
                                                         -90, 90),
                 _line((bowl_w - r, bowl_h), (u(-0.05, 0.05), bowl_h)))
    stem = _line((0, 0), (0, 1))
    if pick(3) == 0:
        return [_join(stem[::-1], bowl)]
    return [stem, bowl]


def _s(u: U, pick: Callable[[int], int]) -> Skeleton:
    mid = u(0.42, 0.55)
    top_w = u(0.8, 1.0)
    upper = _arc(0.5, mid / 2, 0.5 * top_w, mid / 2, u(-5, -45), -270)
    lower = _arc(0.5, (1 + mid) / 2, 0.5, (1 - mid) / 2, -90, u(140, 195))
    return [_join(upper, lower)]


def _w(u: U, pick: Callable[[int], int]) -> Skeleton:
    mid, x1, x3 = u(0.0, 0.6), u(0.18, 0.3), u(0.7, 0.82)
    if pick(4) == 0:  # two crossing Vs
        return [_line((0, 0), (x1, 1), (0.58, u(0.0, 0.3))),
                _line((0.42, u(0.0, 0.3)), (x3, 1), (1, 0))]
    return [_line((0, 0), (x1, 1), (u(0.45, 0.55), mid), (x3, 1), (1, u(-0.05, 0.05)))]


# Letter -> (skeleton builder, width / height)
STROKE_LETTERS: dict[str, tuple[Callable[[U, Callable[[int], int]], Skeleton], float]] = {
    "B": (_b, 1.0), "C": (_c, 0.8), "F": (_f, 0.75), "G": (_g, 0.85), "L": (_l, 0.8),
    "M": (_m, 0.9), "O": (_o, 0.75), "P": (_p, 0.8), "S": (_s, 0.65), "W": (_w, 1.1),
}


def _wobble(pts: Points, rng: np.random.Generator, amount: float) -> Points:
    """Resample a polyline densely and bend it with smooth low-frequency noise."""
    # independent jitter only on sparse control points: on dense arcs it would look jagged
    if len(pts) <= 8:
        pts = pts + rng.normal(0.0, amount, pts.shape)
    else:
        pts = pts + rng.normal(0.0, amount, (1, 2))
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    length = float(seg.sum())
    if length < 1e-9:
        return pts
    s = np.concatenate([[0.0], np.cumsum(seg)])
    n = max(2, int(length / 0.015))
    t = np.linspace(0.0, length, n)
    dense = np.stack([np.interp(t, s, pts[:, 0]), np.interp(t, s, pts[:, 1])], axis=1)
    for _ in range(2):
        freq = rng.uniform(0.5, 2.0)
        phase = rng.uniform(0, 2 * math.pi, 2)
        amp = rng.normal(0.0, amount * 0.6, 2)
        dense += amp * np.sin(2 * math.pi * freq * t[:, None] / max(length, 1e-9) + phase)
    return dense


def stroke_skeleton(letter: str, rng: np.random.Generator) -> list[Points]:
    """One jittered stroke drawing of ``letter`` in glyph units (height 1, y down)."""
    builder, width = STROKE_LETTERS[letter]

    def u(lo: float, hi: float) -> float:
        return lo + (hi - lo) * float(rng.random())

    def pick(n: int) -> int:
        return int(rng.integers(n))

    strokes = builder(u, pick)
    wscale = width * rng.uniform(0.75, 1.25)
    jitter = rng.uniform(0.01, 0.035)
    out = []
    for st in strokes:
        scaled = st * np.array([wscale, 1.0])
        out.append(_wobble(scaled, rng, jitter))
    return out


# ---------------------------------------------------------------- rendering helpers


def _draw_polylines(strokes: Sequence[Points], size: tuple[int, int], width_px: float,
                    fill: bool = False) -> Mask:
    """Antialiased alpha mask (h, w) of polylines given in pixel coordinates."""
    w, h = size
    ss = SUPERSAMPLE
    canvas = np.zeros((h * ss, w * ss), np.uint8)
    thick = max(1, int(round(width_px * ss)))
    for st in strokes:
        pts = np.round(st * ss * 16).astype(np.int32).reshape(-1, 1, 2)
        if fill:
            cv2.fillPoly(canvas, [pts], 255, cv2.LINE_AA, shift=4)
        cv2.polylines(canvas, [pts], False, 255, thick, cv2.LINE_AA, shift=4)
    small = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


@functools.lru_cache(maxsize=64)
def _load_font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, FONT_RENDER_PX)


@functools.lru_cache(maxsize=1024)
def _font_glyph(path: str, letter: str) -> NDArray[np.uint8]:
    """High-resolution glyph mask cropped to its ink (read-only, cached)."""
    font = _load_font(path)
    side = FONT_RENDER_PX * 2
    im = Image.new("L", (side, side), 0)
    ImageDraw.Draw(im).text((side // 4, side // 6), letter, fill=255, font=font)
    arr = np.asarray(im)
    ys, xs = np.nonzero(arr > 40)
    if len(xs) == 0:
        raise ValueError(f"font {path} has no glyph for {letter!r}")
    pad = 8
    crop = arr[max(0, ys.min() - pad): ys.max() + pad + 1,
               max(0, xs.min() - pad): xs.max() + pad + 1].copy()
    crop.setflags(write=False)
    return crop


def _placement(src_w: float, src_h: float, box_w: int, box_h: int,
               rng: np.random.Generator,
               size: tuple[float, float] = LETTER_SIZE_FRACTION,
               slant_deg: tuple[float, float] = SLANT_DEG) -> NDArray[np.float64]:
    """2x3 affine from a glyph of src size (origin top-left) into a box: size, slant,
    rotation and offset chosen at random, the whole glyph kept inside the box."""
    slant = math.tan(math.radians(rng.uniform(*slant_deg)))
    rot = math.radians(rng.uniform(-ROTATION_DEG, ROTATION_DEG))
    aspect = rng.uniform(0.85, 1.15)
    c, s = math.cos(rot), math.sin(rot)
    # centre, anisotropic scale, shear (top leans right), rotate
    lin = np.array([[c, -s], [s, c]]) @ np.array([[1.0, -slant], [0.0, 1.0]]) @ np.diag(
        [aspect, 1.0])
    corners = np.array([[0, 0], [src_w, 0], [0, src_h], [src_w, src_h]], np.float64)
    corners -= [src_w / 2, src_h / 2]
    tc = corners @ lin.T
    ext_w = float(tc[:, 0].max() - tc[:, 0].min())
    ext_h = float(tc[:, 1].max() - tc[:, 1].min())
    frac = rng.uniform(*size)
    scale = frac / max(ext_w / box_w, ext_h / box_h)
    free_x = max(0.0, box_w - ext_w * scale - 2)
    free_y = max(0.0, box_h - ext_h * scale - 2)
    cx = 1 + ext_w * scale / 2 + free_x * float(np.clip(rng.normal(0.5, 0.18), 0, 1))
    cy = 1 + ext_h * scale / 2 + free_y * float(np.clip(rng.normal(0.5, 0.18), 0, 1))
    a = lin * scale
    t = np.array([cx, cy]) - a @ np.array([src_w / 2, src_h / 2])
    return np.hstack([a, t[:, None]])


def _pressure_field(h: int, w: int, rng: np.random.Generator, low: float) -> Mask:
    grid = rng.uniform(low, 1.0, (3, 3)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _ink(img: NDArray[np.uint8], box: PxBox, alpha: Mask, rng: np.random.Generator,
         kind: str | None = None) -> None:
    """Composite ink of a random pen or pencil through ``alpha`` into the box, in place."""
    x, y, w, h = box
    kind = kind or str(rng.choice(["pen-black", "pen-blue", "pencil", "marker"],
                                  p=[0.35, 0.25, 0.3, 0.1]))
    if kind == "pencil":
        grey = rng.uniform(45, 95)
        colour = np.array([grey, grey, grey])
        dark = rng.uniform(0.55, 0.9)
        grain = 1.0 - rng.uniform(0.15, 0.4) * rng.random(alpha.shape).astype(np.float32)
        alpha = alpha * cv2.GaussianBlur(grain, (0, 0), 0.7)
    elif kind == "pen-blue":
        colour = np.array([rng.uniform(110, 170), rng.uniform(40, 80), rng.uniform(10, 40)])
        dark = rng.uniform(0.8, 1.0)
    elif kind == "grey":  # smudges
        g = rng.uniform(90, 150)
        colour = np.array([g, g, g])
        dark = 1.0
    else:
        g = rng.uniform(10, 45)
        colour = np.array([g, g, g])
        dark = rng.uniform(0.85, 1.0)
    alpha = alpha * dark * _pressure_field(h, w, rng, 0.7)
    # clip the box to the image
    ih, iw = img.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(iw, x + w), min(ih, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - y: y1 - y, x0 - x: x1 - x]
    region = img[y0:y1, x0:x1].astype(np.float32)
    if img.ndim == 2:
        lum = float(0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2])
        out = region * (1 - a) + lum * a
    else:
        out = region * (1 - a[..., None]) + colour[None, None, :] * a[..., None]
    img[y0:y1, x0:x1] = np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _check_args(img: np.ndarray, box_px: PxBox) -> None:
    if img.dtype != np.uint8 or img.ndim not in (2, 3):
        raise ValueError("image must be uint8 grayscale (h, w) or BGR (h, w, 3)")
    if box_px[2] < 4 or box_px[3] < 4:
        raise ValueError(f"box {box_px} is too small to write in")


# ---------------------------------------------------------------- letters


def _sources(fonts: FontSet, families: Sequence[str] | None = None,
             ) -> list[tuple[str, tuple[str, ...]]]:
    """Candidate families: (name, font paths); ``strokes`` has no paths."""
    strokes: list[tuple[str, tuple[str, ...]]] = [("strokes", ())]
    if fonts is FontSet.STROKES:
        return strokes
    splits = [FontSplit.TRAIN, FontSplit.HELDOUT] if fonts is FontSet.ALL else [
        FontSplit(fonts.value)]
    fams = [fam for sp in splits for fam in font_families(sp)
            if families is None or fam[0] in families]
    if not fams:
        warnings.warn(f"no {fonts.value} handwriting fonts installed; drawing stroke letters "
                      "only (see tools/fonts.txt)", RuntimeWarning, stacklevel=3)
        return strokes
    return fams + strokes if fonts is FontSet.ALL else fams


def letter_alpha(box_w: int, box_h: int, letter: str, rng: np.random.Generator,
                 fonts: FontSet | str = FontSet.HELDOUT,
                 families: Sequence[str] | None = None, warp: float = 0.0,
                 writer: str | None = None,
                 strokes: Sequence[Points] | None = None) -> Mask:
    """Alpha mask (h, w) of one handwritten capital placed at random in a w x h box.

    ``families`` narrows the font set to those family names (training uses it to keep
    calibration families apart); ``warp`` > 0 bends the glyph elastically by about that
    fraction of the box (training uses it to make new hands from the fonts it has).
    ``fonts`` may also name a part of the real writers (``real-train``, ``real-calib``,
    ``real-test``), optionally one ``writer`` of it; ``strokes`` draws that very trajectory.
    """
    if strokes is not None:
        return real_letter_alpha(box_w, box_h, strokes, rng, warp)
    if str(fonts) in {r.value for r in real_hands.RealSplit}:
        sample = real_hands.pick(letter, rng, str(fonts), writer)
        return real_letter_alpha(box_w, box_h, sample.strokes, rng, warp)
    alpha = _letter_alpha(box_w, box_h, letter, rng, FontSet(fonts), families)
    if warp > 0:
        alpha = _elastic(alpha, rng, warp)
    return alpha


def warp_points(strokes: Sequence[Points], rng: np.random.Generator, amount: float
                 ) -> list[Points]:
    """Bend a trajectory smoothly: a random displacement field over the letter's box."""
    allp = np.concatenate(strokes)
    lo = allp.min(axis=0)
    span = np.maximum(allp.max(axis=0) - lo, 1e-6)
    grid = rng.normal(0.0, amount, (2, 3, 3))
    out = []
    for st in strokes:
        u = (st - lo) / span * 2.0  # 0..2 across the 3x3 control grid
        i = np.clip(u.astype(int), 0, 1)
        f = u - i
        d = np.zeros_like(st)
        for k in range(2):
            g = grid[k]
            a = g[i[:, 1], i[:, 0]] * (1 - f[:, 0]) + g[i[:, 1], i[:, 0] + 1] * f[:, 0]
            b = g[i[:, 1] + 1, i[:, 0]] * (1 - f[:, 0]) + g[i[:, 1] + 1, i[:, 0] + 1] * f[:, 0]
            d[:, k] = a * (1 - f[:, 1]) + b * f[:, 1]
        out.append(st + d)
    return out


def _resample(st: Points, step: float) -> Points:
    """Points every ``step`` along a polyline (a single point stays one point)."""
    seg = np.linalg.norm(np.diff(st, axis=0), axis=1)
    length = float(seg.sum())
    if len(st) < 2 or length < 1e-9:
        return st[:1]
    s = np.concatenate([[0.0], np.cumsum(seg)])
    t = np.linspace(0.0, length, max(2, int(math.ceil(length / step)) + 1))
    return np.stack([np.interp(t, s, st[:, 0]), np.interp(t, s, st[:, 1])], axis=1)


def _draw_pen(strokes: Sequence[Points], size: tuple[int, int], width_px: float,
              rng: np.random.Generator) -> Mask:
    """Antialiased mask of pen strokes (pixel coordinates) whose width follows a pressure
    that changes along each stroke and, for some pens, thins where the pen lands and lifts."""
    w, h = size
    ss = SUPERSAMPLE
    canvas = np.zeros((h * ss, w * ss), np.uint8)
    taper = rng.random() < REAL_TAPER_CHANCE
    for st in strokes:
        pts = _resample(st, max(0.35, width_px * 0.25))
        n = len(pts)
        base = rng.uniform(*REAL_PRESSURE)
        t = np.linspace(0.0, 1.0, n)
        wave = 1.0 + 0.15 * np.sin(2 * math.pi * (rng.uniform(0.3, 1.5) * t + rng.random()))
        press = base * wave
        if taper and n > 4:
            ramp = np.minimum(1.0, np.minimum(t, 1 - t) * rng.uniform(4.0, 10.0) + 0.35)
            press = press * ramp
        radius = np.maximum(0.5, width_px * (0.55 + 0.45 * press) / 2.0) * ss
        centres = np.round(pts * ss * 16).astype(np.int32)
        for (cx, cy), r in zip(centres, radius, strict=True):
            cv2.circle(canvas, (int(cx), int(cy)), int(round(r * 16)), 255, -1, cv2.LINE_AA,
                       shift=4)
    small = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def pen_alpha(strokes: Sequence[Points], size: tuple[int, int], width_px: float,
              rng: np.random.Generator) -> Mask:
    """Antialiased mask (h, w) of strokes in pixel coordinates, drawn with the pen model of
    real trajectories (pressure along each stroke): also what draws sketches."""
    return _draw_pen(strokes, size, width_px, rng)


def real_letter_alpha(box_w: int, box_h: int, strokes: Sequence[Points],
                      rng: np.random.Generator, warp: float = 0.0) -> Mask:
    """Alpha mask (h, w) of a real pen trajectory (letter 1 high, y down) drawn into a box:
    a random pen width and pressure, extra slant and rotation, any size up to touching
    the box's edge and any position in it. ``warp`` adds a smooth bend (letter heights)."""
    pts = [np.asarray(st, np.float64) for st in strokes]
    if warp > 0:
        pts = warp_points(pts, rng, warp)
    allp = np.concatenate(pts)
    lo = allp.min(axis=0)
    src_w, src_h = allp.max(axis=0) - lo
    pen_rel = rng.uniform(*REAL_PEN_REL)
    # the pen's width is part of the letter's extent: keep it inside the box too
    pad = pen_rel * max(src_h, 0.05) / 2
    m = _placement(max(src_w, 0.05) + 2 * pad, max(src_h, 0.05) + 2 * pad, box_w, box_h, rng,
                   REAL_SIZE_FRACTION, REAL_SLANT_DEG)
    px = [(st - lo + pad) @ m[:, :2].T + m[:, 2] for st in pts]
    glyph_h = float(np.linalg.norm(m[:, :2] @ np.array([0.0, max(src_h, 0.05)])))
    return _draw_pen(px, (box_w, box_h), max(glyph_h * pen_rel, 0.8), rng)


def _elastic(alpha: Mask, rng: np.random.Generator, amount: float) -> Mask:
    h, w = alpha.shape
    grid = rng.normal(0.0, amount * min(h, w), (2, 3, 3)).astype(np.float32)
    dx = cv2.resize(grid[0], (w, h), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(grid[1], (w, h), interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = cv2.remap(alpha, xx + dx, yy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=0)
    return np.asarray(out, np.float32)


def _letter_alpha(box_w: int, box_h: int, letter: str, rng: np.random.Generator,
                  fset: FontSet, families: Sequence[str] | None) -> Mask:
    sources = _sources(fset, families)
    name, paths = sources[int(rng.integers(len(sources)))]
    if letter not in LOWER_FORMS or not paths:
        letter = letter.upper()
    if not paths:
        if letter not in STROKE_LETTERS:
            raise ValueError(f"no stroke drawing for letter {letter!r}")
        strokes = stroke_skeleton(letter, rng)
        allp = np.concatenate(strokes)
        lo = allp.min(axis=0)
        src_w, src_h = allp.max(axis=0) - lo
        m = _placement(max(src_w, 0.05), max(src_h, 0.05), box_w, box_h, rng)
        px = [(st - lo) @ m[:, :2].T + m[:, 2] for st in strokes]
        glyph_h = float(np.linalg.norm(m[:, :2] @ np.array([0.0, 1.0])))
        width = glyph_h * rng.uniform(*STROKE_REL)
        return _draw_polylines(px, (box_w, box_h), max(width, 0.8))
    path = paths[int(rng.integers(len(paths)))]
    glyph: np.ndarray = _font_glyph(path, letter).astype(np.float32) / 255.0
    # stroke weight: thin or thicken the high-resolution glyph a little
    k = int(rng.integers(-2, 4))
    if k:
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(k) + 1, 2 * abs(k) + 1))
        glyph = (cv2.dilate(glyph, ker) if k > 0 else cv2.erode(glyph, ker))
    gh, gw = glyph.shape
    m = _placement(gw, gh, box_w, box_h, rng)
    scale = math.sqrt(abs(np.linalg.det(m[:, :2])))
    if scale < 1:
        glyph = cv2.GaussianBlur(glyph, (0, 0), 0.45 / scale)
    out = cv2.warpAffine(glyph, m.astype(np.float32), (box_w, box_h), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.asarray(out.clip(0, 1), np.float32)


def draw_letter(img: np.ndarray, box_px: PxBox, letter: str, rng: np.random.Generator,
                fonts: str = "heldout", *, families: Sequence[str] | None = None,
                warp: float = 0.0, writer: str | None = None,
                strokes: Sequence[Points] | None = None) -> None:
    """Write one handwritten capital into ``box_px`` (x, y, w, h) of ``img``, in place.

    ``fonts`` is ``train``, ``heldout`` (never used for training), ``strokes`` or ``all``,
    or a part of the real writers (``real-train``, ``real-calib``, ``real-test``).
    """
    _check_args(img, box_px)
    x, y, w, h = box_px
    alpha = letter_alpha(w, h, letter, rng, fonts, families, warp, writer, strokes)
    peak = float(alpha.max())
    if 0.0 < peak < 1.0:  # a line thinner than a pixel still has a fully inked centre
        alpha = alpha / peak
    _ink(img, box_px, alpha, rng)


# ---------------------------------------------------------------- marks


def _mark_strokes(kind: MarkKind, rng: np.random.Generator) -> tuple[list[Points], bool]:
    """Strokes in unit box coordinates and whether they are filled shapes."""
    j = rng.uniform(0.01, 0.03)
    if kind is MarkKind.CHECK:
        a = np.array([rng.uniform(0.05, 0.2), rng.uniform(0.45, 0.6)])
        b = np.array([rng.uniform(0.3, 0.45), rng.uniform(0.8, 0.95)])
        c = np.array([rng.uniform(0.8, 0.95), rng.uniform(0.05, 0.2)])
        return [_wobble(np.array([a, b, c]), rng, j)], False
    if kind is MarkKind.CROSS:
        lo, hi = rng.uniform(0.05, 0.2, 4), rng.uniform(0.8, 0.95, 4)
        s1 = _line((lo[0], lo[1]), (hi[0], hi[1]))
        s2 = _line((hi[2], lo[2]), (lo[3], hi[3]))
        return [_wobble(s1, rng, j), _wobble(s2, rng, j)], False
    if kind is MarkKind.CIRCLE:
        a0 = rng.uniform(-180, 180)
        sweep = rng.uniform(340, 420) * rng.choice([-1, 1])
        arc = _arc(0.5, 0.5, rng.uniform(0.4, 0.46), rng.uniform(0.4, 0.46), a0, a0 + sweep)
        return [_wobble(arc, rng, j * 0.7)], False
    if kind is MarkKind.FILL:
        r = rng.uniform(0.22, 0.38)
        blob = _arc(0.5, 0.5, r * rng.uniform(0.85, 1.15), r, 0, 360)
        return [_wobble(blob, rng, j * 0.5)], True
    # scribble and smudge: a random wandering curve
    n = int(rng.integers(3, 7))
    pts = rng.uniform(0.15, 0.85, (n, 2))
    return [_wobble(pts, rng, j)], False


def draw_mark(img: np.ndarray, box_px: PxBox, kind: str, rng: np.random.Generator) -> None:
    """Draw a pen mark into ``box_px`` of ``img`` in place.

    Kinds: check, cross, circle (around the box's content), fill (a filled-in dot),
    scribble (a stray mark) and smudge (a half-erased grey blur).
    """
    _check_args(img, box_px)
    mk = MarkKind(kind)
    x, y, w, h = box_px
    strokes, filled = _mark_strokes(mk, rng)
    if mk is not MarkKind.CIRCLE:  # circles hug the box, the rest wander a little
        sc = rng.uniform(0.75, 1.0)
        off = (1 - sc) * rng.random(2)
        strokes = [st * sc + off for st in strokes]
    px = [np.clip(st, 0.02, 0.98) * np.array([w, h]) for st in strokes]
    width = max(1.0, min(w, h) * rng.uniform(*MARK_STROKE_REL))
    alpha: np.ndarray = _draw_polylines(px, (w, h), width, fill=filled)
    if mk is MarkKind.SMUDGE:
        alpha = cv2.GaussianBlur(alpha, (0, 0), max(1.0, min(w, h) * 0.04))
        alpha = alpha * rng.uniform(0.25, 0.5) * _pressure_field(h, w, rng, 0.2)
        _ink(img, box_px, np.asarray(alpha, np.float32), rng, kind="grey")
        return
    _ink(img, box_px, alpha, rng)


# ---------------------------------------------------------------- reader-like crops

CROP_PX_PER_MM = (6.5, 10.5)  # rectified resolution range the reader may hand us
CROP_CELL_MM = (5.0, 11.0)  # side of a cell's writing area (Delicious: 5.3-10.6)
# Detail the photo itself had at the cell (px/mm): a sheet filling a third of a 12 MP frame,
# tilted, gives ~3; the reader then scales the photo up to its rectified resolution.
CROP_PHOTO_PX_PER_MM = (2.8, 11.0)
CROP_LENS_BLUR_PX = (0.0, 2.0)  # Gaussian sigma in photo pixels
CROP_MOTION_CHANCE = 0.15
CROP_MOTION_PX = (1.5, 5.0)  # motion streak length in photo pixels
CROP_NOISE_SIGMA = (1.0, 7.0)  # grey levels, added in photo pixels
CROP_JPEG_QUALITY = (35, 96)
# Faint writing (light pencil, a dim corner of the photo): this share of crops keeps only a
# fraction of its ink contrast.
CROP_FAINT_CHANCE = 0.3
CROP_FAINT_CONTRAST = (0.35, 1.0)


def letter_cell_crop(letter: str, rng: np.random.Generator, fonts: str = "heldout",
                     px_per_mm: float | None = None, *,
                     families: Sequence[str] | None = None,
                     warp: float = 0.0,
                     photo_px_per_mm: float | None = None,
                     writer: str | None = None,
                     strokes: Sequence[Points] | None = None,
                     sketch: Callable[[int, int, np.random.Generator], Mask] | None = None
                     ) -> NDArray[np.uint8]:
    """A grey crop of one written cell as the photo reader would cut it out (``sketch``:
    a drawing's alpha in the cell's box instead of the letter).

    Paper tint and leftover light gradient, bits of the printed cell border at the edges,
    sometimes a stray mark or smudge; then the camera (blur, sensor, noise and JPEG at the
    photo's own, often lower, resolution) and the reader's bilinear rectification back up to
    ``px_per_mm``. Used to train the letter classifier and to benchmark it.
    """
    ppm = px_per_mm if px_per_mm is not None else rng.uniform(*CROP_PX_PER_MM)
    photo_ppm = (photo_px_per_mm if photo_px_per_mm is not None
                 else rng.uniform(*CROP_PHOTO_PX_PER_MM))
    side = rng.uniform(*CROP_CELL_MM)
    w = max(16, int(round(side * rng.uniform(0.85, 1.2) * ppm)))
    h = max(16, int(round(side * ppm)))
    paper = rng.uniform(185, 250)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2) / max(w, h)
    light = 1.0 + gx * (xx - w / 2) + gy * (yy - h / 2)
    bg = np.clip(paper * light, 0, 255)
    img = cv2.cvtColor(bg.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    # printed cell border lines poking in at the edges (the reader crops just inside them)
    if rng.random() < 0.4:
        g = float(rng.uniform(40, 170))
        t = int(rng.integers(1, 5))
        for side_i in range(4):
            if rng.random() < 0.5:
                continue
            off = rng.uniform(-3, 4, 2)
            if side_i == 0:
                p0, p1 = (0, off[0]), (w, off[1])
            elif side_i == 1:
                p0, p1 = (0, h - 1 - off[0]), (w, h - 1 - off[1])
            elif side_i == 2:
                p0, p1 = (off[0], 0), (off[1], h)
            else:
                p0, p1 = (w - 1 - off[0], 0), (w - 1 - off[1], h)
            a = np.round(np.array([p0, p1]) * 16).astype(np.int32)
            cv2.line(img, tuple(a[0].tolist()), tuple(a[1].tolist()), (g, g, g), t,
                     cv2.LINE_AA, shift=4)
    # the letter, in a box inset from the cell edge
    mx = int(round(w * rng.uniform(0.02, 0.12)))
    my = int(round(h * rng.uniform(0.02, 0.12)))
    if sketch is not None:
        _ink(img, (mx, my, w - 2 * mx, h - 2 * my), sketch(w - 2 * mx, h - 2 * my, rng), rng)
    else:
        draw_letter(img, (mx, my, w - 2 * mx, h - 2 * my), letter, rng, fonts=fonts,
                    families=families, warp=warp, writer=writer, strokes=strokes)
    if rng.random() < 0.12:
        bw, bh = int(w * rng.uniform(0.15, 0.35)), int(h * rng.uniform(0.15, 0.35))
        bx, by = int(rng.integers(0, w - bw)), int(rng.integers(0, h - bh))
        draw_mark(img, (bx, by, bw, bh), str(rng.choice(["scribble", "smudge", "smudge"])),
                  rng)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if rng.random() < CROP_FAINT_CHANCE:
        gray = bg - (bg - gray) * rng.uniform(*CROP_FAINT_CONTRAST)
    return _camera_and_rectify(gray, ppm, photo_ppm, rng)


def _camera_and_rectify(gray: NDArray[np.float32], ppm: float, photo_ppm: float,
                        rng: np.random.Generator) -> NDArray[np.uint8]:
    """Photograph a crop drawn at ``ppm`` with ``photo_ppm`` of detail, then scale it back
    up bilinearly, as the reader's perspective warp does."""
    h, w = gray.shape
    f = min(1.0, photo_ppm / ppm)
    sigma = rng.uniform(*CROP_LENS_BLUR_PX) / f  # in drawing pixels
    if sigma > 0.3:
        gray = np.asarray(cv2.GaussianBlur(gray, (0, 0), sigma), np.float32)
    if rng.random() < CROP_MOTION_CHANCE:
        n = max(2, int(round(rng.uniform(*CROP_MOTION_PX) / f)))
        k = n | 1
        line = np.zeros((k, k), np.float32)
        line[k // 2, :] = 1.0
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)),
                                      1.0)
        streak = np.asarray(cv2.warpAffine(line, rot, (k, k)), np.float32)
        streak /= max(float(streak.sum()), 1e-6)
        gray = np.asarray(cv2.filter2D(gray, -1, streak), np.float32)
    sw, sh = max(6, int(round(w * f))), max(6, int(round(h * f)))
    small = cv2.resize(gray, (sw, sh), interpolation=cv2.INTER_AREA)
    noisy = small + rng.normal(0, rng.uniform(*CROP_NOISE_SIGMA), small.shape)
    shot = np.clip(noisy + 0.5, 0, 255).astype(np.uint8)
    quality = int(rng.integers(CROP_JPEG_QUALITY[0], CROP_JPEG_QUALITY[1] + 1))
    ok, enc = cv2.imencode(".jpg", shot, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        shot = cv2.imdecode(enc, cv2.IMREAD_GRAYSCALE)
    out = cv2.resize(shot, (w, h), interpolation=cv2.INTER_LINEAR) if f < 1.0 else shot
    return np.asarray(out, np.uint8)
