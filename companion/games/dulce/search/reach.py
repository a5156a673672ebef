"""Value ceilings: a triple (points, chicken steps, beans left) no line of play beats.

A search asks for a value at least some triple, and this second ceiling, on chicken
steps plus beans left once the points are known (a potential that every fill and every
discard uses up), rules out most branches that only tie on points. It counts what must
stay put: cafés left unscored keep what they hold, and each empty 1-ring space takes a
bean of its type before any bean of that type can be discarded. And it counts what the
points use up: every refill of a 1-ring space is a bean that never earns a chicken step,
and every fill of one that a scoring takes (a bean unless an egg) is neither a step nor
left.
"""

from __future__ import annotations

from companion.games.dulce.constants import BOUND_CACHE, POINTS_PER_CAFE
from companion.games.dulce.kitchen import Value
from companion.games.dulce.search.masks import UNBOUNDED
from companion.games.dulce.search.tables import Tables


class ValueCeilings:
    """Value ceilings of the states of one kitchen (see ``reach``)."""

    def __init__(self, tables: Tables) -> None:
        self._t = tables
        self._refills: dict[tuple[int, int, int, int], tuple[int, int]] = {}

    def reach(
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
        t = self._t
        known = t.known_slots
        slots = known(part)
        if slots is None:
            slots = t.slots_of(part)
        live_slots = known(live & part)
        if live_slots is None:
            live_slots = t.slots_of(live & part)
        on = beans & live_slots
        movers = (on & t.moving).bit_count()
        potential = on.bit_count() + movers + (eggs & live_slots).bit_count()
        extra = 0  # 3-ring slots whose bean may still be worth a third unit
        if on & t.threes:
            held = on | (eggs & live_slots)
            for three, two in t.rings:
                spots = two & live_slots
                if not (on & three and spots):
                    continue
                if refined and not any(
                    self._refills_after(s, on, held) for s in t.members(spots)
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
        if refined and t.forced and movers > 0:
            # Empty 1-ring spaces, each of which takes a mover of its type before the
            # first bean of that type can be discarded.
            sinks = slots & ~(beans | eggs) & t.ring_one
            if sinks and movers - sinks.bit_count() < spare:
                moving = on & t.moving
                movers = 0
                for kind in t.kinds:
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
            ones_eggs = eggs & live_slots & t.ring_one
            drops, taken = self._ones_refilled(scorings, on, on | eggs & live_slots, live & part)
            spent = (on & t.moving).bit_count() - chicken
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
        t = self._t
        key = (scorings, on, held, live)
        hit = self._refills.get(key)
        if hit is not None:
            return hit
        free = 0  # scorings that need no 1-ring drop
        extra: list[int] = []  # the drops of each further possible scoring
        fills: list[int] = []  # the 1-ring fills of each possible scoring
        ones = t.cafe_ones
        for ci in t.members(live):
            cap = scorings
            for i, up in t.space_higher[ci]:
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
        t = self._t
        need = 1 + (held >> slot & 1)
        for x, up in t.partners[slot]:
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
        room for, at most (see ``reach``).

        A café that holds beans or eggs and never scores again keeps them: its items'
        whole potential is spent on its beans left (one each) or wasted, none on chicken
        steps. With s1 scorings of one-space cafés and s2 = scorings - s1 of the others,
        at most s1 and s2 distinct such cafés can score, so the rest, taken as the
        cheapest, stay full; the fills are 2 * s2 + s1. The best s1 is taken.
        """
        t = self._t
        held = on | eggs
        moving = t.moving
        masks = t.cafe_mask
        single = t.single_class  # >= 0 for a café of one space
        # Per café holding something: its items' potential, and that less its beans.
        twos: list[int] = []
        ones: list[int] = []
        twos_waste: list[int] = []
        ones_waste: list[int] = []
        for ci in t.members(live):
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
        chicken = total = -UNBOUNDED
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

