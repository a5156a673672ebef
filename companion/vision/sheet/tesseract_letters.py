"""Tesseract as a baseline (and optional second opinion) for handwritten cell letters.

Tesseract is trained on print, so it gets the cleanest input we can make: light evened
out, printed border lines erased, the letter cut out, padded with white and scaled to the
size it reads best, black on white, with the field's letters as the only allowed output.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.errors import InputError
from companion.vision.sheet.constants_letters import (
    INK_LEVEL,
    TESSERACT_LETTER_HEIGHT_PX,
    TESSERACT_PAD_FRACTION,
)
from companion.vision.sheet.letters import erase_edge_lines, ink_box, ink_image, restretch


def tesseract_input(crop_gray: np.ndarray) -> np.ndarray:
    """Black-on-white uint8 image of the letter alone, padded, at tesseract's best size."""
    ink = ink_image(crop_gray)
    erase_edge_lines(ink)
    ink = restretch(ink)
    box = ink_box(ink)
    if box is None:
        return np.full((TESSERACT_LETTER_HEIGHT_PX * 2,) * 2, 255, np.uint8)
    x0, y0, x1, y1 = box
    letter: np.ndarray = ink[y0:y1, x0:x1]
    scale = TESSERACT_LETTER_HEIGHT_PX / max(1, y1 - y0)
    w = max(1, int(round((x1 - x0) * scale)))
    letter = cv2.resize(letter, (w, TESSERACT_LETTER_HEIGHT_PX),
                        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    pad = int(TESSERACT_LETTER_HEIGHT_PX * TESSERACT_PAD_FRACTION)
    # crisp black on white: tesseract binarises anyway, and grey pencil confuses its Otsu
    img = np.where(letter > INK_LEVEL, 0, 255).astype(np.uint8)
    return cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def read_letter_tesseract(crop_gray: np.ndarray, allowed: Sequence[str],
                          ) -> tuple[str | None, float]:
    """(letter, confidence in [0, 1]) from tesseract, or (None, 0.0) when it reads nothing
    the field allows."""
    import pytesseract  # optional dependency: only this reader needs it

    letters = sorted({a.upper() for a in allowed})
    if not letters or any(len(a) != 1 or not a.isalpha() for a in letters):
        raise InputError(f"allowed letters must be single letters, got {list(allowed)}")
    img = tesseract_input(crop_gray)
    config = f"--psm 10 -c tessedit_char_whitelist={''.join(letters)}"
    data = pytesseract.image_to_data(img, config=config, output_type=pytesseract.Output.DICT)
    best: tuple[str | None, float] = (None, 0.0)
    for text, conf in zip(data["text"], data["conf"], strict=True):
        t = str(text).strip().upper()
        c = float(conf)
        if t and t[0] in letters and c / 100 > best[1]:
            best = (t[0], max(0.0, min(1.0, c / 100)))
    return best
