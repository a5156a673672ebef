"""Low light: a photo so grainy that its noise, not the player's pencil, leaves fields in
doubt. A dim room makes a phone raise its gain; the grain then reads as faint strokes and
hides light ones, and the cure is one retake in better light, not sixty answers. The
sheet's own print says how grainy the photo is: how far its lines stand below the paper,
against how much the blank paper around them flickers.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.sheet.constants import (
    LOW_LIGHT_PAPER_FROM,
    LOW_LIGHT_PAPER_MARGIN_MM,
    LOW_LIGHT_PRINT_BELOW,
    LOW_LIGHT_SMOOTH_MM,
    LOW_LIGHT_STRIDE,
)


def contrast_to_noise(ratio: np.ndarray, blank: np.ndarray, px_per_mm: float) -> float:
    """The printed lines' depth below the paper over the blank paper's noise (both in the
    photo's lightness over its local paper white, ``ratio``); inf where the sheet shows no
    plain paper or no print to measure."""
    # Every LOW_LIGHT_STRIDE-th pixel each way: each keeps its own grain (none is averaged
    # away), and a ninth of the page is plenty to measure it, at a ninth of the cost.
    step = LOW_LIGHT_STRIDE
    ratio, blank, px_per_mm = ratio[::step, ::step], blank[::step, ::step], px_per_mm / step
    r = max(1, int(round(LOW_LIGHT_PAPER_MARGIN_MM * px_per_mm)))
    away = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1))
    paper = cv2.erode((blank >= LOW_LIGHT_PAPER_FROM).astype(np.uint8), away) > 0
    lines = blank < LOW_LIGHT_PRINT_BELOW
    if not paper.any() or not lines.any():
        return float("inf")
    grain = ratio - cv2.GaussianBlur(ratio, (0, 0), LOW_LIGHT_SMOOTH_MM * px_per_mm)
    on_paper = grain[paper]
    noise = 1.4826 * float(np.median(np.abs(on_paper - np.median(on_paper))))  # robust sd
    depth = 1.0 - float(np.median(ratio[lines]))
    return depth / max(noise, 1e-6)
