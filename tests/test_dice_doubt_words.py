"""Every doubt the dice reader can raise has words for the table."""

from __future__ import annotations

import re
from pathlib import Path

from companion.vision.dice import reader
from companion.vision.dice.doubt_words import doubt_words, doubts_sentence


def _flags_raised() -> set[str]:
    """The flag names written in the reader's source, on the lines that raise them."""
    lines = Path(reader.__file__).read_text().splitlines()
    return {name for line in lines if "flags" in line or "out.append((" in line
            for name in re.findall(r'"([a-z]+(?:-[a-z]+)*)"', line)} - {"flags"}


def test_every_flag_of_the_reader_is_said_in_words() -> None:
    flags = _flags_raised()
    assert {"no-veggie-colour", "pips-unclear", "off-cell", "glint"} <= flags
    for flag in flags - {"pips-by-paint"}:
        words = doubt_words(flag)
        assert words and words != flag.replace("-", " "), flag


def test_a_die_at_zero_percent_says_why() -> None:
    said = doubts_sentence(("no-veggie-colour", "colour-near-carrot", "pips-by-paint"))
    assert said == "its colour is not clearly any vegetable's; its colour is close to a carrot's"
    assert doubts_sentence(()) == "it was read with low confidence"


def test_dice_read_text_says_its_doubts_in_words() -> None:
    from click.testing import CliRunner

    from companion.cli import main

    photo = Path(__file__).resolve().parent.parent / "examples/dice/photos/pair-after-turned.jpg"
    out = CliRunner().invoke(main, ["dice", "read", str(photo)]).stdout
    assert "check (0, 6): read mushroom 5" in out
    assert "its colour is close to a carrot's" in out and "no-veggie-colour" not in out
