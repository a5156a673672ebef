"""Die faces painted for the cell reader's tests: one face filling a cell, round pips on the
standard lattice with soft edges."""

from __future__ import annotations

import numpy as np

from companion.vision.dice import constants as C

N = C.CELL_PATCH_PX
MID = (N - 1) / 2
LATTICE_PX = C.PIP_LATTICE_FRACTION * N
PIP_R = C.PIP_DIAMETER_FRACTION * N / 2


def paint_pip(img: np.ndarray, row: float, col: float, colour: np.ndarray,
              edge: float = 1.0) -> np.ndarray:
    """``img`` with a round pip painted ``colour`` at (``row``, ``col``) lattice units from
    the middle, its rim ``edge`` px soft."""
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    d = np.hypot(xx - (MID + col * LATTICE_PX), yy - (MID + row * LATTICE_PX))
    inside = np.clip((PIP_R - d) / edge + 0.5, 0, 1)[..., None]
    return img * (1 - inside) + colour * inside


def face(face_bgr: tuple[float, float, float], value: int, pip: np.ndarray,
         edge: float = 1.0) -> np.ndarray:
    """A face of ``face_bgr`` filling the cell with ``value`` pips painted ``pip`` (float,
    not yet clipped)."""
    img = np.empty((N, N, 3), np.float32)
    img[:] = face_bgr
    for r, c in C.PIP_LAYOUTS[value]:
        img = paint_pip(img, r, c, pip, edge)
    return img
