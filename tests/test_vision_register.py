"""Registration: markers and QR found at any rotation, tilt, size and light; clear failures.

These tests draw their own small stand-in sheet (markers, QR code, a few boxes) so they
check the registration maths independently of the real layouts, and photograph it with
the synthetic phone camera, which also tells where the page corners really landed.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
import segno

from companion.errors import ImageError
from companion.paper.model import Box, FieldKind, FieldSpec, MarkerSpec, SheetGeometry
from companion.vision.constants import SHIFT_MIN_GAIN
from companion.vision.register import find_markers, register
from tools.synth.camera import CameraOptions, shoot

PAGE_MM = (215.9, 279.4)
MARKER_MM = 15.0
DRAW_PX_PER_MM = 6.0
QR_BOX = Box(93.0, 6.0, 30.0, 30.0)


def fake_geometry(name: str, paper: str = "letter", variant: str = "A",
                  version: int = 1) -> SheetGeometry:
    """A stand-in for layouts.geometry: markers 12 mm in from each corner, QR top centre."""
    w, h = PAGE_MM
    c = 12.0 + MARKER_MM / 2
    markers = (
        MarkerSpec(0, (c, c), MARKER_MM),
        MarkerSpec(1, (w - c, c), MARKER_MM),
        MarkerSpec(2, (w - c, h - c), MARKER_MM),
        MarkerSpec(3, (c, h - c), MARKER_MM),
    )
    fields = tuple(
        FieldSpec(f"box{i}", FieldKind.CHOICE, Box(40.0 + 30 * i, 120.0, 12.0, 12.0), ("marked",))
        for i in range(4)
    )
    return SheetGeometry(name, version, variant, paper, PAGE_MM, markers, fields, QR_BOX)


def fake_page(name: str = "delicious-garden", code: str = "AB12",
              ppm: float = DRAW_PX_PER_MM) -> np.ndarray:
    """The stand-in sheet drawn as a BGR image at ``ppm`` pixels per mm."""
    geo = fake_geometry(name)
    w, h = round(PAGE_MM[0] * ppm), round(PAGE_MM[1] * ppm)
    page = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for m in geo.markers:
        side = round(m.size_mm * ppm)
        img = cv2.aruco.generateImageMarker(dictionary, m.id, side)
        x0 = round((m.center_mm[0] - m.size_mm / 2) * ppm)
        y0 = round((m.center_mm[1] - m.size_mm / 2) * ppm)
        page[y0:y0 + side, x0:x0 + side] = img
    qr = np.array(segno.make(geo.label(code).encode(), error="m", micro=False).matrix, np.uint8)
    q = QR_BOX
    side = round(q.w * ppm)
    qimg = cv2.resize(((1 - qr) * 255).astype(np.uint8), (side, side),
                      interpolation=cv2.INTER_NEAREST)
    page[round(q.y * ppm):round(q.y * ppm) + side, round(q.x * ppm):round(q.x * ppm) + side] = qimg
    for f in geo.fields:
        b = f.box_mm
        cv2.rectangle(page, (round(b.x * ppm), round(b.y * ppm)),
                      (round((b.x + b.w) * ppm), round((b.y + b.h) * ppm)), 0, 2)
    return cv2.cvtColor(page, cv2.COLOR_GRAY2BGR)


def fake_blank(geo: SheetGeometry, ppm: float) -> np.ndarray:
    return cv2.cvtColor(fake_page(geo.sheet, "", ppm), cv2.COLOR_BGR2GRAY)


def reg_fake(photo: np.ndarray):  # type: ignore[no-untyped-def]
    return register(photo, geometry_fn=fake_geometry, blank_fn=fake_blank)


SMALL = replace(CameraOptions().sized(3200), paper_bend_mm=(0.0, 0.0))


def _shoot(seed: int, options: CameraOptions = SMALL, page: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    page = fake_page() if page is None else page
    photo = shoot(page, np.random.default_rng(seed), options)
    return photo.image(), photo.corners_px


def _page_corner_error_mm(reg_h: np.ndarray, corners_px: np.ndarray, ppm: float) -> float:
    """Largest distance between where registration maps the true page corners and the corners."""
    proj = cv2.perspectiveTransform(corners_px.reshape(-1, 1, 2).astype(np.float64), reg_h)
    w, h = PAGE_MM
    truth = np.array([[0, 0], [w, 0], [w, h], [0, h]]) * ppm
    return float(np.linalg.norm(proj.reshape(-1, 2) - truth, axis=1).max() / ppm)


@pytest.mark.parametrize("seed", range(6))
def test_registers_random_phone_photos(seed: int) -> None:
    """Any rotation, tilt up to 35 degrees, a third of the frame or more, light and shadow."""
    photo, corners = _shoot(seed)
    reg = reg_fake(photo)
    assert reg.label.sheet == "delicious-garden" and reg.label.code == "AB12"
    assert reg.markers_found == (0, 1, 2, 3)
    assert _page_corner_error_mm(reg.homography, corners, reg.px_per_mm) < 1.5


@pytest.mark.parametrize("rotation", [0.0, 90.0, 180.0, 270.0, 137.0])
def test_any_rotation(rotation: float) -> None:
    opts = replace(SMALL, rotation_deg=(rotation, rotation), tilt_deg=(0.0, 10.0))
    photo, corners = _shoot(11, opts)
    reg = reg_fake(photo)
    assert _page_corner_error_mm(reg.homography, corners, reg.px_per_mm) < 1.0


def test_steep_tilt_small_in_frame_with_shadow() -> None:
    opts = replace(SMALL, size_px=(4000, 3000), tilt_deg=(33.0, 35.0), fill=(0.34, 0.36),
                   shadow_chance=1.0,
                   shadow_depth=(0.5, 0.55), light_gradient=(0.4, 0.45))
    for seed in (4, 5):
        photo, corners = _shoot(seed, opts)
        reg = reg_fake(photo)
        assert _page_corner_error_mm(reg.homography, corners, reg.px_per_mm) < 2.0


def test_twelve_megapixel_photo() -> None:
    opts = replace(CameraOptions(), tilt_deg=(20.0, 25.0), fill=(0.5, 0.6),
                   paper_bend_mm=(0.0, 0.0))
    photo, corners = _shoot(5, opts, fake_page(ppm=10.0))
    assert photo.shape[0] * photo.shape[1] >= 11_000_000
    reg = reg_fake(photo)
    assert _page_corner_error_mm(reg.homography, corners, reg.px_per_mm) < 0.8


def _blank_out(page: np.ndarray, marker_ids: tuple[int, ...]) -> np.ndarray:
    page = page.copy()
    geo = fake_geometry("delicious-garden")
    for m in geo.markers:
        if m.id in marker_ids:
            s = (m.size_mm / 2 + 1) * DRAW_PX_PER_MM
            x, y = m.center_mm[0] * DRAW_PX_PER_MM, m.center_mm[1] * DRAW_PX_PER_MM
            page[round(y - s):round(y + s), round(x - s):round(x + s)] = 255
    return page


GENTLE = replace(SMALL, tilt_deg=(0.0, 15.0), shadow_chance=0.0, fill=(0.6, 0.8))


def test_three_markers_still_register() -> None:
    photo, corners = _shoot(7, GENTLE, _blank_out(fake_page(), (2,)))
    reg = reg_fake(photo)
    assert reg.markers_found == (0, 1, 3)
    assert _page_corner_error_mm(reg.homography, corners, reg.px_per_mm) < 2.0


def test_two_markers_say_which_and_what_to_do() -> None:
    photo, _ = _shoot(8, GENTLE, _blank_out(fake_page(), (1, 3)))
    with pytest.raises(ImageError) as info:
        reg_fake(photo)
    msg = str(info.value)
    assert "found 2 of 4 corner markers (top-left, bottom-right)" in msg
    assert "\n" not in msg


def test_no_markers() -> None:
    rng = np.random.default_rng(0)
    photo = rng.integers(90, 160, (900, 1200, 3), dtype=np.uint8)
    with pytest.raises(ImageError, match="found 0 of 4 corner markers"):
        reg_fake(photo)


def test_cropped_photo_says_step_back() -> None:
    photo, corners = _shoot(9, GENTLE)
    ys = corners[:, 1]
    cut = int((ys.min() + ys.max()) / 2)
    with pytest.raises(ImageError, match="step back"):
        reg_fake(photo[:cut])


def test_unreadable_qr() -> None:
    page = fake_page()
    q = QR_BOX
    p = DRAW_PX_PER_MM
    page[round(q.y * p):round((q.y + q.h) * p), round(q.x * p):round((q.x + q.w) * p)] = 255
    photo, _ = _shoot(10, GENTLE, page)
    with pytest.raises(ImageError, match="could not read the sheet's QR code"):
        reg_fake(photo)


def test_other_sheet_refused() -> None:
    photo, _ = _shoot(12, GENTLE, fake_page("diced-veggies-mat"))
    with pytest.raises(ImageError, match="Diced Veggies dice mat"):
        reg_fake(photo)


def test_find_markers_on_flat_render() -> None:
    found = find_markers(cv2.cvtColor(fake_page(), cv2.COLOR_BGR2GRAY))
    assert sorted(found) == [0, 1, 2, 3]
    tl = found[0][0]
    assert abs(tl[0] - 12 * DRAW_PX_PER_MM) < 1.5 and abs(tl[1] - 12 * DRAW_PX_PER_MM) < 1.5


def _matched_shift(
    photo_dark: np.ndarray, blank_dark: np.ndarray, rect: tuple[int, int, int, int],
    max_shift_px: int,
) -> tuple[int, int, float]:
    """The reference for field_shifts: one field's shift by cv2.matchTemplate."""
    x0, y0, x1, y1 = rect
    h, w = photo_dark.shape[:2]
    m = max_shift_px
    if x0 - m < 0 or y0 - m < 0 or x1 + m > w or y1 + m > h or m <= 0:
        return (0, 0, -1.0)
    templ = np.ascontiguousarray(blank_dark[y0:y1, x0:x1], np.float32)
    if float(templ.std()) < 0.05:
        return (0, 0, -1.0)
    search = np.ascontiguousarray(photo_dark[y0 - m:y1 + m, x0 - m:x1 + m], np.float32)
    scores = cv2.matchTemplate(search, templ, cv2.TM_CCOEFF_NORMED)
    _, best, _, loc = cv2.minMaxLoc(scores)
    still = float(scores[m, m])
    if best - still < SHIFT_MIN_GAIN:
        return (0, 0, still)
    return (loc[0] - m, loc[1] - m, float(best))


