"""Real writers' letters: a fixed split by writer, drawn into cells like our own letters.

Tests that need the UNIPEN file skip where ``../shared`` lacks it (or COMPANION_UNIPEN
points elsewhere); the renderer is also tested on a hand-made trajectory.
"""

from __future__ import annotations

import numpy as np
import pytest

from tools.synth import real_hands
from tools.synth.handwriting import draw_letter, letter_cell_crop, real_letter_alpha
from tools.synth.real_hands import RealDataMissing, RealSplit, split_of

needs_data = pytest.mark.skipif(not real_hands.available(),
                                reason="real handwriting (UNIPEN) not in ../shared")

# An L as a pen trajectory: letter 1 high, y down.
L_STROKES = (np.array([[0.0, 0.0], [0.0, 1.0], [0.6, 1.0]]),)


def test_split_is_by_writer_and_fixed() -> None:
    assert split_of("ibm:r03-04") is split_of("ibm:r03-04")
    assert split_of("val:anything") is RealSplit.TRAIN  # one id for a whole site
    parts = {split_of(f"tos:w{i}") for i in range(200)}
    assert parts == set(RealSplit)


def test_missing_file_is_one_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv(real_hands.ENV_VAR, str(tmp_path / "absent.json"))
    assert not real_hands.available()
    with pytest.raises(RealDataMissing, match="COMPANION_UNIPEN"):
        real_hands.samples(RealSplit.TEST)


def test_bad_file_is_an_input_error(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    monkeypatch.setenv(real_hands.ENV_VAR, str(bad))
    with pytest.raises(real_hands.InputError, match="cannot read"):
        real_hands.samples()


def test_renderer_keeps_the_letter_in_its_box() -> None:
    for seed in range(20):
        rng = np.random.default_rng(seed)
        alpha = real_letter_alpha(40, 50, L_STROKES, rng, warp=0.03)
        assert alpha.shape == (50, 40)
        assert alpha.max() > 0.5
        ys, xs = np.nonzero(alpha > 0.05)
        assert xs.min() >= 0 and ys.min() >= 0
        # an L: more ink in the left column band and the bottom row band than elsewhere
        assert alpha.sum() < 0.5 * alpha.size


def test_renderer_varies_pen_and_placement() -> None:
    masks = [real_letter_alpha(40, 40, L_STROKES, np.random.default_rng(s)) for s in range(8)]
    inks = [float(m.sum()) for m in masks]
    assert max(inks) > 1.5 * min(inks)  # pen widths and sizes differ
    again = real_letter_alpha(40, 40, L_STROKES, np.random.default_rng(3))
    assert np.array_equal(again, masks[3])


@needs_data
def test_parts_share_no_writer_and_drop_noise() -> None:
    seen: dict[str, RealSplit] = {}
    for part in RealSplit:
        for s in real_hands.samples(part):
            assert seen.setdefault(s.writer, part) is part
            pts = np.concatenate(s.strokes)
            w, h = pts.max(axis=0) - pts.min(axis=0)
            assert real_hands.ASPECT_RANGE[0] <= w / h <= real_hands.ASPECT_RANGE[1]
    assert len(real_hands.writers(RealSplit.TEST)) >= 40  # the bench's players
    assert len(real_hands.writers(RealSplit.CALIB)) >= 15


@needs_data
def test_pick_keeps_to_the_writer() -> None:
    writer = real_hands.writers(RealSplit.TEST)[0]
    rng = np.random.default_rng(0)
    own = {s.letter for s in real_hands.samples(RealSplit.TEST) if s.writer == writer}
    for letter in own:
        assert real_hands.pick(letter, rng, RealSplit.TEST, writer).writer == writer
    with pytest.raises(real_hands.InputError):
        real_hands.pick("B", rng, RealSplit.TEST, "nobody:here")


@needs_data
def test_real_letters_draw_and_crop_reproducibly() -> None:
    img = np.full((60, 60), 230, np.uint8)
    draw_letter(img, (5, 5, 50, 50), "G", np.random.default_rng(1), fonts="real-test")
    assert (img < 200).any()
    a = letter_cell_crop("W", np.random.default_rng(5), fonts="real-train")
    b = letter_cell_crop("W", np.random.default_rng(5), fonts="real-train")
    assert np.array_equal(a, b)


@needs_data
def test_a_sheet_filled_by_one_real_writer() -> None:
    from companion.games.delicious.simulate import simulate_game
    from tools.synth.sheet_photo import fill_sheet

    field_map = dict(simulate_game(3, 2, "A").field_maps[0])
    writer = real_hands.writers(RealSplit.TEST)[1]
    filled = fill_sheet("delicious-garden", field_map, "A", np.random.default_rng(2),
                        fonts="real-test", writer=writer)
    assert filled.writer == writer
    drawn = fill_sheet("delicious-garden", field_map, "A", np.random.default_rng(2),
                       fonts="real-test")
    assert drawn.writer in real_hands.writers(RealSplit.TEST)
