"""A finished sheet checked against the night's community supply.

Every plant on a sheet came from somewhere the supply revealed: a card's vegetable, a
fruit token on a card (into a planter space of the card's garden icon, or a play-sheet
fruit spot), a crossed-out tool icon (any one plant in the row or column it marks, if a
token showed that tool), or the free plant of a filled wild spot. The check matches the
sheet's plants to those sources, each source used once; a plant left over is one the
supply cannot explain. Which one is wrong is not known, so every plant that could be the
one left over is named (the reader may have misread any of them), and fields set by hand
are trusted. Tool icons crossed out more often than the supply showed that tool are named
too. Rounds, Plant Choices and filling order are the validator's business, not this one's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.games.delicious.deck import FRUIT_SIDE
from companion.games.delicious.garden import (
    FRUIT_BONUS,
    FRUIT_WILD,
    VEG_BONUS,
    VEG_WILD,
    Garden,
    garden,
)
from companion.games.delicious.supply import Supply
from companion.games.delicious.symbols import Fruit, Mark, Tool, Vegetable

Plant = Vegetable | Fruit


class MismatchCode(StrEnum):
    PLANT = "supply-plant"  # more of a plant than the supply can explain
    TOOL = "supply-tool"  # a tool icon crossed out more often than the supply showed it


@dataclass(frozen=True)
class SupplyMismatch:
    """Fields that disagree with the revealed supply, and why, in words."""

    code: MismatchCode
    subject: str  # the plant or tool concerned
    fields: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "subject": self.subject, "fields": list(self.fields),
                "message": self.message}


@dataclass(frozen=True)
class _Source:
    """One thing the supply (or a wild spot) let a player sketch, and what it can explain."""

    kind: str
    plant: Plant | None  # None: any plant allowed by ``fields``
    fields: frozenset[str] | None  # None: any field that holds ``plant``

    def explains(self, fid: str, plant: Plant) -> bool:
        return ((self.plant is None or self.plant == plant)
                and (self.fields is None or fid in self.fields))


def _plant(value: str) -> Plant | None:
    if value in set(Vegetable):
        return Vegetable(value)
    if value in set(Fruit):
        return Fruit(value)
    return None


def _sketches(fields: Mapping[str, str], g: Garden) -> dict[str, Plant]:
    """Every plant on the sheet, by field (values a field cannot hold are left out)."""
    veg_fields = {c for ct in g.containers for c in ct.cells} | {VEG_WILD, VEG_BONUS}
    fruit_fields = {p.id for p in g.planter} | {FRUIT_WILD, FRUIT_BONUS}
    out: dict[str, Plant] = {}
    for fid, value in fields.items():
        plant = _plant(value)
        if isinstance(plant, Vegetable) and fid in veg_fields or (
                isinstance(plant, Fruit) and fid in fruit_fields):
            assert plant is not None
            out[fid] = plant
    return out


def _sources(fields: Mapping[str, str], g: Garden, supply: Supply) -> list[_Source]:
    veg_spots = frozenset(c for ct in g.containers for c in ct.cells) | {VEG_WILD, VEG_BONUS}
    by_shape = {shape: frozenset(p.id for p in g.planter if p.shape is shape)
                for shape in {p.shape for p in g.planter}}
    sources: list[_Source] = []
    for r in supply.reveals():
        card = r.card.card
        sources.append(_Source("card", card.vegetable, veg_spots))
        if r.side == FRUIT_SIDE:
            sources.append(_Source("fruit token", r.token.token.fruit,
                                   by_shape[card.icon] | {FRUIT_WILD, FRUIT_BONUS}))
    shown_tools = Counter(r.face for r in supply.reveals() if isinstance(r.face, Tool))
    for icon in g.tool_icons:
        if fields.get(icon.field) == Mark.CROSS and shown_tools[icon.tool] > 0:
            if icon.container is not None and icon.row is not None:
                cells = g.container(icon.container).rows[icon.row].cells
            else:
                cells = next(ln.cells for ln in g.lines if ln.id == icon.line)
            sources.append(_Source("tool", None, frozenset(cells)))
    if fields.get(VEG_WILD):
        sources.append(_Source("vegetable wild spot", None,
                               frozenset(c for ct in g.containers for c in ct.cells)))
    if fields.get(FRUIT_WILD):
        sources.append(_Source("fruit wild spot", None, frozenset(p.id for p in g.planter)))
    return sources


def _max_matching(left: list[str], edges: Mapping[str, list[int]]) -> dict[str, int]:
    """A maximum matching of sketches to sources (augmenting paths, Kuhn's algorithm).

    Hand-written rather than a library's: the engines import no NumPy or SciPy, and a
    sheet has fewer than a hundred plants.
    """
    owner: dict[int, str] = {}

    def augment(u: str, seen: set[int]) -> bool:
        for v in edges[u]:
            if v in seen:
                continue
            seen.add(v)
            if v not in owner or augment(owner[v], seen):
                owner[v] = u
                return True
        return False

    for u in left:
        augment(u, set())
    return {u: v for v, u in owner.items()}


def _could_be_left_over(left: list[str], edges: Mapping[str, list[int]],
                        match: Mapping[str, int]) -> set[str]:
    """Sketches left unmatched by some maximum matching: those reached from an unmatched
    one by alternating paths (Dulmage-Mendelsohn), so the answer depends on no order."""
    owner = {v: u for u, v in match.items()}
    todo = [u for u in left if u not in match]
    seen = set(todo)
    while todo:
        u = todo.pop()
        for v in edges[u]:
            w = owner.get(v)
            if w is not None and w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def _plant_message(plant: Plant, on_sheet: int, supply: Supply) -> str:
    if isinstance(plant, Vegetable):
        shown = sum(1 for r in supply.reveals() if r.card.card.vegetable is plant)
        what = f"{shown} {plant} card{'s' if shown != 1 else ''}"
    else:
        icons = [str(r.card.card.icon) for r in supply.reveals() if r.face is plant]
        shown = len(icons)
        what = f"{shown} {plant} token{'s' if shown != 1 else ''}"
        if icons:  # a fruit goes into a planter space of its card's garden icon
            what += f" (on {' and '.join(sorted(set(icons)))} cards)"
    return (f"the supply cannot explain every {plant} here: {on_sheet} on the sheet; it "
            f"revealed {what}, and the tools crossed out and the wild spots do not cover "
            f"the rest")


def check_against_supply(fields: Mapping[str, str], variant: str, supply: Supply,
                         trusted: Iterable[str] = ()) -> list[SupplyMismatch]:
    """What on this finished sheet the revealed supply cannot explain (empty: all of it).

    ``trusted`` fields (set by hand) still count but are never named.
    """
    g = garden(variant)
    sketches = _sketches(fields, g)
    sources = _sources(fields, g, supply)
    left = sorted(sketches)
    edges = {fid: [i for i, s in enumerate(sources) if s.explains(fid, sketches[fid])]
             for fid in left}
    match = _max_matching(left, edges)
    keep = set(trusted)
    out: list[SupplyMismatch] = []
    if len(match) < len(left):
        doubtful = _could_be_left_over(left, edges, match) - keep
        unmatched_plants = {sketches[u] for u in left if u not in match}
        for plant in sorted(unmatched_plants, key=str):
            named = tuple(f for f in left if f in doubtful and sketches[f] == plant)
            if named:
                on_sheet = sum(1 for p in sketches.values() if p == plant)
                out.append(SupplyMismatch(MismatchCode.PLANT, str(plant), named,
                                          _plant_message(plant, on_sheet, supply)))
    shown_tools = Counter(r.face for r in supply.reveals() if isinstance(r.face, Tool))
    crossed: dict[Tool, list[str]] = {}
    for icon in g.tool_icons:
        if fields.get(icon.field) == Mark.CROSS:
            crossed.setdefault(icon.tool, []).append(icon.field)
    for tool in sorted(crossed, key=str):
        used = crossed[tool]
        named = tuple(f for f in used if f not in keep)
        if len(used) > shown_tools[tool] and named:
            out.append(SupplyMismatch(
                MismatchCode.TOOL, str(tool), named,
                f"{len(used)} {tool} icons crossed out, but the supply showed the {tool} "
                f"{shown_tools[tool]} time{'s' if shown_tools[tool] != 1 else ''}"))
    return out