def test_field_shifts_agree_with_match_template() -> None:
    """The shared-transform matcher finds the same shift and score as matchTemplate, for
    each blur of the blank, on a photo whose print sits 3 px right and 2 px up."""
    from companion.vision.field_shift import field_shifts, shift_template

    blank = np.zeros((160, 200), np.float32)
    cv2.rectangle(blank, (50, 40), (150, 110), 1.0, 2)
    cv2.line(blank, (60, 75), (140, 75), 0.6, 1)
    cv2.circle(blank, (100, 60), 9, 0.8, 2)
    rng = np.random.default_rng(4)
    photo = np.roll(blank, (-2, 3), axis=(0, 1)) * 0.8 + rng.normal(0, 0.03, blank.shape)
    photo = photo.astype(np.float32)
    rect, reach = (40, 30, 160, 120), 12
    blurs = [cv2.GaussianBlur(blank, (0, 0), s) for s in (0.7, 1.2, 1.8, 2.6)]
    templates = [shift_template(b, rect, reach) for b in blurs]
    got = field_shifts(photo, templates, rect, reach)
    for b, (dx, dy, score) in zip(blurs, got, strict=True):
        want = _matched_shift(photo, b, rect, reach)
        assert (dx, dy) == want[:2] == (3, -2)
        assert score == pytest.approx(want[2], abs=1e-5)
    flat = np.zeros_like(blank)
    assert shift_template(flat, rect, reach) is None
    assert field_shifts(photo, [None], rect, reach) == [(0, 0, -1.0)]
    assert field_shifts(photo, templates[:1], (2, 2, 100, 100), reach) == [(0, 0, -1.0)]


