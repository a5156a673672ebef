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


def _with_pencil(grey: np.ndarray, start: tuple[float, float], end: tuple[float, float]
                 ) -> np.ndarray:
    """A pencil (about 7 mm wide on this photo: a lit middle facet, darker sides and a
    shadow) laid on the sheet from ``start`` to ``end`` (fractions of the photo)."""
    h, w = grey.shape
    width = int(round(7 * 0.8 * w / 279))  # the sheet spans about 0.8 of the photo's width
    p0 = (int(start[0] * w), int(start[1] * h))
    p1 = (int(end[0] * w), int(end[1] * h))
    body, middle, shadow = (np.zeros_like(grey) for _ in range(3))
    cv2.line(body, p0, p1, 255, width)
    cv2.line(middle, p0, p1, 255, max(1, width // 3))
    cv2.line(shadow, (p0[0] + 6, p0[1] + 6), (p1[0] + 6, p1[1] + 6), 255, width)
    out = grey.astype(np.float32)
    out *= 1.0 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 5).astype(np.float32) / 255.0
    soft = cv2.GaussianBlur(body, (0, 0), 1.0).astype(np.float32) / 255.0
    out = out * (1.0 - soft) + np.where(middle > 0, 200.0, 150.0) * soft
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_pencil_across_tool_boxes_is_doubted_not_read_as_crosses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pencil hides too little print for the cover's area tests, but its edges cross mark
    boxes as clean strokes: read as crosses at full confidence until its straight edges,
    which the blank does not print, are looked for."""
    import companion.vision.sheet.reader as sheet_reader

    photo = _with_pencil(load_grey(PHOTO), (0.1, 0.55), (0.7, 0.5))
    truth = _truth()

    def silent() -> set[str]:
        reading = read_image(photo, "pencil.jpg")
        values = dict(reading.fields)
        return {f for f in reading.readings
                if values.get(f) != truth.get(f) and f not in reading.review}

    assert silent() == set()
    real = sheet_reader.covered_fields
    with monkeypatch.context() as m:  # the check without its edges: the old reader
        m.setattr(sheet_reader, "covered_fields", lambda *a, **k: real(*a[:6]))
        assert silent(), "the pencil's edges read as crosses without the lines check"


def _page_with_frames() -> tuple[np.ndarray, float]:
    """A blank page (ratio, 1 = paper) with frame lines and boxes, and its px per mm."""
    ppm = 8.0
    blank = np.ones((int(150 * ppm), int(200 * ppm)), np.float32)
    for x in range(20, 180, 20):
        cv2.rectangle(blank, (int(x * ppm), int(40 * ppm)), (int((x + 12) * ppm),
                      int(52 * ppm)), 0.3, 4)
    cv2.line(blank, (int(10 * ppm), int(90 * ppm)), (int(190 * ppm), int(90 * ppm)), 0.3, 4)
    return blank, ppm


def test_lying_lines_find_a_pencil_not_print_or_strokes() -> None:
    from companion.vision.sheet.cover import fields_near_lines, lying_lines, print_edges

    blank, ppm = _page_with_frames()
    printed = print_edges(blank, ppm)
    assert lying_lines(blank, printed, ppm) == []
    shifted = np.roll(blank, (5, 6), axis=(0, 1))  # print 0.75 mm off: still print
    assert lying_lines(shifted, printed, ppm) == []
    strokes = blank.copy()
    for x in range(22, 180, 20):  # a cross in every box
        cv2.line(strokes, (int(x * ppm), int(42 * ppm)), (int((x + 8) * ppm), int(50 * ppm)),
                 0.2, 5)
        cv2.line(strokes, (int((x + 8) * ppm), int(42 * ppm)), (int(x * ppm), int(50 * ppm)),
                 0.2, 5)
    assert lying_lines(strokes, printed, ppm) == []
    pencil = blank.copy()
    cv2.line(pencil, (int(30 * ppm), int(120 * ppm)), (int(170 * ppm), int(20 * ppm)), 0.55,
             int(7 * ppm))
    found = lying_lines(pencil, printed, ppm)
    assert found
    boxes = [FieldSpec(f"garden.tool.x{x}", FieldKind.TOOL, Box(x, 40, 12, 12), ())
             for x in range(20, 180, 20)]
    near = fields_near_lines(found, boxes)
    # the pencil crosses the row of boxes (y 40..52) between x = 125 and 142: the boxes it
    # lies on and those within a pencil's width, never the row's far end
    assert {"garden.tool.x120", "garden.tool.x140"} <= near
    assert not near & {"garden.tool.x20", "garden.tool.x40", "garden.tool.x60"}


def test_a_line_along_a_bends_doubtful_fit_is_the_fold_not_a_pencil() -> None:
    from companion.vision.sheet.reader import _on_fold

    class Bend:  # doubt only near the page's lower edge (y above 200 mm)
        def doubt_in(self, x: float, y: float, w: float, h: float) -> float:
            return 5.0 if y + h > 200 else 0.0

    assert _on_fold(Bend(), (10.0, 205.0, 250.0, 206.0))  # type: ignore[arg-type]
    assert not _on_fold(Bend(), (10.0, 60.0, 250.0, 120.0))  # type: ignore[arg-type]
