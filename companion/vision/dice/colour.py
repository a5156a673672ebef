"""Which ingredient a die is, from its face colour.

Colours are compared as log-chromaticity (ln R/G, ln B/G): brightness drops out, and the
colour of the light becomes a plain shift that one per-photo offset removes. The offset
comes from something known to be white (the mat's paper, or white pips), and is then
re-centred on the dice themselves when enough ingredients are present. Tan against orange
and pink against red differ far more in this space than in hue alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.vision.dice import constants as C


def log_chroma(bgr: Sequence[float]) -> np.ndarray:
    b, g, r = (max(float(v), 0.0) + 1.0 for v in bgr[:3])
    return np.array([np.log(r / g), np.log(b / g)])


INGREDIENT_NAMES: tuple[str, ...] = tuple(C.DIE_COLOURS_RGB)
# the game's box holds as many dice of each family (7 of the 35)
DICE_PER_FAMILY = C.FULL_BLOCK_DICE // len(INGREDIENT_NAMES)
CENTROIDS = np.array([log_chroma(rgb[::-1]) for rgb in C.DIE_COLOURS_RGB.values()])


@dataclass(frozen=True)
class ColourCall:
    ingredient: str
    confidence: float  # 0-1 from the margin to the runner-up
    distance: float  # spread units to the chosen centroid
    runner_up: str


def classify(feature: np.ndarray, offset: np.ndarray) -> ColourCall:
    d = np.linalg.norm(CENTROIDS - (feature - offset), axis=1) / C.COLOUR_SPREAD
    order = np.argsort(d)
    d1, d2 = float(d[order[0]]), float(d[order[1]])
    conf = min(1.0, max(0.0, (d2 - d1) / C.COLOUR_SURE_MARGIN))
    if d1 > C.COLOUR_MAX_DISTANCE:
        conf *= C.COLOUR_MAX_DISTANCE / d1
    return ColourCall(INGREDIENT_NAMES[order[0]], conf, d1, INGREDIENT_NAMES[order[1]])


def self_balance(features: Sequence[np.ndarray], offset: np.ndarray) -> np.ndarray:
    """Re-centre the white-balance offset on the dice: shift it by the median residual of
    every die from its nearest centroid, when at least a few ingredients are present."""
    off = offset.copy()
    for _ in range(3):
        calls = [classify(f, off) for f in features]
        if len({c.ingredient for c in calls}) < C.SELF_BALANCE_MIN_CLASSES:
            return off
        res = [
            (f - off) - CENTROIDS[INGREDIENT_NAMES.index(c.ingredient)]
            for f, c in zip(features, calls, strict=True)
        ]
        step = np.median(np.array(res), axis=0)
        new = off + step
        shift = new - offset
        norm = float(np.linalg.norm(shift))
        if norm > C.SELF_BALANCE_MAX_SHIFT:
            new = offset + shift * (C.SELF_BALANCE_MAX_SHIFT / norm)
        if float(np.linalg.norm(new - off)) < 1e-3:
            return new
        off = new
    return off
