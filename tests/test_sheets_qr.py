"""Every readable sheet's QR keeps the standard quiet zone and decodes with OpenCV's own
detector (not only with the ArUco-assisted one the reader also tries)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import layouts
from layouts.constants import QR_QUIET_MODULES
from layouts.render import pairs_by_code

DPI = 150
PX_PER_MM = DPI / 25.4
CASES = [(name, paper, variant, bw) for name in layouts.READABLE_SHEETS
         for paper in ("letter", "a4") for variant in ("A", "B") for bw in (False, True)]


@pytest.mark.parametrize(("name", "paper", "variant", "bw"), CASES)
def test_qr_has_its_quiet_zone_and_decodes(name: str, paper: str, variant: str,
                                           bw: bool) -> None:
    code = "K7Q2"
    geo = layouts.geometry(name, paper=paper, variant=variant)
    assert geo.qr_box_mm is not None
    grey = cv2.cvtColor(np.asarray(layouts.render_image(
        name, paper=paper, variant=variant, dpi=DPI, bw=bw, code=code)), cv2.COLOR_RGB2GRAY)
    b = geo.qr_box_mm
    modules = 21  # version 1: every four-letter code fits
    quiet = QR_QUIET_MODULES * b.w / modules
    outer = [int(np.floor(v * PX_PER_MM)) for v in (b.x - quiet, b.y - quiet)] + [
        int(np.ceil(v * PX_PER_MM)) for v in (b.x + b.w + quiet, b.y + b.h + quiet)]
    inner = [int(np.floor(v * PX_PER_MM)) - 1 for v in (b.x, b.y)] + [
        int(np.ceil(v * PX_PER_MM)) + 1 for v in (b.x + b.w, b.y + b.h)]
    zone = grey[outer[1]:outer[3], outer[0]:outer[2]].copy()
    zone[inner[1] - outer[1]:inner[3] - outer[1], inner[0] - outer[0]:inner[2] - outer[0]] = 255
    assert outer[1] >= 0 and outer[3] <= grey.shape[0]
    assert int((zone < 200).sum()) == 0, "something is printed in the QR's quiet zone"
    for dpi_grey in (grey, cv2.resize(grey, None, fx=2.0, fy=2.0,
                                       interpolation=cv2.INTER_CUBIC)):
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(dpi_grey)
        carried = code if pairs_by_code(name) else ""  # a pad or the mat pairs by nothing
        assert text.endswith(f":{carried}"), (name, paper, variant, bw, text)
