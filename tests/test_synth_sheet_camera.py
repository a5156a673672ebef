"""The virtual phone camera: reproducible, geometrically right, and still readable."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError
from tools.synth.camera import (
    CameraOptions,
    Shot,
    fill_for_area,
    page_quad,
    photograph,
    quad_area_fraction,
    sample_shot,
    shoot,
)
from tools.synth.constants import FILL_MAX

SMALL = CameraOptions().sized(1200)


def _marker_page(w: int = 880, h: int = 680) -> np.ndarray:
    """A white page with the four corner markers and a black dot at a known place."""
    page = np.full((h, w, 3), 255, np.uint8)
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = 90
    for i, (x, y) in enumerate([(20, 20), (w - 20 - side, 20), (w - 20 - side, h - 20 - side),
                                (20, h - 20 - side)]):
        page[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(d, i, side)[:, :, None]
    cv2.circle(page, (600, 250), 18, (0, 0, 0), -1)
    return page


def _detect(img: np.ndarray) -> set[int]:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    _, ids, _ = cv2.aruco.ArucoDetector(d).detectMarkers(img)
    return set() if ids is None else {int(i) for i in ids.ravel()}


def test_same_seed_same_photo_and_different_seed_differs() -> None:
    page = _marker_page()
    a = shoot(page, np.random.default_rng(5), SMALL)
    b = shoot(page, np.random.default_rng(5), SMALL)
    c = shoot(page, np.random.default_rng(6), SMALL)
    assert a.jpeg == b.jpeg
    assert a.shot == b.shot
    assert a.jpeg != c.jpeg


def test_photo_has_requested_size_and_orientation() -> None:
    page = _marker_page()
    landscape = photograph(page, np.random.default_rng(1), replace(SMALL, portrait_chance=0.0))
    portrait = photograph(page, np.random.default_rng(1), replace(SMALL, portrait_chance=1.0))
    assert landscape.shape == (900, 1200, 3)
    assert portrait.shape == (1200, 900, 3)
    assert landscape.dtype == np.uint8


@pytest.mark.parametrize("seed", range(6))
def test_markers_survive_the_camera(seed: int) -> None:
    """Any rotation and tilt, shadows and noise: all four markers stay detectable."""
    page = _marker_page()
    img = photograph(page, np.random.default_rng(seed), CameraOptions().sized(1600))
    assert _detect(img) == {0, 1, 2, 3}


def test_page_lands_where_the_quad_says() -> None:
    """The known dot on the page appears where the reported corners' homography puts it."""
    page = _marker_page()
    opts = replace(SMALL, shadow_chance=0.0, paper_bend_mm=(0.0, 0.0), motion_blur_chance=0.0,
                   light_gradient=(0.0, 0.0), noise_sigma=(1.0, 1.0), fill=(0.7, 0.8))
    photo = shoot(page, np.random.default_rng(3), opts)
    h, w = page.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    hom = cv2.getPerspectiveTransform(src, photo.corners_px.astype(np.float32))
    expected = cv2.perspectiveTransform(np.array([[[600.0, 250.0]]], np.float32), hom)[0, 0]
    gray = cv2.cvtColor(photo.image(), cv2.COLOR_BGR2GRAY)
    x, y = int(expected[0]), int(expected[1])
    dot = gray[y - 3:y + 4, x - 3:x + 4].mean()
    centre = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float32), hom)[0, 0]
    cx, cy = int(centre[0]), int(centre[1])
    paper = gray[cy - 5:cy + 5, cx - 5:cx + 5].mean()
    assert paper > 120
    assert dot < 0.4 * paper, "the dot should be dark where the homography predicts it"


def test_good_light_preset_is_gentle() -> None:
    shot = sample_shot(np.random.default_rng(0), CameraOptions.good_light())
    assert shot.tilt_deg <= 8 and shot.shadow_depth == 0 and shot.fill >= 0.8


@pytest.mark.parametrize(
    "kwargs",
    [{"size_px": (30, 20)}, {"fill": (0.5, 1.5)}, {"tilt_deg": (0.0, 90.0)},
     {"backgrounds": ("marble",)}],
)
def test_bad_options_are_input_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        CameraOptions(**kwargs)  # type: ignore[arg-type]


def test_page_must_be_bgr() -> None:
    with pytest.raises(InputError):
        shoot(np.zeros((10, 10), np.uint8), np.random.default_rng(0), SMALL)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    tall=st.booleans(),
)
def test_quad_fits_the_frame_with_the_sampled_fill(seed: int, tall: bool) -> None:
    """Whatever the pose: the page is inside the frame, spans exactly ``fill`` of it in
    its tightest direction, is convex and is not mirrored."""
    shot: Shot = sample_shot(np.random.default_rng(seed), CameraOptions())
    pw, ph = (1700, 2200) if tall else (2200, 1700)
    quad = page_quad(pw, ph, shot)
    frame = np.array([shot.width_px, shot.height_px])
    assert (quad >= -1e-6).all() and (quad <= frame + 1e-6).all()
    span = quad.max(axis=0) - quad.min(axis=0)
    assert max(span / frame) == pytest.approx(shot.fill, rel=1e-9)
    # signed area keeps the page's handedness; each turn has the same sign (convex)
    x, y = quad[:, 0], quad[:, 1]
    area = 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    assert area > 0
    edges = np.roll(quad, -1, axis=0) - quad
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(
        edges, -1, axis=0)[:, 0]
    assert (cross > 0).all()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tall=st.booleans())
def test_sheet_covers_the_sampled_share_of_the_frame(seed: int, tall: bool) -> None:
    """The default camera draws the sheet's share of the frame area: the span it picks gives
    that share, unless the sheet would have to leave the frame to get it."""
    shot = sample_shot(np.random.default_rng(seed), CameraOptions())
    assert 1 / 3 <= shot.sheet_area <= 0.75
    pw, ph = (1700, 2200) if tall else (2200, 1700)
    fill = fill_for_area(pw, ph, shot)
    quad = page_quad(pw, ph, replace(shot, fill=fill))
    share = quad_area_fraction(quad, shot.width_px, shot.height_px)
    if fill < FILL_MAX:
        assert share == pytest.approx(shot.sheet_area, rel=0.02)
    else:
        assert share < shot.sheet_area * 1.02
    frame = np.array([shot.width_px, shot.height_px])
    assert (quad >= -1e-6).all() and (quad <= frame + 1e-6).all()
