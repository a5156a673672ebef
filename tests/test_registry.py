"""The game registry is the one list of games: every front end loops over it."""

from __future__ import annotations

import subprocess
import sys

import pytest

import layouts
from companion.cli import SUBCOMMANDS
from companion.errors import InputError
from companion.games import registry
from companion.paper.model import SHEET_CODES, SheetLabel
from companion.web.pads import PADS


def test_every_sheet_printed_is_a_registered_sheet_of_one_game() -> None:
    assert layouts.SHEET_NAMES == tuple(s.id for s in registry.SHEETS)
    assert set(SHEET_CODES) == set(layouts.SHEET_NAMES)
    assert len(set(SHEET_CODES.values())) == len(SHEET_CODES)  # QR codes tell sheets apart
    for s in registry.SHEETS:
        assert layouts.sheet_spec(s.id).title == s.title
        assert SheetLabel.decode(SheetLabel(s.id, 1, "A", "letter").encode()).sheet == s.id
        assert registry.sheet_game(s.id).slug == s.id.split("-scorepad")[0].removesuffix(
            "-mat").removesuffix("-garden").removesuffix("-play").removesuffix("-combo")


def test_every_game_has_its_command_pad_and_play() -> None:
    for g in registry.GAMES:
        assert SUBCOMMANDS[g.command.name].target == g.command.target
        assert callable(SUBCOMMANDS[g.command.name].load())
        assert (g.slug in PADS) == bool(g.pad) == (g.finish is not None)
    assert registry.game("Wild Gardens").slug == "wild-gardens"
    with pytest.raises(KeyError):
        registry.game("chess")


def test_the_registry_loads_no_engine_nor_heavy_library() -> None:
    code = ("import sys, companion.games.registry\n"
            "print(sorted(m for m in sys.modules if m.startswith(('companion.games.', 'cv2', "
            "'reportlab', 'click', 'layouts', 'companion.store'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['companion.games.outcome', 'companion.games.registry']"


@pytest.mark.parametrize("version", ["\u00b2", "9" * 5000])
def test_a_qr_version_int_cannot_take_is_a_damaged_code(version: str) -> None:
    """A QR read as CMP1:...:²:... (or a version past Python's digit limit) is one line,
    not a ValueError from deep in the sheet reader."""
    text = SheetLabel("delicious-combo", 1, "A", "letter", "K7Q2").encode().split(":")
    text[2] = version
    with pytest.raises(InputError, match="QR code is damaged"):
        SheetLabel.decode(":".join(text))
