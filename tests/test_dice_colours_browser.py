"""The night's dice colours in a real browser: the night's first dice photo (a full
starting block) teaches them, and a later photo of a cut block is read with them - in a
game where that changes the reading (tools/example_photos.py, ``dice_game_photos``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.vision.dice.colours import learn_colours
from companion.vision.dice.reader import read_dice_photo
from tests.test_web_phone import _fresh
from tests.web_support import Server
from tools.screens import CHOOSE

pytestmark = pytest.mark.slow


def _snap(page: Any, server: Server, photo: Path) -> None:
    page.goto(server.url + "dice")
    page.locator("form:has(input[value=block]) " + CHOOSE).set_input_files(_fresh(photo))
    page.wait_for_selector("section.card h2:text-is('The block')")


def _read_as(page: Any) -> list[str]:
    """Each die as the page names it (its tap target's label), in the page's order."""
    return [str(a.get_attribute("aria-label")) for a in page.locator(".diemap .hit").all()]


def _labels(reading: Any) -> list[str]:
    return [f"Row {d.row + 1}, column {d.col + 1}: {d.ingredient.value} {d.value}"
            for d in reading.dice]


def test_the_first_full_block_teaches_a_later_cut_block(page: Any, tmp_path: Path,
                                                        dice_game: tuple[Path, Path, Any]) -> None:
    full, cut, _ = dice_game
    alone = read_dice_photo(cut)
    learnt = read_dice_photo(cut, learn_colours(read_dice_photo(full)))
    # the game was chosen so that the learnt colours change what the cut block reads as
    assert (_labels(alone), len(alone.review)) != (_labels(learnt), len(learnt.review))
    server = Server(tmp_path / "data").start()
    try:
        page.goto(server.url + "dice")
        assert page.locator("#colours-hint").is_visible()
        _snap(page, server, full)
        assert page.locator("[data-testid=colours-taught]").is_visible()
        assert "learnt from the first photo" in page.locator("#colours").inner_text()
        _snap(page, server, cut)
        assert page.locator("[data-testid=colours-used]").is_visible()
        assert _read_as(page) == _labels(learnt)
        assert page.locator("[data-testid=doubt]").count() == len(learnt.review)
        # forgotten: the same photo is read alone again
        page.locator("#colours button:has-text('Forget the colours')").click()
        page.wait_for_selector("#colours", state="detached")
        _snap(page, server, cut)
        assert page.locator("[data-testid=colours-used]").count() == 0
        assert _read_as(page) == _labels(alone)
    finally:
        server.stop()
