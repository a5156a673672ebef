"""Kitchen states as bitmasks, one bit per slot: cheap to hash, combine and count."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from companion.games.dulce.kitchen import Fill
from companion.games.dulce.model import Content

UNBOUNDED = 1 << 30  # more than any count a kitchen holds


class State(NamedTuple):
    """What a group of cafés holds: the key of every memo of the search."""

    cafes: int  # one bit per café of the group
    beans: int  # one bit per slot holding a bean
    eggs: int  # one bit per slot holding an egg


def masks(fill: Fill) -> tuple[int, int]:
    """(beans, eggs) of ``fill`` as slot masks."""
    beans = eggs = 0
    for i, c in enumerate(fill):
        if c is Content.BEAN:
            beans |= 1 << i
        elif c is Content.EGG:
            eggs |= 1 << i
    return beans, eggs


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, low to high."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
