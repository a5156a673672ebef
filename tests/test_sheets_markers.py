"""The marker bits stored in layouts match OpenCV's ArUco dictionary.

Run ``python -m tests.test_sheets_markers`` to print the constants again from OpenCV.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.paper.model import CORNER_MARKER_IDS
from layouts.markers import MARKER_BITS, marker_modules


def _opencv_modules(marker_id: int) -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = cv2.aruco.generateImageMarker(d, marker_id, 6)  # one pixel per module
    return img == 0  # True where black


@pytest.mark.parametrize("marker_id", CORNER_MARKER_IDS)
def test_marker_bits_match_opencv(marker_id: int) -> None:
    assert np.array_equal(np.array(marker_modules(marker_id)), _opencv_modules(marker_id))


def test_every_corner_marker_is_stored() -> None:
    assert sorted(MARKER_BITS) == list(CORNER_MARKER_IDS)


if __name__ == "__main__":
    for i in CORNER_MARKER_IDS:
        rows = _opencv_modules(i)[1:5, 1:5]
        print(f"    {i}: ({', '.join(repr(''.join('#' if b else '.' for b in r)) for r in rows)}),")
