"""Which way the block's rows run: the mat's, not the camera's.

The grid is fitted along whichever seams lie nearest the photo's axes, so a photo turned a
quarter would swap rows and columns. On the mat the printed page fixes them: columns run
along the page's x axis (mm), rows down its y axis, whatever the camera's angle. Off the
mat the block's own shape decides: its longer side runs along the columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

import cv2
import numpy as np

from companion.vision.dice.grid import DiceGrid


class _Placed(Protocol):
    @property
    def row(self) -> int: ...

    @property
    def col(self) -> int: ...


_T = TypeVar("_T", bound=_Placed)
_U = TypeVar("_U", bound=_Placed)

# quarter turns of grid coordinates (x = col, y = row): k -> 2x2 matrix new = M @ old
_TURNS = tuple(
    np.array(m, np.float64)
    for m in ([[1, 0], [0, 1]], [[0, -1], [1, 0]], [[-1, 0], [0, -1]], [[0, 1], [-1, 0]])
)


def quarter_turns_to_page(grid: DiceGrid, px_to_mm: np.ndarray, at: tuple[float, float]) -> int:
    """Quarter turns that bring the grid's columns along the page's x axis (mm) and its
    rows along the page's y axis, near grid point ``at`` (x = col, y = row)."""
    pts = np.array([[at[0], at[1]], [at[0] + 1, at[1]], [at[0], at[1] + 1]], np.float64)
    px = cv2.perspectiveTransform(pts[None], grid.h)[0]
    mm = cv2.perspectiveTransform(px[None], px_to_mm)[0]
    u, v = mm[1] - mm[0], mm[2] - mm[0]  # grid x and y axes on the page
    frame = np.stack([u, v], axis=1)  # page = frame @ grid
    best, best_k = -np.inf, 0
    for k, m in enumerate(_TURNS):
        # new grid = m @ old grid, so page = frame @ m^-1 @ new grid: want it near identity
        f = frame @ np.linalg.inv(m)
        f = f / np.linalg.norm(f, axis=0, keepdims=True)
        score = float(f[0, 0] + f[1, 1])
        if score > best:
            best, best_k = score, k
    return best_k


def turn_cells(
    dice: Sequence[_T], grid: DiceGrid, k: int, extra: Sequence[_U] = ()
) -> tuple[list[_T], DiceGrid, list[_U]]:
    """Renumber dice (dataclasses with ``row`` and ``col``) and the grid by ``k`` quarter
    turns, rows and cols starting at 0 again; ``extra`` cells (gaps) are turned alike,
    numbered as the dice are."""
    if k % 4 == 0 or not dice:
        return list(dice), grid, list(extra)
    m = _TURNS[k % 4]
    cells = [m @ np.array([float(d.col), float(d.row)]) for d in dice]
    c0 = min(int(round(c[0])) for c in cells)
    r0 = min(int(round(c[1])) for c in cells)
    a = np.eye(3)
    a[:2, :2] = m
    a[:2, 2] = [-c0, -r0]  # old grid -> new grid
    h = grid.h @ np.linalg.inv(a)
    corners = [a @ np.array([x, y, 1.0]) for x in (grid.cols.start, grid.cols.stop - 1)
               for y in (grid.rows.start, grid.rows.stop - 1)]
    xs = [int(round(p[0])) for p in corners]
    ys = [int(round(p[1])) for p in corners]
    new_grid = DiceGrid(h, range(min(ys), max(ys) + 1), range(min(xs), max(xs) + 1))
    return _renumbered(dice, m, r0, c0), new_grid, _renumbered(extra, m, r0, c0)


def _renumbered(items: Sequence[_T], m: np.ndarray, r0: int, c0: int) -> list[_T]:
    """``items`` turned by ``m`` and shifted so the dice start at row and column 0, in
    reading order."""
    out = []
    for d in items:
        p = m @ np.array([float(d.col), float(d.row)])
        out.append(_moved(d, int(round(p[1])) - r0, int(round(p[0])) - c0))
    return sorted(out, key=lambda d: (d.row, d.col))


def _moved(d: _T, row: int, col: int) -> _T:
    out: Any = replace(d, row=row, col=col)  # type: ignore[type-var]
    return out  # type: ignore[no-any-return]


def own_axes_turn(dice: Sequence[_Placed]) -> int:
    """Off the mat: a quarter turn when the block stands taller than it is wide."""
    rows = {d.row for d in dice}
    cols = {d.col for d in dice}
    return 1 if len(rows) > len(cols) else 0
