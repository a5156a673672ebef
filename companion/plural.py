"""Counts in words: "1 egg", "2 eggs" (never "1 eggs" or "egg(s)")."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one; ``many`` when adding "s" is wrong."""
    return f"{n} {one if n == 1 else many or one + 's'}"
