"""The logical garden and play sheet of Delicious, and every field id on them.

This is the one place where field ids are defined: layouts draw these fields, the
reader reads them, the engine turns them into state. Variant A is the reference garden
of docs/rules-readings.md; variant B is the other side of a double-sided sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.errors import UnknownNameError
from companion.games.delicious.symbols import (
    CHOICE_CIRCLES_PER_OPTION,
    FRUIT_NAMES,
    VEGETABLE_NAMES,
    Area,
    ContainerKind,
    Mark,
    PlantChoice,
    Shape,
    Tool,
)
from companion.paper.model import FieldKind

VARIANTS = ("A", "B")
PLANTER_ROWS = 4
PLANTER_COLS = 5

HONEY_FIELD = "garden.honey"
HONEY_POINTS = 3
VEG_WILD = "play.veg-wild"
VEG_BONUS = "play.veg-bonus"
FRUIT_WILD = "play.fruit-wild"
FRUIT_BONUS = "play.fruit-bonus"
VEG_BONUS_POINTS_PER_CONTAINER = 2
FIRST_POTTER_POINTS = 1


def cell_id(container: str, row: int, col: int) -> str:
    return f"garden.{container}.r{row}.c{col}"


def first_potter_id(container: str) -> str:
    return f"garden.{container}.first-potter"


def container_tool_id(container: str, row: int) -> str:
    return f"garden.{container}.tool.r{row}"


def planter_cell_id(row: int, col: int) -> str:
    return f"garden.planter.r{row}.c{col}"


def planter_tool_id(line: str) -> str:
    """``line`` is ``row<k>`` or ``col<k>``."""
    return f"garden.planter.tool.{line}"


def choice_id(choice: PlantChoice, index: int) -> str:
    return f"play.choice.{choice.value}.{index}"


@dataclass(frozen=True)
class ContainerRow:
    index: int  # 0 is the bottom row
    cells: tuple[str, ...]
    points: int
    tool: Tool | None
    tool_field: str | None


@dataclass(frozen=True)
class Container:
    id: str
    area: Area
    kind: ContainerKind
    rows: tuple[ContainerRow, ...]  # bottom-up
    pairs: tuple[tuple[str, str], ...]  # linked cells, only for PAIRS containers

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(c for r in self.rows for c in r.cells)

    @property
    def first_potter(self) -> str:
        return first_potter_id(self.id)

    def row_of(self, cell: str) -> int:
        for r in self.rows:
            if cell in r.cells:
                return r.index
        raise UnknownNameError(f"{cell} is not a cell of {self.id}")


@dataclass(frozen=True)
class PlanterCell:
    id: str
    row: int  # 0 is the top row of the planter (no bottom-up rule here)
    col: int
    shape: Shape


@dataclass(frozen=True)
class PlanterLine:
    id: str  # "row0".."row3", "col0".."col4"
    cells: tuple[str, ...]
    tool: Tool
    tool_field: str


@dataclass(frozen=True)
class ToolIcon:
    """One printed tool icon; crossed out once used."""

    field: str
    tool: Tool
    container: str | None  # a container row, or
    row: int | None
    line: str | None  # a planter line


@dataclass(frozen=True)
class Garden:
    variant: str
    containers: tuple[Container, ...]
    planter: tuple[PlanterCell, ...]
    lines: tuple[PlanterLine, ...]

    def container(self, container_id: str) -> Container:
        for c in self.containers:
            if c.id == container_id:
                return c
        raise UnknownNameError(f"no container {container_id!r} in garden {self.variant}")

    def area(self, area: Area) -> tuple[Container, ...]:
        return tuple(c for c in self.containers if c.area is area)

    def apart(self) -> frozenset[frozenset[str]]:
        """Pairs of cells the rules keep from holding the same vegetable: any two of a
        "different" container, and cells of two pairs of one "pairs" container."""
        out: set[frozenset[str]] = set()
        for c in self.containers:
            if c.kind is ContainerKind.DIFFERENT:
                cells = c.cells
                out |= {frozenset((a, b)) for i, a in enumerate(cells) for b in cells[i + 1:]}
            elif c.kind is ContainerKind.PAIRS:
                for i, p in enumerate(c.pairs):
                    out |= {frozenset((a, b)) for q in c.pairs[i + 1:] for a in p for b in q}
        return frozenset(out)

    def planter_cell(self, field_id: str) -> PlanterCell:
        for p in self.planter:
            if p.id == field_id:
                return p
        raise UnknownNameError(f"{field_id!r} is not a planter space")

    @property
    def tool_icons(self) -> tuple[ToolIcon, ...]:
        icons = [
            ToolIcon(r.tool_field, r.tool, c.id, r.index, None)
            for c in self.containers
            for r in c.rows
            if r.tool is not None and r.tool_field is not None
        ]
        icons += [ToolIcon(ln.tool_field, ln.tool, None, None, ln.id) for ln in self.lines]
        return tuple(icons)

    def field_kinds(self) -> dict[str, tuple[FieldKind, tuple[str, ...]]]:
        """Every readable field of the garden and play sheets: id -> (kind, allowed)."""
        out: dict[str, tuple[FieldKind, tuple[str, ...]]] = {}
        for c in self.containers:
            for r in c.rows:
                for cell in r.cells:
                    out[cell] = (FieldKind.VEGETABLE, VEGETABLE_NAMES)
            out[c.first_potter] = (FieldKind.FIRST_POTTER, (Mark.CHECK, Mark.CROSS))
        for p in self.planter:
            out[p.id] = (FieldKind.FRUIT, FRUIT_NAMES)
        for icon in self.tool_icons:
            out[icon.field] = (FieldKind.TOOL, (Mark.CROSS,))
        out[HONEY_FIELD] = (FieldKind.HONEY, (Mark.CIRCLED,))
        out.update(play_field_kinds())
        return out

    def to_json(self) -> dict[str, Any]:
        """The ``companion delicious garden --json`` document (docs/contracts.md)."""
        return {
            "variant": self.variant,
            "containers": [
                {
                    "id": c.id,
                    "area": c.area.value,
                    "kind": c.kind.value,
                    "rows": [
                        {
                            "cells": list(r.cells),
                            "points": r.points,
                            **(
                                {"tool": r.tool.value, "tool_field": r.tool_field}
                                if r.tool
                                else {}
                            ),
                        }
                        for r in c.rows
                    ],
                    "pairs": [list(p) for p in c.pairs],
                    "first_potter": c.first_potter,
                }
                for c in self.containers
            ],
            "planter": {
                "cells": [
                    {"id": p.id, "row": p.row, "col": p.col, "shape": p.shape.value}
                    for p in self.planter
                ],
                "lines": [
                    {"id": ln.id, "cells": list(ln.cells), "tool": ln.tool.value,
                     "tool_field": ln.tool_field}
                    for ln in self.lines
                ],
            },
            "tools": [
                {
                    "field": t.field,
                    "tool": t.tool.value,
                    "target": (
                        {"container": t.container, "row": t.row}
                        if t.container is not None
                        else {"planter_line": t.line}
                    ),
                }
                for t in self.tool_icons
            ],
            "honey": HONEY_FIELD,
            "play": {
                "choices": {
                    ch.value: [choice_id(ch, i) for i in range(CHOICE_CIRCLES_PER_OPTION)]
                    for ch in PlantChoice
                },
                "veg_wild": VEG_WILD,
                "veg_bonus": VEG_BONUS,
                "fruit_wild": FRUIT_WILD,
                "fruit_bonus": FRUIT_BONUS,
            },
        }


def play_field_kinds() -> dict[str, tuple[FieldKind, tuple[str, ...]]]:
    out: dict[str, tuple[FieldKind, tuple[str, ...]]] = {}
    for ch in PlantChoice:
        for i in range(CHOICE_CIRCLES_PER_OPTION):
            out[choice_id(ch, i)] = (FieldKind.CHOICE, (Mark.MARKED,))
    out[VEG_WILD] = out[VEG_BONUS] = (FieldKind.VEGETABLE, VEGETABLE_NAMES)
    out[FRUIT_WILD] = out[FRUIT_BONUS] = (FieldKind.FRUIT, FRUIT_NAMES)
    return out


def plant_names(kind: FieldKind) -> tuple[str, ...]:
    """The values a vegetable or a fruit field allows (layouts print them as allowed)."""
    return FRUIT_NAMES if kind is FieldKind.FRUIT else VEGETABLE_NAMES


# ---- variant data --------------------------------------------------------------------
# (id, area, kind, [(cells in row, points, tool or None) bottom-up])
_RowSpec = tuple[int, int, Tool | None]
_ContainerSpec = tuple[str, Area, ContainerKind, list[_RowSpec]]

T, B = Area.TOP, Area.BOTTOM
SAME, DIFF, PAIRS = ContainerKind.SAME, ContainerKind.DIFFERENT, ContainerKind.PAIRS

_CONTAINERS: dict[str, list[_ContainerSpec]] = {
    "A": [
        ("wheelbarrow", T, DIFF, [(3, 2, None), (2, 5, Tool.RAKE), (1, 10, Tool.SHEARS)]),
        ("boots", T, SAME, [(2, 2, Tool.TROWEL), (2, 4, None), (1, 7, Tool.HOE)]),
        ("watering-can", T, PAIRS, [(2, 2, None), (2, 5, Tool.GLOVES), (2, 9, Tool.SPADE)]),
        ("bathtub", B, PAIRS, [(4, 3, Tool.RAKE), (2, 8, Tool.GLOVES)]),
        ("crate", B, SAME, [(3, 3, Tool.SHEARS), (2, 7, Tool.TROWEL)]),
        ("teapot", B, DIFF, [(2, 1, None), (2, 4, Tool.HOE), (1, 8, Tool.SPADE)]),
    ],
    "B": [
        ("wheelbarrow", T, SAME, [(3, 2, None), (2, 6, Tool.RAKE), (1, 9, Tool.HOE)]),
        ("boots", T, PAIRS, [(2, 2, Tool.SHEARS), (2, 6, Tool.SPADE)]),
        ("watering-can", T, DIFF, [(2, 2, None), (2, 4, Tool.TROWEL), (1, 8, Tool.GLOVES)]),
        ("bathtub", B, DIFF, [(3, 2, None), (2, 5, Tool.SPADE), (1, 10, Tool.TROWEL)]),
        ("crate", B, PAIRS, [(4, 3, Tool.HOE), (2, 7, Tool.RAKE)]),
        ("teapot", B, SAME, [(2, 1, None), (2, 4, Tool.GLOVES), (1, 7, Tool.SHEARS)]),
    ],
}

_H, _O, _S = Shape.HEXAGON, Shape.OVAL, Shape.STAR
_PLANTER_SHAPES: dict[str, list[list[Shape]]] = {
    "A": [
        [_H, _O, _S, _H, _O],
        [_S, _H, _O, _S, _H],
        [_O, _S, _H, _O, _S],
        [_H, _S, _O, _H, _S],
    ],
    "B": [
        [_O, _H, _H, _S, _O],
        [_S, _O, _S, _H, _H],
        [_H, _S, _O, _O, _S],
        [_O, _H, _S, _H, _S],
    ],
}

# Tool printed at each planter line: rows 0..3 then columns 0..4.
_PLANTER_TOOLS: dict[str, list[Tool]] = {
    "A": [Tool.TROWEL, Tool.RAKE, Tool.SHEARS, Tool.HOE,
          Tool.GLOVES, Tool.SPADE, Tool.TROWEL, Tool.RAKE, Tool.SHEARS],
    "B": [Tool.SPADE, Tool.HOE, Tool.GLOVES, Tool.TROWEL,
          Tool.RAKE, Tool.SHEARS, Tool.SPADE, Tool.HOE, Tool.GLOVES],
}


def _build(variant: str) -> Garden:
    containers = []
    for cid, area, kind, rows in _CONTAINERS[variant]:
        built_rows = []
        pairs: list[tuple[str, str]] = []
        for k, (n, points, tool) in enumerate(rows):
            cells = tuple(cell_id(cid, k, j) for j in range(n))
            if kind is PAIRS:
                pairs += [(cells[j], cells[j + 1]) for j in range(0, n, 2)]
            built_rows.append(
                ContainerRow(k, cells, points, tool, container_tool_id(cid, k) if tool else None)
            )
        containers.append(Container(cid, area, kind, tuple(built_rows), tuple(pairs)))
    shapes = _PLANTER_SHAPES[variant]
    planter = tuple(
        PlanterCell(planter_cell_id(r, c), r, c, shapes[r][c])
        for r in range(PLANTER_ROWS)
        for c in range(PLANTER_COLS)
    )
    tools = _PLANTER_TOOLS[variant]
    lines = [
        PlanterLine(
            f"row{r}",
            tuple(planter_cell_id(r, c) for c in range(PLANTER_COLS)),
            tools[r],
            planter_tool_id(f"row{r}"),
        )
        for r in range(PLANTER_ROWS)
    ] + [
        PlanterLine(
            f"col{c}",
            tuple(planter_cell_id(r, c) for r in range(PLANTER_ROWS)),
            tools[PLANTER_ROWS + c],
            planter_tool_id(f"col{c}"),
        )
        for c in range(PLANTER_COLS)
    ]
    return Garden(variant, tuple(containers), planter, tuple(lines))


@cache
def garden(variant: str = "A") -> Garden:
    """The garden of a variant; raises ``UnknownNameError`` for an unknown one."""
    if variant not in VARIANTS:
        raise UnknownNameError(
            f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}"
        )
    return _build(variant)
