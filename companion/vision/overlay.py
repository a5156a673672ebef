"""What every reader's overlay shares: legible labels and writing the image out.

The sheet overlay (``companion.vision.sheet.overlay``) and the dice overlay
(``companion.vision.dice.overlay``) draw different things on the same kind of canvas.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import InputError

FONT = cv2.FONT_HERSHEY_SIMPLEX
WHITE_BGR = (255, 255, 255)
BLACK_BGR = (0, 0, 0)


def halo_text(img: np.ndarray, text: str, org: tuple[int, int], scale: float,
              colour: tuple[int, int, int], thick: int,
              halo: tuple[int, int, int] = WHITE_BGR, halo_px: int = 3) -> None:
    """Text over a wider stroke of ``halo`` so it reads on any background."""
    cv2.putText(img, text, org, FONT, scale, halo, thick + halo_px, cv2.LINE_AA)
    cv2.putText(img, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def write_overlay(path: str | Path, image: np.ndarray) -> None:
    """Save an overlay; an extension OpenCV cannot encode, or a file that cannot be written
    (no such folder, no permission, a full disk), is an InputError saying which."""
    try:
        ok, data = cv2.imencode(Path(path).suffix.lower(), image)
    except cv2.error:
        ok = False
    if not ok:
        raise InputError(f"{path}: cannot write the overlay image (use .png or .jpg)")
    try:
        Path(path).write_bytes(data.tobytes())
    except OSError as exc:
        raise InputError(f"cannot write the overlay {path}: {exc.strerror or exc}") from None
