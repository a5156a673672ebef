"""Kitchen states as bitmasks, one bit per slot: cheap to hash, combine and count."""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.dulce.kitchen import Fill
from companion.games.dulce.model import Content

UNBOUNDED = 1 << 30  # more than any count a kitchen holds


# What a group of cafés holds, as (cafes, beans, eggs): a café mask and two slot masks,
# the key of every memo of the search. A plain tuple rather than a NamedTuple: one is
# built at every visit of a state, and building NamedTuples there cost the search 2.5%
# more instructions (callgrind, on a slow bench kitchen).
State = tuple[int, int, int]


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
