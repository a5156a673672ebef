"""The square lattice a die's pips sit on, fitted to where they were found.

Both pip counts lean on it: the blobs' misfit check (cell.py) measures how far each pip
lies off it, the paint count (paint.py) reads the nine points it puts on the face, and the
reader compares each face's step with the other dice of the photo (``pip_step``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.vision.dice import small_stats


def fit_square_lattice(
    anchors: Sequence[tuple[float, float]], spacing: float,
    targets: Sequence[tuple[float, float]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Least squares: (centre x, centre y, step a, step b), the lattice point (u, v) lying
    at centre + u * (a, b) + v * (-b, a), and each pip's residual (x, y).

    Each pip's lattice point is its anchor (x, y) against the anchors' mean, rounded in
    steps of ``spacing``; the lattice is fitted to ``targets`` (sub-pixel centres, say),
    or to the anchors themselves.
    """
    pts = np.asarray(anchors, np.float64)
    cx, cy = pts.mean(axis=0)
    rows: list[list[float]] = []
    for x, y in pts:
        u, v = round((x - cx) / spacing), round((y - cy) / spacing)
        rows += [[1.0, 0.0, u, -v], [0.0, 1.0, v, u]]
    a = np.array(rows)
    rhs = np.asarray(anchors if targets is None else targets, np.float64).reshape(-1)
    sol = np.linalg.lstsq(a, rhs, rcond=None)[0]
    return sol, (a @ sol - rhs).reshape(-1, 2)


def pip_step(points: Sequence[tuple[float, float]], spacing: float) -> float:
    """The lattice step the pips (x, y) show: the median size of their offsets from their
    mean along each axis, those under 0.35 of the expected ``spacing`` (a middle pip, a
    pip's own row or column) left out; ``spacing`` when every offset is that small."""
    n = len(points)
    if n == 0:
        return spacing
    cx = sum(x for x, _ in points) / n
    cy = sum(y for _, y in points) / n
    comps = [abs(v) for x, y in points for v in (y - cy, x - cx) if abs(v) > 0.35 * spacing]
    return small_stats.median(comps) if comps else spacing
