"""New hands from real ones: a real pen trajectory re-drawn as another writer might draw it.

Only 76 writers train the letter model, and the writers it must read are unlike them in
ways a shift or a global bend does not cover: where each stroke sits against the others,
how wide the letter is, how far it leans, whether the pen lifts between strokes (cursive
capitals join them), little entry hooks and run-on ends. Each change here keeps what makes
the letter that letter (its strokes, their order and rough layout), so the label stays
true. Used for training only: benches draw the real trajectories as they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from companion.synth.real_hands import Stroke

KEEP_CHANCE = 0.2  # trajectories left as the writer drew them
ASPECT_LOG = 0.33  # width scaled by exp(+-this): about 0.72 to 1.39
SHEAR_DEG = 14.0  # extra lean, +- (the drawing adds its own slant on top)
STROKE_JITTER_CHANCE = 0.7  # multi-stroke letters whose strokes move against each other
STROKE_SHIFT = 0.035  # sd of a stroke's shift, letter heights
STROKE_TURN_DEG = 5.0  # sd of a stroke's turn about its centre
STROKE_SCALE_LOG = 0.08  # sd of a stroke's log size
WOBBLE_CHANCE = 0.6
WOBBLE_STEP = 0.2  # knots of the hand's tremor, letter heights of path apart
WOBBLE_SD = (0.004, 0.018)  # letter heights
JOIN_CHANCE = 0.3  # letters whose pen stays down between strokes
JOIN_EACH = 0.7  # of those, each pen lift joined with this chance
HOOK_CHANCE = 0.15  # a small entry hook before the first stroke
HOOK_LEN = (0.08, 0.2)  # letter heights
RUNON_CHANCE = 0.15  # the last stroke running on a little past its end
RUNON_LEN = (0.04, 0.12)  # letter heights
MIN_LEN = 1e-6


def _jitter_strokes(strokes: list[Stroke], rng: np.random.Generator) -> list[Stroke]:
    out = []
    for st in strokes:
        c = st.mean(axis=0)
        a = math.radians(rng.normal(0.0, STROKE_TURN_DEG))
        s = math.exp(rng.normal(0.0, STROKE_SCALE_LOG))
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * s
        out.append((st - c) @ rot.T + c + rng.normal(0.0, STROKE_SHIFT, 2))
    return out


def _wobble(st: Stroke, rng: np.random.Generator, sd: float) -> Stroke:
    """A smooth tremor along the path: random offsets at knots, interpolated between."""
    if len(st) < 3:
        return st
    seg = np.linalg.norm(np.diff(st, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] < MIN_LEN:
        return st
    knots = np.linspace(0.0, s[-1], max(2, int(math.ceil(s[-1] / WOBBLE_STEP)) + 1))
    off = rng.normal(0.0, sd, (len(knots), 2))
    d = np.stack([np.interp(s, knots, off[:, 0]), np.interp(s, knots, off[:, 1])], axis=1)
    return st + d


def _join(strokes: list[Stroke], rng: np.random.Generator) -> list[Stroke]:
    """Keep the pen down from one stroke's end to the next one's start (a straight join)."""
    out = [strokes[0]]
    for st in strokes[1:]:
        if rng.random() < JOIN_EACH:
            out[-1] = np.concatenate([out[-1], st])
        else:
            out.append(st)
    return out


def _end_direction(st: Stroke) -> np.ndarray | None:
    """Unit direction of travel over the last few points."""
    pts = st[-4:]
    d = pts[-1] - pts[0]
    n = float(np.linalg.norm(d))
    return d / n if n > MIN_LEN else None


def _hook(st: Stroke, rng: np.random.Generator) -> Stroke:
    """An entry hook: a short curve arriving at the first point from below-left, as many
    cursive capitals start."""
    p = st[0]
    length = rng.uniform(*HOOK_LEN)
    ang = math.radians(rng.uniform(100.0, 200.0))  # pen comes from the left / below
    start = p + length * np.array([math.cos(ang), math.sin(ang)])  # y down: below
    bend = rng.normal(0.0, 0.5 * length)
    mid = (start + p) / 2 + bend * np.array([-(p - start)[1], (p - start)[0]]) / max(
        float(np.linalg.norm(p - start)), MIN_LEN)
    t = np.linspace(0.0, 1.0, 8)[:-1, None]
    curve = (1 - t) ** 2 * start + 2 * (1 - t) * t * mid + t ** 2 * p
    return np.concatenate([curve, st])


def _runon(st: Stroke, rng: np.random.Generator) -> Stroke:
    """The stroke going on a little along its own direction, as a hurried hand does."""
    d = _end_direction(st)
    if d is None:
        return st
    length = rng.uniform(*RUNON_LEN)
    t = np.linspace(0.0, 1.0, 6)[1:, None]
    return np.concatenate([st, st[-1] + t * length * d])


def vary_strokes(strokes: Sequence[Stroke], rng: np.random.Generator) -> tuple[Stroke, ...]:
    """The trajectory (letter 1 high, y down) as another hand might have drawn it."""
    pts = [np.asarray(st, np.float64).reshape(-1, 2) for st in strokes if len(st) > 0]
    if not pts or rng.random() < KEEP_CHANCE:
        return tuple(pts)
    allp = np.concatenate(pts)
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    centre = (lo + hi) / 2
    height = max(float(hi[1] - lo[1]), MIN_LEN)
    # one frame: centred, 1 high
    pts = [(st - centre) / height for st in pts]
    aspect = math.exp(rng.uniform(-ASPECT_LOG, ASPECT_LOG))
    shear = math.tan(math.radians(rng.uniform(-SHEAR_DEG, SHEAR_DEG)))
    lin = np.array([[1.0, -shear], [0.0, 1.0]]) @ np.diag([aspect, 1.0])
    pts = [st @ lin.T for st in pts]
    if len(pts) > 1 and rng.random() < STROKE_JITTER_CHANCE:
        pts = _jitter_strokes(pts, rng)
    if rng.random() < WOBBLE_CHANCE:
        sd = rng.uniform(*WOBBLE_SD)
        pts = [_wobble(st, rng, sd) for st in pts]
    if len(pts) > 1 and rng.random() < JOIN_CHANCE:
        pts = _join(pts, rng)
    if rng.random() < HOOK_CHANCE and len(pts[0]) > 1:
        pts[0] = _hook(pts[0], rng)
    if rng.random() < RUNON_CHANCE and len(pts[-1]) > 1:
        pts[-1] = _runon(pts[-1], rng)
    return tuple(pts)
