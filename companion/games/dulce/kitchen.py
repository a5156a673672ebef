"""The fixed shape of a scoring problem: every uncovered café space as a numbered slot.

A state is then a plain tuple of ``Content`` values, one per slot, cheap to hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.dulce.model import Bean, Cafe, Content, Level

Fill = tuple[Content, ...]
# (points, chicken steps, beans left in cafés for next round): larger is better in order.
Value = tuple[int, int, int]


def value_above(v: Value) -> Value:
    """The least value better than ``v`` (values are integer triples, compared in order)."""
    return (v[0], v[1], v[2] + 1)


def value_add(a: Value, b: Value) -> Value:
    """Sums keep the order: a <= b implies a + c <= b + c, so ceilings of parts add up."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def value_sub(a: Value, b: Value) -> Value:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@dataclass(frozen=True)
class Slot:
    cafe: int  # index into Kitchen.cafes
    space: int  # index of the space within that café
    bean: Bean
    level: Level


@dataclass(frozen=True)
class Kitchen:
    """The fixed part of a scoring problem: which spaces exist and where."""

    cafes: tuple[Cafe, ...]
    slots: tuple[Slot, ...]
    cafe_slots: tuple[tuple[int, ...], ...]  # slot ids of each café; empty when covered
    twins: tuple[tuple[int, ...], ...]  # groups of interchangeable slots (same café, kind)

    @classmethod
    def of(cls, cafes: Sequence[Cafe]) -> Kitchen:
        slots: list[Slot] = []
        per_cafe: list[tuple[int, ...]] = []
        twins: list[tuple[int, ...]] = []
        for ci, cafe in enumerate(cafes):
            ids: list[int] = []
            if not cafe.covered:
                for si, space in enumerate(cafe.spaces):
                    ids.append(len(slots))
                    slots.append(Slot(ci, si, space.bean, space.level))
            per_cafe.append(tuple(ids))
            groups: dict[tuple[Bean, Level], list[int]] = {}
            for i in ids:
                groups.setdefault((slots[i].bean, slots[i].level), []).append(i)
            twins.extend(tuple(g) for g in groups.values() if len(g) > 1)
        return cls(tuple(cafes), tuple(slots), tuple(per_cafe), tuple(twins))

    def fill_of(self, cafes: Sequence[Cafe]) -> Fill:
        return tuple(cafes[s.cafe].holds[s.space] for s in self.slots)

    def canonical(self, fill: Fill) -> Fill:
        """Identical spaces of one café are interchangeable: sort their contents."""
        if not self.twins:
            return fill
        out = list(fill)
        for group in self.twins:
            for i, v in zip(group, sorted(fill[j] for j in group), strict=True):
                out[i] = v
        return tuple(out)

    def full_cafes(self, fill: Fill) -> list[int]:
        return [
            ci
            for ci, ids in enumerate(self.cafe_slots)
            if ids and all(fill[i] is not Content.EMPTY for i in ids)
        ]

    def describe(self, slot: int) -> str:
        s = self.slots[slot]
        cafe = self.cafes[s.cafe]
        return f"{cafe.name} {s.bean.value} {int(s.level)}-ring"
