"""ASCII numbers as every layer checks them before int() (companion.text)."""

from __future__ import annotations

import pytest

from companion.text import ascii_number


@pytest.mark.parametrize("text", ["0", "7", "123", "007"])
def test_digits_within_the_limit_are_a_number(text: str) -> None:
    assert ascii_number(text, 3) and ascii_number(text)


@pytest.mark.parametrize("text", ["", " 1", "-1", "+1", "1_0", "1.0", "²", "١", "1234"])
def test_anything_else_is_not(text: str) -> None:
    assert not ascii_number(text, 3)


def test_without_a_limit_any_length_is_a_number() -> None:
    assert ascii_number("9" * 5000) and not ascii_number("9" * 5000, 4999)
