"""A full block whose five colour groups another naming fits nearly as well: its dice go
to review and it teaches no colours (a taught rotation would misname every later photo)."""

from __future__ import annotations

import pytest

from companion.errors import InputError
from companion.vision.dice.colours import DOUBTFUL_LIGHT, learn_colours
from companion.vision.dice.reader import read_dice_image


@pytest.mark.slow
def test_a_full_block_named_in_doubt_is_reviewed_and_teaches_nothing() -> None:
    from tools.bench_dice_vision import game_start
    from tools.synth.dice_truth import match_dice

    # the pips tuning set's game 41: a 3,549 K lamp on wood, no paper or pip white to go
    # by; the best naming of the five groups rotates carrot, mushroom and tomato
    start = game_start("pips", 41)
    reading = read_dice_image(start.image)
    truth = {(d["row"], d["col"]): d["ingredient"] for d in start.block["dice"]}
    pairs = match_dice(start, reading.dice)
    assert len(pairs) == 35
    wrong = [d for d, t in pairs if d.ingredient.value != truth[t]]
    assert all(d.review for d in wrong)  # never a confident wrong ingredient
    assert any(DOUBTFUL_LIGHT in d.flags for d in wrong)
    with pytest.raises(InputError, match="not learnt"):
        learn_colours(reading)


@pytest.mark.slow
def test_a_photo_whose_light_leaves_the_naming_in_doubt_is_read_not_refused() -> None:
    """The same game's later photo (a restocked block): every die in review, none refused
    as "no dice found" (the gate counts the dice sure by shape and pips, as with learnt
    colours), none silently wrong."""
    from tools.bench_dice_vision import photo
    from tools.synth.dice_truth import score_reading

    shot, _, _ = photo("pips", 41)
    reading = read_dice_image(shot.image)
    score = score_reading(shot, reading.dice)
    assert score.missed == 0 and score.phantom == 0 and score.silent == 0
    assert any(DOUBTFUL_LIGHT in d.flags for d in reading.dice)
