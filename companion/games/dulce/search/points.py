"""Point ceilings: how often the cafés can still fill up, at most.

The ceiling is the lower of two counts: a greedy cover by (bean, level) classes and the
fractional b-matching of cafés to classes (a small max flow, ``networks``), which sees
that a café of two like spaces takes two fills per scoring, and that what a café holds
now can only fill that café (a bean in a café that never scores again fills nothing):
each class supplies the beans that may still come down into it to every café, and each
café's own contents to it alone. With eggs still to place, both counts are taken as if
the eggs were there, and the matching draws them from one shared stock.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.games.dulce.constants import BOUND_CACHE, POINTS_PER_CAFE
from companion.games.dulce.search.live import LiveCafes
from companion.games.dulce.search.masks import UNBOUNDED, State
from companion.games.dulce.search.networks import EggNetwork, MatchingNetwork
from companion.games.dulce.search.tables import Tables


class PointCount(NamedTuple):
    points: int  # points still reachable, at most
    singles: int  # scorings of one-space cafés, at most


class Cover(NamedTuple):
    scorings: int  # times the cafés can still score, at most
    headroom: int  # how far eggs on empty spaces could lift that (see egg_ceiling)
    singles: int  # times the one-space cafés among them can score, at most


class PointCeilings:
    """Point ceilings of the states of one kitchen, remembered."""

    def __init__(self, tables: Tables, live: LiveCafes) -> None:
        self._t = tables
        self._live = live.live
        self._matching = MatchingNetwork(tables)
        self._eggs = EggNetwork(tables)
        self._counts: dict[State, PointCount] = {}  # of the live cafés alone
        self._egg_ceilings: dict[tuple[int, int, int], tuple[int, int]] = {}
        self._egg_flows: dict[tuple[int, int, int, int], int] = {}

    def count(self, beans: int, eggs: int, cafes: int, live: int | None = None) -> PointCount:
        """Points still reachable by ``cafes``, at most (``cover`` of their live cafés;
        ``live`` may over-approximate them: cafés only ever die), and the most scorings
        the one-space cafés among them can make."""
        t = self._t
        if live is None:
            live = self._live(beans, eggs, cafes)
        live &= cafes
        # Only what the live cafés hold counts: states alike there share one entry.
        spots = t.slots_of(live)
        beans &= spots
        eggs &= spots
        key = (live, beans, eggs)
        hit = self._counts.get(key)
        if hit is not None:
            return hit
        count, _, singles = self.cover(beans, eggs, live, beans | eggs)
        got = PointCount(POINTS_PER_CAFE * count, singles)
        if len(self._counts) < BOUND_CACHE:
            self._counts[key] = got
        return got

    def egg_ceiling(self, beans: int, eggs: int, where: int | None = None) -> tuple[int, int]:
        """(points, headroom): the state with at most n more eggs on its empty spaces
        (those among the slots ``where``, if given) makes at most
        ``points + POINTS_PER_CAFE * min(n, headroom)`` points.

        The ``cover`` count, taken as if every such space held an egg for which cafés
        are live, which beans are mobile and what each class can hold (all of these only
        grow with eggs), but with the cafés' scarcest spaces as they are: each egg lifts
        one space of one café by one fill, so the uncovered cafés' sum rises by at most
        n, and no class's share by more than its room below its cap; and the matching
        count, which one more allowed scoring of one café lifts by one at most.
        """
        t = self._t
        spots = t.slots_of(t.all_cafes) if where is None else where
        key = (beans, eggs, spots)
        hit = self._egg_ceilings.get(key)
        if hit is not None:
            return hit
        full = beans | eggs | spots
        live = self._live(beans, full & ~beans, t.all_cafes)
        points, room, _ = self.cover(beans, eggs, live, full)
        # And the count with an egg on every such space (more items never lower it).
        most = self.cover(beans, full & ~beans, live, full)[0]
        if most <= points:
            points, room = most, 0
        elif room > most - points:
            room = most - points
        got = (POINTS_PER_CAFE * points, room)
        if len(self._egg_ceilings) < BOUND_CACHE:
            self._egg_ceilings[key] = got
        return got

    def eggs_ceiling(
        self, beans: int, held: int, eggs: int, where: int | None = None, floor: int | None = None
    ) -> int:
        """Points the state (``held``: its eggs) with at most ``eggs`` more eggs on its
        empty spaces (those among ``where``, if given) can make, at most:
        ``egg_ceiling``'s count, and the b-matching in which each such space is a
        private supply of its café that draws on one shared stock of ``eggs`` eggs. The
        second sees that an egg fills one café only, which the first, lifting the
        scarcest space of any café it likes, does not. Given a ``floor``, a ceiling that
        reaches it may be returned as the first count: only whether it is below counts."""
        points, room = self.egg_ceiling(beans, held, where)
        most = points + POINTS_PER_CAFE * min(eggs, room)
        if (
            eggs <= 0
            or room <= 0
            or self._matching.odd_shapes
            or floor is not None and most < floor
        ):
            return most
        t = self._t
        spots = t.slots_of(t.all_cafes)
        if where is not None:
            spots &= where
        key = (beans, held, spots, eggs)
        hit = self._egg_flows.get(key)
        if hit is None:
            eggable = spots & ~(beans | held)
            # The count never matters above the first one, nor (given one) above the floor.
            goal = most if floor is None else min(most, floor)
            hit = self._egg_matching(beans, held, eggable, eggs, goal // POINTS_PER_CAFE)
            hit *= POINTS_PER_CAFE
            if hit >= goal:
                return most  # stopped at the goal: the first count stands
            if len(self._egg_flows) < BOUND_CACHE:
                self._egg_flows[key] = hit
        return hit if hit < most else most

    def arriving(self, mobile: int) -> tuple[dict[int, int], dict[int, int]]:
        """Per (bean, level) class, the ``mobile`` beans that could still come down into
        it (a twin drop counted once), and the same per space of the class: a pair of like
        beans leaving one café at once drops into the class just below as one bean at
        most (see ``Tables.pairs``). The second is the first itself when no pair leaves."""
        t = self._t
        arriving = {k: (mobile & up).bit_count() for k, up in t.class_higher.items()}
        for pair, low in t.twin_drops:
            if mobile & pair == pair:
                arriving[low] -= 1
        reach = arriving
        for pair, low in t.pairs:
            if mobile & pair == pair:
                if reach is arriving:
                    reach = dict(arriving)
                reach[low] -= 1
        return arriving, reach

    def cover(self, beans: int, eggs: int, live: int, capped: int) -> Cover:
        """The most times the ``live`` cafés can still score, how far eggs on the empty
        spaces of ``capped`` could lift that count, and the one-space cafés' share.

        A space can be filled at most as often as it holds something now plus the
        mobile beans of its type sitting higher (each bean visits a level once), so a
        café scores at most as often as its scarcest space allows. A (bean, level) class
        can take at most ``cap`` fills in all (what ``capped`` holds in it now plus those
        mobile beans), and every scoring of a café fills each of its classes once: so
        opening any set of classes, the count is at most their caps plus the scarcest-
        space counts of the cafés touching none of them (a feasible dual of the packing
        problem, hence admissible whichever set). The set is chosen greedily. The
        cafés left over are grouped by top class for the headroom: a group gains at most
        one per café with an empty scarcest space, and never beyond its class's cap.
        """
        t = self._t
        held = beans | eggs
        live_slots = t.slots_of(live)
        mobile = beans & live_slots
        arriving, reach = self.arriving(mobile)
        cafes: list[tuple[int, int]] = []  # (scarcest count, café) of the live cafés
        gains: dict[int, int] = {}  # per class: sum of scarcest counts of cafés touching it
        alone: dict[int, int] = {}  # the same for one-space cafés
        spaces, classes, single = t.spaces, t.classes, t.single_class
        ready = capped & live_slots
        # Per class: what the cafés, each at its scarcest count, take beyond what their
        # own spaces of the class hold; within ``arriving`` no matching can cut.
        over: dict[int, int] = {}
        total = 0
        for ci in t.members(live & t.all_cafes):
            least = 99
            for i, k in spaces[ci]:
                fills = (held >> i & 1) + reach[k]
                if fills < least:
                    least = fills
            cafes.append((least, ci))
            total += least
            if least:
                for k, spots, times in t.class_spots[ci]:
                    extra = times * least - (ready & spots).bit_count()
                    if extra > 0:
                        over[k] = over.get(k, 0) + extra
            for k in classes[ci]:
                gains[k] = gains.get(k, 0) + least
            k = single[ci]
            if k >= 0:
                alone[k] = alone.get(k, 0) + least
        class_slots = t.class_slots
        caps = {k: (ready & class_slots[k]).bit_count() + arriving[k] for k in gains}
        # One-space cafés of a class together take at most that class's cap.
        singles = sum(min(n, caps[k]) for k, n in alone.items())
        every = cafes
        opened = 0  # class bits
        while True:
            pick, save = -1, 0
            for k, g in gains.items():
                if g - caps[k] > save:
                    pick, save = k, g - caps[k]
            if pick < 0:
                break
            opened |= 1 << pick
            total -= save
            del gains[pick]
            rest: list[tuple[int, int]] = []
            for least, ci in cafes:
                if t.class_bits[ci] & opened:
                    for k in t.classes[ci]:
                        if k in gains:
                            gains[k] -= least
                else:
                    rest.append((least, ci))
            cafes = rest
        if all(n <= arriving[k] for k, n in over.items()):
            flow = total  # every café at its scarcest count fits: no matching can cut
        else:
            flow = self._matching.scorings(every, arriving, ready, total) if total else 0
        if capped == held:
            return Cover(flow, 0, singles)
        # With eggs: at most the greedy count plus the headroom below, and at most the
        # matching count plus one per egg (each egg lifts one café's limit by one).
        if not cafes:
            return Cover(flow, total - flow, singles)
        # Headroom: the cafés left, grouped by their top class.
        eggable = capped & ~held
        shares: dict[int, list[int]] = {}
        for least, ci in cafes:
            top = t.klass[t.top[ci]]
            rise = 1
            for i, k in t.spaces[ci]:
                if not eggable >> i & 1 and (held >> i & 1) + reach[k] == least:
                    rise = 0  # a scarcest space no egg can go to: it stays the scarcest
                    break
            share = shares.setdefault(top, [0, 0])
            share[0] += least
            share[1] += rise
        room = 0
        for k, (n, r) in shares.items():
            room += min(max(0, caps[k] - n), r)
        return Cover(flow, total - flow + room, singles)

    def _egg_matching(self, beans: int, eggs: int, eggable: int, stock: int, goal: int) -> int:
        """``EggNetwork.scorings`` of the state: whichever ``stock`` of the spaces
        ``eggable`` get the eggs, that state's own matching is a flow of the network (its
        private supplies are among these, and its live cafés, the beans that can still
        come down into each class and each café's scarcest count only grow with eggs),
        so its scorings are never above this count."""
        t = self._t
        held = beans | eggs
        full = held | eggable
        live = self._live(beans, full & ~beans, t.all_cafes)
        live_slots = t.slots_of(live)
        arriving, reach = self.arriving(beans & live_slots)
        counts: list[tuple[int, int]] = []
        for ci in t.members(live & t.all_cafes):
            least = UNBOUNDED
            for i, k in t.spaces[ci]:
                fills = (full >> i & 1) + reach[k]
                if fills < least:
                    least = fills
            counts.append((least, ci))
        return self._eggs.scorings(
            counts, arriving, held & live_slots, eggable & live_slots, stock, goal
        )
