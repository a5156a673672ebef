"""Things lying on a photographed sheet: a card, a cup, a hand, a pencil.

Two settings keep tuning and measuring apart. ``tuning`` (the cover check's thresholds were
chosen on it) lays plain shapes: a rotated card of any lightness, an ellipse of a hand's
tones, a dark disc. ``heldout`` lays what the tuning never drew: a hand shaded across its
width with a long shadow, a game card in one of three colours, a mug with a rim, and a
pencil (long and thin, which the check is not meant to catch: it shows what is left).
Every random choice comes from the caller's generator.
"""

from __future__ import annotations

import math
from enum import StrEnum

import cv2
import numpy as np


class CoverSetting(StrEnum):
    TUNING = "tuning"
    HELDOUT = "heldout"
    PENCILS = "pencils"  # real-size pencils: tuning for the check's long thin things
    PENS = "pens"  # round pens with a clip and a cap: held out from that tuning


def _lay(img: np.ndarray, mask: np.ndarray, colour: np.ndarray, rng: np.random.Generator,
         shadow: float = 0.35, edge_px: float = 1.5) -> np.ndarray:
    """``colour`` (H x W x 3 or 3) laid over ``img`` where ``mask`` is set, with a soft
    shadow beside it and a little sensor noise on top."""
    h, w = mask.shape
    dx, dy = int(rng.integers(3, 16)), int(rng.integers(3, 16))
    moved = np.zeros_like(mask)
    moved[dy:, dx:] = mask[:h - dy, :w - dx]
    sh = cv2.GaussianBlur(moved, (0, 0), 10).astype(np.float32)[..., None] / 255.0
    soft = cv2.GaussianBlur(mask, (0, 0), edge_px).astype(np.float32)[..., None] / 255.0
    out = img.astype(np.float32) * (1.0 - shadow * sh)
    top = np.broadcast_to(np.asarray(colour, np.float32), img.shape)
    top = top + rng.normal(0.0, 3.0, img.shape).astype(np.float32)
    out = out * (1.0 - soft) + top * soft
    return np.clip(out, 0, 255).astype(np.uint8)


def _across(w: int, h: int, lo: float, hi: float) -> np.ndarray:
    """A lightness ramp across the width (a cover lit from one side)."""
    return np.repeat(np.linspace(lo, hi, w, dtype=np.float32)[None, :, None], h, axis=0)


def _tuning(img: np.ndarray, rng: np.random.Generator) -> tuple[str, np.ndarray]:
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
    kind = str(rng.choice(["card", "hand", "cup"]))
    if kind == "card":
        size = (rng.uniform(0.06, 0.2) * w, rng.uniform(0.08, 0.28) * w)
        box = cv2.boxPoints(((cx, cy), size, rng.uniform(0, 90))).astype(np.int32)
        cv2.fillPoly(mask, [box], 255)
        level = float(rng.choice([rng.uniform(190, 250), rng.uniform(30, 130),
                                  rng.uniform(80, 200)]))
    elif kind == "hand":
        axes = (int(rng.uniform(0.08, 0.2) * w), int(rng.uniform(0.05, 0.12) * w))
        cv2.ellipse(mask, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 255, -1)
        level = rng.uniform(90, 200)
    else:
        cv2.circle(mask, (int(cx), int(cy)), int(rng.uniform(0.04, 0.09) * w), 255, -1)
        level = rng.uniform(20, 120)
    ramp = _across(w, h, rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.1))
    return kind, _lay(img, mask, level * ramp, rng)


