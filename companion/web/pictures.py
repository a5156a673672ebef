"""Pictures the pages show: overlays scaled for a phone and encoded as JPEG."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import InputError
from companion.web.constants import OVERLAY_JPEG_QUALITY, OVERLAY_MAX_SIDE_PX

if TYPE_CHECKING:
    import numpy as np


def encode_jpeg(img: np.ndarray) -> bytes:
    """The image scaled down to ``OVERLAY_MAX_SIDE_PX`` at most, as a JPEG."""
    import cv2

    h, w = img.shape[:2]
    scale = min(1.0, OVERLAY_MAX_SIDE_PX / max(h, w))
    if scale < 1.0:
        img = cv2.resize(img, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, OVERLAY_JPEG_QUALITY])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 image
        raise InputError("cannot encode the overlay")
    return bytes(buf)
