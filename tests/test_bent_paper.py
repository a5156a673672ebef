"""Bent paper end to end: a sheet whose top edge is lifted off the table.

Before the reader followed bent paper, this photo's empty tool boxes near the lifted edge
read as crosses at confidence 0.99-1.0, trusted (tools/bench_bent.py's edges set, where it
was found). Now every field is read right or sent to review.
"""

from __future__ import annotations

import pytest

from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.verdicts import BENT_NOTE, VerdictCode, photo_verdicts
from companion.vision import local_fit
from companion.vision.sheet.reader import SheetReading, read_image
from tests.fake_readings import FakeField
from tools.synth.camera import CameraOptions
from tools.synth.sheet_photo import SheetPhoto, render_sheet_photo


@pytest.fixture(scope="module")
def lifted() -> SheetPhoto:
    game = simulate_game(1302, 3, "A")
    camera = CameraOptions().bent("edges").sized(3000)
    shot = render_sheet_photo("delicious-combo", game.field_maps[0], 30000007, camera=camera,
                              code="9114")
    assert shot.photo.shot.bend is not None and shot.photo.shot.bend.kind == "lift"
    return shot


def _silent(reading: SheetReading, truth: dict[str, str]) -> list[str]:
    return [f"{fid}: read {r.value} ({r.confidence:.3f}), truth {truth.get(fid)}"
            for fid, r in reading.readings.items()
            if r.value != truth.get(fid) and not r.review]


def test_before_empty_tool_boxes_read_as_sure_crosses(lifted: SheetPhoto,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader as it was: no bend followed, and no look for long straight edges (the
    lifted edge's line is one, and would send these boxes to review as covered)."""
    import companion.vision.sheet.reader as sheet_reader

    real = sheet_reader.covered_fields
    monkeypatch.setattr(sheet_reader, "covered_fields", lambda *a, **k: real(*a[:6]))
    with local_fit.switched_off():
        reading = read_image(lifted.image(), "lifted.jpg")
    silent = _silent(reading, lifted.truth)
    assert any(".tool." in s and "read cross" in s and "truth None" in s for s in silent), silent


def test_now_every_field_is_right_or_in_review(lifted: SheetPhoto) -> None:
    reading = read_image(lifted.image(), "lifted.jpg")
    assert _silent(reading, lifted.truth) == []
    bent = [r for r in reading.readings.values() if r.note == BENT_NOTE]
    assert all(r.review for r in bent)
    # Following the bend keeps most of the sheet read, not merely sent to review.
    assert len(reading.review) <= 0.1 * len(reading.readings)


def test_many_fields_on_bent_paper_make_one_verdict() -> None:
    ids = [f"garden.planter.tool.row{i}" for i in range(4)] + ["garden.teapot.tool.r0"]
    readings = {fid: FakeField(fid, None, 0.7, BENT_NOTE) for fid in ids}
    (verdict,) = photo_verdicts("p.jpg", readings)
    assert verdict.code is VerdictCode.BENT
    assert "lay the sheet flat" in verdict.message and "the planter" in verdict.message
    assert photo_verdicts("p.jpg", dict(list(readings.items())[:4])) == []  # few: listed
