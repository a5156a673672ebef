"""Where the byproducts of a scoring café can go: every assignment of its movers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from companion.games.dulce.search.masks import bits
from companion.games.dulce.search.tables import Tables


class Byproducts:
    """The outcomes of moving a scored café's beans (its movers) down, under the rules'
    byproduct options: a mover takes a free lower space of its type or is discarded
    (under forced byproducts only when no such space is free)."""

    def __init__(self, tables: Tables) -> None:
        self._forced = tables.forced
        self._members = tables.members

    def outcomes(self, cands: Sequence[int]) -> Iterable[tuple[int, int]]:
        """(bits filled, beans discarded) for every assignment of the movers, each given
        as the mask of spaces it may take (``cands``); some outcomes repeat."""
        if len(cands) <= 2:
            return self._few(cands)
        return self._from(cands, 0, 0)

    def _from(self, cands: Sequence[int], k: int, used: int) -> Iterator[tuple[int, int]]:
        """The outcomes of movers k.. onwards, the spaces ``used`` taken."""
        if k == len(cands):
            yield 0, 0
            return
        free = cands[k] & ~used
        for t in bits(free):
            bit = 1 << t
            for filled, lost in self._from(cands, k + 1, used | bit):
                yield filled | bit, lost
        for filled, lost in self._from(cands, k + 1, used):
            if self._forced and free & ~filled:
                continue  # it could still have moved somewhere
            yield filled, lost + 1

    def _few(self, cands: Sequence[int]) -> list[tuple[int, int]]:
        """The outcomes of at most two movers (every café here has at most two spaces),
        written out, in the same order as ``_from``'s."""
        forced = self._forced
        if not cands:
            return [(0, 0)]
        if len(cands) == 1:
            one = [(1 << t, 0) for t in self._members(cands[0])]
            if not (forced and cands[0]):
                one.append((0, 1))
            return one
        first, second = cands
        out: list[tuple[int, int]] = []
        members = self._members
        for t in members(first):
            bit = 1 << t
            rest = second & ~bit
            out.extend((bit | 1 << u, 0) for u in members(rest))
            if not (forced and rest):
                out.append((bit, 1))
        # The first mover discarded: only if every space it could take is taken.
        for u in members(second):
            bit = 1 << u
            if not (forced and first & ~bit):
                out.append((bit, 1))
        if not (forced and (second or first)):
            out.append((0, 2))
        return out
