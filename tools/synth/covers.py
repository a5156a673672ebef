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


def lay_cover(img: np.ndarray, setting: CoverSetting, rng: np.random.Generator
              ) -> tuple[str, np.ndarray]:
    """``img`` (BGR) with one thing lying on it, and what that thing is."""
    return (_tuning if setting is CoverSetting.TUNING else _heldout)(img, rng)