def _heldout(img: np.ndarray, rng: np.random.Generator) -> tuple[str, np.ndarray]:
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    x, y = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
    kind = str(rng.choice(["hand", "game card", "mug", "pencil"]))
    if kind == "hand":  # palm and fingers: an ellipse with three stubs, lit from one side
        cv2.ellipse(mask, (int(x), int(y)), (int(0.12 * w), int(0.09 * h)), 20, 0, 360, 255, -1)
        for k in range(3):
            a = math.radians(200 + 25 * k)
            tip = (int(x + 0.2 * w * math.cos(a)), int(y + 0.2 * w * math.sin(a)))
            cv2.line(mask, (int(x), int(y)), tip, 255, int(0.03 * w))
        skin = np.array([120, 150, 205], np.float32)  # BGR
        return kind, _lay(img, mask, skin * _across(w, h, 0.8, 1.05), rng, shadow=0.5)
    if kind == "game card":
        size = (rng.uniform(0.1, 0.16) * w, rng.uniform(0.2, 0.3) * h)
        box = cv2.boxPoints(((x, y), size, rng.uniform(-40, 40))).astype(np.int32)
        cv2.fillPoly(mask, [box], 255)
        colours = [(226, 234, 238), (60, 40, 40), (60, 120, 70)]
        colour = np.array(colours[int(rng.integers(len(colours)))], np.float32)
        return kind, _lay(img, mask, colour, rng, edge_px=1.0)
    if kind == "mug":
        r = int(rng.uniform(0.06, 0.1) * h)
        cv2.circle(mask, (int(x), int(y)), r, 255, -1)
        body = np.full((h, w, 3), (30, 40, 60), np.float32)
        cv2.circle(body, (int(x), int(y)), r, (200, 200, 200), max(2, r // 10))  # the rim
        return kind, _lay(img, mask, body, rng, shadow=0.45)
    length, a = rng.uniform(0.2, 0.4) * w, rng.uniform(0, math.pi)
    p0 = (int(x - length * math.cos(a)), int(y - length * math.sin(a)))
    p1 = (int(x + length * math.cos(a)), int(y + length * math.sin(a)))
    cv2.line(mask, p0, p1, 255, max(3, int(0.009 * w)))
    return kind, _lay(img, mask, np.array([40, 180, 232], np.float32), rng, shadow=0.4,
                      edge_px=1.0)


# BGR body colours: pencils (yellow, red, green, natural wood, black) and pens (black, blue,
# white, translucent grey)
_PENCIL_BODIES = ((30, 190, 240), (40, 40, 200), (60, 140, 40), (140, 180, 215), (40, 40, 40))
_PEN_BODIES = ((35, 35, 35), (150, 60, 20), (235, 235, 235), (170, 175, 180))
_WOOD = (150, 195, 230)
_GRAPHITE = (70, 70, 70)


def _page_to_photo(corners_px: np.ndarray, page_mm: tuple[float, float]) -> np.ndarray:
    w, h = page_mm
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners_px, np.float32))


def _strip(h: np.ndarray, a: np.ndarray, u: np.ndarray, n: np.ndarray, s0: float, s1: float,
           w0: float, w1: float, t0: float = 1.0, t1: float = 1.0) -> np.ndarray:
    """A quad in photo pixels: along the pencil ``u`` from ``s0`` to ``s1`` mm past ``a``,
    across it ``n`` from ``w0`` to ``w1`` mm, the width scaled by ``t0`` .. ``t1`` (a cone)."""
    pts = np.array([a + s0 * u + w0 * t0 * n, a + s1 * u + w0 * t1 * n,
                    a + s1 * u + w1 * t1 * n, a + s0 * u + w1 * t0 * n], np.float32)
    return cv2.perspectiveTransform(pts[None], h)[0].round().astype(np.int32)


