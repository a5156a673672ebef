"""Example photos changed on purpose for the web tests and the docs' screenshots."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Half of the B written in garden.planter.r0.c1 of the example photo below, in its pixels
# (x0, y0, x1, y1): painted over in the paper's colour, the cell reads as an erased letter
# and goes to review. With the letter ensemble no example photo has a field in review.
HALF_A_LETTER = (1821, 543, 1864, 562)
REVIEW_EXAMPLE = EXAMPLES / "delicious" / "photos" / "combo-upside-down-B.jpg"


def photo_with_a_field_to_review(folder: Path) -> Path:
    """An example photo with one letter half rubbed out, so that one field is in review."""
    import cv2
    import numpy as np

    img = cv2.imread(str(REVIEW_EXAMPLE))
    x0, y0, x1, y1 = HALF_A_LETTER
    patch = img[y0:y1, x0:x1]
    img[y0:y1, x0:x1] = np.median(patch.reshape(-1, 3), axis=0)
    out = folder / "combo-half-erased.jpg"
    cv2.imwrite(str(out), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out
