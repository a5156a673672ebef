"""The reader on a photographed sheet whose plants are sketched: a drawing is never a sure
letter, and a player's drawings are asked about once per group."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.games.delicious.read_table import TableSheet, pair_table

pytestmark = pytest.mark.synth
PLANTS = ("carrot", "broccoli", "mushroom", "onion", "strawberry", "watermelon", "fig",
          "blueberry")


@pytest.fixture(scope="module")
def sketched() -> tuple[Any, Any]:
    from companion.games.delicious.simulate import simulate_game
    from companion.vision.sheet.reader import read_image
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo
    from tools.synth.sketches import make_player

    field_map = dict(simulate_game(1001, 3, "A").field_maps[0])
    player = make_player(np.random.default_rng(5), "heldout", PLANTS)
    made = render_sheet_photo("delicious-combo", field_map, 11,
                              camera=CameraOptions().sized(2400), sketcher=player)
    assert len(made.sketched) >= 10
    return made, read_image(made.image(), "sketched.jpg")


def test_a_sketch_is_read_as_a_drawing_never_as_a_sure_letter(sketched: tuple[Any, Any]
                                                               ) -> None:
    made, reading = sketched
    for fid in made.sketched:
        r = reading.readings[fid]
        assert r.drawing is not None or r.value is None, f"{fid} read as a letter"
        assert r.review  # never trusted alone on its sheet


def test_no_silent_error_and_one_question_per_group(sketched: tuple[Any, Any]) -> None:
    made, reading = sketched
    player = pair_table([TableSheet(0, reading)]).score().players[0]
    review = set(player.review)
    wrong = [f for f, v in made.truth.items() if player.readings[f].value != v]
    assert not [f for f in wrong if f not in review]
    asked = [f for q in player.questions for f in q["fields"]]
    assert len(asked) == len(set(asked)) and set(asked) <= review
    assert {g.id for g in player.groups} >= {q["id"] for q in player.questions}


def test_every_letter_keeps_its_evidence_as_a_drawing(sketched: tuple[Any, Any]) -> None:
    """A cell read as a letter, whether the sketch network's gate let it through or the
    letter reader's word did, carries how it looks as a drawing, so a player who draws has
    a letter-like doodle read with their alike drawings (settle_drawings)."""
    made, reading = sketched
    letters = [r for f, r in reading.readings.items()
               if r.kind.value in ("vegetable", "fruit") and r.value is not None
               and r.drawing is None and f not in made.sketched]
    assert letters
    assert all(r.as_drawing is not None and r.as_drawing.kind == r.kind.value
               for r in letters)
