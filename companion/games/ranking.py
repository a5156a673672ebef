"""Final standings shared by every game: best first, tied players share a place.

Each game only says what is compared (points, then its own tiebreaks); the places follow
the usual sports convention (1, 1, 3): a player's place is one more than the number of
players who beat them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def ranked(items: Iterable[T], key: Callable[[T], Any]) -> list[tuple[int, T]]:
    """``(place, item)`` pairs, highest ``key`` first; fully tied items keep their order."""
    ordered = sorted(items, key=key, reverse=True)  # Python's sort is stable, also reversed
    out: list[tuple[int, T]] = []
    previous: Any = None
    for i, item in enumerate(ordered):
        k = key(item)
        place = out[-1][0] if out and k == previous else i + 1
        out.append((place, item))
        previous = k
    return out
