"""The synthetic sketch generator: every plant traced from our icons, one way per player."""

from __future__ import annotations

import numpy as np
import pytest

from tools.synth import sketches as S

pytestmark = pytest.mark.synth


def test_every_plant_traces_from_its_icon() -> None:
    assert len(S.PLANTS) == 11
    for plant in S.PLANTS:
        parts = S.icon_parts(plant)
        assert parts, plant
        pts = np.concatenate([p.points for p in parts])
        assert pts.min() >= -0.05 and pts.max() <= 1.05  # the icon's 0-1 box


def test_a_player_draws_a_plant_alike_and_others_differently() -> None:
    def alpha(player: S.SketchPlayer, seed: int) -> np.ndarray:
        a = player.alpha("carrot", 64, 64, np.random.default_rng(seed))
        return (a - a.mean()) / (a.std() + 1e-9)

    one = S.make_player(np.random.default_rng(1), "train", ("carrot",))
    other = S.make_player(np.random.default_rng(2), "train", ("carrot",))
    same = float((alpha(one, 10) * alpha(one, 11)).mean())
    apart = float((alpha(one, 10) * alpha(other, 11)).mean())
    assert same > apart


def test_same_seed_same_drawing_and_settings_differ() -> None:
    a = S.make_player(np.random.default_rng(3), "train").alpha("fig", 48, 48,
                                                               np.random.default_rng(0))
    b = S.make_player(np.random.default_rng(3), "train").alpha("fig", 48, 48,
                                                               np.random.default_rng(0))
    assert np.array_equal(a, b) and a.max() > 0.5
    assert S.RANGES[S.Setting.HELDOUT] != S.RANGES[S.Setting.TRAIN]


def test_a_sheet_sketches_only_the_players_plants() -> None:
    from tools.synth.sheet_photo import fill_sheet

    player = S.make_player(np.random.default_rng(4), "train", ("carrot", "fig"))
    field_map = {"play.veg-wild": "carrot", "play.veg-bonus": "onion",
                 "play.fruit-wild": "fig"}
    filled = fill_sheet("delicious-play", field_map, rng=np.random.default_rng(0), dpi=100,
                        fonts="strokes", sketcher=player)
    assert set(filled.sketched) == {"play.veg-wild", "play.fruit-wild"}


def test_doodles_stay_in_the_box_and_vary_by_template() -> None:
    from tools.synth.doodles import TEMPLATES

    assert set(TEMPLATES) == set(S.PLANTS)
    for plant in S.PLANTS:
        shapes = set()
        for seed in range(12):
            for setting in S.Setting:
                parts = S.doodle_parts(plant, np.random.default_rng([seed, 5]), setting)
                pts = np.concatenate([p.points for p in parts])
                assert np.isfinite(pts).all(), plant
                assert pts.min() >= -1e-9 and pts.max() <= 1 + 1e-9, plant
                assert any(not p.detail for p in parts), plant
            shapes.add(len(parts))
        assert len(shapes) > 1, plant  # not one fixed drawing


def test_held_out_doodles_reach_beyond_training_ranges() -> None:
    train, held = S.DOODLE_RANGES[S.Setting.TRAIN], S.DOODLE_RANGES[S.Setting.HELDOUT]
    assert S.DOODLE_RANGES[S.Setting.CALIB] == train
    assert held.widen > train.widen and held.spin > train.spin and held.retrace > 0
    assert held.aspect[0] < train.aspect[0] and held.aspect[1] > train.aspect[1]
