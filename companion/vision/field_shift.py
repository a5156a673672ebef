"""Where each field's print sits in a flattened photo, a pixel or two from where the
markers' homography puts it (paper that is not perfectly flat): the printed border around
a field matched against the blank sheet's. Kept apart from registration, which finds the
sheet; this fine-tunes each field once it is found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.constants import SHIFT_MIN_GAIN


@dataclass(frozen=True, eq=False)
class ShiftTemplate:
    """A field's printed surroundings on the blank sheet, made ready once for
    :func:`field_shifts` against any number of photos (the blank is the same for all)."""

    spectrum: np.ndarray  # DFT (packed) of the template zero-padded to ``dft_size``
    mean: float
    sdv: float
    shape: tuple[int, int]  # template rows, cols
    dft_size: tuple[int, int]


def shift_template(
    blank_dark: np.ndarray, rect: tuple[int, int, int, int], max_shift_px: int
) -> ShiftTemplate | None:
    """``blank_dark[rect]`` prepared for :func:`field_shifts`; None when it holds too little
    print to align on (a standard deviation under 0.05)."""
    x0, y0, x1, y1 = rect
    templ = np.ascontiguousarray(blank_dark[y0:y1, x0:x1], np.float32)
    mean, sdv = cv2.meanStdDev(templ)
    if float(sdv[0, 0]) < 0.05:
        return None
    th, tw = templ.shape
    m = max_shift_px
    size = (cv2.getOptimalDFTSize(th + 2 * m), cv2.getOptimalDFTSize(tw + 2 * m))
    padded = np.zeros(size, np.float32)
    padded[:th, :tw] = templ
    spectrum = cv2.dft(padded, nonzeroRows=th)
    spectrum.flags.writeable = False
    return ShiftTemplate(spectrum, float(mean[0, 0]), float(sdv[0, 0]), (th, tw), size)


def field_shifts(
    photo_dark: np.ndarray, templates: Sequence[ShiftTemplate | None],
    rect: tuple[int, int, int, int], max_shift_px: int,
) -> list[tuple[int, int, float]]:
    """Where a field's printed surroundings sit in the photo relative to the blank sheet,
    against several prepared versions of the blank around ``rect`` (one per lens blur),
    sharing the photo window's transform and sums among them.

    Paper that is not perfectly flat moves fields by a pixel or two after the homography;
    the printed border around each field is matched to find that (dx, dy), returned with
    the match score. (0, 0) when the window holds too little print to align on or no shift
    matches clearly better than none (by SHIFT_MIN_GAIN).

    The score is ``cv2.matchTemplate``'s TM_CCOEFF_NORMED by the same formula and guards
    (it agrees to about 1e-6); with the blank's transforms made once per sheet, the photo
    side costs a third of four matchTemplate calls.
    """
    x0, y0, x1, y1 = rect
    h, w = photo_dark.shape[:2]
    m = max_shift_px
    if x0 - m < 0 or y0 - m < 0 or x1 + m > w or y1 + m > h or m <= 0:
        return [(0, 0, -1.0)] * len(templates)
    search = np.ascontiguousarray(photo_dark[y0 - m:y1 + m, x0 - m:x1 + m], np.float32)
    window: _SearchWindow | None = None
    out: list[tuple[int, int, float]] = []
    for t in templates:
        if t is None:
            out.append((0, 0, -1.0))
            continue
        if window is None or window.dft_size != t.dft_size or window.shape != t.shape:
            window = _SearchWindow(search, t.shape, t.dft_size)
        scores = window.ccoeff_normed(t)
        _, best, _, loc = cv2.minMaxLoc(scores)
        still = float(scores[m, m])
        if best - still < SHIFT_MIN_GAIN:
            out.append((0, 0, still))
        else:
            out.append((loc[0] - m, loc[1] - m, float(best)))
    return out


class _SearchWindow:
    """A photo window's spectrum and sliding sums (double precision, as OpenCV keeps them),
    for normalised cross-correlation with templates of one size."""

    def __init__(self, search: np.ndarray, shape: tuple[int, int],
                 dft_size: tuple[int, int]) -> None:
        sh, sw = search.shape
        th, tw = shape
        self.shape, self.dft_size = shape, dft_size
        padded = np.zeros(dft_size, np.float32)
        padded[:sh, :sw] = search
        self.spectrum = cv2.dft(padded, nonzeroRows=sh)
        rh, rw = sh - th + 1, sw - tw + 1
        self.out_shape = (rh, rw)
        s, sq = cv2.integral2(search, sdepth=cv2.CV_64F)
        self.win_sum = s[th:, tw:] - s[:rh, tw:] - s[th:, :rw] + s[:rh, :rw]
        win_sq = sq[th:, tw:] - sq[:rh, tw:] - sq[th:, :rw] + sq[:rh, :rw]
        # 1 / the window's own norm, shared by every template; 0 where the window is flat
        diff2 = np.maximum(win_sq - self.win_sum * self.win_sum / float(th * tw), 0.0)
        root = np.sqrt(diff2)
        root[diff2 <= np.minimum(0.5, 10 * _FLT_EPSILON * win_sq)] = 0.0
        self.inv_root = np.divide(1.0, root, out=np.zeros_like(root), where=root > 0.0)

    def ccoeff_normed(self, t: ShiftTemplate) -> np.ndarray:
        rh, rw = self.out_shape
        prod = cv2.mulSpectrums(self.spectrum, t.spectrum, 0, conjB=True)
        corr = cv2.idft(prod, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE, nonzeroRows=rh)
        num = corr[:rh, :rw].astype(np.float64) - self.win_sum * t.mean
        scores = num * (self.inv_root / (t.sdv * np.sqrt(float(t.shape[0] * t.shape[1]))))
        over = np.abs(scores) >= 1.0  # rounding at a perfect match, as OpenCV settles it
        if over.any():
            scores[over] = np.where(np.abs(scores[over]) < 1.125, np.sign(scores[over]), 0.0)
        return scores.astype(np.float32)


_FLT_EPSILON = float(np.finfo(np.float32).eps)
