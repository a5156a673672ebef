"""Doodle templates: the several ways people quickly draw each plant without a legend.

People draw a carrot as a cone with a leafy tuft, lying on its side as often as standing;
a broccoli as a cloud on a thick stem or as a cluster of bumps; a watermelon as a slice,
a wedge or a whole striped melon. Each plant has a few templates here, written from
general knowledge of such doodles (never from the real sketches the benchmark measures
on); every shape number is drawn continuously from the caller's :class:`Knobs`, whose
ranges the held-out setting widens, so the benchmark's synthetic players hold shapes the
training never saw.

A template returns strokes in a 0-1 box (y down): ``main`` (the outline a hand never
leaves out) and ``small`` (seeds, spots, rings: the first thing a quick hand drops).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tools.synth.handwriting import Points


@dataclass(frozen=True)
class Knobs:
    """Where a template's shape numbers come from: ``widen`` stretches every range by that
    share of its length on each side (the held-out setting's unseen shapes)."""

    rng: np.random.Generator
    widen: float = 0.0

    def r(self, lo: float, hi: float) -> float:
        pad = (hi - lo) * self.widen
        return float(self.rng.uniform(lo - pad, hi + pad))

    def n(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi] (inclusive), one more either way when widened."""
        extra = 1 if self.widen > 0 else 0
        return int(self.rng.integers(max(1, lo - extra), hi + extra + 1))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)


@dataclass
class Strokes:
    main: list[Points]
    small: list[Points]


Template = Callable[[Knobs], Strokes]


# ---- shapes ---------------------------------------------------------------------------------


def line(*pts: tuple[float, float]) -> Points:
    return np.array(pts, np.float64)


def arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 16
        ) -> Points:
    """An elliptic arc, angles in degrees, y down (90 = bottom)."""
    t = np.radians(np.linspace(a0, a1, n))
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def circle(cx: float, cy: float, r: float, n: int = 20) -> Points:
    return arc(cx, cy, r, r, 0, 360, n)


def bumps(cx: float, cy: float, r: float, n: int, a0: float, a1: float, bump: float,
          ry: float | None = None) -> Points:
    """A scalloped outline (a cloud, a lettuce head) from angle a0 to a1."""
    t = np.radians(np.linspace(a0, a1, 12 * n))
    k = 1 + bump * np.abs(np.sin(n * (t - t[0]) * math.pi / (t[-1] - t[0] + 1e-9)))
    return np.stack([cx + r * k * np.cos(t), cy + (ry or r) * k * np.sin(t)], axis=1)


def blob(k: Knobs, cx: float, cy: float, rx: float, ry: float, n: int = 28) -> Points:
    """A closed, hand-irregular round outline."""
    t = np.linspace(0, 2 * math.pi, n + 1)
    rr = 1 + sum(k.r(-0.06, 0.06) * np.cos(h * t + k.r(0, 6.3)) for h in (2, 3))
    return np.stack([cx + rx * rr * np.cos(t), cy + ry * rr * np.sin(t)], axis=1)


def teardrop(cx: float, cy: float, rx: float, ry: float, top: float, n: int = 24) -> Points:
    """A round bottom drawn up to a point at height ``top`` (an onion, a fig)."""
    body = arc(cx, cy, rx, ry, -55, 235, n)
    return np.concatenate([line((cx, top)), body, line((cx, top))])


def dots(k: Knobs, n: int, x: tuple[float, float], y: tuple[float, float], size: float = 0.02
         ) -> list[Points]:
    """Seeds or spots: short dabs or tiny ovals."""
    out = []
    for _ in range(n):
        cx, cy = k.r(*x), k.r(*y)
        if k.chance(0.5):
            out.append(line((cx, cy), (cx + k.r(-size, size), cy + k.r(0.5 * size, 1.5 * size))))
        else:
            out.append(arc(cx, cy, size * 0.8, size * 1.2, 0, 360, 8))
    return out


def leaf(x0: float, y0: float, angle: float, length: float, width: float) -> Points:
    """A pointed leaf loop from (x0, y0) along ``angle`` (degrees, 0 = right, -90 = up)."""
    a = math.radians(angle)
    d, nrm = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    t = np.linspace(0, 1, 9)
    bulge = np.sin(t * math.pi) * width
    up = np.array([x0, y0]) + np.outer(t * length, d) + np.outer(bulge, nrm)
    down = np.array([x0, y0]) + np.outer(t * length, d) - np.outer(bulge, nrm)
    return np.concatenate([up, down[::-1]])


def star(cx: float, cy: float, r: float, points: int = 5) -> Points:
    """The crown a blueberry shows: a small star or asterisk outline."""
    t = np.linspace(-math.pi / 2, 3 * math.pi / 2, 2 * points + 1)
    rr = np.where(np.arange(2 * points + 1) % 2 == 0, r, r * 0.45)
    return np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t)], axis=1)


def stem(x: float, y0: float, y1: float, w: float, k: Knobs) -> Points:
    """A thick stem as its outline (two sides and the bottom), or one line when ``w`` is 0."""
    lean = k.r(-0.04, 0.04)
    if w <= 0.0:
        return line((x, y0), (x + lean, y1))
    return line((x - w, y0), (x - w * k.r(1.0, 1.4) + lean, y1), (x + w * k.r(1.0, 1.4) + lean, y1),
                (x + w, y0))


# ---- templates ------------------------------------------------------------------------------


def _carrot_cone(k: Knobs) -> Strokes:
    top, tip, w = k.r(0.25, 0.38), k.r(0.9, 1.0), k.r(0.1, 0.2)
    tx = 0.5 + k.r(-0.06, 0.06)
    if k.chance(0.5):  # straight sides
        body = line((0.5 - w, top), (tx, tip), (0.5 + w, top))
    else:  # bellied sides
        side = np.linspace(0, 1, 10)[:, None]
        left = np.array([0.5 - w, top]) * (1 - side) + np.array([tx, tip]) * side
        left[:, 0] -= np.sin(side[:, 0] * math.pi) * w * k.r(0.1, 0.4)
        right = np.array([0.5 + w, top]) * (1 - side) + np.array([tx, tip]) * side
        right[:, 0] += np.sin(side[:, 0] * math.pi) * w * k.r(0.1, 0.4)
        body = np.concatenate([left, right[::-1]])
    main = [body]
    if k.chance(0.7):
        main.append(arc(0.5, top, w, w * k.r(0.1, 0.4), 180, 360, 10) if k.chance(0.5)
                    else line((0.5 - w, top), (0.5 + w, top)))
    small = []
    for j in range(k.n(0, 4)):
        y = top + (tip - top) * (0.2 + 0.18 * j)
        half = w * (1 - (y - top) / (tip - top)) * k.r(0.3, 0.8)
        small.append(line((0.5 - half + k.r(-0.02, 0.02), y),
                          (0.5 + half * k.r(-0.2, 1.0), y + 0.02)))
    for j in range(k.n(2, 4)):
        spread = (j - 1.5) * k.r(12, 25)
        length = k.r(0.15, 0.28)
        if k.chance(0.4):
            main.append(leaf(0.5 + k.r(-0.03, 0.03), top, -90 + spread, length, k.r(0.03, 0.06)))
        else:
            a = math.radians(-90 + spread)
            main.append(line((0.5, top), (0.5 + length * math.cos(a), top + length * math.sin(a))))
    return Strokes(main, small)


def _carrot_tuft(k: Knobs) -> Strokes:
    """A stubby carrot with a leafy, zigzag or bushy tuft."""
    top, tip, w = k.r(0.35, 0.45), k.r(0.88, 1.0), k.r(0.14, 0.22)
    body = np.concatenate([arc(0.5, top + 0.02, w, 0.05, 180, 360, 8),
                           line((0.5 + w, top + 0.02), (0.5 + k.r(-0.04, 0.04), tip),
                                (0.5 - w, top + 0.02))])
    tuft = (bumps(0.5, top - 0.15, k.r(0.1, 0.16), k.n(3, 5), 160, 380, k.r(0.2, 0.4))
            if k.chance(0.5) else
            line(*[(0.5 + (j - 2) * 0.06, top - (0.22 if j % 2 else 0.02) * k.r(0.8, 1.2))
                   for j in range(5)]))
    small = [line((0.5 - w * 0.5, top + 0.15 + 0.12 * j), (0.5 - w * 0.1, top + 0.16 + 0.12 * j))
             for j in range(k.n(0, 3))]
    return Strokes([body, tuft], small)


def _broccoli_cloud(k: Knobs) -> Strokes:
    cy, r = k.r(0.32, 0.42), k.r(0.3, 0.4)
    crown = bumps(0.5, cy, r, k.n(4, 7), 150, 390, k.r(0.1, 0.25), ry=r * k.r(0.7, 1.0))
    sw, y0 = k.r(0.07, 0.15), cy + r * 0.5
    main = [crown, stem(0.5, y0, k.r(0.88, 1.0), sw, k)]
    small = []
    if k.chance(0.6):  # branches into the crown
        small += [line((0.5, y0 + 0.08), (0.5 + d * k.r(0.1, 0.2), y0 - k.r(0.05, 0.15)))
                  for d in (-1, 1)]
    if k.chance(0.4):  # floret curls inside
        small += [arc(k.r(0.35, 0.65), cy + k.r(-0.1, 0.05), 0.05, 0.04, 180, 360, 6)
                  for _ in range(k.n(1, 3))]
    return Strokes(main, small)


def _broccoli_tree(k: Knobs) -> Strokes:
    """A tree: three to five round florets over a trunk that forks."""
    n = k.n(3, 5)
    r = k.r(0.13, 0.19)
    main = []
    for j in range(n):
        a = math.radians(200 + 140 * j / max(n - 1, 1))
        main.append(circle(0.5 + 0.22 * math.cos(a) + k.r(-0.03, 0.03),
                           0.42 + 0.18 * math.sin(a) + k.r(-0.03, 0.03), r, 14))
    sw = k.r(0.05, 0.12)
    main.append(stem(0.5, 0.5, k.r(0.88, 1.0), sw, k))
    small = [line((0.5, 0.6), (0.5 + d * 0.12, 0.45)) for d in (-1, 1) if k.chance(0.5)]
    return Strokes(main, small)


def _broccoli_bumps(k: Knobs) -> Strokes:
    """A cluster of bumps (small florets packed in a dome) on a short thick stem."""
    r = k.r(0.07, 0.1)
    main = []
    for row, n in enumerate((3, 4, 3)[:k.n(2, 3)]):
        for j in range(n):
            main.append(circle(0.5 + (j - (n - 1) / 2) * 1.7 * r + k.r(-0.02, 0.02),
                               0.2 + row * 1.6 * r + k.r(-0.02, 0.02), r, 10))
    main.append(stem(0.5, 0.2 + 3.5 * r, k.r(0.85, 1.0), k.r(0.06, 0.13), k))
    return Strokes(main, [])


def _mushroom(k: Knobs) -> Strokes:
    w, cap_y = k.r(0.36, 0.48), k.r(0.42, 0.55)
    h = k.r(0.15, 0.42)  # flat umbrella to round dome
    cap = arc(0.5, cap_y, w, h, 180, 360, 18)
    main = [cap]
    if k.chance(0.7):  # the cap's underside: straight, curved or a gill band
        main.append(line((0.5 - w, cap_y), (0.5 + w, cap_y)) if k.chance(0.5)
                    else arc(0.5, cap_y, w, k.r(0.03, 0.1), 0, 180, 12))
    sw = k.r(0.07, 0.15)
    main.append(stem(0.5, cap_y + 0.02, k.r(0.88, 1.0), sw, k))
    small = []
    if k.chance(0.5):
        small += [circle(0.5 + k.r(-0.6, 0.6) * w, cap_y - k.r(0.25, 0.7) * h, k.r(0.03, 0.06), 8)
                  for _ in range(k.n(1, 5))]
    if k.chance(0.3):  # gills
        small += [line((0.5 + t * w, cap_y + 0.01), (0.5 + t * sw, cap_y + 0.06))
                  for t in (-0.6, -0.3, 0.3, 0.6)]
    if k.chance(0.3):  # a ring on the stem
        small.append(line((0.5 - sw, cap_y + 0.15), (0.5 + sw, cap_y + 0.17)))
    return Strokes(main, small)


def _mushroom_round(k: Knobs) -> Strokes:
    """A round cap (most of a circle) sitting on a stem, no underside line."""
    r, cy = k.r(0.28, 0.38), k.r(0.38, 0.45)
    cap = arc(0.5, cy, r * k.r(1.0, 1.3), r, 160, 380, 20)
    main = [cap, stem(0.5, cy + r * 0.35, k.r(0.9, 1.0), k.r(0.08, 0.14), k)]
    small = [circle(k.r(0.35, 0.65), k.r(cy - r * 0.7, cy), k.r(0.03, 0.05), 8)
             for _ in range(k.n(0, 4))]
    return Strokes(main, small)


def _onion_bulb(k: Knobs) -> Strokes:
    rx, cy = k.r(0.28, 0.42), k.r(0.55, 0.65)
    ry = k.r(0.24, 0.33)
    top = k.r(0.05, 0.22)
    main = [teardrop(0.5, cy, rx, ry, top)]
    small = []
    if k.chance(0.7):  # root hairs
        small += [line((0.5 + 0.04 * j, cy + ry * 0.95), (0.5 + 0.09 * j + k.r(-0.02, 0.02),
                                                           cy + ry + k.r(0.06, 0.12)))
                  for j in range(-k.n(1, 2), k.n(1, 2) + 1)]
    if k.chance(0.6):  # layer lines from top to bottom
        small += [np.concatenate([line((0.5, top + 0.05)),
                                  arc(0.5, cy, rx * f, ry * 0.95, 270 + 90 * s, 270 + 175 * s, 8)])
                  for f in (0.35, 0.7)[:k.n(1, 2)] for s in (-1, 1)]
    if k.chance(0.3):  # a green shoot
        main.append(line((0.5, top), (0.5 + k.r(-0.08, 0.08), max(0.0, top - 0.12))))
    return Strokes(main, small)


def _onion_layers(k: Knobs) -> Strokes:
    """A cut half: a round with rings inside."""
    r = k.r(0.36, 0.46)
    main = [blob(k, 0.5, 0.52, r, r * k.r(0.85, 1.05))]
    small = [circle(0.5 + k.r(-0.02, 0.02), 0.54 + k.r(-0.02, 0.02), r * f, 16)
             for f in (0.7, 0.45, 0.22)[:k.n(2, 3)]]
    if k.chance(0.4):
        main.append(line((0.5, 0.52 - r), (0.5 + k.r(-0.05, 0.05), 0.52 - r - 0.1)))
    return Strokes(main, small)


def _lettuce_head(k: Knobs) -> Strokes:
    r = k.r(0.34, 0.44)
    main = [bumps(0.5, 0.55, r, k.n(5, 9), 0, 360, k.r(0.05, 0.14))]
    for j in range(k.n(1, 3)):
        main.append(arc(0.5, 0.6 + 0.1 * j, k.r(0.15, 0.3), k.r(0.12, 0.2), 200, 340, 10))
    return Strokes(main, [])


def _lettuce_leaf(k: Knobs) -> Strokes:
    """One wavy leaf (or a fan of two or three) with a midrib and veins."""
    main, small = [], []
    for j in range(k.n(1, 3)):
        ang = -90 + (j - 1) * k.r(15, 35) if j else -90 + k.r(-10, 10)
        a = math.radians(ang)
        x0, y0, length = 0.5, 0.95, k.r(0.7, 0.9)
        out = leaf(x0, y0, ang, length, k.r(0.18, 0.3))
        wav = np.sin(np.linspace(0, k.r(8, 16) * math.pi, len(out))) * k.r(0.01, 0.03)
        out = out + wav[:, None]
        main.append(out)
        tip = (x0 + length * 0.85 * math.cos(a), y0 + length * 0.85 * math.sin(a))
        main.append(line((x0, y0), tip))
        if j == 0:
            small += [line((x0 + t * (tip[0] - x0), y0 + t * (tip[1] - y0)),
                           (x0 + t * (tip[0] - x0) + s * 0.12, y0 + t * (tip[1] - y0) - 0.1))
                      for t in (0.3, 0.5, 0.7) for s in (-1, 1) if k.chance(0.7)]
    return Strokes(main, small)


def _lettuce_veined(k: Knobs) -> Strokes:
    """A round head with a leaf's vein lines across it."""
    r = k.r(0.36, 0.45)
    main = [blob(k, 0.5, 0.52, r, r * k.r(0.8, 1.0))]
    if k.chance(0.6):
        main[0] = bumps(0.5, 0.52, r, k.n(6, 10), 0, 360, k.r(0.03, 0.08))
    main.append(line((0.5, 0.52 + r * 0.9), (0.5 + k.r(-0.05, 0.05), 0.52 - r * 0.5)))
    small = [line((0.5, 0.52 + r * t), (0.5 + s * r * 0.55, 0.52 + r * (t - 0.35)))
             for t in (0.5, 0.1, -0.3) for s in (-1, 1)]
    return Strokes(main, small)


def _pepper_bell(k: Knobs) -> Strokes:
    w = k.r(0.3, 0.4)
    top, bottom = k.r(0.28, 0.38), k.r(0.82, 0.95)
    body = np.concatenate([line((0.5 - w, top)), arc(0.5 - w / 2, top, w / 2, 0.1, 180, 360, 8),
                           arc(0.5 + w / 2, top, w / 2, 0.1, 180, 360, 8),
                           line((0.5 + w, bottom - 0.1)),
                           bumps(0.5, bottom - 0.1, w, k.n(2, 3), 0, 180, k.r(0.1, 0.3),
                                 ry=0.1),
                           line((0.5 - w, top))])
    main = [body, line((0.5, top - 0.05), (0.5 + k.r(-0.03, 0.03), top - 0.15),
                       (0.5 + k.r(0.03, 0.12), top - k.r(0.18, 0.26)))]
    small = [line((0.5 + s * w * 0.35, top + 0.1), (0.5 + s * w * 0.3, bottom - 0.12))
             for s in (-1, 1) if k.chance(0.5)]
    return Strokes(main, small)


def _pepper_chili(k: Knobs) -> Strokes:
    """A long curved pepper (chilli) tapering to a point, with its cap and stem."""
    bend = k.r(0.1, 0.3)
    t = np.linspace(0, 1, 14)
    spine = np.stack([0.2 + 0.6 * t, 0.3 + 0.55 * t ** 1.5 - bend * np.sin(t * math.pi) * 0.5], 1)
    width = k.r(0.08, 0.14) * (1 - t) ** 0.8 + 0.005
    d = np.gradient(spine, axis=0)
    nrm = np.stack([-d[:, 1], d[:, 0]], 1) / np.linalg.norm(d, axis=1, keepdims=True)
    body = np.concatenate([spine + nrm * width[:, None], (spine - nrm * width[:, None])[::-1]])
    cap = arc(spine[0, 0], spine[0, 1], 0.06, 0.1, 90, 270, 8)
    return Strokes([body, cap, line((spine[0, 0] - 0.04, spine[0, 1]),
                                    (spine[0, 0] - 0.1, spine[0, 1] - k.r(0.08, 0.16)))], [])


def _pepper_front(k: Knobs) -> Strokes:
    """A bell pepper seen from the front: a rounded box with lobe lines and a stem."""
    w, h = k.r(0.3, 0.4), k.r(0.3, 0.4)
    body = bumps(0.5, 0.58, w, 3, 0, 360, k.r(0.05, 0.15), ry=h)
    main = [body, stem(0.5, 0.58 - h, 0.58 - h - k.r(0.1, 0.2), 0.0, k)]
    if k.chance(0.5):
        main.append(arc(0.5, 0.58 - h + 0.02, k.r(0.08, 0.15), 0.04, 0, 360, 10))
    small = [arc(0.5 + s * w * 0.3, 0.6, w * 0.15, h * 0.8, -70, 70 if s > 0 else 250, 8)
             for s in (-1, 1) if k.chance(0.6)]
    return Strokes(main, small)


def _blueberry(k: Knobs) -> Strokes:
    n = k.n(1, 5)
    if n == 1:
        centres, rad = [(0.5, 0.5)], k.r(0.36, 0.46)
    else:
        rad = k.r(0.16, 0.24)
        ring = k.r(0.18, 0.26)
        centres = [(0.5 + ring * math.cos(a), 0.55 + ring * math.sin(a))
                   for a in np.linspace(0, 2 * math.pi, n, endpoint=False) + k.r(0, 6.3)]
    main, small = [], []
    for j, (cx, cy) in enumerate(centres):
        main.append(blob(k, cx, cy, rad, rad * k.r(0.88, 1.05), 20))
        if j == 0 or k.chance(0.6):
            mark = k.rng.integers(3)
            mx, my = cx + k.r(-0.2, 0.2) * rad, cy - k.r(0.0, 0.55) * rad
            if mark == 0:
                small.append(star(mx, my, rad * k.r(0.2, 0.35), int(k.n(4, 6))))
            elif mark == 1:  # an asterisk / cross
                s = rad * k.r(0.15, 0.3)
                small += [line((mx - s, my), (mx + s, my)), line((mx, my - s), (mx, my + s))]
            else:
                small.append(circle(mx, my, rad * k.r(0.12, 0.25), 8))
    if k.chance(0.3):  # a stem and leaf
        x, y = centres[0][0], centres[0][1] - rad
        main.append(leaf(x, y, k.r(-150, -30), k.r(0.15, 0.3), k.r(0.04, 0.08)))
    return Strokes(main, small)


def _fig_drop(k: Knobs) -> Strokes:
    rx, cy = k.r(0.3, 0.42), k.r(0.6, 0.7)
    top = k.r(0.1, 0.25)
    main = [teardrop(0.5, cy, rx, k.r(0.25, 0.32), top),
            line((0.5, top), (0.5 + k.r(-0.05, 0.08), max(0.0, top - k.r(0.06, 0.14))))]
    small = []
    if k.chance(0.5):
        small.append(arc(0.5, cy + 0.03, rx * 0.4, 0.08, 0, 360, 12))
    if k.chance(0.4):
        main.append(leaf(0.5, top, k.r(-60, -20), k.r(0.15, 0.25), k.r(0.04, 0.07)))
    return Strokes(main, small)


def _fig_cut(k: Knobs) -> Strokes:
    """A fig cut open: its outline, the flesh inside and seeds."""
    rx, cy, top = k.r(0.32, 0.42), k.r(0.58, 0.66), k.r(0.08, 0.2)
    outer = teardrop(0.5, cy, rx, k.r(0.27, 0.33), top)
    inner = teardrop(0.5, cy + 0.02, rx * 0.72, 0.2, top + 0.15)
    return Strokes([outer, inner], dots(k, k.n(4, 10), (0.38, 0.62), (cy - 0.05, cy + 0.12)))


def _fig_round(k: Knobs) -> Strokes:
    r = k.r(0.3, 0.4)
    main = [blob(k, 0.5, 0.58, r, r * k.r(0.85, 1.0)),
            line((0.5, 0.58 - r), (0.5 + k.r(-0.05, 0.05), 0.58 - r - k.r(0.08, 0.15)))]
    if k.chance(0.6):
        main.append(leaf(0.5, 0.58 - r - 0.05, k.r(-70, -10), k.r(0.18, 0.3), k.r(0.05, 0.1)))
    small = [line((0.5 + s * r * 0.3, 0.58 - r * 0.8), (0.5 + s * r * 0.4, 0.58 + r * 0.6))
             for s in (-1, 1) if k.chance(0.4)]
    return Strokes(main, small)


def _berry_cluster(k: Knobs) -> Strokes:
    """A blackberry-like cluster: small circles packed into a rounded cone."""
    rows = ((3, 0.28), (4, 0.42), (3, 0.56), (2, 0.7), (1, 0.82))[:k.n(3, 5)]
    rad = k.r(0.07, 0.1)
    main = []
    for n, y in rows:
        for j in range(n):
            main.append(circle(0.5 + (j - (n - 1) / 2) * 1.8 * rad + k.r(-0.015, 0.015),
                               y + k.r(-0.015, 0.015), rad, 10))
    if k.chance(0.6):  # a leafy crown
        main.append(line(*[(0.5 + (j - 2) * 0.09, 0.2 - (0.1 if j % 2 else 0.0))
                           for j in range(5)]))
    if k.chance(0.4):
        main.append(line((0.5, 0.18), (0.5 + k.r(-0.05, 0.05), 0.05)))
    return Strokes(main, [])


def _berry_outline(k: Knobs) -> Strokes:
    """An oval or cone outline with drupelets inside as small circles or dots."""
    rx, ry = k.r(0.28, 0.38), k.r(0.34, 0.44)
    main = [blob(k, 0.5, 0.55, rx, ry)]
    inner = []
    for y in np.linspace(0.55 - ry * 0.6, 0.55 + ry * 0.6, k.n(3, 4)):
        half = rx * math.sqrt(max(0.0, 1 - ((y - 0.55) / ry) ** 2)) * 0.7
        for x in np.linspace(0.5 - half, 0.5 + half, max(1, int(half / 0.09) + 1)):
            inner.append(circle(x, y, k.r(0.03, 0.05), 8) if k.chance(0.7)
                         else line((x, y), (x + 0.01, y + 0.01)))
    if k.chance(0.6):
        main += [leaf(0.5, 0.55 - ry, a, k.r(0.12, 0.2), k.r(0.03, 0.06))
                 for a in (-150, -90, -30)[:k.n(1, 3)]]
    return Strokes(main + inner[:3], inner[3:])


def _strawberry(k: Knobs) -> Strokes:
    w, top, tip = k.r(0.32, 0.44), k.r(0.28, 0.38), k.r(0.88, 0.98)
    if k.chance(0.5):  # a heart-like top
        body = np.concatenate([arc(0.5 - w / 2, top, w / 2, 0.1, 180, 340, 8),
                               arc(0.5 + w / 2, top, w / 2, 0.1, 200, 360, 8),
                               line((0.5 + w * 0.9, top + 0.2), (0.5, tip),
                                    (0.5 - w * 0.9, top + 0.2), (0.5 - w, top))])
    else:  # a rounded triangle
        t = np.linspace(0, 1, 10)[:, None]
        side = np.array([0.5 + w, top]) * (1 - t) + np.array([0.5, tip]) * t
        side[:, 0] += np.sin(t[:, 0] * math.pi) * k.r(0.03, 0.1)
        left = side.copy()
        left[:, 0] = 1.0 - left[:, 0]
        body = np.concatenate([arc(0.5, top, w, k.r(0.05, 0.12), 180, 360, 10), side, left[::-1]])
    crown = (line(*[(0.5 + (j - 2) * w * 0.35, top + (0.06 if j % 2 else -0.1))
                    for j in range(5)])
             if k.chance(0.5) else
             np.concatenate([leaf(0.5, top, a, k.r(0.1, 0.18), 0.04)
                             for a in (-160, -110, -70, -20)]))
    main = [body, crown]
    if k.chance(0.6):
        main.append(line((0.5, top), (0.5 + k.r(-0.04, 0.04), top - k.r(0.1, 0.18))))
    return Strokes(main, dots(k, k.n(3, 10), (0.5 - w * 0.6, 0.5 + w * 0.6),
                              (top + 0.12, tip - 0.2), 0.015))


def _watermelon_slice(k: Knobs) -> Strokes:
    ry = k.r(0.38, 0.55)
    y0 = k.r(0.3, 0.4)
    main = [np.concatenate([arc(0.5, y0, 0.46, ry, 0, 180, 20), line((0.96, y0))])]
    if k.chance(0.85):
        f = k.r(0.75, 0.9)
        main.append(arc(0.5, y0, 0.46 * f, ry * f, 8, 172, 16))
    return Strokes(main, dots(k, k.n(3, 8), (0.3, 0.7), (y0 + 0.06, y0 + ry * 0.55), 0.025))


def _watermelon_wedge(k: Knobs) -> Strokes:
    w, h = k.r(0.35, 0.45), k.r(0.6, 0.8)
    y0 = 0.5 - h / 2
    main = [line((0.5 - w, y0), (0.5 + w, y0), (0.5 + k.r(-0.05, 0.05), y0 + h), (0.5 - w, y0))]
    if k.chance(0.5):
        main[0] = np.concatenate([arc(0.5, y0, w, k.r(0.05, 0.12), 180, 360, 10),
                                  line((0.5 + w, y0), (0.5, y0 + h), (0.5 - w, y0))])
    main.append(line((0.5 - w * 0.85, y0 + 0.07), (0.5 + w * 0.85, y0 + 0.07)))
    return Strokes(main, dots(k, k.n(3, 7), (0.5 - w * 0.4, 0.5 + w * 0.4),
                              (y0 + 0.15, y0 + h * 0.6), 0.025))


def _watermelon_whole(k: Knobs) -> Strokes:
    """A whole melon: an oval with stripes along it."""
    rx, ry = k.r(0.4, 0.48), k.r(0.26, 0.4)
    main = [blob(k, 0.5, 0.5, rx, ry)]
    small = []
    for j in range(k.n(2, 5)):
        f = -0.7 + 1.4 * j / 4
        y = 0.5 + f * ry
        half = rx * math.sqrt(max(0.0, 1 - f * f)) * 0.9
        xs = np.linspace(0.5 - half, 0.5 + half, 10)
        wave = np.sin(np.linspace(0, k.r(4, 10) * math.pi, 10)) * k.r(0.0, 0.03)
        small.append(np.stack([xs, y + wave + (xs - 0.5) ** 2 * f * 0.4], 1))
    (main if k.chance(0.5) else small).extend(small[:1])
    if k.chance(0.3):
        main.append(line((0.5 + rx, 0.5), (0.5 + rx + 0.06, 0.45)))
    return Strokes(main, small)


TEMPLATES: dict[str, tuple[Template, ...]] = {
    "lettuce": (_lettuce_head, _lettuce_leaf, _lettuce_veined),
    "mushroom": (_mushroom, _mushroom_round),
    "onion": (_onion_bulb, _onion_layers),
    "pepper": (_pepper_bell, _pepper_chili, _pepper_front),
    "broccoli": (_broccoli_cloud, _broccoli_tree, _broccoli_bumps),
    "carrot": (_carrot_cone, _carrot_tuft),
    "blueberry": (_blueberry,),
    "fig": (_fig_drop, _fig_cut, _fig_round),
    "golden-raspberry": (_berry_cluster, _berry_outline),
    "strawberry": (_strawberry,),
    "watermelon": (_watermelon_slice, _watermelon_wedge, _watermelon_whole),
}
# How far a doodle of the plant turns: a carrot lies on its side as often as it stands.
SPIN_DEG: dict[str, float] = {"carrot": 100.0, "pepper": 80.0, "watermelon": 70.0}


def doodle(plant: str, k: Knobs) -> Strokes:
    """One hand's doodle of ``plant``: one of its templates, shape numbers from ``k``."""
    try:
        options = TEMPLATES[plant]
    except KeyError:
        raise ValueError(f"no doodle for {plant!r}") from None
    return options[int(k.rng.integers(len(options)))](k)
