"""The Delicious garden panel: top and bottom areas of containers, the fruit planter, honey.

Drawn in a natural frame of GARDEN_W_MM x GARDEN_H_MM and placed with a scale, so the garden
sheet and the combo sheet share one definition. Field boxes: vegetable and fruit cells give
their inner writing area (the border and a quiet margin lie outside it); tool, First Potter
and honey fields give the printed icon's bounding box.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.delicious.garden import HONEY_FIELD, Container, Garden, plant_names
from companion.games.delicious.symbols import (
    FRUIT_NAMES,
    Area,
    ContainerKind,
    Mark,
    Shape,
    Tool,
)
from companion.paper.model import FieldKind
from layouts.art.badges import first_potter, honey_jar, points_badge, score_bubble, tool_badge
from layouts.art.containers import CONTAINER_MARGINS_MM, draw_container
from layouts.art.shapes import STAR_GROWTH, hexagon_points, star_points, writing_square
from layouts.constants import (
    AREA_TAB_MM,
    BADGE_GAP_MM,
    BADGE_MM,
    CELL_GAP_MM,
    CELL_MM,
    CELL_QUIET_MM,
    CELL_RADIUS_MM,
    CONTAINER_PAD_MM,
    GARDEN_H_MM,
    GARDEN_W_MM,
    LINE_MM,
    PAIR_GAP_MM,
    PLANTER_PITCH_X_MM,
    PLANTER_PITCH_Y_MM,
    PLANTER_SPACE_MM,
    ROW_PITCH_MM,
)
from layouts.pen import Path
from layouts.sheet import SheetContext

AREA_H_MM = 61.0
AREA_GAP_MM = 2.0
PLANTER_TOP_MM = 2 * (AREA_H_MM + AREA_GAP_MM) + 1.0
AREA_TITLE_FONT_MM = 3.0
BANNER_H_MM = 4.6
POINTS_D_MM = 6.2
POTTER_D_MM = 6.6
LINE_BUBBLE_MM = 6.0
AREA_LABELS = {Area.TOP: "TOP AREA", Area.BOTTOM: "BOTTOM AREA"}
KIND_LABELS = {
    ContainerKind.SAME: "SAME",
    ContainerKind.DIFFERENT: "DIFFERENT",
    ContainerKind.PAIRS: "PAIRS",
}


@dataclass(frozen=True)
class ContainerBox:
    """Where a container's body sits, relative to its slot."""

    grid_w: float
    body_w: float
    body_h: float


