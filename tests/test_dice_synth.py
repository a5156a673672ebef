"""Synthetic dice photos: the blocks they draw, reproducibility, and what they return."""

from collections import Counter

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.synth.dice_photo import random_block, render_dice_photo, restocked_block
from tools.synth.dice_truth import score_reading


def _cells(block):
    return {(d["row"], d["col"]) for d in block["dice"]}


def _connected(cells):
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


def test_full_block_is_the_box_of_35_dice():
    block = random_block(np.random.default_rng(3))
    assert len(block["dice"]) == 35
    assert Counter(d["ingredient"] for d in block["dice"]) == {
        "carrot": 7, "mushroom": 7, "onion": 7, "pepper": 7, "tomato": 7}
    assert {d["value"] for d in block["dice"]} <= {2, 3, 4, 5, 6}
    assert _cells(block) == {(r, c) for r in range(5) for c in range(7)}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_irregular_blocks_stay_one_piece_and_start_at_zero(seed):
    block = random_block(np.random.default_rng(seed), irregular=True)
    cells = _cells(block)
    assert 0 < len(cells) < 35
    assert _connected(cells)
    assert min(r for r, _ in cells) == 0
    assert min(c for _, c in cells) == 0


def test_same_seed_same_photo_and_truth():
    block = random_block(np.random.default_rng(11), irregular=True)
    a = render_dice_photo(block, 5)
    b = render_dice_photo(block, 5)
    assert a.jpeg == b.jpeg
    assert a.block == b.block
    c = render_dice_photo(block, 6)
    assert c.jpeg != a.jpeg


def test_truth_is_normalised_and_every_die_is_in_the_frame():
    shifted = {"dice": [{"row": 3, "col": 5, "ingredient": "onion", "value": 4},
                        {"row": 3, "col": 6, "ingredient": "tomato", "value": 2}]}
    photo = render_dice_photo(shifted, 1)
    assert photo.block == {"dice": [
        {"row": 0, "col": 0, "ingredient": "onion", "value": 4},
        {"row": 0, "col": 1, "ingredient": "tomato", "value": 2}]}
    h, w = photo.image.shape[:2]
    assert set(photo.centers_px) == {(0, 0), (0, 1)}
    for x, y in photo.centers_px.values():
        assert 0 <= x < w and 0 <= y < h
    assert photo.pitch_px > 20
    decoded = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == photo.image.shape


def test_dice_are_drawn_in_their_colour_at_their_centre():
    block = {"dice": [{"row": 0, "col": c, "ingredient": ing, "value": 2}
                      for c, ing in enumerate(["tomato", "pepper", "onion"])]}
    photo = render_dice_photo(block, 2, table="plain", dark_pips=False)
    for (_, col), (x, y) in photo.centers_px.items():
        b, g, r = photo.image[int(y), int(x)].astype(int)  # a value-2 face: no pip mid-face
        if col == 0:
            assert r > g + 40 and r > b + 40
        elif col == 1:
            assert g > r + 20 and g > b + 20
        else:
            assert r > g + 30 and b > g + 30


