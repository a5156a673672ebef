"""Counts said right: "1 egg", "2 eggs", never "1 eggs" or "egg(s)"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.plural import count

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("n", "words"), [(0, "0 eggs"), (1, "1 egg"), (2, "2 eggs")])
def test_count(n: int, words: str) -> None:
    assert count(n, "egg") == words


def test_count_with_its_own_plural() -> None:
    assert count(3, "die", "dice") == "3 dice" and count(1, "die", "dice") == "1 die"


@pytest.mark.parametrize("module", ["companion/games/dulce/report.py",
                                    "companion/games/delicious/report.py",
                                    "companion/cli/delicious_read.py"])
def test_reports_print_no_maybe_plurals(module: str) -> None:
    text = (ROOT / module).read_text()
    assert not re.findall(r'f".*\w\(s\)', text)
    assert "} eggs" not in text
