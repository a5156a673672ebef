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


def test_quick_hands_draw_few_straight_pieces_and_stay_deterministic() -> None:
    rng = np.random.default_rng([6, 1])
    parts = S.doodle_parts("carrot", rng, S.Setting.TRAIN)
    a = S.quick_parts(parts, np.random.default_rng(9))
    b = S.quick_parts(parts, np.random.default_rng(9))
    assert len(a) == len(b)
    assert all(np.array_equal(x.points, y.points) for x, y in zip(a, b, strict=True))
    assert 1 <= len(a) <= 2 * len(parts)  # parts left out, a stroke now and then broken in two
    points = sum(len(p.points) for p in parts)
    assert sum(len(p.points) for p in a) < points  # corners, not curves
    for plant in S.PLANTS:
        for seed in range(6):
            got = S.quick_parts(S.icon_parts(plant), np.random.default_rng(seed))
            pts = np.concatenate([p.points for p in got])
            assert np.isfinite(pts).all() and len(got) >= 1, plant


def test_simplify_keeps_the_ends_and_the_corners() -> None:
    from tools.synth.doodles import circle

    square = np.array([[0, 0], [0.5, 0.001], [1, 0], [1, 1], [0, 1]], np.float64)
    got = S._simplify(square, 0.01)
    assert np.array_equal(got[[0, -1]], square[[0, -1]]) and len(got) == 4
    assert 5 <= len(S._simplify(circle(0.5, 0.5, 0.4, 60), 0.03)) < 20


def test_quick_players_are_off_unless_asked_and_never_held_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def sources(setting: str) -> list[str]:
        return [v for s in range(40)
                for v in S.make_player(np.random.default_rng([s, 1]), setting).sources.values()]

    assert S.QUICK_SHARE[S.Setting.HELDOUT] == 0.0
    assert S.QUICK_SHARE[S.Setting.TRAIN] == S.QUICK_SHARE[S.Setting.CALIB]
    before = sources("train")
    if S.QUICK_SHARE[S.Setting.TRAIN] == 0.0:
        assert not any(v.endswith("-quick") for v in before)
    monkeypatch.setitem(S.QUICK_SHARE, S.Setting.TRAIN, 0.35)
    assert any(v.endswith("-quick") for v in sources("train"))
    assert not any(v.endswith("-quick") for v in sources("heldout"))


def test_a_drawing_made_again_later_moves_but_stays_the_players() -> None:
    """sketches.redrawn: a second game night's drawings, still more like the player's
    own than like another player's."""
    def alpha(player: S.SketchPlayer, seed: int) -> np.ndarray:
        a = player.alpha("carrot", 64, 64, np.random.default_rng(seed))
        return (a - a.mean()) / (a.std() + 1e-9)

    one = S.make_player(np.random.default_rng(1), "train", ("carrot", "fig"))
    assert S.redrawn(one, np.random.default_rng(5), 0.0) is one
    later = S.redrawn(one, np.random.default_rng(5), 0.06)
    assert set(later.drawings) == set(one.drawings) and later.sources == one.sources
    for plant, d in later.drawings.items():
        before = one.drawings[plant]
        assert len(d.strokes) == len(before.strokes) and d.pen_rel == before.pen_rel
        moved = max(float(np.abs(a - b).max()) for a, b in zip(d.strokes, before.strokes,
                                                                strict=True))
        assert 0.0 < moved < 0.5
    again = S.redrawn(one, np.random.default_rng(5), 0.06)
    assert all(np.array_equal(a, b) for p in S.PLANTS if p in again.drawings
               for a, b in zip(again.drawings[p].strokes, later.drawings[p].strokes,
                               strict=True))
    other = S.make_player(np.random.default_rng(2), "train", ("carrot",))
    assert float((alpha(later, 11) * alpha(one, 10)).mean()) > float(
        (alpha(other, 11) * alpha(one, 10)).mean())
