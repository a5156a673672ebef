"""Die faces painted for the cell reader's tests: one face filling a cell, pips on the
standard lattice with soft edges: round, rounded squares, or drilled (a round pip whose
wall shows as a darker ring round its floor)."""

from __future__ import annotations

import numpy as np

from companion.vision.dice import constants as C

N = C.CELL_PATCH_PX
MID = (N - 1) / 2
LATTICE_PX = C.PIP_LATTICE_FRACTION * N
PIP_R = C.PIP_DIAMETER_FRACTION * N / 2


def paint_pip(img: np.ndarray, row: float, col: float, colour: np.ndarray,
              edge: float = 1.0, shape: str = "round") -> np.ndarray:
    """``img`` with a pip painted ``colour`` at (``row``, ``col``) lattice units from the
    middle, its rim ``edge`` px soft; ``shape`` round, square or ring (drilled)."""
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    dx, dy = xx - (MID + col * LATTICE_PX), yy - (MID + row * LATTICE_PX)
    if shape == "square":  # a rounded square, as the synthetic dice draw it
        d = (np.abs(dx) ** 4 + np.abs(dy) ** 4) ** 0.25 * 1.08
    else:
        d = np.hypot(dx, dy)
    inside = np.clip((PIP_R - d) / edge + 0.5, 0, 1)[..., None]
    pip = np.broadcast_to(np.asarray(colour, np.float32), img.shape)
    if shape == "ring":  # the drilled pip's wall in shadow round its floor
        wall = 1 - 0.5 * np.exp(-((d - 0.8 * PIP_R) ** 2) / (2 * (0.12 * PIP_R) ** 2))
        pip = pip * wall[..., None]
    return img * (1 - inside) + pip * inside


def face(face_bgr: tuple[float, float, float], value: int, pip: np.ndarray,
         edge: float = 1.0, shape: str = "round") -> np.ndarray:
    """A face of ``face_bgr`` filling the cell with ``value`` pips painted ``pip`` (float,
    not yet clipped) in ``shape``."""
    img = np.empty((N, N, 3), np.float32)
    img[:] = face_bgr
    for r, c in C.PIP_LAYOUTS[value]:
        img = paint_pip(img, r, c, pip, edge, shape)
    return img
