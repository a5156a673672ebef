"""Field ids in words a player finds on the paper, from where the fields are printed."""

from __future__ import annotations

import pytest

import layouts
from companion.games.delicious.field_words import field_words
from companion.paper.model import Box


@pytest.mark.parametrize(("sheet", "field", "words"), [
    ("delicious-combo", "garden.wheelbarrow.r2.c0", "Wheelbarrow, top row"),
    ("delicious-combo", "garden.wheelbarrow.r0.c0", "Wheelbarrow, bottom row, left"),
    ("delicious-garden", "garden.wheelbarrow.r0.c1", "Wheelbarrow, bottom row, middle"),
    ("delicious-combo", "garden.watering-can.r2.c1", "Watering can, top row, right"),
    ("delicious-combo", "garden.planter.r1.c1",
     "Planter, second row from the top, second from the left"),
    ("delicious-combo", "garden.planter.tool.col2", "Planter, tool under the middle column"),
    ("delicious-combo", "garden.boots.tool.r2", "Boots, tool beside the top row"),
    ("delicious-combo", "garden.crate.first-potter", "Crate, First Potter box"),
    ("delicious-combo", "garden.honey", "Jar of Honey"),
    ("delicious-play", "play.choice.1-reverse.2", "Plant choice 1 reversed, circle 3"),
    ("delicious-play", "play.fruit-bonus", "Play sheet, fruit bonus"),
    ("delicious-combo", "garden.nowhere.r9.c9", "garden.nowhere.r9.c9"),
])
def test_field_words(sheet: str, field: str, words: str) -> None:
    assert field_words(layouts.geometry(sheet), field) == words


@pytest.mark.parametrize("sheet", ["delicious-combo", "delicious-garden", "delicious-play"])
def test_every_field_has_its_own_words(sheet: str) -> None:
    g = layouts.geometry(sheet)
    said = [field_words(g, f.id) for f in g.fields]
    assert len(set(said)) == len(said)
    assert not any(w.startswith(("garden.", "play.")) for w in said)


@pytest.mark.parametrize("sheet", ["delicious-combo", "delicious-garden", "delicious-play"])
def test_tap_targets_never_overlap(sheet: str) -> None:
    """Each field's tap target on the phone (its box grown by TAP_GROW) is its own."""
    from companion.web.delicious import TAP_GROW

    def grown(b: Box) -> tuple[float, float, float, float]:
        e = TAP_GROW * min(b.w, b.h)
        return b.x - e, b.y - e, b.x + b.w + e, b.y + b.h + e

    boxes = [grown(f.box_mm) for f in layouts.geometry(sheet).fields]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
