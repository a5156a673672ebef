"""A kitchen's fixed facts as bitmask tables, worked out once for every search on it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from companion.games.dulce.constants import BOUND_CACHE
from companion.games.dulce.kitchen import Kitchen
from companion.games.dulce.model import DulceRules
from companion.games.dulce.search.masks import bits


class Tables:
    """Per slot, café, bean type and (bean, level) class, what the searches look up.

    A class is numbered ``3 * bean index + level``; a slot, café or class set is a mask.
    The three lookups (``members``, ``slots_of``, ``cafes_at``) remember their answers:
    the same masks recur through a search."""

    def __init__(self, kitchen: Kitchen, rules: DulceRules) -> None:
        k = kitchen
        slots = k.slots
        n = len(slots)
        self.kitchen = kitchen
        self._member_lists: dict[int, tuple[int, ...]] = {}
        self._slot_masks: dict[int, int] = {}
        self._cafes_at: dict[int, int] = {}  # a slot mask's cafés, as a café mask
        # ``slots_of(cafes)`` if already worked out, else None: the quick path of hot loops.
        self.known_slots: Callable[[int], int | None] = self._slot_masks.get
        self.cafe_bit = [1 << s.cafe for s in slots]
        self.cafe_mask = [sum(1 << i for i in ids) for ids in k.cafe_slots]
        self.used = [ci for ci, ids in enumerate(k.cafe_slots) if ids]
        self.all_cafes = sum(1 << ci for ci in self.used)
        # higher[s]: slots whose bean could come down to s; lower[s]: where s's bean may go.
        self.higher = [
            sum(
                1 << j
                for j in range(n)
                if slots[j].bean is slots[i].bean and slots[j].level > slots[i].level
            )
            for i in range(n)
        ]
        self.lower = [
            sum(
                1 << j
                for j in range(n)
                if slots[j].bean is slots[i].bean and slots[j].level < slots[i].level
            )
            for i in range(n)
        ]
        self.targets: list[list[tuple[int, int]]] = []  # per café: (slot, its target bits)
        for ci, ids in enumerate(k.cafe_slots):
            own = 0 if rules.byproduct_into_scored_cafe else self.cafe_mask[ci]
            self.targets.append([(i, self.lower[i] & ~own) for i in ids if slots[i].level > 1])
        self.moving = sum(1 << i for i in range(n) if slots[i].level > 1)
        # Per bean type, its 3-ring and its 2-ring spaces (see ValueCeilings.reach).
        self.rings = [
            (
                sum(1 << i for i in range(n) if slots[i].bean is bean and slots[i].level == 3),
                sum(1 << i for i in range(n) if slots[i].bean is bean and slots[i].level == 2),
            )
            for bean in {s.bean for s in slots}
        ]
        self.threes = sum(three for three, _ in self.rings)
        self.ring_one = sum(1 << i for i in range(n) if slots[i].level == 1)
        # Per café: its 1-ring spaces, and each space with the slots above it.
        self.cafe_ones = [self.cafe_mask[ci] & self.ring_one for ci in range(len(k.cafe_slots))]
        self.space_higher = [tuple((i, self.higher[i]) for i in ids) for ids in k.cafe_slots]
        self.kinds = [  # per bean type, its slots
            sum(1 << i for i in range(n) if slots[i].bean is bean)
            for bean in {s.bean for s in slots}
        ]
        # Per slot: the other spaces of its café, each with the slots above it.
        self.partners = [
            tuple((x, self.higher[x]) for x in k.cafe_slots[slots[i].cafe] if x != i)
            for i in range(n)
        ]
        # Per café, each space's bit and the spaces a bean could come down from.
        # An empty space holds up its café until a bean from another café drops in.
        self.needs = [
            tuple((1 << i, self.higher[i] & ~self.cafe_mask[ci]) for i in ids)
            for ci, ids in enumerate(k.cafe_slots)
        ]
        self.top = [max(ids, key=lambda i: slots[i].level) if ids else -1 for ids in k.cafe_slots]
        self.klass = [3 * list(type(s.bean)).index(s.bean) + int(s.level) for s in slots]
        # Per (bean, level) class: its slots, the slots above it, and per café its classes.
        self.class_slots: dict[int, int] = {}
        self.class_higher: dict[int, int] = {}
        for i, kl in enumerate(self.klass):
            self.class_slots[kl] = self.class_slots.get(kl, 0) | 1 << i
            self.class_higher[kl] = self.higher[i]
        self.classes = [tuple(sorted({self.klass[i] for i in ids})) for ids in k.cafe_slots]
        self.class_bits = [sum(1 << kl for kl in kls) for kls in self.classes]
        self.spaces = [tuple((i, self.klass[i]) for i in ids) for ids in k.cafe_slots]
        # Per café, per class: its spaces of that class, as a mask, and how many.
        self.class_spots = [
            tuple(
                (kl, sum(1 << i for i in ids if self.klass[i] == kl), n)
                for kl, n in sorted(Counter(self.klass[i] for i in ids).items())
            )
            for ids in k.cafe_slots
        ]
        self.single_class = [self.klass[ids[0]] if len(ids) == 1 else -1 for ids in k.cafe_slots]
        twin_class = [
            self.klass[ids[0]] if len(ids) == 2 and len(set(self.klass[i] for i in ids)) == 1
            else -1
            for ids in k.cafe_slots
        ]
        # Cafés of two 2-ring spaces of a type with a single 1-ring space: their two
        # beans leave at once, and only one of them can drop into that space.
        self.twin_drops = [
            (self.cafe_mask[ci], kl - 1)
            for ci, kl in enumerate(twin_class)
            if kl >= 0 and kl % 3 == 2 and self.class_slots.get(kl - 1, 0).bit_count() == 1
        ]
        # Cafés of two like spaces above the lowest ring: when one scores, both beans
        # leave at once and no level lies between theirs and the one below, so any one
        # space of the class below takes one of them at most (the one a twin drop
        # already discounts for the whole class is not counted twice).
        self.pairs = [
            (self.cafe_mask[ci], kl - 1)
            for ci, kl in enumerate(twin_class)
            if kl >= 0 and kl % 3 != 1 and kl - 1 in self.class_slots
            and (self.cafe_mask[ci], kl - 1) not in self.twin_drops
        ]
        self.forced = not rules.byproducts_may_be_discarded
        # Groups of interchangeable slots: same kind in one café, or whole cafés alike.
        self.twins = k.twins
        shapes: dict[tuple[tuple[object, int], ...], list[int]] = {}
        for ci in self.used:
            shape = tuple(
                sorted((slots[i].bean.value, int(slots[i].level)) for i in k.cafe_slots[ci])
            )
            shapes.setdefault(shape, []).append(ci)
        self.alike = [
            [
                (ci, tuple(sorted(k.cafe_slots[ci], key=lambda i: (slots[i].bean, slots[i].level))))
                for ci in group
            ]
            for group in shapes.values()
            if len(group) > 1
        ]

    def members(self, mask: int) -> tuple[int, ...]:
        """The set bits of ``mask``, low to high."""
        hit = self._member_lists.get(mask)
        if hit is None:
            hit = tuple(bits(mask))
            if len(self._member_lists) < BOUND_CACHE:
                self._member_lists[mask] = hit
        return hit

    def slots_of(self, cafes: int) -> int:
        """The slots of the cafés in ``cafes``, as a slot mask."""
        hit = self._slot_masks.get(cafes)
        if hit is None:
            hit = 0
            for ci in self.used:
                if cafes >> ci & 1:
                    hit |= self.cafe_mask[ci]
            if len(self._slot_masks) < BOUND_CACHE:
                self._slot_masks[cafes] = hit
        return hit

    def cafes_at(self, slots: int) -> int:
        """The cafés of the slots in ``slots``, as a café mask."""
        group = self._cafes_at.get(slots)
        if group is None:
            group = 0
            cafe_bit = self.cafe_bit
            for j in bits(slots):
                group |= cafe_bit[j]
            if len(self._cafes_at) < BOUND_CACHE:
                self._cafes_at[slots] = group
        return group