def _side_by_side(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Two images on one table, as one photo (the shorter padded with a grey table)."""
    h = max(left.shape[0], right.shape[0])

    def pad(img: np.ndarray) -> np.ndarray:
        out = np.full((h, img.shape[1], 3), 120, np.uint8)
        out[:img.shape[0]] = img
        return out

    return np.hstack([pad(left), pad(right)])


def test_two_sheets_in_one_photo_refused() -> None:
    """Reading one of them would drop the other player without a word."""
    a, _ = _shoot(7, GENTLE)
    b, _ = _shoot(8, GENTLE, fake_page(code="CD34"))
    with pytest.raises(ImageError) as info:
        reg_fake(_side_by_side(a, b))
    assert str(info.value) == ("this photo shows more than one sheet; photograph each sheet "
                               "on its own")


def test_neighbours_corner_at_the_edge_left_out() -> None:
    """A neighbour's sheet edge in the frame, its markers larger than this sheet's: the
    markers that fit one sheet are read, not the largest of each id."""
    photo, corners = _shoot(7, GENTLE)
    neighbour = fake_page(code="CD34", ppm=12.0)
    edge = neighbour[:, neighbour.shape[1] * 2 // 3:]  # its top-right and bottom-right corners
    edge = cv2.resize(edge, None, fx=photo.shape[0] / edge.shape[0],
                      fy=photo.shape[0] / edge.shape[0], interpolation=cv2.INTER_AREA)
    both = _side_by_side(edge, photo)
    reg = reg_fake(both)
    assert reg.label.code == "AB12" and reg.markers_found == (0, 1, 2, 3)
    shifted = corners + np.array([edge.shape[1], 0])
    assert _page_corner_error_mm(reg.homography, shifted, reg.px_per_mm) < 2.0


def test_a_missing_marker_is_looked_for_again_where_it_must_be() -> None:
    from companion.vision.register import _recover_missing

    gray = cv2.cvtColor(fake_page(), cv2.COLOR_BGR2GRAY)
    found = find_markers(gray)
    lost = found.pop(2)
    _recover_missing(gray, found, [fake_geometry("delicious-garden")])
    assert sorted(found) == [0, 1, 2, 3]
    assert np.abs(found[2] - lost).max() < 2.0
