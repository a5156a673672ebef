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

from tools.synth.real_hands import Stroke

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
# Cursive loops: a small pen loop where the first stroke starts, where the last one ends,
# or at a stroke's sharpest turn (a looped C, S or L corner), a radius in letter heights.
START_LOOP_CHANCE = 0.15
END_LOOP_CHANCE = 0.08
CORNER_LOOP_CHANCE = 0.1
LOOP_RADIUS = (0.1, 0.2)
SHARP_TURN_DEG = 60.0  # a turn this sharp or sharper counts as a corner
# Letters a loop may end or turn in without looking like another letter (a C curling at
# its end reads as a G, a P or B looped at a corner grows a bowl).
END_LOOP_LETTERS = frozenset("FGLMOSW")
CORNER_LOOP_LETTERS = frozenset("FLMW")
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


def _direction(st: Stroke, at_end: bool) -> np.ndarray | None:
    """Unit direction of travel over the last (or first) few points."""
    pts = st[-4:] if at_end else st[:4]
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
    d = _direction(st, at_end=True)
    if d is None:
        return st
    length = rng.uniform(*RUNON_LEN)
    t = np.linspace(0.0, 1.0, 6)[1:, None]
    return np.concatenate([st, st[-1] + t * length * d])


def _loop(p: np.ndarray, d: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A pen loop that leaves ``p`` travelling along ``d``, after turning once around a circle
    of its own, on either side (the start slightly off the circle, as a spiral)."""
    n = np.array([-d[1], d[0]]) * (1.0 if rng.random() < 0.5 else -1.0)
    r = rng.uniform(*LOOP_RADIUS)
    c = p + r * n
    phi = np.linspace(-2 * math.pi - 0.8, 0.0, 24)
    rad = r * np.linspace(0.7, 1.0, len(phi))
    # phi = 0 is p with the tangent d; the side sign makes the turn's sense
    return c + rad[:, None] * (-np.cos(phi)[:, None] * n + np.sin(phi)[:, None] * d)


def _sharpest_turn(st: Stroke) -> int | None:
    """Index of the point where the stroke turns most, if it turns at least SHARP_TURN_DEG."""
    if len(st) < 5:
        return None
    a = st[2:-2] - st[:-4]
    b = st[4:] - st[2:-2]
    na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    ok = (na > MIN_LEN) & (nb > MIN_LEN)
    if not ok.any():
        return None
    cos = np.where(ok, (a * b).sum(axis=1) / np.maximum(na * nb, MIN_LEN), 1.0)
    k = int(np.argmin(cos))
    return k + 2 if cos[k] <= math.cos(math.radians(SHARP_TURN_DEG)) else None


def _with_loops(pts: list[Stroke], rng: np.random.Generator, letter: str) -> list[Stroke]:
    pts = list(pts)
    first, last = pts[0], pts[-1]
    if rng.random() < START_LOOP_CHANCE and len(first) > 1:
        d = _direction(first, at_end=False)
        if d is not None:
            pts[0] = np.concatenate([_loop(first[0], d, rng), first[1:]])
    if rng.random() < END_LOOP_CHANCE and len(last) > 1 and letter in END_LOOP_LETTERS:
        d = _direction(pts[-1], at_end=True)
        if d is not None:
            # the same loop, travelled backwards from the end point
            pts[-1] = np.concatenate([pts[-1][:-1], _loop(pts[-1][-1], -d, rng)[::-1]])
    if rng.random() < CORNER_LOOP_CHANCE and letter in CORNER_LOOP_LETTERS:
        i = int(rng.integers(len(pts)))
        k = _sharpest_turn(pts[i])
        if k is not None:
            st = pts[i]
            d = st[k + 2] - st[k]
            nd = float(np.linalg.norm(d))
            if nd > MIN_LEN:
                pts[i] = np.concatenate([st[:k], _loop(st[k], d / nd, rng), st[k + 1:]])
    return pts


def vary_strokes(strokes: Sequence[Stroke], letter: str, rng: np.random.Generator,
                 loops: bool = False) -> tuple[Stroke, ...]:
    """The trajectory of ``letter`` (1 high, y down) as another hand might have drawn it;
    with ``loops``, sometimes with cursive loops too (where the first stroke starts, the
    last one ends, or at a sharp corner)."""
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
    if loops:
        pts = _with_loops(pts, rng, letter.upper())
    if rng.random() < HOOK_CHANCE and len(pts[0]) > 1:
        pts[0] = _hook(pts[0], rng)
    if rng.random() < RUNON_CHANCE and len(pts[-1]) > 1:
        pts[-1] = _runon(pts[-1], rng)
    return tuple(pts)
