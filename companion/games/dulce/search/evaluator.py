"""Exact, memoised search for the best scoring phase, on bitmasks.

Beans only ever move to a strictly lower level, so every step lowers the total level of
what is held and the search always ends. Four things keep it small enough to be exact
on every kitchen a game can reach: dead cafés and independent parts (``live``), point
ceilings (``points``, with the flow networks of ``networks``) and value ceilings
(``reach``). A branch whose ceiling cannot beat the best sibling found so far is
skipped; the skipped branch provably loses, so memoised values stay exact. Each
independent part is searched and memoised on its own, and one memo serves every
harvest start of a kitchen.

The value compared is (points, chicken steps, beans left in cafés), larger is better in
that order.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from companion.games.dulce.constants import BOUND_CACHE, POINTS_PER_CAFE, SEARCH_BUDGET
from companion.games.dulce.kitchen import Fill, Kitchen, Value, value_above, value_add, value_sub
from companion.games.dulce.model import DEFAULT_RULES, Content, DulceRules
from companion.games.dulce.search.byproducts import Byproducts
from companion.games.dulce.search.live import LiveCafes
from companion.games.dulce.search.masks import UNBOUNDED, State, masks
from companion.games.dulce.search.points import PointCeilings, PointCount
from companion.games.dulce.search.reach import ValueCeilings
from companion.games.dulce.search.tables import Tables

ANY: Value = (-UNBOUNDED, -UNBOUNDED, -UNBOUNDED)  # a threshold every value meets


class Glance(NamedTuple):
    """A state's live cafés and a ceiling on its value, taking its cafés as one part."""

    live: int
    ceiling: Value


class Analysis(NamedTuple):
    """A state split into independent parts (see ``LiveCafes.parts``)."""

    parts: tuple[int, ...]  # café masks
    inert: int  # the cafés of no part: they never score again
    counts: tuple[PointCount, ...]  # per part
    ceilings: tuple[Value, ...]  # per part
    total: Value  # a ceiling on the whole


class Child(NamedTuple):
    """A state one scoring on, as ``Evaluator._part`` ranks them."""

    limit: int  # ceiling on its points
    beans: int
    eggs: int
    lost: int  # byproducts discarded on the way: chicken steps
    reach: Value  # ceiling on the value through it


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


