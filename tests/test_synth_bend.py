"""The virtual camera's bent paper: paper that rolls without stretching, drawn only when
asked for, and seen where the 3-D page puts it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.errors import InputError
from tools.synth.camera import CameraOptions, page_quad, sample_shot, shoot
from tools.synth.page_bend import Bend, BendKind, place

SMALL = CameraOptions().sized(1200)


@pytest.mark.parametrize("kind", list(BendKind))
def test_the_bent_paper_does_not_stretch(kind: BendKind) -> None:
    bend = Bend(kind, 1, 40.0, 50.0, 6.0, 60.0)
    geo = place(bend, 2200, 1700, 2200 / 279.4)
    s = np.linspace(0.0, 600.0, 6001)
    along, up, theta = geo.profile(s)
    step = np.hypot(np.diff(along), np.diff(up))
    assert np.allclose(step, np.diff(s), rtol=1e-3)  # arc length is kept
    assert (along <= s + 1e-9).all() and (up >= 0).all()
    assert (np.diff(theta) >= -1e-12).all() and theta.max() <= np.radians(50.0) + 1e-9


def test_only_the_bent_part_moves() -> None:
    geo = place(Bend(BendKind.CORNER, 2, 40.0, 45.0, 6.0, 60.0), 2200, 1700, 2200 / 279.4)
    x = np.array([100.0, 1100.0, 2199.0])
    y = np.array([100.0, 850.0, 1699.0])
    bx, by, up = geo.surface(x, y)
    assert np.allclose(bx[:2], x[:2]) and np.allclose(by[:2], y[:2]) and (up[:2] == 0).all()
    assert up[2] > 0 and bx[2] < x[2] and by[2] < y[2]  # the corner lifts and draws in


def test_no_bend_is_drawn_unless_asked() -> None:
    rng_a, rng_b = np.random.default_rng(4), np.random.default_rng(4)
    flat = sample_shot(rng_a, SMALL)
    bent = sample_shot(rng_b, SMALL.bent("edges"))
    assert flat.bend is None and bent.bend is not None
    assert replace(bent, bend=None) == flat  # the same photo, only bent
    assert bent.bend.kind in ("curl", "lift")


def test_a_lifted_edge_moves_its_corners_only() -> None:
    page = np.full((340, 440, 3), 255, np.uint8)
    cam = replace(SMALL.bent("edges"), bend_kinds=("lift",), bend_angle_deg=(40.0, 40.0),
                  bend_reach_mm=(40.0, 40.0))
    photo = shoot(page, np.random.default_rng(2), cam)
    assert photo.shot.bend is not None
    flat = page_quad(440, 340, photo.shot)
    moved = np.linalg.norm(photo.corners_px - flat, axis=1) > 0.5
    edge = photo.shot.bend.where  # edge k joins corners k and k + 1
    assert moved.tolist() == [i in (edge, (edge + 1) % 4) for i in range(4)]


@pytest.mark.parametrize("kwargs", [{"bend_kinds": ("fold",)},
                                    {"bend_angle_deg": (10.0, 90.0)},
                                    {"bend_chance": 1.0, "bend_kinds": ()}])
def test_bad_bends_are_input_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        CameraOptions(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        SMALL.bent("crumpled")
