"""Table tops for synthetic dice photos: wood grain, woven cloth, speckled stone, paper,
plain."""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from tools.synth import dice_constants as K


def _smooth_noise(rng: np.random.Generator, size: tuple[int, int], cell_px: float) -> np.ndarray:
    """Value noise in [-1, 1] with features about ``cell_px`` across."""
    w, h = size
    gw, gh = max(2, int(w / cell_px) + 2), max(2, int(h / cell_px) + 2)
    small = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_texture(
    rng: np.random.Generator, kind: str, size: tuple[int, int], px_per_mm: float,
    more: Mapping[str, tuple[tuple[int, int, int], ...]] | None = None,
) -> np.ndarray:
    """A (height, width, 3) float BGR table of the given kind (a key of TABLES, or of
    ``more``: further base colours a style adds)."""
    w, h = size
    bases = (*K.TABLES.get(kind, ()), *(more or {}).get(kind, ()))
    base = np.array(bases[int(rng.integers(len(bases)))], dtype=np.float32)
    base = base * rng.uniform(0.9, 1.1)
    if kind == "wood":
        # grain: stretched noise along a random direction, plus plank seams
        ang = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        across = (-np.sin(ang) * xx + np.cos(ang) * yy) / px_per_mm
        warp = 6 * _smooth_noise(rng, size, 60 * px_per_mm)
        grain = np.sin((across + warp) * rng.uniform(0.8, 2.0)) * 0.5
        grain += 0.5 * _smooth_noise(rng, size, 3 * px_per_mm)
        plank = rng.uniform(70, 140)
        seam = (np.abs(((across + 1000) % plank) - plank / 2) > plank / 2 - 0.6).astype(np.float32)
        shade = 1 + 0.12 * grain - 0.35 * seam
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(0.8, 1.6) * px_per_mm
        weave = np.sin(2 * np.pi * xx / period) * np.sin(2 * np.pi * yy / period)
        shade = 1 + 0.06 * weave + 0.08 * _smooth_noise(rng, size, 30 * px_per_mm)
    elif kind == "stone":
        speck = rng.normal(0, 1, (h, w)).astype(np.float32)
        speck = np.asarray(cv2.GaussianBlur(speck, (0, 0), 0.6 * px_per_mm), np.float32)
        shade = 1 + 0.6 * speck + 0.1 * _smooth_noise(rng, size, 25 * px_per_mm)
    elif kind == "paper":
        # fibres, a soft fold or two and a faint sheen
        fibre = rng.normal(0, 1, (h, w)).astype(np.float32)
        fibre = np.asarray(cv2.GaussianBlur(fibre, (0, 0), 0.3 * px_per_mm), np.float32)
        shade = 1 + 0.03 * fibre + 0.05 * _smooth_noise(rng, size, 80 * px_per_mm)
    else:
        shade = 1 + 0.04 * _smooth_noise(rng, size, 40 * px_per_mm)
    return np.clip(base[None, None, :] * shade[..., None], 0, 255)
