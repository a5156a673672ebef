"""Something lying on the sheet (a card, a cup, a hand): its fields doubted, said once.

Before the cover check, the cells under a card read empty at full confidence and a cup's
dark rim read as crosses: silent errors the player never heard of.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.delicious.verdicts import COVER_NOTE, VerdictCode, photo_verdicts
from companion.paper.model import Box, FieldKind, FieldSpec
from companion.vision.load import load_grey
from companion.vision.sheet.cover import covered_fields
from companion.vision.sheet.reader import read_image
from tests.fake_readings import FakeField

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "delicious" / "photos"
PHOTO = EXAMPLES / "combo-good-light.jpg"


def _truth() -> dict[str, str]:
    return dict(json.loads(PHOTO.with_suffix(".truth.json").read_text())["fields"])


def _with_card(grey: np.ndarray, level: int, centre: tuple[float, float]) -> np.ndarray:
    """A card of grey ``level`` (about 45 x 60 mm on this photo) laid on the sheet."""
    h, w = grey.shape
    box = ((centre[0] * w, centre[1] * h), (0.16 * w, 0.26 * h), 12.0)
    mask = np.zeros_like(grey)
    cv2.fillPoly(mask, [cv2.boxPoints(box).astype(np.int32)], 255)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.5).astype(np.float32) / 255.0
    out = grey.astype(np.float32) * (1.0 - soft) + level * soft
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("level", [236, 45], ids=["light card", "dark card"])
def test_fields_under_a_card_are_doubted_never_read_surely(level: int) -> None:
    photo = _with_card(load_grey(PHOTO), level, (0.39, 0.48))
    reading = read_image(photo, "card.jpg")
    truth = _truth()
    values = dict(reading.fields)
    wrong = {f for f in reading.readings if values.get(f) != truth.get(f)}
    assert wrong, "the card hides some of the sheet's ink"
    assert wrong <= set(reading.review), "every field the card spoilt is in review"
    notes = {reading.readings[f].note for f in wrong}
    assert COVER_NOTE in notes
    codes = {v.code for v in photo_verdicts("card.jpg", reading.readings)}
    assert VerdictCode.COVERED in codes


def test_a_clear_photo_has_nothing_covered() -> None:
    reading = read_image(load_grey(PHOTO), "clear.jpg")
    assert not [r for r in reading.readings.values() if r.note == COVER_NOTE]


def test_print_washed_out_is_not_a_cover_where_nothing_is_printed() -> None:
    """A blank region with no print under it gives no evidence either way."""
    ppm = 200 / 25.4
    ratio = np.ones((400, 400), np.float32)  # the photo shows plain paper everywhere
    blank = np.ones((400, 400), np.float32)  # and the blank prints nothing either
    spec = FieldSpec("garden.crate.r0.c0", FieldKind.VEGETABLE, Box(10, 10, 10, 10), ())
    assert covered_fields(ratio, blank, [spec], ppm, {}) == set()
    printed = blank.copy()
    printed[70:80, 60:180] = 0.2  # a frame line beside the field, gone from the photo
    printed[140:150, 60:180] = 0.2
    printed[70:150, 60:70] = 0.2
    printed[70:150, 170:180] = 0.2
    assert covered_fields(ratio, printed, [spec], ppm, {}) == {spec.id}


def test_a_cover_is_one_verdict_naming_where() -> None:
    hidden = {f"garden.crate.r0.c{i}": FakeField(f"garden.crate.r0.c{i}", None, 0.5,
                                                 COVER_NOTE) for i in range(5)}
    (verdict,) = photo_verdicts("card.jpg", hidden)
    assert verdict.code is VerdictCode.COVERED and verdict.to_json()["code"] == "covered"
    assert verdict.message.startswith("something lies on the crate: move it off the sheet")
    assert "(5 fields hidden)" in verdict.message
