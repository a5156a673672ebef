"""The one path from a table's readings and corrections to its document (the CLI's
``delicious read`` and the web's Delicious page both take it), with no image library."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.games.delicious.read_table import SameName, TableSheet, pair_table, photo_stem
from tests.fake_readings import FakeField

CELL = "garden.wheelbarrow.r0.c0"


@dataclass(frozen=True)
class _Sheet:
    photo: str
    sheet: str
    code: str
    variant: str = "A"
    seconds: float = 1.0
    readings: dict[str, FakeField] = field(
        default_factory=lambda: {CELL: FakeField(CELL, "carrot", 0.5)})

    def to_json(self) -> dict[str, Any]:
        return {"photo": self.photo, "sheet": self.sheet}


@pytest.mark.parametrize(("photo", "stem"), [
    ("a/b/combo.jpg", "combo"), ("combo.tar.jpg", "combo.tar"), (".hidden", ".hidden"),
    ("plain", "plain"), ("dot.", "dot."),
])
def test_photo_stem_is_paths_stem(photo: str, stem: str) -> None:
    assert photo_stem(photo) == stem


def test_players_named_alike_are_numbered_or_suffixed_and_given_names_win() -> None:
    sheets = [TableSheet(1, _Sheet("x/a.jpg", "delicious-combo", "AAAA")),
              TableSheet(2, _Sheet("y/a.jpg", "delicious-combo", "BBBB"))]
    paired = pair_table(sheets)
    assert paired.score().names == ["player1", "player2"]
    assert paired.score(same_name=SameName.SUFFIX).names == ["a (1)", "a (2)"]
    named = pair_table([sheets[0], TableSheet(2, sheets[1].reading, name="Bo")])
    assert named.score().names == ["a", "Bo"]
    assert [p["player"] for p in named.score().document["players"]] == ["a", "Bo"]


def test_sheet_and_player_corrections_both_apply_and_unknown_fields_are_skipped() -> None:
    sheet = TableSheet(7, _Sheet("g.jpg", "delicious-combo", "AAAA"),
                       ((CELL, "pepper"), ("garden.nowhere", "carrot")))
    paired = pair_table([sheet])
    assert paired.players[0].fields[CELL] == "pepper"
    read = paired.score({0: [(CELL, None)]})
    assert CELL not in read.players[0].fields and read.document["review"] == []
    _, marks = read.marks(7)
    assert marks.summary is not None and not marks.notes
    with pytest.raises(KeyError):
        read.marks(8)


def test_a_sheet_left_unpaired_is_not_scored_and_its_overlay_says_why() -> None:
    garden = TableSheet(3, _Sheet("g.jpg", "delicious-garden", "QX7Z"))
    read = pair_table([garden]).score()
    assert read.players == [] and read.document["unpaired"][0]["photo"] == "g.jpg"
    _, marks = read.marks(3)
    assert marks.summary is None and marks.notes[0].startswith("NOT SCORED: ")