def _mask_of(where: Iterable[int] | None) -> int | None:
    return None if where is None else sum(1 << i for i in set(where))


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
        self._budget = budget
        t = self._t = Tables(kitchen, rules)
        live = LiveCafes(t)
        self._points = PointCeilings(t, live)
        # The lookups of the hot loops, bound once.
        self._members = t.members
        self._slots_of = t.slots_of
        self._live = live.live
        self._parts = live.parts
        self._count = self._points.count
        self._reach = ValueCeilings(t).reach
        self._outcomes = Byproducts(t).outcomes
        self._memo: dict[State, Value] = {}  # exact values of parts
        # Proven strict ceilings of parts: the part's value is below this triple.
        self._upper: dict[State, Value] = {}
        self._whole: dict[State, Value] = {}  # before splitting into parts
        self._short: dict[State, Value] = {}  # strict ceilings of the same
        self._analyses: dict[State, Analysis] = {}
        self._glances: dict[State, Glance] = {}

    @property
    def states(self) -> int:
        return len(self._memo)

    def __call__(self, fill: Fill) -> Value:
        beans, eggs = masks(fill)
        got = self._value(beans, eggs, self._t.all_cafes, ANY)
        assert got is not None  # every state makes at least 0 points
        return got

    def at_least(self, fill: Fill, points: int) -> Value | None:
        """The exact best value if it reaches ``points`` points, else None."""
        return self.reaching(fill, (points, -UNBOUNDED, -UNBOUNDED))

    def reaching(self, fill: Fill, need: Value) -> Value | None:
        """The exact best value if it is at least ``need`` (compared as triples), else
        None. A high ``need`` lets the search drop any line of play that provably
        falls short of it, in chicken steps and beans left as well as in points."""
        beans, eggs = masks(fill)
        return self._value(beans, eggs, self._t.all_cafes, need)

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
        t = self._t
        beans, eggs = masks(fill)
        if eggs_to_come:
            eggs = t.slots_of(t.all_cafes) & ~beans
        live = self._live(beans, eggs, t.all_cafes)
        return (beans & t.moving & t.slots_of(live)).bit_count()

    def ceiling(self, fill: Fill) -> Value:
        """A triple no line of play from ``fill`` beats (see ``ValueCeilings.reach``)."""
        beans, eggs = masks(fill)
        cafes = self._t.all_cafes
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
        beans, eggs = masks(fill)
        return self._canonical(beans, eggs, self._t.all_cafes)

    @staticmethod
    def beans(fill: Fill) -> int:
        """Beans in cafés: none ever appear during scoring, so also a ceiling on those left."""
        return sum(1 for c in fill if c is Content.BEAN)

    def bound(self, fill: Fill) -> int:
        """An upper bound on the points ``fill`` can still make (``PointCeilings.count``)."""
        beans, eggs = masks(fill)
        return self._count(beans, eggs, self._t.all_cafes).points

    def egg_ceiling(self, fill: Fill, where: Iterable[int] | None = None) -> tuple[int, int]:
        """(points, headroom): ``fill`` with at most n more eggs on its empty spaces (those
        among the slots ``where``, if given) makes at most
        ``points + POINTS_PER_CAFE * min(n, headroom)`` points (``PointCeilings``)."""
        beans, eggs = masks(fill)
        return self._points.egg_ceiling(beans, eggs, _mask_of(where))

    def eggs_ceiling(
        self,
        fill: Fill,
        eggs: int,
        where: Iterable[int] | None = None,
        floor: int | None = None,
    ) -> int:
        """Points ``fill`` with at most ``eggs`` more eggs on its empty spaces (those among
        ``where``, if given) can make, at most: ``egg_ceiling``'s count, and the
        b-matching in which the eggs are one shared stock (``PointCeilings``). Given a
        ``floor``, a ceiling that reaches it may be returned as the first count: only
        whether it is below counts."""
        beans, held = masks(fill)
        return self._points.eggs_ceiling(beans, held, eggs, _mask_of(where), floor)

    def rollout(self, fill: Fill, eggs: int = 0) -> Value | None:
        """The value of one legal line of play, each step taken to the child with the
        highest ceiling: a quick floor under the best value, to rule starts out early.

        With ``eggs`` eggs still to place, a café whose empty spaces have held nothing
        so far may take them just before it scores; eggs left at the end go on such
        spaces (the same play is legal with every egg there from the start, and an egg
        that then completes a café only adds points). None when they do not fit."""
        t = self._t
        b, e = masks(fill)
        cafes = t.all_cafes
        mask = self._slots_of(cafes)
        virgin = mask & ~(b | e)
        points = chicken = 0
        while True:
            held = b | e
            pick: tuple[tuple[int, Value], int, int, int, int] | None = None
            for ci in t.used:
                cm = t.cafe_mask[ci]
                gap = cm & ~held
                if gap & ~virgin or gap.bit_count() > eggs:
                    continue
                left_beans, left_eggs = b & ~cm, e & ~cm
                occupied = left_beans | left_eggs
                cands = [down & mask & ~occupied for i, down in t.targets[ci] if b >> i & 1]
                for filled, lost in self._outcomes(cands):
                    nb = left_beans | filled
                    reach = value_add(self._glance(nb, left_eggs, cafes).ceiling, (0, lost, 0))
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

    # -- the search ---------------------------------------------------------------------

    def _canonical(self, beans: int, eggs: int, cafes: int) -> tuple[int, int]:
        """One representative of the states equal up to swapping interchangeable spaces
        (same kind in one café) or whole identical cafés within ``cafes``."""
        t = self._t
        for group in t.twins:
            vals = sorted(((beans >> i) & 1) | (((eggs >> i) & 1) << 1) for i in group)
            for i, v in zip(group, vals, strict=True):
                bit = 1 << i
                beans = beans | bit if v == 1 else beans & ~bit
                eggs = eggs | bit if v == 2 else eggs & ~bit
        for whole in t.alike:
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
    ) -> Glance:
        """Live cafés and a ceiling on the value, taking the cafés as one part: enough
        to rule most states out, for their parent, before their parts are worked out.
        ``known``: (points, singles, ``reach`` of them) already worked out here."""
        key = (cafes, beans, eggs)
        hit = self._glances.get(key)
        if hit is not None:
            return hit
        live = self._live(beans, eggs, cafes)
        got: Glance
        if not live:
            got = Glance(live, (0, 0, beans.bit_count()))
        else:
            points, singles = self._count(beans, eggs, cafes, live)
            if known is not None and known[:2] == (points, singles):
                got = Glance(live, known[2])
            else:
                got = Glance(live, self._reach(points, singles, beans, eggs, cafes, live))
        if len(self._glances) < BOUND_CACHE:
            self._glances[key] = got
        return got

    def _analyse(self, beans: int, eggs: int, cafes: int, live: int) -> Analysis:
        """Independent parts, their point counts and value ceilings, and a ceiling on the
        whole (no higher than ``_glance``'s)."""
        key = (cafes, beans, eggs)
        hit = self._analyses.get(key)
        if hit is not None:
            return hit
        parts, inert = self._parts(beans, eggs, cafes, live)
        counts = tuple(self._count(beans, eggs, part, live) for part in parts)
        ceilings = tuple(
            self._reach(points, singles, beans, eggs, part, live)
            for part, (points, singles) in zip(parts, counts, strict=True)
        )
        total = (0, 0, (beans & self._slots_of(inert)).bit_count())
        for c in ceilings:
            total = value_add(total, c)
        got = Analysis(tuple(parts), inert, counts, ceilings, total)
        if len(self._analyses) < BOUND_CACHE:
            self._analyses[key] = got
        return got

    def _whole_value(
        self, beans: int, eggs: int, cafes: int, need: Value, key: State
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
        """A ceiling on a part's value (see ``ValueCeilings.reach``)."""
        points, singles = self._count(beans, eggs, part, live)
        return self._reach(points, singles, beans, eggs, part, live)

    def _part(
        self, beans: int, eggs: int, cafes: int, live: int, need: Value, count: PointCount
    ) -> Value | None:
        """Best value of one independent group of cafés (``live``: those that may score),
        or None when it is provably below ``need``. ``count`` is its ``PointCeilings.count``.

        A child's points are at most this state's ceiling less the point it scores, and
        its one-space cafés score no more often than here: so ``reach`` can often rule
        a child out before its own ceiling is worked out.

        Exact values and proven strict ceilings are memoised apart, so a memoised value
        is always exact whatever ``need`` it was found under.
        """
        t = self._t
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
        children: list[Child] = []
        for ci in t.used:
            if not live >> ci & 1:
                continue
            cm = t.cafe_mask[ci]
            if cm & ~held:
                continue
            left_beans, left_eggs = b & ~cm, e & ~cm
            occupied = left_beans | left_eggs
            # Spaces outside this part are full for good (that is why it is a part).
            cands = [down & mask & ~occupied for i, down in t.targets[ci] if b >> i & 1]
            seen: set[int] = set()
            for filled, lost in self._outcomes(cands):
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
                g = self._glance(nb, left_eggs, cafes, guess).ceiling
                reach = (g[0] + gain, g[1] + lost, g[2])
                if reach < need:
                    above = (reach[0], reach[1], reach[2] + 1)
                    if above > most:
                        most = above
                    continue
                limit = g[0] if g[0] < below else below
                children.append(Child(limit, nb, left_eggs, lost, reach))
        if not children and most == ANY:
            done = (0, 0, b.bit_count())
            self._memo[key] = done
            return done if done >= need else None
        children.sort(key=lambda ch: -ch.limit)
        top: Value | None = None
        for k, (limit, nb, ne, lost, reach) in enumerate(children):
            floor = need if top is None else max(need, value_above(top))
            if limit + gain < floor[0]:
                # Sorted by ceiling: no later child reaches the floor either.
                most = max(most, (limit + gain + 1, -UNBOUNDED, -UNBOUNDED))
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
                    most = max(most, (children[k + 1].limit + gain + 1, -UNBOUNDED, -UNBOUNDED))
                break
        if top is not None and top >= need:
            self._memo[key] = top
            return top
        known = self._upper.get(key)
        self._upper[key] = most if known is None else min(known, most)
        return None