def test_on_the_mat_the_markers_are_visible():
    photo = render_dice_photo(random_block(np.random.default_rng(4)), 4, on_mat=True)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = det.detectMarkers(cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and set(ids.ravel().tolist()) >= {0, 1, 2, 3}
    assert photo.on_mat


class _Read:
    def __init__(self, row, col, ingredient, value, review, center_px):
        self.row, self.col, self.ingredient, self.value = row, col, ingredient, value
        self.review, self.center_px = review, center_px


def test_truth_scoring_counts_wrong_missed_phantom_and_silent():
    block = {"dice": [{"row": 0, "col": c, "ingredient": "carrot", "value": 3}
                      for c in range(3)]}
    photo = render_dice_photo(block, 9, table="plain")
    c = photo.centers_px
    far = (c[(0, 0)][0], c[(0, 0)][1] + 3 * photo.pitch_px)
    reads = [
        _Read(5, 5, "carrot", 3, False, c[(0, 0)]),  # right, numbered from another corner
        _Read(5, 6, "tomato", 3, False, c[(0, 1)]),  # wrong ingredient, silent
        _Read(9, 9, "carrot", 4, True, far),  # phantom, but sent to review
    ]
    s = score_reading(photo, reads)
    assert (s.dice, s.ingredient_ok, s.value_ok, s.all_ok) == (3, 1, 2, 1)
    assert (s.missed, s.phantom, s.silent, s.review) == (1, 1, 1, 1)


@pytest.mark.parametrize("kind", ["wood", "cloth", "stone", "plain"])
def test_every_table_kind_renders(kind):
    photo = render_dice_photo({"dice": [{"row": 0, "col": 0, "ingredient": "pepper",
                                         "value": 5}]}, 3, table=kind)
    assert photo.image.std() > 3


@pytest.mark.parametrize("seed", range(6))
def test_a_restocked_block_holds_at_most_the_box_s_seven_of_each(seed):
    """The rulebook's restock rolls the spent and leftover dice back into the frame: a
    subset of the box's 35 dice (7 of each), settled into one corner."""
    block = restocked_block(np.random.default_rng(seed))
    counts = Counter(d["ingredient"] for d in block["dice"])
    assert max(counts.values()) <= 7
    assert 18 <= len(block["dice"]) <= 35
    cells = {(d["row"], d["col"]) for d in block["dice"]}
    # settled into the corner: each die has its neighbours towards the corner
    for r, c in cells:
        assert (r == 0 or (r - 1, c) in cells) and (c == 0 or (r, c - 1) in cells)
    # as wide as tall at least, as the reader numbers a block off the mat
    assert max(c for _, c in cells) >= max(r for r, _ in cells)


def test_the_pips_tuning_set_draws_square_and_drilled_pips_on_seeds_of_its_own():
    """The pips set tunes on the pip shapes the unseen set first showed; its photos (and
    the warm variant's) share no seed with any other set, the unseen one included."""
    from tools.bench_dice_vision import SETTINGS
    from tools.dice_errors import EXTRA_FIRST
    from tools.synth.dice_style import PIPS, PipShape, draw_look

    first = SETTINGS["pips"][1]
    shapes = {draw_look(PIPS, np.random.default_rng(first + i)).pip_shape for i in range(30)}
    assert shapes == {PipShape.SQUARE, PipShape.RING, PipShape.ROUND}
    starts = sorted([f for _, f in SETTINGS.values()] + list(EXTRA_FIRST.values()))
    # every set's first 1000 photos (the tuning runs use at most 200) on seeds of its own
    assert all(b - a >= 1000 for a, b in zip(starts, starts[1:], strict=False))


def test_the_satin_tuning_set_draws_the_satin_shading_and_translucent_plastic():
    """The satin set tunes on the shading and plastic the unseen set first showed."""
    from tools.bench_dice_vision import SETTINGS
    from tools.synth.dice_style import SATIN, Plastic, Shading, draw_look

    first = SETTINGS["satin"][1]
    looks = [draw_look(SATIN, np.random.default_rng(first + i)) for i in range(30)]
    assert {lk.shading for lk in looks} == {Shading.SATIN}
    assert Plastic.TRANSLUCENT in {lk.plastic for lk in looks}
    assert all(lk.second_gains is None and lk.marble == 0 for lk in looks)


def test_the_mixed_column_lights_the_frame_with_two_lamps():
    """The mixed column (measured only) draws a second, colder lamp, marbled paint and
    colour noise; a grey card photographed under it is warmer on one side than the other,
    while the styles before it draw none of these (their photos unchanged)."""
    from tools.synth.dice_photo import _camera_effects
    from tools.synth.dice_style import MIXED, UNSEEN, draw_look

    look = draw_look(MIXED, np.random.default_rng(5))
    assert look.second_gains is not None and look.marble > 0 and look.chroma_noise > 0
    assert draw_look(UNSEEN, np.random.default_rng(5)).second_gains is None
    grey = np.full((200, 300, 3), 160, np.float32)
    jpeg = _camera_effects(np.random.default_rng(1), grey, look)
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(float)
    # blue over red, in 5x5 tiles: the second (colder) lamp shifts it across the frame
    tiles = [img[y:y + 40, x:x + 60].reshape(-1, 3).mean(0)
             for y in range(0, 200, 40) for x in range(0, 300, 60)]
    ratios = [b / r for b, _, r in tiles]
    assert max(ratios) - min(ratios) > 0.05


def test_the_two_lamp_tuning_set_turns_the_mixed_column_s_lamps_round():
    """The two-lamp set tunes on mixed light, marbled paint and colour noise, but with the
    lamps the other way round from the measured-only mixed column (daylight first, a warm
    lamp across), on seeds of its own, so the mixed column's own setting stays unseen."""
    from tools.bench_dice_vision import SETTINGS
    from tools.dice_errors import TAUGHT
    from tools.synth.dice_style import MIXED, TWO_LAMP, draw_look

    first = SETTINGS["two-lamp"][1]
    looks = [draw_look(TWO_LAMP, np.random.default_rng(first + i)) for i in range(30)]
    assert all(lk.second_gains is not None and lk.marble > 0 and lk.chroma_noise > 0
               for lk in looks)
    assert min(lk.cct_k for lk in looks) >= TWO_LAMP.cct_k[0] > MIXED.cct_k[1]
    assert TWO_LAMP.second_lamp_k is not None and MIXED.second_lamp_k is not None
    assert TWO_LAMP.second_lamp_k[1] < MIXED.second_lamp_k[0]
    assert "two-lamp" in TAUGHT and "mixed" not in TAUGHT


def test_marbled_paint_varies_across_a_die_s_face():
    from tools.synth.dice_photo import _swirl

    field = _swirl(np.random.default_rng(3), 0.1)
    assert field.min() >= 0.9 - 1e-9 and field.max() <= 1.1 + 1e-9
    assert field.std() > 0.01