def row_offsets(n: int, pairs: bool) -> list[float]:
    """x of each cell's left edge from the row's left edge."""
    xs = []
    for j in range(n):
        x = j * (CELL_MM + CELL_GAP_MM)
        if pairs:
            x += (j // 2) * (PAIR_GAP_MM - CELL_GAP_MM)
        xs.append(x)
    return xs


def row_width(n: int, pairs: bool) -> float:
    return row_offsets(n, pairs)[-1] + CELL_MM


def container_box(c: Container) -> ContainerBox:
    pairs = c.kind is ContainerKind.PAIRS
    grid_w = max(row_width(len(r.cells), pairs) for r in c.rows)
    body_w = 2 * CONTAINER_PAD_MM + 2 * BADGE_MM + 2 * BADGE_GAP_MM + grid_w
    body_h = 2 * CONTAINER_PAD_MM + len(c.rows) * ROW_PITCH_MM
    return ContainerBox(grid_w, body_w, body_h)


def slot_width(c: Container) -> float:
    left, right, _, _ = CONTAINER_MARGINS_MM[c.id]
    return left + container_box(c).body_w + right


def cell(ctx: SheetContext, field_id: str, kind: FieldKind, x: float, y: float,
         size: float = CELL_MM) -> None:
    """A square cell; the field is its inner writing area."""
    pen = ctx.pen
    pen.rect(x, y, size, size, radius=CELL_RADIUS_MM, fill="paper", stroke="cell-border",
             width=LINE_MM)
    q = CELL_QUIET_MM
    ctx.add_field(field_id, kind, x + q, y + q, size - 2 * q, size - 2 * q,
                  plant_names(kind))


def draw_container_block(ctx: SheetContext, c: Container, x: float, base_y: float) -> None:
    """A container whose body's bottom edge is at base_y and body's left edge at x."""
    pen = ctx.pen
    box = container_box(c)
    by = base_y - box.body_h
    draw_container(pen, c.id, x, by, box.body_w, box.body_h)
    pairs = c.kind is ContainerKind.PAIRS
    grid_x = x + CONTAINER_PAD_MM + BADGE_MM + BADGE_GAP_MM
    for r in c.rows:
        cy = base_y - CONTAINER_PAD_MM - (r.index + 0.5) * ROW_PITCH_MM
        offs = row_offsets(len(r.cells), pairs)
        rx = grid_x + (box.grid_w - row_width(len(r.cells), pairs)) / 2
        if pairs:
            for j in range(0, len(r.cells), 2):
                px = rx + offs[j] - 0.9
                pen.rect(px, cy - CELL_MM / 2 - 0.9, 2 * CELL_MM + CELL_GAP_MM + 1.8,
                         CELL_MM + 1.8, radius=CELL_RADIUS_MM + 0.9,
                         fill=f"{c.id}-dark", stroke="ink", width=0.35)
        for j, cid in enumerate(r.cells):
            cell(ctx, cid, FieldKind.VEGETABLE, rx + offs[j], cy - CELL_MM / 2)
        if r.tool is not None and r.tool_field is not None:
            tx, ty = x + CONTAINER_PAD_MM, cy - BADGE_MM / 2
            tool_badge(pen, r.tool, tx, ty, BADGE_MM, marked=True)
            ctx.add_field(r.tool_field, FieldKind.TOOL, tx, ty, BADGE_MM, BADGE_MM, (Mark.CROSS,))
        points_badge(pen, x + box.body_w - CONTAINER_PAD_MM - BADGE_MM / 2, cy, POINTS_D_MM,
                     r.points)
    # the kind banner under the body, the First Potter pot at its right
    bw = box.grid_w
    bx = grid_x
    bny = base_y + 1.2
    pen.draw(Path().poly([(bx - 1.5, bny), (bx + bw + 1.5, bny), (bx + bw, bny + BANNER_H_MM / 2),
                          (bx + bw + 1.5, bny + BANNER_H_MM), (bx - 1.5, bny + BANNER_H_MM),
                          (bx, bny + BANNER_H_MM / 2)]), fill="banner", width=0.3)
    pen.text_mid(bx + bw / 2, bny + BANNER_H_MM / 2, KIND_LABELS[c.kind], 2.7, bold=True,
                 color="banner-text")
    fx = x + box.body_w - CONTAINER_PAD_MM - BADGE_MM / 2
    fy = bny + BANNER_H_MM / 2 + 0.4
    first_potter(pen, fx, fy, POTTER_D_MM)
    ctx.add_field(c.first_potter, FieldKind.FIRST_POTTER, fx - POTTER_D_MM / 2,
                  fy - POTTER_D_MM / 2, POTTER_D_MM, POTTER_D_MM, (Mark.CHECK, Mark.CROSS))
    # the container's name above its body, left-aligned
    name = c.id.replace("-", " ").title()
    pen.text(x + box.body_w / 2, base_y + BANNER_H_MM + 4.8, name, 2.6,
                 align="centre", color="soft-ink")


def area_panel(ctx: SheetContext, label: str, x: float, y: float, w: float, h: float,
               fill: str) -> None:
    """A tinted panel with its name written upward in a tab on the left edge."""
    pen = ctx.pen
    pen.rect(x, y, w, h, radius=3.0, fill=fill, stroke="faint", width=0.3)
    pen.draw(Path().move(x + AREA_TAB_MM, y).line(x + 3.0, y)
             .curve(x + 1.3, y, x, y + 1.3, x, y + 3.0).line(x, y + h - 3.0)
             .curve(x, y + h - 1.3, x + 1.3, y + h, x + 3.0, y + h).line(x + AREA_TAB_MM, y + h)
             .close(), fill="banner", stroke=None)
    pen.text(x + AREA_TAB_MM / 2 + 1.05, y + h / 2, label, AREA_TITLE_FONT_MM, bold=True,
             color="banner-text", align="centre", upward=True)


def draw_area(ctx: SheetContext, g: Garden, area: Area, y: float) -> None:
    area_panel(ctx, AREA_LABELS[area], 0, y, GARDEN_W_MM, AREA_H_MM, f"{area.value}-area")
    containers = g.area(area)
    widths = [slot_width(c) for c in containers]
    free = GARDEN_W_MM - AREA_TAB_MM - sum(widths)
    gap = free / (len(containers) + 1)
    base_y = y + AREA_H_MM - BANNER_H_MM - 7.5
    x = AREA_TAB_MM + gap
    for c, w in zip(containers, widths, strict=True):
        left = CONTAINER_MARGINS_MM[c.id][0]
        draw_container_block(ctx, c, x + left, base_y)
        x += w + gap


def planter_space(ctx: SheetContext, field_id: str, shape: Shape, cx: float, cy: float) -> None:
    pen = ctx.pen
    size = PLANTER_SPACE_MM
    r = size / 2
    if shape is Shape.HEXAGON:
        pen.poly(hexagon_points(cx, cy, r), fill="paper", width=LINE_MM * 1.5)
    elif shape is Shape.OVAL:
        pen.ellipse(cx, cy, r, r * 0.84, fill="paper", width=LINE_MM * 1.5)
    else:
        pen.poly(star_points(cx, cy, r * STAR_GROWTH), fill="paper", width=LINE_MM * 1.5)
    side = writing_square(shape, size, CELL_QUIET_MM)
    ctx.add_field(field_id, FieldKind.FRUIT, cx - side / 2, cy - side / 2, side, side,
                  FRUIT_NAMES)


def draw_planter(ctx: SheetContext, g: Garden, y: float) -> float:
    """The planter panel from y to the bottom; returns the panel's right edge."""
    pen = ctx.pen
    px, py = PLANTER_PITCH_X_MM, PLANTER_PITCH_Y_MM
    rows = 1 + max(p.row for p in g.planter)
    cols = 1 + max(p.col for p in g.planter)
    gx, gy = AREA_TAB_MM + 3.0, y + 3.2
    panel_w = gx + cols * px + 3.0 + BADGE_MM + 0.6 + LINE_BUBBLE_MM + 2.5
    area_panel(ctx, "FRUIT PLANTER", 0, y, panel_w, GARDEN_H_MM - y, "planter-area")
    # a wooden trough with soil, the spaces cut into it
    pen.rect(gx - 1.6, gy - 1.2, cols * px + 3.2, rows * py + 2.4, radius=2.0,
             fill="planter", width=LINE_MM)
    for k in range(1, rows):
        yy = gy + k * py
        pen.line(gx - 1.6, yy, gx + cols * px + 1.6, yy, stroke="planter-dark", width=0.35)
    for p in g.planter:
        cx = gx + (p.col + 0.5) * px
        cy = gy + (p.row + 0.5) * py
        planter_space(ctx, p.id, p.shape, cx, cy + (0.7 if p.shape is Shape.STAR else 0.0))
    for line in g.lines:
        kind, idx = line.id[:3], int(line.id[3:])
        if kind == "row":
            bx = gx + cols * px + 3.0
            by = gy + (idx + 0.5) * py - BADGE_MM / 2
        else:
            bx = gx + (idx + 0.5) * px - (BADGE_MM + 0.6 + LINE_BUBBLE_MM) / 2
            by = gy + rows * py + 1.8
        tool_badge(pen, line.tool, bx, by, BADGE_MM, marked=True)
        ctx.add_field(line.tool_field, FieldKind.TOOL, bx, by, BADGE_MM, BADGE_MM, (Mark.CROSS,))
        score_bubble(pen, bx + BADGE_MM + 0.6 + LINE_BUBBLE_MM / 2, by + BADGE_MM / 2,
                     LINE_BUBBLE_MM)
    return panel_w


HONEY_RING_MM = 12.0
NOTE_FONT_MM = 2.5


def draw_honey(ctx: SheetContext, x: float, y: float) -> None:
    """The Jar of Honey (its printed 3 is the field) and a reminder of how lines score."""
    pen = ctx.pen
    w = GARDEN_W_MM - x
    area_panel(ctx, "JAR OF HONEY", x, y, w, GARDEN_H_MM - y, "planter-area")
    cx = x + AREA_TAB_MM + 14.0
    ring_y = y + 11.0
    pen.text_mid(cx, ring_y, "3", 8.5, bold=True, color="honey-dark")
    d = HONEY_RING_MM
    ctx.add_field(HONEY_FIELD, FieldKind.HONEY, cx - d / 2, ring_y - d / 2, d, d, (Mark.CIRCLED,))
    honey_jar(pen, cx, ring_y + 19.0, 22.0)
    tx = x + AREA_TAB_MM + 30.0
    notes = [
        ("First to fill every", False),
        ("container of one area", False),
        ("circles the 3.", False),
        ("", False),
        ("Fruit lines (3 or more)", True),
        ("all different: 3, 4, 5", False),
        ("  kinds score 1, 2, 3", False),
        ("one kind in a run of", False),
        ("  3, 4, 5 scores 3, 4, 5", False),
        ("score the better one.", False),
    ]
    for k, (text, bold) in enumerate(notes):
        pen.text(tx, y + 7.5 + k * 4.1, text, NOTE_FONT_MM, bold=bold, color="soft-ink")
    # the tools by name: cross one out when you use it
    ly = y + 52.0
    lx = x + AREA_TAB_MM + 4.0
    pen.text(lx, ly, "Tools: cross out an icon once used", NOTE_FONT_MM, bold=True,
             color="soft-ink")
    col_w = (w - AREA_TAB_MM - 6.0) / 2
    for k, tool in enumerate(Tool):
        tx2 = lx + (k % 2) * col_w
        ty2 = ly + 3.0 + (k // 2) * 7.6
        tool_badge(pen, tool, tx2, ty2, BADGE_MM)
        pen.text(tx2 + BADGE_MM + 1.6, ty2 + BADGE_MM / 2 + 1.0, tool.value, 2.8)


def draw_garden(ctx: SheetContext, g: Garden) -> None:
    """The whole garden panel in the pen's current frame."""
    draw_area(ctx, g, Area.TOP, 0.0)
    draw_area(ctx, g, Area.BOTTOM, AREA_H_MM + AREA_GAP_MM)
    right = draw_planter(ctx, g, PLANTER_TOP_MM)
    draw_honey(ctx, right + 2.0, PLANTER_TOP_MM)
