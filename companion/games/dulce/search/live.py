"""Which cafés can still score, and which groups of them can never affect each other.

* Dead cafés. A café can score again only if each of its empty spaces can still be
  refilled by a bean of its type sitting higher in another café that can score before
  it (a least fixpoint grown from the full cafés, so two cafés each holding the only
  bean the other needs are both dead; a bean leaves only once its café has scored).
  Dead cafés never score; their beans never move.
* Independent parts. Cafés that no future byproduct can link (a bean of one reaching a
  space of the other) never affect each other, so the best value of a state is the sum
  of the best values of its parts. As high beans drain away a kitchen falls apart into
  small parts.
"""

from __future__ import annotations

from companion.games.dulce.constants import BOUND_CACHE
from companion.games.dulce.search.masks import State, bits
from companion.games.dulce.search.tables import Tables


class LiveCafes:
    """The live cafés and the independent parts of states of one kitchen."""

    def __init__(self, tables: Tables) -> None:
        self._t = tables
        self._lives: dict[State, int] = {}

    def live(self, beans: int, eggs: int, cafes: int) -> int:
        """Cafés among ``cafes`` that might still score (a least fixpoint).

        A café scores next only when full. Each of its empty spaces is then filled by a
        byproduct of a café that scored before it, and that bean came, directly or by
        way of other cafés, from a bean of its type sitting higher now in a café that
        scored before it too. So a café can score only if it is full now or each empty
        space has such a bean in a café that can score first: growing from the full
        cafés finds them all, and leaves out cafés that wait on each other in a ring
        (each holding the only bean the other needs, which leaves only once it scores)."""
        key = (cafes, beans, eggs)
        hit = self._lives.get(key)
        if hit is not None:
            return hit
        t = self._t
        held = beans | eggs
        needs = t.needs
        live = 0
        # Per café not full now: its bit and the spaces above each of its empty spaces.
        waiting: list[tuple[int, list[int]]] = []
        for ci in t.members(cafes & t.all_cafes):
            ups = [up for bit, up in needs[ci] if not held & bit]
            if ups:
                waiting.append((1 << ci, ups))
            else:
                live |= 1 << ci
        while waiting and live:
            sources = beans & t.slots_of(live)
            rest = []
            for cafe, ups in waiting:
                for up in ups:
                    if not sources & up:
                        rest.append((cafe, ups))
                        break
                else:
                    live |= cafe
            if len(rest) == len(waiting):
                break
            waiting = rest
        if len(self._lives) < BOUND_CACHE:
            self._lives[key] = live
        return live

    def parts(self, beans: int, eggs: int, cafes: int, live: int) -> tuple[list[int], int]:
        """Independent groups of cafés (as café masks, by lowest café) and the inert rest.

        Two cafés are linked when a bean that may still move from one could land in a
        space of the other that is or may become empty.
        """
        t = self._t
        live_slots = t.slots_of(live)
        mobile = beans & live_slots
        # Spaces that may be empty at some point: empty now, or in a café that may score.
        openable = (t.slots_of(cafes) & ~(beans | eggs)) | live_slots
        cafe_bit, lower, higher = t.cafe_bit, t.lower, t.higher
        linked: list[int] = []  # disjoint café masks, each holding a link
        for i in t.members(live_slots & t.moving):
            if not (beans >> i & 1 or mobile & higher[i]):
                continue  # no bean will ever sit here
            reach = lower[i] & openable
            if not reach:
                continue
            group = t.cafes_at(reach) | cafe_bit[i]
            rest = []
            for g in linked:
                if g & group:
                    group |= g
                else:
                    rest.append(g)
            rest.append(group)
            linked = rest
        alone = live
        for g in linked:
            alone &= ~g
        parts = linked + [1 << ci for ci in bits(alone)]  # no live café: nothing happens
        parts.sort(key=lambda g: g & -g)
        inert = cafes
        for g in parts:
            inert &= ~g
        return parts, inert
