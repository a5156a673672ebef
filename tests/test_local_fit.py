"""Bent paper: the warp fitted to the sheet's own print, and where it admits doubt.

The "photo" here is the blank combo sheet itself, flattened, with a known displacement
laid on it (what a lifted edge does to a sheet the markers flattened), so the fit can be
checked against the truth without a camera.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.paper.model import SheetLabel
from companion.vision import local_fit
from companion.vision.constants import RECTIFIED_PX_PER_MM
from companion.vision.register import Registration, layout_geometry
from companion.vision.sheet.reader import blank_sheet

PPM = RECTIFIED_PX_PER_MM


@pytest.fixture(scope="module")
def blank() -> np.ndarray:
    return np.asarray(blank_sheet("delicious-combo", "letter", "A", True))


def _scaled(blank: np.ndarray) -> local_fit.ScaledBlank:
    return local_fit.ScaledBlank(blank, PPM)


def _lifted(w_px: int, h_px: int, lift_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """A displacement (mm, per pixel) rising smoothly over the 60 mm nearest the left
    edge to ``lift_mm`` at the edge, as a sheet whose left edge is lifted off the table."""
    x_mm = np.arange(w_px, dtype=np.float32) / PPM
    ramp = np.clip((60.0 - x_mm) / 60.0, 0.0, 1.0) ** 2 * lift_mm
    dx = np.broadcast_to(ramp[None, :], (h_px, w_px)).astype(np.float32)
    dy = np.broadcast_to(0.4 * ramp[None, :], (h_px, w_px)).astype(np.float32)
    return dx, dy


def _warp(img: np.ndarray, dx_mm: np.ndarray, dy_mm: np.ndarray) -> np.ndarray:
    """The image displaced by d (mm): what the blank has at q shows at q + d, which is
    what the fit measures."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return np.asarray(cv2.remap(img, xs - dx_mm * PPM, ys - dy_mm * PPM, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE))


def _registration() -> Registration:
    geo = layout_geometry("delicious-combo", "letter", "A")
    label = SheetLabel(geo.sheet, geo.version, geo.variant, geo.paper, "")
    return Registration(geo, label, np.eye(3), PPM, (0, 1, 2, 3), 0.0)


def test_a_flat_sheet_is_left_alone(blank: np.ndarray) -> None:
    page_mm = layout_geometry("delicious-combo", "letter", "A").page_mm
    rough = local_fit.coarse(blank, _scaled(blank), page_mm)
    assert len(rough) > 50
    assert max(np.hypot(a.dx_mm, a.dy_mm) for a in rough) < 0.2
    assert not local_fit.bent(rough)
    same, fit = local_fit.follow(blank, _registration(), blank, _scaled(blank))
    assert fit is None and same is blank


def test_the_fit_finds_a_lifted_edge(blank: np.ndarray) -> None:
    h, w = blank.shape
    dx, dy = _lifted(w, h, 8.0)
    photo = _warp(blank, dx, dy)
    page_mm = layout_geometry("delicious-combo", "letter", "A").page_mm
    rough = local_fit.coarse(photo, _scaled(blank), page_mm)
    assert local_fit.bent(rough)
    fit = local_fit.fit(photo, _scaled(blank), page_mm, rough)
    errors = [np.hypot(a.dx_mm - dx[int(a.y_mm * PPM), int(a.x_mm * PPM)],
                       a.dy_mm - dy[int(a.y_mm * PPM), int(a.x_mm * PPM)])
              for a in fit.anchors]
    assert len(errors) > 200
    assert float(np.median(errors)) < 0.15 and float(np.percentile(errors, 95)) < 0.5


def test_flattening_through_the_fit_undoes_the_bend(blank: np.ndarray) -> None:
    h, w = blank.shape
    dx, dy = _lifted(w, h, 8.0)
    photo = _warp(blank, dx, dy)
    reg = _registration()
    flat, fit = local_fit.follow(photo, reg, photo, _scaled(blank))
    assert fit is not None
    left = np.s_[200:h - 200, 60:int(50 * PPM)]  # the lifted strip, inside the margins

    def off(img: np.ndarray) -> float:
        return float(np.abs(img[left].astype(np.float32) - blank[left]).mean())

    assert off(flat) < 0.35 * off(photo)


def test_doubt_where_no_print_vouches_or_the_page_breaks(blank: np.ndarray) -> None:
    h, w = blank.shape
    page_mm = layout_geometry("delicious-combo", "letter", "A").page_mm
    # A page torn along x = 100 mm: the right part sits 4 mm lower than the left.
    dy = np.zeros((h, w), np.float32)
    dy[:, int(100 * PPM):] = 4.0
    dx = np.full((h, w), 3.0, np.float32)
    photo = _warp(blank, dx, dy)
    # ... and its print hidden over a 65 mm square (a hand, a curl seen edge on).
    hidden = np.s_[int(140 * PPM):int(205 * PPM), int(150 * PPM):int(215 * PPM)]
    photo[hidden] = 255
    fit = local_fit.fit(photo, _scaled(blank), page_mm)
    assert fit.doubt_in(96.0, 120.0, 8.0, 8.0) > 0.6  # at the break
    assert fit.doubt_in(30.0, 60.0, 10.0, 10.0) < 0.6  # far from it, in the print
    assert fit.doubt_in(178.0, 168.0, 8.0, 8.0) == float("inf")  # nothing vouches


def test_switched_off_reads_as_before(blank: np.ndarray) -> None:
    h, w = blank.shape
    dx, dy = _lifted(w, h, 8.0)
    photo = _warp(blank, dx, dy)
    with local_fit.switched_off():
        assert not local_fit.enabled()
        same, fit = local_fit.follow(photo, _registration(), photo, _scaled(blank))
    assert fit is None and same is photo
    assert local_fit.enabled()