def _long_thin(img: np.ndarray, corners_px: np.ndarray, page_mm: tuple[float, float],
               pen: bool, rng: np.random.Generator) -> tuple[str, np.ndarray]:
    """A pencil (hexagonal: three facets seen, a sharpened wooden cone, a graphite tip) or
    a pen (round: a highlight along it, a cap and a clip) of real size on the page."""
    h = _page_to_photo(corners_px, page_mm)
    centre = np.array([rng.uniform(0.1, 0.9) * page_mm[0], rng.uniform(0.1, 0.9) * page_mm[1]])
    angle = rng.uniform(0, math.pi)
    u = np.array([math.cos(angle), math.sin(angle)])
    n = np.array([-u[1], u[0]])
    length = rng.uniform(90, 175) if not pen else rng.uniform(125, 150)
    width = rng.uniform(6.5, 8.0) if not pen else rng.uniform(8.5, 11.0)
    a = centre - u * length / 2
    bodies = _PEN_BODIES if pen else _PENCIL_BODIES
    body = np.array(bodies[int(rng.integers(len(bodies)))], np.float32)
    cone = 0.0 if pen else rng.uniform(14, 22)
    top = np.zeros(img.shape, np.float32)
    mask = np.zeros(img.shape[:2], np.uint8)

    def part(poly: np.ndarray, colour: np.ndarray | tuple[int, ...]) -> None:
        cv2.fillPoly(mask, [poly], 255)
        cv2.fillPoly(top, [poly], tuple(float(c) for c in colour))

    if pen:  # round: darker at the sides, a highlight along the top
        for w0, w1, shade in ((-0.5, -0.3, 0.7), (-0.3, -0.1, 0.95), (-0.1, 0.05, 1.25),
                              (0.05, 0.3, 0.95), (0.3, 0.5, 0.7)):
            part(_strip(h, a, u, n, 0, length, w0 * width, w1 * width),
                 np.clip(body * shade + (40 if shade > 1 else 0), 0, 255))
        cap = rng.uniform(45, 60)  # the cap and its clip, a thin bar beside the axis
        part(_strip(h, a, u, n, 0, cap, -0.55 * width, 0.55 * width), body * 0.85)
        part(_strip(h, a, u, n, 5, cap - 8, -0.15 * width, 0.15 * width), (190, 190, 195))
    else:  # three facets seen of six, the middle one lit
        for w0, w1, shade in ((-0.5, -1 / 6, 0.75), (-1 / 6, 1 / 6, 1.08), (1 / 6, 0.5, 0.6)):
            part(_strip(h, a, u, n, 0, length - cone, w0 * width, w1 * width),
                 np.clip(body * shade, 0, 255))
        part(_strip(h, a, u, n, length - cone, length - 3, -0.5 * width, 0.5 * width,
                    1.0, 0.3), _WOOD)
        part(_strip(h, a, u, n, length - 4, length, -0.15 * width, 0.15 * width,
                    1.0, 0.2), _GRAPHITE)
        if rng.random() < 0.5:  # a metal ferrule and a pink eraser
            part(_strip(h, a, u, n, 0, 10, -0.5 * width, 0.5 * width), (170, 170, 175))
            part(_strip(h, a, u, n, -6, 0, -0.45 * width, 0.45 * width), (150, 140, 230))
    # the parts' colours carried a little past their edge, so the soft edge blends with
    # the pencil's own colour, not with black
    on = mask > 0
    fill = top[on].mean(axis=0) if on.any() else np.zeros(3, np.float32)
    top[~on] = fill
    return ("pen" if pen else "pencil"), _lay(img, mask, top, rng, shadow=0.45, edge_px=1.0)


def lay_cover(img: np.ndarray, setting: CoverSetting, rng: np.random.Generator,
              corners_px: np.ndarray | None = None,
              page_mm: tuple[float, float] = (215.9, 279.4)) -> tuple[str, np.ndarray]:
    """``img`` (BGR) with one thing lying on it, and what that thing is (``corners_px``,
    the page's corners in the photo, TL TR BR BL: the pencils and pens settings draw at
    the page's own scale)."""
    if setting in (CoverSetting.PENCILS, CoverSetting.PENS):
        if corners_px is None:
            raise ValueError("pencils and pens are laid at the page's scale: give its corners")
        return _long_thin(img, corners_px, page_mm, setting is CoverSetting.PENS, rng)
    return (_tuning if setting is CoverSetting.TUNING else _heldout)(img, rng)
