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


def test_a_count_in_doubt_names_both_counts() -> None:
    from companion.vision.dice.reader import _other_count
    from tests.test_dice_review_rules import FOUR, _read

    assert doubt_words("pips-4-or-5") == "it may show 4 or 5 pips"
    assert doubts_sentence(("glint", "pips-2-or-3")).endswith("it may show 2 or 3 pips")
    four = _read(FOUR)
    assert _other_count(four, 4) == 5  # a middle pip a glint may hide
    assert _other_count(four, 5) == 4  # the blobs' count, where the paint read a 5
