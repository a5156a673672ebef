"""Exact, memoised search for the best scoring phase, on bitmasks.

Beans only ever move to a strictly lower level, so every step lowers the total level of
what is held and the search always ends. Four things keep it small enough to be exact
on every kitchen a game can reach:

* Dead cafés. A café can score again only if each of its empty spaces can still be
  refilled by a bean of its type sitting higher in another café that can score before
  it (a least fixpoint grown from the full cafés, so two cafés each holding the only
  bean the other needs are both dead; a bean leaves only once its café has scored).
  Dead cafés never score; their beans never move.
* Independent parts. Cafés that no future byproduct can link (a bean of one reaching a
  space of the other) never affect each other, so the best value of a state is the sum
  of the best values of its parts, each searched and memoised on its own. As high beans
  drain away a kitchen falls apart into small parts.
* Point ceilings (``bound``). A branch whose ceiling cannot beat the best sibling found
  so far is skipped; the skipped branch provably loses, so memoised values stay exact.
  The ceiling is the lower of two counts of how often the cafés can still fill up: a
  greedy cover by (bean, level) classes and the fractional b-matching of cafés to
  classes (a small max flow), which sees that a café of two like spaces takes two
  fills per scoring, and that what a café holds now can only fill that café (a bean
  in a café that never scores again fills nothing): each class supplies the beans
  that may still come down into it to every café, and each café's own contents to it
  alone. One memo serves every harvest start of a kitchen.
* Thresholds on the whole value. A search asks for a value at least some triple, and
  a second ceiling, on chicken steps plus beans left once the points are known (a
  potential that every fill and every discard uses up, ``_reach``), rules out most
  branches that only tie on points. It counts what must stay put: cafés left unscored
  keep what they hold, and each empty 1-ring space takes a bean of its type before any
  bean of that type can be discarded. And it counts what the points use up: every
  refill of a 1-ring space is a bean that never earns a chicken step, and every fill
  of one that a scoring takes (a bean unless an egg) is neither a step nor left.

The value compared is (points, chicken steps, beans left in cafés), larger is better in
that order.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from companion.games.dulce.constants import BOUND_CACHE, POINTS_PER_CAFE, SEARCH_BUDGET
from companion.games.dulce.kitchen import Fill, Kitchen, Value, value_above, value_add, value_sub
from companion.games.dulce.model import DEFAULT_RULES, Content, DulceRules

_UNBOUNDED = 1 << 30  # more than any count a kitchen holds
ANY: Value = (-_UNBOUNDED, -_UNBOUNDED, -_UNBOUNDED)  # a threshold every value meets


# (parts, inert cafés, per part (points, one-space scorings) and ceiling, ceiling on
# the whole): see Evaluator._analyse.
_Analysis = tuple[tuple[int, ...], int, tuple[tuple[int, int], ...], tuple[Value, ...], Value]
# A café arc of ``Evaluator._matching``'s network: (arc, fills per scoring, the shared
# arcs of its tail and head classes, its arcs private at the tail (from the source) and
# at the head (to the sink), the café's spaces of its tail and head classes; -1 where
# the end is the source or the sink).
_Path = tuple[int, int, int, int, int, int, int, int]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run a search with the cyclic garbage collector off, as it was before afterwards.

    A search builds tuples and dicts without cycles, which reference counting frees at
    once; the collector would find next to nothing (the few small cycles, such as a
    nested recursive helper, wait for its next pass), yet its passes over the growing
    memo take about a tenth of the time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _masks(fill: Fill) -> tuple[int, int]:
    beans = eggs = 0
    for i, c in enumerate(fill):
        if c is Content.BEAN:
            beans |= 1 << i
        elif c is Content.EGG:
            eggs |= 1 << i
    return beans, eggs


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _augmented(to: list[int], adj: list[list[int]], room: list[int], flow: int, goal: int) -> int:
    """The flow from node 0 to node 1 after shortest augmenting paths (Edmonds-Karp) on
    the residual capacities ``room`` (arc ^ 1 is an arc's reverse, updated in place),
    starting from ``flow`` and stopping once it reaches ``goal`` or no path is left."""
    nodes = len(adj)
    while flow < goal:
        back = [-1] * nodes
        back[0] = -2
        queue = [0]
        for x in queue:
            for a in adj[x]:
                if room[a]:
                    y = to[a]
                    if back[y] == -1:
                        back[y] = a
                        queue.append(y)
            if back[1] != -1:
                break
        if back[1] == -1:
            break
        push = _UNBOUNDED
        y = 1
        while y:
            a = back[y]
            if room[a] < push:
                push = room[a]
            y = to[a ^ 1]
        y = 1
        while y:
            a = back[y]
            room[a] -= push
            room[a ^ 1] += push
            y = to[a ^ 1]
        flow += push
    return flow


class Evaluator:
    """Best value of any state of one kitchen, memoised across calls.

    Same moves as ``scoring.legal_steps`` but on bitmasks (one bit per slot for beans,
    one for eggs). ``budget`` caps the memoised part-states; past it the search stops
    branching and follows the first legal step of each new state, so the answer stays a
    legal plan, and ``complete`` turns False: the plan is then no longer proven best.
    """

    def __init__(
        self, kitchen: Kitchen, rules: DulceRules = DEFAULT_RULES, budget: int = SEARCH_BUDGET
    ) -> None:
        self.complete = True
        self.kitchen = kitchen
        self._rules = rules
        self._budget = budget
        self._memo: dict[tuple[int, int, int], Value] = {}  # exact values of parts
        # Proven strict ceilings of parts: the part's value is below this triple.
        self._upper: dict[tuple[int, int, int], Value] = {}
        self._bounds: dict[tuple[int, int, int], tuple[int, int]] = {}
        self._slot_masks: dict[int, int] = {}
        self._member_lists: dict[int, tuple[int, ...]] = {}
        self._egg_ceilings: dict[tuple[int, int, int], tuple[int, int]] = {}
        self._egg_flows: dict[tuple[int, int, int, int], int] = {}
        self._lives: dict[tuple[int, int, int], int] = {}
        self._refills: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self._whole: dict[tuple[int, int, int], Value] = {}  # before splitting into parts
        self._short: dict[tuple[int, int, int], Value] = {}  # strict ceilings of the same
        self._analyses: dict[tuple[int, int, int], _Analysis] = {}
        self._glances: dict[tuple[int, int, int], tuple[int, Value]] = {}
        self._prepare()

    @property
    def states(self) -> int:
        return len(self._memo)

    def __call__(self, fill: Fill) -> Value:
        beans, eggs = _masks(fill)
        got = self._value(beans, eggs, self._all_cafes, ANY)
        assert got is not None  # every state makes at least 0 points
        return got

    def at_least(self, fill: Fill, points: int) -> Value | None:
        """The exact best value if it reaches ``points`` points, else None."""
        return self.reaching(fill, (points, -_UNBOUNDED, -_UNBOUNDED))

    def reaching(self, fill: Fill, need: Value) -> Value | None:
        """The exact best value if it is at least ``need`` (compared as triples), else
        None. A high ``need`` lets the search drop any line of play that provably
        falls short of it, in chicken steps and beans left as well as in points."""
        beans, eggs = _masks(fill)
        return self._value(beans, eggs, self._all_cafes, need)

    def trim(self) -> None:
        """Forget the memoised states once they fill half the budget, so that the next
        search has room of its own. They are only a cache: answers stay exact."""
        if len(self._memo) + len(self._upper) > self._budget // 2:
            self._memo.clear()
            self._upper.clear()
            self._whole.clear()
            self._short.clear()
            self._analyses.clear()
            self._glances.clear()

    def steps_ceiling(self, fill: Fill, eggs_to_come: bool = False) -> int:
        """Chicken steps the scoring phase can still earn, at most: one per bean on a
        2- or 3-ring space (each bean is discarded at most once, 1-ring beans silently)
        of a café that may still score (no other bean ever moves). With
        ``eggs_to_come`` the count holds whatever eggs are then put on empty spaces
        (cafés are taken as live as an egg on every empty space would make them)."""
        beans, eggs = _masks(fill)
        if eggs_to_come:
            eggs = self._slots_of(self._all_cafes) & ~beans
        live = self._live(beans, eggs, self._all_cafes)
        return (beans & self._moving & self._slots_of(live)).bit_count()

    def ceiling(self, fill: Fill) -> Value:
        """A triple no line of play from ``fill`` beats (see ``_reach``)."""
        beans, eggs = _masks(fill)
        cafes = self._all_cafes
        live = self._live(beans, eggs, cafes)
        if not live:
            return (0, 0, beans.bit_count())
        parts, inert = self._parts(beans, eggs, cafes, live)
        total = (0, 0, (beans & self._slots_of(inert)).bit_count())
        for part in parts:
            total = value_add(total, self._ceiling(beans, eggs, part, live))
        return total

    def canonical(self, fill: Fill) -> tuple[int, int]:
        """One key for all fills equal up to swapping interchangeable spaces or whole
        identical cafés: they make the same best value."""
        beans, eggs = _masks(fill)
        return self._canonical(beans, eggs, self._all_cafes)

    @staticmethod
    def beans(fill: Fill) -> int:
        """Beans in cafés: none ever appear during scoring, so also a ceiling on those left."""
        return sum(1 for c in fill if c is Content.BEAN)

    def bound(self, fill: Fill) -> int:
        """An upper bound on the points ``fill`` can still make (see ``_bound_and_singles``)."""
        beans, eggs = _masks(fill)
        return self._bound_and_singles(beans, eggs, self._all_cafes)[0]

    def egg_ceiling(self, fill: Fill, where: Iterable[int] | None = None) -> tuple[int, int]:
        """(points, headroom): ``fill`` with at most n more eggs on its empty spaces (those
        among the slots ``where``, if given) makes at most
        ``points + POINTS_PER_CAFE * min(n, headroom)`` points.

        The ``_cover`` count, taken as if every such space held an egg for which cafés
        are live, which beans are mobile and what each class can hold (all of these only
        grow with eggs), but with the cafés' scarcest spaces as they are: each egg lifts
        one space of one café by one fill, so the uncovered cafés' sum rises by at most
        n, and no class's share by more than its room below its cap; and the matching
        count, which one more allowed scoring of one café lifts by one at most.
        """
        beans, eggs = _masks(fill)
        if where is None:
            spots = self._slots_of(self._all_cafes)
        else:
            spots = sum(1 << i for i in set(where))
        key = (beans, eggs, spots)
        hit = self._egg_ceilings.get(key)
        if hit is not None:
            return hit
        full = beans | eggs | spots
        live = self._live(beans, full & ~beans, self._all_cafes)
        points, room, _ = self._cover(beans, eggs, live, full)
        # And the count with an egg on every such space (more items never lower it).
        most = self._cover(beans, full & ~beans, live, full)[0]
        if most <= points:
            points, room = most, 0
        elif room > most - points:
            room = most - points
        got = (POINTS_PER_CAFE * points, room)
        if len(self._egg_ceilings) < BOUND_CACHE:
            self._egg_ceilings[key] = got
        return got

    def eggs_ceiling(
        self,
        fill: Fill,
        eggs: int,
        where: Iterable[int] | None = None,
        floor: int | None = None,
    ) -> int:
        """Points ``fill`` with at most ``eggs`` more eggs on its empty spaces (those among
        ``where``, if given) can make, at most: ``egg_ceiling``'s count, and the
        b-matching of ``_matching`` in which each such space is a private supply of its
        café that draws on one shared stock of ``eggs`` eggs (``_egg_matching``). The
        second sees that an egg fills one café only, which the first, lifting the
        scarcest space of any café it likes, does not. Given a ``floor``, a ceiling that
        reaches it may be returned as the first count: only whether it is below counts."""
        points, room = self.egg_ceiling(fill, where)
        most = points + POINTS_PER_CAFE * min(eggs, room)
        if eggs <= 0 or room <= 0 or self._odd_shapes or floor is not None and most < floor:
            return most
        beans, held_eggs = _masks(fill)
        spots = self._slots_of(self._all_cafes)
        if where is not None:
            spots &= sum(1 << i for i in set(where))
        key = (beans, held_eggs, spots, eggs)
        hit = self._egg_flows.get(key)
        if hit is None:
            eggable = spots & ~(beans | held_eggs)
            # The count never matters above the first one, nor (given one) above the floor.
            goal = most if floor is None else min(most, floor)
            hit = self._egg_matching(beans, held_eggs, eggable, eggs, goal // POINTS_PER_CAFE)
            hit *= POINTS_PER_CAFE
            if hit >= goal:
                return most  # stopped at the goal: the first count stands
            if len(self._egg_flows) < BOUND_CACHE:
                self._egg_flows[key] = hit
        return hit if hit < most else most

    def rollout(self, fill: Fill, eggs: int = 0) -> Value | None:
        """The value of one legal line of play, each step taken to the child with the
        highest ceiling: a quick floor under the best value, to rule starts out early.

        With ``eggs`` eggs still to place, a café whose empty spaces have held nothing
        so far may take them just before it scores; eggs left at the end go on such
        spaces (the same play is legal with every egg there from the start, and an egg
        that then completes a café only adds points). None when they do not fit."""
        b, e = _masks(fill)
        cafes = self._all_cafes
        mask = self._slots_of(cafes)
        virgin = mask & ~(b | e)
        points = chicken = 0
        while True:
            held = b | e
            pick: tuple[tuple[int, Value], int, int, int, int] | None = None
            for ci in self._used:
                cm = self._cafe_mask[ci]
                gap = cm & ~held
                if gap & ~virgin or gap.bit_count() > eggs:
                    continue
                left_beans, left_eggs = b & ~cm, e & ~cm
                occupied = left_beans | left_eggs
                cands = [t & mask & ~occupied for i, t in self._targets[ci] if b >> i & 1]
                for filled, lost in self._outcomes(cands, 0, 0):
                    nb = left_beans | filled
                    reach = value_add(self._glance(nb, left_eggs, cafes)[1], (0, lost, 0))
                    key = (-gap.bit_count(), reach)  # eggs only when nothing is full
                    if pick is None or key > pick[0]:
                        pick = (key, nb, left_eggs, lost, cm | filled)
            if pick is None:
                break
            key, b, e, lost, touched = pick
            eggs += key[0]
            virgin &= ~touched
            points += POINTS_PER_CAFE
            chicken += lost
        if eggs > virgin.bit_count():
            return None
        return (points, chicken, b.bit_count())

    # -- tables -------------------------------------------------------------------------

    def _prepare(self) -> None:
        k, rules = self.kitchen, self._rules
        slots = k.slots
        n = len(slots)
        self._cafe_of = [s.cafe for s in slots]
        self._cafe_bit = [1 << s.cafe for s in slots]
        self._cafes_at: dict[int, int] = {}  # a slot mask's cafés, as a café mask
        self._cafe_mask = [sum(1 << i for i in ids) for ids in k.cafe_slots]
        used = [ci for ci, ids in enumerate(k.cafe_slots) if ids]
        self._all_cafes = sum(1 << ci for ci in used)
        # higher[s]: slots whose bean could come down to s; lower[s]: where s's bean may go.
        self._higher = [
            sum(
                1 << j
                for j in range(n)
                if slots[j].bean is slots[i].bean and slots[j].level > slots[i].level
            )
            for i in range(n)
        ]
        self._lower = [
            sum(
                1 << j
                for j in range(n)
                if slots[j].bean is slots[i].bean and slots[j].level < slots[i].level
            )
            for i in range(n)
        ]
        self._targets: list[list[tuple[int, int]]] = []  # per café: (slot, its target bits)
        for ci, ids in enumerate(k.cafe_slots):
            own = 0 if rules.byproduct_into_scored_cafe else self._cafe_mask[ci]
            self._targets.append(
                [(i, self._lower[i] & ~own) for i in ids if slots[i].level > 1]
            )
        self._moving = sum(1 << i for i in range(n) if slots[i].level > 1)
        # Per bean type, its 3-ring and its 2-ring spaces (see _reach).
        self._rings = [
            (
                sum(1 << i for i in range(n) if slots[i].bean is bean and slots[i].level == 3),
                sum(1 << i for i in range(n) if slots[i].bean is bean and slots[i].level == 2),
            )
            for bean in {s.bean for s in slots}
        ]
        self._threes = sum(three for three, _ in self._rings)
        self._used = used
        self._ring_one = sum(1 << i for i in range(n) if slots[i].level == 1)
        # Per café: its 1-ring spaces, and each space with the slots above it (_ones_refilled).
        self._cafe_ones = [self._cafe_mask[ci] & self._ring_one for ci in range(len(k.cafe_slots))]
        self._space_higher = [tuple((i, self._higher[i]) for i in ids) for ids in k.cafe_slots]
        self._kinds = [  # per bean type, its slots
            sum(1 << i for i in range(n) if slots[i].bean is bean)
            for bean in {s.bean for s in slots}
        ]
        # Per slot: the other spaces of its café, each with the slots above it (see _reach).
        self._partners = [
            tuple((x, self._higher[x]) for x in k.cafe_slots[slots[i].cafe] if x != i)
            for i in range(n)
        ]
        # Per café, each space's bit and the spaces a bean could come down from.
        # An empty space holds up its café until a bean from another café drops in.
        self._needs = [
            tuple((1 << i, self._higher[i] & ~self._cafe_mask[ci]) for i in ids)
            for ci, ids in enumerate(k.cafe_slots)
        ]
        self._ids = [tuple(ids) for ids in k.cafe_slots]
        self._top = [max(ids, key=lambda i: slots[i].level) if ids else -1 for ids in k.cafe_slots]
        self._klass = [3 * list(type(s.bean)).index(s.bean) + int(s.level) for s in slots]
        # Per (bean, level) class: its slots, the slots above it, and per café its classes.
        self._class_slots: dict[int, int] = {}
        self._class_higher: dict[int, int] = {}
        for i, kl in enumerate(self._klass):
            self._class_slots[kl] = self._class_slots.get(kl, 0) | 1 << i
            self._class_higher[kl] = self._higher[i]
        self._classes = [tuple(sorted({self._klass[i] for i in ids})) for ids in k.cafe_slots]
        self._class_bits = [sum(1 << kl for kl in kls) for kls in self._classes]
        self._spaces = [tuple((i, self._klass[i]) for i in ids) for ids in k.cafe_slots]
        # Per café, per class: its spaces of that class, as a mask, and how many.
        self._class_spots = [
            tuple(
                (kl, sum(1 << i for i in ids if self._klass[i] == kl), n)
                for kl, n in sorted(Counter(self._klass[i] for i in ids).items())
            )
            for ids in k.cafe_slots
        ]
        self._single_class = [self._klass[ids[0]] if len(ids) == 1 else -1 for ids in k.cafe_slots]
        self._twin_class = [
            self._klass[ids[0]] if len(ids) == 2 and len(set(self._klass[i] for i in ids)) == 1
            else -1
            for ids in k.cafe_slots
        ]
        # Cafés of two 2-ring spaces of a type with a single 1-ring space: their two
        # beans leave at once, and only one of them can drop into that space.
        self._twin_drops = [
            (self._cafe_mask[ci], kl - 1)
            for ci, kl in enumerate(self._twin_class)
            if kl >= 0 and kl % 3 == 2 and self._class_slots.get(kl - 1, 0).bit_count() == 1
        ]
        # Cafés of two like spaces above the lowest ring: when one scores, both beans
        # leave at once and no level lies between theirs and the one below, so any one
        # space of the class below takes one of them at most (the one a twin drop
        # already discounts for the whole class is not counted twice).
        self._pairs = [
            (self._cafe_mask[ci], kl - 1)
            for ci, kl in enumerate(self._twin_class)
            if kl >= 0 and kl % 3 != 1 and kl - 1 in self._class_slots
            and (self._cafe_mask[ci], kl - 1) not in self._twin_drops
        ]
        self._flow_network(k)
        self._egg_network()
        self._forced = not rules.byproducts_may_be_discarded
        # Groups of interchangeable slots: same kind in one café, or whole cafés alike.
        self._twins = k.twins
        shapes: dict[tuple[tuple[object, int], ...], list[int]] = {}
        for ci in used:
            shape = tuple(
                sorted((slots[i].bean.value, int(slots[i].level)) for i in k.cafe_slots[ci])
            )
            shapes.setdefault(shape, []).append(ci)
        self._alike = [
            [
                (ci, tuple(sorted(k.cafe_slots[ci], key=lambda i: (slots[i].bean, slots[i].level))))
                for ci in group
            ]
            for group in shapes.values()
            if len(group) > 1
        ]

    def _flow_network(self, k: Kitchen) -> None:
        """The fixed arcs of ``_matching``'s network: node 0 the source, 1 the sink, and
        per class an "out" and an "in" node; arcs in pairs (arc ^ 1 is the reverse).

        A café arc runs from its tail class's "out" node to its head class's "in" node
        (or from the source, to the sink, for a one-space café), drawing on both
        classes' shared arcs (the beans that may still come down into the class). What
        the café's own spaces hold feeds it alone: flow that is private at both ends
        needs no arc, and flow private at one end only takes an arc from the source, or
        to the sink, that skips that end's shared arc."""
        self._arc_to: list[int] = []
        self._arc_adj: list[list[int]] = [[], []]

        def arc(u: int, v: int) -> int:
            self._arc_adj[u].append(len(self._arc_to))
            self._arc_to.append(v)
            self._arc_adj[v].append(len(self._arc_to))
            self._arc_to.append(u)
            return len(self._arc_to) - 2

        node: dict[int, int] = {}
        self._class_arcs: dict[int, tuple[int, int]] = {}
        for kl in sorted(self._class_slots):
            n = node[kl] = len(self._arc_adj)
            self._arc_adj += [[], []]
            self._class_arcs[kl] = (arc(0, n), arc(n + 1, 1))

        def path(tail: int, head: int, times: int, tail_spots: int, head_spots: int) -> _Path:
            """A café arc from class ``tail`` to class ``head`` (-1: the source, the sink)."""
            u = node[tail] if tail >= 0 else 0
            v = node[head] + 1 if head >= 0 else 1
            feed = self._class_arcs[tail][0] if tail >= 0 else -1
            drain = self._class_arcs[head][1] if head >= 0 else -1
            own_tail = own_head = -1
            if tail >= 0 and head >= 0:
                own_tail, own_head = arc(0, v), arc(u, 1)
            return (
                arc(u, v), times, feed, drain, own_tail, own_head,
                tail_spots if tail >= 0 else -1, head_spots if head >= 0 else -1,
            )

        # Per café: its arcs (see _Path).
        self._cafe_arcs: list[tuple[_Path, ...]] = []
        self._odd_shapes = False
        for ids in k.cafe_slots:
            kinds = sorted(self._klass[i] for i in ids)
            spots = {kl: sum(1 << i for i in ids if self._klass[i] == kl) for kl in kinds}
            paths: tuple[_Path, ...] = ()
            if len(kinds) > 2:
                self._odd_shapes = True
            if len(kinds) == 1:  # an edge to a node without a cap, both ways
                u, m = kinds[0], spots[kinds[0]]
                paths = (path(u, -1, 1, m, 0), path(-1, u, 1, 0, m))
            elif len(kinds) == 2 and kinds[0] == kinds[1]:
                u, m = kinds[0], spots[kinds[0]]
                paths = (path(u, u, 2, m, m),)
            elif len(kinds) == 2:
                u, v = kinds
                paths = (path(u, v, 1, spots[u], spots[v]), path(v, u, 1, spots[v], spots[u]))
            self._cafe_arcs.append(paths)

    # -- analysis of one state ----------------------------------------------------------

    def _live(self, beans: int, eggs: int, cafes: int) -> int:
        """Cafés among ``cafes`` that might still score (a least fixpoint).

        A café scores next only when full. Each of its empty spaces is then filled by a
        byproduct of a café that scored before it, and that bean came, directly or by
        way of other cafés, from a bean of its type sitting higher now in a café that
        scored before it too. So a café can score only if it is full now or each empty
        space has such a bean in a café that can score first: growing from the full
        cafés finds them all, and leaves out cafés that wait on each other in a ring
        (each holding the only bean the other needs, which leaves only once it scores)."""
        key = (beans, eggs, cafes)
        hit = self._lives.get(key)
        if hit is not None:
            return hit
        held = beans | eggs
        needs = self._needs
        live = 0
        # Per café not full now: its bit and the spaces above each of its empty spaces.
        waiting: list[tuple[int, list[int]]] = []
        for ci in self._members(cafes & self._all_cafes):
            ups = [up for bit, up in needs[ci] if not held & bit]
            if ups:
                waiting.append((1 << ci, ups))
            else:
                live |= 1 << ci
        while waiting and live:
            sources = beans & self._slots_of(live)
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

    def _parts(self, beans: int, eggs: int, cafes: int, live: int) -> tuple[list[int], int]:
        """Independent groups of cafés (as café masks) and the inert rest.

        Two cafés are linked when a bean that may still move from one could land in a
        space of the other that is or may become empty.
        """
        live_slots = self._slots_of(live)
        mobile = beans & live_slots
        # Spaces that may be empty at some point: empty now, or in a café that may score.
        openable = (self._slots_of(cafes) & ~(beans | eggs)) | live_slots
        cafe_bit, lower, higher = self._cafe_bit, self._lower, self._higher
        cafes_at = self._cafes_at
        linked: list[int] = []  # disjoint café masks, each holding a link
        for i in self._members(live_slots & self._moving):
            if not (beans >> i & 1 or mobile & higher[i]):
                continue  # no bean will ever sit here
            reach = lower[i] & openable
            if not reach:
                continue
            group = cafes_at.get(reach)
            if group is None:
                group = 0
                for j in _bits(reach):
                    group |= cafe_bit[j]
                if len(cafes_at) < BOUND_CACHE:
                    cafes_at[reach] = group
            group |= cafe_bit[i]
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
        parts = linked + [1 << ci for ci in _bits(alone)]  # no live café: nothing happens
        parts.sort(key=lambda g: g & -g)
        inert = cafes
        for g in parts:
            inert &= ~g
        return parts, inert

    def _bound_and_singles(
        self, beans: int, eggs: int, cafes: int, live: int | None = None
    ) -> tuple[int, int]:
        """Points still reachable by ``cafes``, at most (``_cover`` of their live cafés;
        ``live`` may over-approximate them: cafés only ever die), and the most scorings
        the one-space cafés among them can make."""
        if live is None:
            live = self._live(beans, eggs, cafes)
        live &= cafes
        # Only what the live cafés hold counts: states alike there share one entry.
        spots = self._slots_of(live)
        beans &= spots
        eggs &= spots
        key = (beans, eggs, live)
        hit = self._bounds.get(key)
        if hit is not None:
            return hit
        count, _, singles = self._cover(beans, eggs, live, beans | eggs)
        got = (POINTS_PER_CAFE * count, singles)
        if len(self._bounds) < BOUND_CACHE:
            self._bounds[key] = got
        return got

    def _reach(
        self,
        points: int,
        singles: int,
        beans: int,
        eggs: int,
        part: int,
        live: int,
        refined: bool = True,
    ) -> Value:
        """A ceiling on the value of ``part`` (cafés) whose points are at most ``points``:
        the part cannot do better than this triple.

        Each bean and egg carries a potential, what it can still be worth: 1 for an egg
        or a 1-ring bean (one fill, then gone), and for a bean on a higher space 1 plus
        the most of discarding it (1, a chicken step) or of the potential of the lower
        spaces of its type it could drop to (a bean that lands in a café that never
        scores again is only worth 1 more, as a bean left). Each fill used by a scoring
        lowers the potential of the cafés that may score by 1 at least, and a discarded
        byproduct by 1 more; beans still there at the end keep 1 each. So chicken steps
        plus beans left are at most that potential plus the beans of cafés that never
        score, less the fills that the points take, which are at least one per point and
        one more per point beyond what the one-space cafés can score.

        A 3-ring bean is worth its third unit only if some 2-ring space of its type sits
        in a café whose other spaces can still be filled after the bean arrives. Under
        forced byproducts a bean of a type is discarded only once every empty 1-ring
        space of that type has taken one of that type's movers, none of which is then
        discarded. And cafés holding something that never score again keep it
        (``_chicken_room``). And the scorings need beans dropped into, and taken from,
        1-ring spaces (``_ones_refilled``): a bean dropped there is never discarded, and
        one taken there is neither a step nor left. Without ``refined`` (the quick check
        of a child) these four are left out: they are the dearer part, and the child's
        own glance applies them.
        """
        known = self._slot_masks
        slots = known.get(part)
        if slots is None:
            slots = self._slots_of(part)
        live_slots = known.get(live & part)
        if live_slots is None:
            live_slots = self._slots_of(live & part)
        on = beans & live_slots
        movers = (on & self._moving).bit_count()
        potential = on.bit_count() + movers + (eggs & live_slots).bit_count()
        extra = 0  # 3-ring slots whose bean may still be worth a third unit
        if on & self._threes:
            held = on | (eggs & live_slots)
            for three, two in self._rings:
                spots = two & live_slots
                if not (on & three and spots):
                    continue
                if refined and not any(
                    self._refills_after(t, on, held) for t in self._members(spots)
                ):
                    continue
                extra |= three
            potential += (on & extra).bit_count()
        # Not enough potential to fill that often: the most scorings s whose fills,
        # s + max(0, s - singles), the potential still covers.
        scorings = points // POINTS_PER_CAFE
        most = (potential + singles) // 2 if potential > singles else potential
        if most < scorings:
            scorings = most
        fills = 2 * scorings - singles if scorings > singles else scorings
        mine = beans & slots
        spare = potential + (mine & ~live_slots).bit_count() - fills
        if refined and self._forced and movers > 0:
            # Empty 1-ring spaces, each of which takes a mover of its type before the
            # first bean of that type can be discarded.
            sinks = slots & ~(beans | eggs) & self._ring_one
            if sinks and movers - sinks.bit_count() < spare:
                moving = on & self._moving
                movers = 0
                for kind in self._kinds:
                    m = (moving & kind).bit_count() - (sinks & kind).bit_count()
                    if m > 0:
                        movers += m
        chicken = movers if movers < spare else spare
        left = mine.bit_count()
        if refined and (chicken > 0 or left > 0):
            tight, total = self._chicken_room(
                scorings, singles, potential, on, eggs & live_slots, live & part, live_slots, extra
            )
            if tight < chicken:
                chicken = tight
            # Every refill of a 1-ring space is a mover that is never discarded, and
            # every fill of one that a scoring takes is gone (a bean unless an egg).
            ones_eggs = eggs & live_slots & self._ring_one
            drops, taken = self._ones_refilled(scorings, on, on | eggs & live_slots, live & part)
            spent = (on & self._moving).bit_count() - chicken
            if drops > spent:
                chicken = max(0, chicken - (drops - spent))
            # Beans of cafés that never score again count only as beans left.
            total += (mine & ~live_slots).bit_count()
            gone = taken - ones_eggs.bit_count()
            if total > mine.bit_count() - gone:
                total = mine.bit_count() - gone
            if left > total - chicken:
                left = total - chicken
        if left > spare - chicken:
            left = spare - chicken
        return (POINTS_PER_CAFE * scorings, chicken, left)

    def _ones_refilled(self, scorings: int, on: int, held: int, live: int) -> tuple[int, int]:
        """(drops, fills) that ``scorings`` scorings of the ``live`` cafés need in their
        1-ring spaces, at least. A 1-ring space is full at each scoring of its café, and
        that scoring takes what fills it; every fill but one held now is a bean dropped
        in, which never moves again (so never earns a chicken step). A café scores at
        most as often as each of its spaces holds something now or can take a bean from
        above. Its n-th scoring takes a fill of each of its 1-ring spaces, and needs a
        drop into each of them, bar the ones held now at the first: the cost of each
        further scoring never falls, so the cheapest scorings, taken one by one across
        cafés, give the least totals."""
        key = (scorings, on, held, live)
        hit = self._refills.get(key)
        if hit is not None:
            return hit
        free = 0  # scorings that need no 1-ring drop
        extra: list[int] = []  # the drops of each further possible scoring
        fills: list[int] = []  # the 1-ring fills of each possible scoring
        ones = self._cafe_ones
        for ci in self._members(live):
            cap = scorings
            for i, up in self._space_higher[ci]:
                c = (held >> i & 1) + (on & up).bit_count()
                if c < cap:
                    cap = c
            if not cap:
                continue
            spaces = ones[ci].bit_count()
            fills.extend([spaces] * cap)
            if not spaces:
                free += cap
                continue
            first = (ones[ci] & ~held).bit_count()
            if first:
                extra.append(first)
            else:
                free += 1
            extra.extend([spaces] * (cap - 1))
        fills.sort()
        taken = sum(fills[:scorings])
        drops = 0
        if scorings > free:
            extra.sort()
            drops = sum(extra[: scorings - free])
        if len(self._refills) < BOUND_CACHE:
            self._refills[key] = (drops, taken)
        return drops, taken

    def _refills_after(self, slot: int, on: int, held: int) -> bool:
        """Whether the café of ``slot`` could still be full once a bean drops into it:
        every other space holds something now or can take a bean from above, and twice
        over if ``slot`` is taken now (its café must score first)."""
        need = 1 + (held >> slot & 1)
        for x, up in self._partners[slot]:
            if (held >> x & 1) + (on & up).bit_count() < need:
                return False
        return True

    def _chicken_room(
        self,
        scorings: int,
        singles: int,
        potential: int,
        on: int,
        eggs: int,
        live: int,
        live_slots: int,
        extra: int,
    ) -> tuple[int, int]:
        """(chicken steps, chicken steps plus beans left) that ``scorings`` scorings leave
        room for, at most (see ``_reach``).

        A café that holds beans or eggs and never scores again keeps them: its items'
        whole potential is spent on its beans left (one each) or wasted, none on chicken
        steps. With s1 scorings of one-space cafés and s2 = scorings - s1 of the others,
        at most s1 and s2 distinct such cafés can score, so the rest, taken as the
        cheapest, stay full; the fills are 2 * s2 + s1. The best s1 is taken.
        """
        held = on | eggs
        moving = self._moving
        masks = self._cafe_mask
        single = self._single_class  # >= 0 for a café of one space
        # Per café holding something: its items' potential, and that less its beans.
        twos: list[int] = []
        ones: list[int] = []
        twos_waste: list[int] = []
        ones_waste: list[int] = []
        for ci in self._members(live):
            items = masks[ci] & held
            if not items:
                continue
            mine = items & on
            beans = mine.bit_count()
            waste = items.bit_count() - beans + (mine & moving).bit_count()
            if mine & extra:
                waste += (mine & extra).bit_count()
            if single[ci] >= 0:
                ones.append(waste + beans)
                ones_waste.append(waste)
            else:
                twos.append(waste + beans)
                twos_waste.append(waste)
        most = singles if singles < scorings else scorings
        plain = potential - 2 * scorings + most  # the fills alone, at s1 = most
        if len(twos) <= scorings - most and len(ones) <= most:
            return plain, plain  # every café holding something may score
        # The cheapest cafés to leave unscored, by potential and by waste apart.
        twos.sort()
        ones.sort()
        twos_waste.sort()
        ones_waste.sort()
        chicken = total = -_UNBOUNDED
        for s1 in range(most + 1):
            s2 = scorings - s1
            room = whole = potential - 2 * s2 - s1
            if len(twos) > s2:
                room -= sum(twos[: len(twos) - s2])
                whole -= sum(twos_waste[: len(twos) - s2])
            if len(ones) > s1:
                room -= sum(ones[: len(ones) - s1])
                whole -= sum(ones_waste[: len(ones) - s1])
            if room > chicken:
                chicken = room
            if whole > total:
                total = whole
        return chicken, total

    def _arriving(self, mobile: int) -> tuple[dict[int, int], dict[int, int]]:
        """Per (bean, level) class, the ``mobile`` beans that could still come down into
        it (a twin drop counted once), and the same per space of the class: a pair of like
        beans leaving one café at once drops into the class just below as one bean at
        most (see ``_pairs``). The second is the first itself when no pair leaves."""
        arriving = {k: (mobile & up).bit_count() for k, up in self._class_higher.items()}
        for pair, low in self._twin_drops:
            if mobile & pair == pair:
                arriving[low] -= 1
        reach = arriving
        for pair, low in self._pairs:
            if mobile & pair == pair:
                if reach is arriving:
                    reach = dict(arriving)
                reach[low] -= 1
        return arriving, reach

    def _cover(
        self, beans: int, eggs: int, live: int, capped: int
    ) -> tuple[int, int, int]:
        """(scorings, headroom, singles): the most times the ``live`` cafés can still
        score, at most, how far eggs on empty spaces could lift that count (see
        egg_ceiling), and the most times the one-space cafés among them can score.

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
        held = beans | eggs
        live_slots = self._slots_of(live)
        mobile = beans & live_slots
        arriving, reach = self._arriving(mobile)
        cafes: list[tuple[int, int]] = []  # (scarcest count, café) of the live cafés
        gains: dict[int, int] = {}  # per class: sum of scarcest counts of cafés touching it
        alone: dict[int, int] = {}  # the same for one-space cafés
        spaces, classes, single = self._spaces, self._classes, self._single_class
        ready = capped & live_slots
        # Per class: what the cafés, each at its scarcest count, take beyond what their
        # own spaces of the class hold; within ``arriving`` no matching can cut.
        over: dict[int, int] = {}
        total = 0
        for ci in self._members(live & self._all_cafes):
            least = 99
            for i, k in spaces[ci]:
                fills = (held >> i & 1) + reach[k]
                if fills < least:
                    least = fills
            cafes.append((least, ci))
            total += least
            if least:
                for k, spots, times in self._class_spots[ci]:
                    extra = times * least - (ready & spots).bit_count()
                    if extra > 0:
                        over[k] = over.get(k, 0) + extra
            for k in classes[ci]:
                gains[k] = gains.get(k, 0) + least
            k = single[ci]
            if k >= 0:
                alone[k] = alone.get(k, 0) + least
        class_slots = self._class_slots
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
                if self._class_bits[ci] & opened:
                    for k in self._classes[ci]:
                        if k in gains:
                            gains[k] -= least
                else:
                    rest.append((least, ci))
            cafes = rest
        if all(n <= arriving[k] for k, n in over.items()):
            flow = total  # every café at its scarcest count fits: no matching can cut
        else:
            flow = self._matching(every, arriving, ready, total) if total else 0
        if capped == held:
            return flow, 0, singles
        # With eggs: at most the greedy count plus the headroom below, and at most the
        # matching count plus one per egg (each egg lifts one café's limit by one).
        if not cafes:
            return flow, total - flow, singles
        # Headroom: the cafés left, grouped by their top class.
        eggable = capped & ~held
        shares: dict[int, list[int]] = {}
        for least, ci in cafes:
            top = self._klass[self._top[ci]]
            rise = 1
            for i, k in self._spaces[ci]:
                if not eggable >> i & 1 and (held >> i & 1) + reach[k] == least:
                    rise = 0  # a scarcest space no egg can go to: it stays the scarcest
                    break
            share = shares.setdefault(top, [0, 0])
            share[0] += least
            share[1] += rise
        room = 0
        for k, (t, r) in shares.items():
            room += min(max(0, caps[k] - t), r)
        return flow, total - flow + room, singles

    def _matching(
        self, cafes: list[tuple[int, int]], arriving: dict[int, int], ready: int, cover: int
    ) -> int:
        """The scorings the packing problem of ``_cover`` allows, fractionally, rounded
        down, or ``cover`` (the greedy count) if that is no more.

        Each café is an edge between its two classes (a loop when both spaces are of one
        class, a pendant edge for a single space) taking its scarcest count at most;
        each class takes the beans that may still come down into it (``arriving``, shared
        by its cafés) plus what each café's own spaces of that class hold now
        (``ready``), which only that café can use: a bean or egg sitting in a café that
        never scores fills nothing. That is a b-matching with private supplies, whose
        fractional optimum is half the maximum flow in its bipartite double cover (a
        loop counts twice at its node, so its arc takes twice the count; the average of
        the two directions' flows is feasible, as the excess over a private supply is
        convex). The optimum is never above a feasible dual such as the greedy cover,
        so the flow stops once it reaches ``2 * cover``. Cafés of another shape (more
        than two spaces) leave the greedy count.
        """
        if self._odd_shapes:
            return cover
        room = [0] * len(self._arc_to)
        for k, (a, b) in self._class_arcs.items():
            room[a] = room[b] = arriving[k]
        flow = 0
        goal = 2 * cover
        paths = self._cafe_arcs
        for least, ci in cafes:
            if not least:
                continue
            for a, times, feed, drain, own_tail, own_head, t_in, h_in in paths[ci]:
                most = times * least
                # What is private at both ends flows at once (the source and the sink
                # are private to every café); whichever end still has some left takes
                # its own arc, the rest the shared arcs of both classes.
                mine = (ready & t_in).bit_count() if t_in >= 0 else most
                theirs = (ready & h_in).bit_count() if h_in >= 0 else most
                both = min(mine, theirs, most)
                flow += both
                left = most - both
                if not left:
                    continue
                if own_tail >= 0:
                    for own, pool, spare in ((own_tail, drain, mine), (own_head, feed, theirs)):
                        cap = min(spare - both, left)
                        if cap <= 0:
                            continue
                        left -= cap
                        push = min(cap, room[pool])
                        room[pool] -= push
                        room[pool ^ 1] += push
                        room[own] = cap - push
                        room[own ^ 1] = push
                        flow += push
                push = left
                if feed >= 0 and room[feed] < push:
                    push = room[feed]
                if drain >= 0 and room[drain] < push:
                    push = room[drain]
                if push > 0:
                    if feed >= 0:
                        room[feed] -= push
                        room[feed ^ 1] += push
                    if drain >= 0:
                        room[drain] -= push
                        room[drain ^ 1] += push
                    flow += push
                room[a] = left - push
                room[a ^ 1] = push
        flow = _augmented(self._arc_to, self._arc_adj, room, flow, goal)
        return min(cover, flow // 2)

    def _egg_network(self) -> None:
        """The fixed arcs of ``_egg_matching``'s network (built once; each call sets the
        capacities): node 0 the source, 1 the sink, 2 and 3 the stock of eggs on the
        tail and head sides of the double cover, per class an "out" and an "in" node, and
        per café arc of ``_flow_network`` a tail and a head node joined by the café's arc.
        The tail node takes beans from the tail class's "out" node, what the café's own
        spaces of that class hold from the source, and eggs for its empty spaces of that
        class from the stock; the head node gives back the same three ways."""
        to: list[int] = []
        adj: list[list[int]] = [[], [], [], []]

        def node() -> int:
            adj.append([])
            return len(adj) - 1

        def arc(u: int, v: int) -> int:
            adj[u].append(len(to))
            to.append(v)
            adj[v].append(len(to))
            to.append(u)
            return len(to) - 2

        self._egg_stock = (arc(0, 2), arc(3, 1))
        ends: dict[int, tuple[int, int]] = {}
        class_arcs: list[tuple[int, int, int]] = []  # (class, feed, drain)
        for kl in sorted(self._class_slots):
            out, inn = node(), node()
            ends[kl] = (out, inn)
            class_arcs.append((kl, arc(0, out), arc(inn, 1)))
        self._egg_class_arcs = tuple(class_arcs)
        # Per café: per café arc (arc, fills per scoring, (held arc, egg arc, spaces) at
        # the tail and at the head; -1 arcs where the end is the source or the sink).
        cafe_paths: list[tuple[tuple[int, int, int, int, int, int, int, int], ...]] = []
        open_arcs: list[int] = []  # arcs of unbounded capacity
        feeds = {kl: (feed, drain) for kl, feed, drain in class_arcs}
        # Per café: the routes from the source to the sink through each of its arcs, own
        # supplies first and eggs last, for a greedy first flow.
        cafe_routes: list[tuple[tuple[int, ...], ...]] = []
        for ids in self.kitchen.cafe_slots:
            kinds = sorted(self._klass[i] for i in ids)
            spots = {kl: sum(1 << i for i in ids if self._klass[i] == kl) for kl in kinds}
            shape: tuple[tuple[int, int, int], ...] = ()
            if len(kinds) == 1:
                shape = ((kinds[0], -1, 1), (-1, kinds[0], 1))
            elif len(kinds) == 2 and kinds[0] == kinds[1]:
                shape = ((kinds[0], kinds[0], 2),)
            elif len(kinds) == 2:
                shape = ((kinds[0], kinds[1], 1), (kinds[1], kinds[0], 1))
            paths = []
            routes: list[tuple[int, ...]] = []
            for tail, head, times in shape:
                a, b = node(), node()
                cafe = arc(a, b)
                t_held = t_egg = h_held = h_egg = -1
                if tail < 0:
                    open_arcs.append(arc(0, a))
                    ins: list[tuple[int, ...]] = [(open_arcs[-1],)]
                else:
                    open_arcs.append(arc(ends[tail][0], a))
                    t_held, t_egg = arc(0, a), arc(2, a)
                    ins = [(t_held,), (feeds[tail][0], open_arcs[-1]), (self._egg_stock[0], t_egg)]
                if head < 0:
                    open_arcs.append(arc(b, 1))
                    outs: list[tuple[int, ...]] = [(open_arcs[-1],)]
                else:
                    open_arcs.append(arc(b, ends[head][1]))
                    h_held, h_egg = arc(b, 1), arc(b, 3)
                    outs = [(h_held,), (open_arcs[-1], feeds[head][1]), (h_egg, self._egg_stock[1])]
                paths.append((
                    cafe, times, t_held, t_egg, spots.get(tail, 0),
                    h_held, h_egg, spots.get(head, 0),
                ))
                routes.extend(i + (cafe,) + o for i in ins for o in outs)
            cafe_paths.append(tuple(paths))
            cafe_routes.append(tuple(routes))
        self._egg_paths = cafe_paths
        self._egg_routes = cafe_routes
        self._egg_to = to
        self._egg_adj = adj
        self._egg_open = tuple(open_arcs)

    def _egg_matching(
        self, beans: int, eggs: int, eggable: int, stock: int, goal: int = _UNBOUNDED
    ) -> int:
        """The scorings that ``_matching``'s b-matching allows, fractionally, rounded
        down, when any ``stock`` of the spaces ``eggable`` may also take an egg: each such
        space is one more private supply of its café, drawn from one stock of ``stock``
        eggs on each side of the double cover. The flow stops once it reaches ``goal``
        scorings (then the count is ``goal``).

        Whichever ``stock`` of those spaces get the eggs, that state's own matching is a
        flow of this network (its private supplies are among these, and its live cafés,
        the beans that can still come down into each class and each café's scarcest
        count only grow with eggs), so its scorings are never above this count."""
        held = beans | eggs
        full = held | eggable
        live = self._live(beans, full & ~beans, self._all_cafes)
        live_slots = self._slots_of(live)
        arriving, reach = self._arriving(beans & live_slots)
        ready = held & live_slots
        eggy = eggable & live_slots
        to, adj = self._egg_to, self._egg_adj
        room = [0] * len(to)
        for a in self._egg_open:
            room[a] = _UNBOUNDED
        room[self._egg_stock[0]] = room[self._egg_stock[1]] = stock
        for kl, feed, drain in self._egg_class_arcs:
            room[feed] = room[drain] = arriving[kl]
        for ci in self._members(live & self._all_cafes):
            least = _UNBOUNDED
            for i, k in self._spaces[ci]:
                fills = (full >> i & 1) + reach[k]
                if fills < least:
                    least = fills
            if not least:
                continue
            for cafe, times, t_held, t_egg, t_in, h_held, h_egg, h_in in self._egg_paths[ci]:
                room[cafe] = times * least
                if t_held >= 0:
                    room[t_held] = (ready & t_in).bit_count()
                    room[t_egg] = (eggy & t_in).bit_count()
                if h_held >= 0:
                    room[h_held] = (ready & h_in).bit_count()
                    room[h_egg] = (eggy & h_in).bit_count()
        flow = 0
        target = 2 * goal if goal < _UNBOUNDED else _UNBOUNDED
        # A greedy first flow along each café's own routes, then shortest augmenting
        # paths (Edmonds-Karp) on what is left: a few units on a hundred nodes.
        for ci in self._members(live & self._all_cafes):
            for route in self._egg_routes[ci]:
                push = _UNBOUNDED
                for a in route:
                    if room[a] < push:
                        push = room[a]
                if push > 0:
                    for a in route:
                        room[a] -= push
                        room[a ^ 1] += push
                    flow += push
        flow = _augmented(to, adj, room, flow, target)
        return min(flow, target) // 2

    # -- the search ---------------------------------------------------------------------

    def _canonical(self, beans: int, eggs: int, cafes: int) -> tuple[int, int]:
        """One representative of the states equal up to swapping interchangeable spaces
        (same kind in one café) or whole identical cafés within ``cafes``."""
        for group in self._twins:
            vals = sorted(((beans >> i) & 1) | (((eggs >> i) & 1) << 1) for i in group)
            for i, v in zip(group, vals, strict=True):
                bit = 1 << i
                beans = beans | bit if v == 1 else beans & ~bit
                eggs = eggs | bit if v == 2 else eggs & ~bit
        for whole in self._alike:
            members = [ids for ci, ids in whole if cafes >> ci & 1]
            if len(members) < 2:
                continue
            rows = sorted(
                tuple(((beans >> i) & 1) | (((eggs >> i) & 1) << 1) for i in ids)
                for ids in members
            )
            for ids, row in zip(members, rows, strict=True):
                for i, v in zip(ids, row, strict=True):
                    bit = 1 << i
                    beans = beans | bit if v == 1 else beans & ~bit
                    eggs = eggs | bit if v == 2 else eggs & ~bit
        return beans, eggs

    def _value(self, beans: int, eggs: int, cafes: int, need: Value) -> Value | None:
        """Best value of the cafés in ``cafes`` (a café mask) from this state, or None
        when it is provably below ``need`` (which is cheaper to show)."""
        mask = self._slots_of(cafes)
        beans &= mask
        eggs &= mask
        key = (cafes, beans, eggs)
        hit = self._whole.get(key)
        if hit is not None:
            return hit if hit >= need else None
        below = self._short.get(key)
        if below is not None and below <= need:
            return None
        got = self._whole_value(beans, eggs, cafes, need, key)
        if got is None and len(self._short) <= self._budget:
            # The value is below ``need``: keep the lowest such triple known.
            self._short[key] = need if below is None else min(below, need)
        return got

    def _glance(
        self, beans: int, eggs: int, cafes: int, known: tuple[int, int, Value] | None = None
    ) -> tuple[int, Value]:
        """Live cafés and a ceiling on the value, taking the cafés as one part: enough
        to rule most states out, for their parent, before their parts are worked out.
        ``known``: (points, singles, ``_reach`` of them) already worked out here."""
        key = (cafes, beans, eggs)
        hit = self._glances.get(key)
        if hit is not None:
            return hit
        live = self._live(beans, eggs, cafes)
        got: tuple[int, Value]
        if not live:
            got = (live, (0, 0, beans.bit_count()))
        else:
            points, singles = self._bound_and_singles(beans, eggs, cafes, live)
            if known is not None and known[:2] == (points, singles):
                got = (live, known[2])
            else:
                got = (live, self._reach(points, singles, beans, eggs, cafes, live))
        if len(self._glances) < BOUND_CACHE:
            self._glances[key] = got
        return got

    def _analyse(self, beans: int, eggs: int, cafes: int, live: int) -> _Analysis:
        """Independent parts, their point counts and value ceilings, and a ceiling on the
        whole (no higher than ``_glance``'s)."""
        key = (cafes, beans, eggs)
        hit = self._analyses.get(key)
        if hit is not None:
            return hit
        parts, inert = self._parts(beans, eggs, cafes, live)
        counts = tuple(self._bound_and_singles(beans, eggs, part, live) for part in parts)
        ceilings = tuple(
            self._reach(points, singles, beans, eggs, part, live)
            for part, (points, singles) in zip(parts, counts, strict=True)
        )
        total = (0, 0, (beans & self._slots_of(inert)).bit_count())
        for c in ceilings:
            total = value_add(total, c)
        got: _Analysis = (tuple(parts), inert, counts, ceilings, total)
        if len(self._analyses) < BOUND_CACHE:
            self._analyses[key] = got
        return got

    def _whole_value(
        self, beans: int, eggs: int, cafes: int, need: Value, key: tuple[int, int, int]
    ) -> Value | None:
        live, whole = self._glance(beans, eggs, cafes)
        if not live:
            done = (0, 0, beans.bit_count())
            return done if done >= need else None
        if whole < need:
            return None
        parts, inert, counts, ceilings, total = self._analyse(beans, eggs, cafes, live)
        if total < need:
            return None
        # Per part a ceiling on each of points, chicken steps and beans left: their sum
        # bounds the part's value whatever it is (a sum of triples keeps their order).
        rest = value_sub(total, (0, 0, (beans & self._slots_of(inert)).bit_count()))
        value = (0, 0, (beans & self._slots_of(inert)).bit_count())
        for part, ceiling, count in zip(parts, ceilings, counts, strict=True):
            rest = value_sub(rest, ceiling)
            # This part must make up what the others, at their best, cannot.
            part_need = value_sub(value_sub(need, value), rest)
            if ceiling < part_need:
                return None
            got = self._part(beans, eggs, part, live & part, part_need, count)
            if got is None:
                return None
            value = value_add(value, got)
        if len(self._whole) <= self._budget:
            self._whole[key] = value
        return value if value >= need else None

    def _ceiling(self, beans: int, eggs: int, part: int, live: int) -> Value:
        """A ceiling on a part's value (see ``_reach``)."""
        points, singles = self._bound_and_singles(beans, eggs, part, live)
        return self._reach(points, singles, beans, eggs, part, live)

    def _outcomes(self, cands: list[int], k: int, used: int) -> Iterator[tuple[int, int]]:
        """(bits filled, beans discarded) for every assignment of movers k.. onwards."""
        if k == 0 and len(cands) <= 2:
            yield from self._few_outcomes(cands)
            return
        if k == len(cands):
            yield 0, 0
            return
        free = cands[k] & ~used
        for t in _bits(free):
            bit = 1 << t
            for filled, lost in self._outcomes(cands, k + 1, used | bit):
                yield filled | bit, lost
        for filled, lost in self._outcomes(cands, k + 1, used):
            if self._forced and free & ~filled:
                continue  # it could still have moved somewhere
            yield filled, lost + 1

    def _few_outcomes(self, cands: list[int]) -> list[tuple[int, int]]:
        """``_outcomes`` of at most two movers (every café here has at most two spaces),
        written out, in the same order."""
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

    def _members(self, mask: int) -> tuple[int, ...]:
        """The set bits of ``mask``, low to high (remembered: the same masks recur)."""
        hit = self._member_lists.get(mask)
        if hit is None:
            hit = tuple(_bits(mask))
            if len(self._member_lists) < BOUND_CACHE:
                self._member_lists[mask] = hit
        return hit

    def _slots_of(self, cafes: int) -> int:
        hit = self._slot_masks.get(cafes)
        if hit is None:
            hit = 0
            for ci in self._used:
                if cafes >> ci & 1:
                    hit |= self._cafe_mask[ci]
            if len(self._slot_masks) < BOUND_CACHE:
                self._slot_masks[cafes] = hit
        return hit

    def _part(
        self, beans: int, eggs: int, cafes: int, live: int, need: Value, count: tuple[int, int]
    ) -> Value | None:
        """Best value of one independent group of cafés (``live``: those that may score),
        or None when it is provably below ``need``. ``count`` is its ``_bound_and_singles``.

        A child's points are at most this state's ceiling less the point it scores, and
        its one-space cafés score no more often than here: so ``_reach`` can often rule
        a child out before its own ceiling is worked out.

        Exact values and proven strict ceilings are memoised apart, so a memoised value
        is always exact whatever ``need`` it was found under.
        """
        mask = self._slots_of(cafes)
        b, e = self._canonical(beans & mask, eggs & mask, cafes)
        key = (cafes, b, e)
        hit = self._memo.get(key)
        if hit is not None:
            return hit if hit >= need else None
        ceiling = self._upper.get(key)
        if ceiling is not None and ceiling <= need:
            return None
        if (b, e) != (beans & mask, eggs & mask):
            live = self._live(b, e, cafes)  # swapping cafés moved which ones are live
        held = b | e
        gain = POINTS_PER_CAFE
        most = ANY  # proven strict ceiling on this state's value, from the children seen
        below, singles_here = count[0] - gain, count[1]
        # (points ceiling, beans, eggs, lost, ceiling on the value through it)
        children: list[tuple[int, int, int, int, Value]] = []
        for ci in self._used:
            if not live >> ci & 1:
                continue
            cm = self._cafe_mask[ci]
            if cm & ~held:
                continue
            left_beans, left_eggs = b & ~cm, e & ~cm
            occupied = left_beans | left_eggs
            # Spaces outside this part are full for good (that is why it is a part).
            cands = [t & mask & ~occupied for i, t in self._targets[ci] if b >> i & 1]
            seen: set[int] = set()
            for filled, lost in self._outcomes(cands, 0, 0):
                if filled in seen:  # same spaces filled means the same number lost
                    continue
                seen.add(filled)
                nb = left_beans | filled
                q = self._reach(below, singles_here, nb, left_eggs, cafes, live, refined=False)
                quick = (q[0] + gain, q[1] + lost, q[2])
                if quick < need:
                    above = (quick[0], quick[1], quick[2] + 1)  # value_above(quick)
                    if above > most:
                        most = above
                    continue
                guess: tuple[int, int, Value] | None = None
                if quick[0] == need[0] and (cafes, nb, left_eggs) not in self._glances:
                    # Points only tie: the refined ceiling at this state's points rules
                    # out most such children before their own point count is worked out
                    # (and is their glance's own ceiling when that count is the same).
                    child_live = self._live(nb, left_eggs, cafes)
                    if child_live:
                        q = self._reach(below, singles_here, nb, left_eggs, cafes, child_live)
                        quick = (q[0] + gain, q[1] + lost, q[2])
                        if quick < need:
                            above = (quick[0], quick[1], quick[2] + 1)
                            if above > most:
                                most = above
                            continue
                        guess = (below, singles_here, q)
                g = self._glance(nb, left_eggs, cafes, guess)[1]
                reach = (g[0] + gain, g[1] + lost, g[2])
                if reach < need:
                    above = (reach[0], reach[1], reach[2] + 1)
                    if above > most:
                        most = above
                    continue
                limit = g[0] if g[0] < below else below
                children.append((limit, nb, left_eggs, lost, reach))
        if not children and most == ANY:
            done = (0, 0, b.bit_count())
            self._memo[key] = done
            return done if done >= need else None
        children.sort(key=lambda ch: -ch[0])
        top: Value | None = None
        for k, (limit, nb, ne, lost, reach) in enumerate(children):
            floor = need if top is None else max(need, value_above(top))
            if limit + gain < floor[0]:
                # Sorted by ceiling: no later child reaches the floor either.
                most = max(most, (limit + gain + 1, -_UNBOUNDED, -_UNBOUNDED))
                break
            if reach < floor:
                most = max(most, value_above(reach))
                continue  # cannot reach the floor
            got = self._value(nb, ne, cafes, value_sub(floor, (gain, lost, 0)))
            if got is None:
                most = max(most, floor)  # the child's line of play fell short of floor
            else:
                v = (got[0] + gain, got[1] + lost, got[2])
                most = max(most, value_above(v))
                if top is None or v > top:
                    top = v
            if len(self._memo) + len(self._upper) > self._budget:
                # Over budget: settle for the best line of play found so far; the rest of
                # the children are covered by their (sorted) ceilings.
                self.complete = False
                if k + 1 < len(children):
                    most = max(most, (children[k + 1][0] + gain + 1, -_UNBOUNDED, -_UNBOUNDED))
                break
        if top is not None and top >= need:
            self._memo[key] = top
            return top
        known = self._upper.get(key)
        self._upper[key] = most if known is None else min(known, most)
        return None
