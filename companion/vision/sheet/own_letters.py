"""A doubtful letter compared with the same player's sure letters on the same sheet.

One player writes every letter on a sheet, so their sure letters are examples of their own
hand. A doubtful letter's probabilities are reweighed by how much more it looks like the
player's sure examples of one candidate than of another: cosine likeness of the network's
own last hidden layer where the model exposes it, else of the blurred network inputs.
Only doubtful letters are touched; a candidate without an example on the sheet keeps its
weight, so a sheet with few sure letters reads as before, and a reweighed letter is never
more confident than the plain reading was (it stays in review if it was: the comparison
may change which letter leads, not how sure the reader claims to be).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.vision.sheet.constants_letters import (
    OWN_BLUR_PX,
    OWN_MIN_GAIN,
    OWN_SURE_ABOVE,
    OWN_WEIGHT,
)

Ranked = list[tuple[str, float]]


def letter_features(inputs: NDArray[np.float32], hidden: NDArray[np.float32] | None = None,
                    ) -> NDArray[np.float64]:
    """Unit-length rows to compare letters by: the network's hidden features when given
    (non-empty), else the blurred, zero-mean network inputs."""
    if hidden is not None and hidden.size and hidden.shape[0] == len(inputs):
        h = np.asarray(hidden, np.float64).reshape(len(inputs), -1)
        return h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-9)
    rows = []
    for x in inputs:
        f = cv2.GaussianBlur(np.asarray(x, np.float32), (0, 0), OWN_BLUR_PX).astype(np.float64)
        f = f.ravel() - f.mean()
        rows.append(f / max(float(np.linalg.norm(f)), 1e-9))
    return np.array(rows).reshape(len(rows), -1)


def compare_own(feats: NDArray[np.float64], ranked: Sequence[Ranked], doubt_below: float,
                weight: float = OWN_WEIGHT, trusted: Sequence[bool] = ()) -> list[Ranked]:
    """``ranked`` with each doubtful letter (top probability under ``doubt_below``) reweighed
    by its likeness to the sheet's sure letters (top probability above OWN_SURE_ABOVE);
    ``feats`` are one sheet's :func:`letter_features`, a row per letter; ``trusted`` (if
    given) says which letters may serve as examples at all (surely written cells)."""
    out = [list(r) for r in ranked]
    if len(ranked) < 2:
        return out
    may = list(trusted) if trusted else [True] * len(ranked)
    sure = [i for i, r in enumerate(ranked) if r and r[0][1] >= OWN_SURE_ABOVE and may[i]]
    doubtful = [i for i, r in enumerate(ranked) if r and r[0][1] < doubt_below]
    if not sure or not doubtful:
        return out
    by_letter: dict[str, list[int]] = {}
    for i in sure:
        by_letter.setdefault(ranked[i][0][0], []).append(i)
    for j in doubtful:
        sims = {c: float(np.max(feats[by_letter[c]] @ feats[j])) for c, _ in ranked[j]
                if c in by_letter}
        if len(sims) < 2 and not (len(sims) == 1 and len(ranked[j]) >= 2):
            continue
        mean = float(np.mean(list(sims.values())))
        weighed = [(c, p * float(np.exp(weight * (sims.get(c, mean) - mean))))
                   for c, p in ranked[j]]
        total = sum(p for _, p in weighed)
        if total <= 0:
            continue
        new = sorted(((c, p / total) for c, p in weighed), key=lambda t: -t[1])
        if new[0][0] == ranked[j][0][0]:
            continue  # the same letter leads: keep the plain, uncorrected probabilities
        if new[0][1] - new[1][1] < OWN_MIN_GAIN:
            continue
        cap = ranked[j][0][1]
        out[j] = [(c, min(p, cap)) for c, p in new]
    return out
