"""The Delicious play sheet: plant choice circles, wild and bonus spots, the letter legend
(front), and the score tally (back).

The front is three sections drawn in natural frames (PLAY_W_MM wide) so the play sheet and the
combo sheet place the same definition. Choice fields give the printed circle's bounding box;
spot fields give the inner writing area of the spot.
"""

from __future__ import annotations

import math

from companion.games.delicious.garden import (
    FRUIT_BONUS,
    FRUIT_WILD,
    VEG_BONUS,
    VEG_WILD,
    Garden,
    choice_id,
    plant_names,
)
from companion.games.delicious.symbols import (
    CHOICE_CIRCLES_PER_OPTION,
    Area,
    Fruit,
    Mark,
    PlantChoice,
    Vegetable,
)
from companion.paper.model import FieldKind
from layouts.art.badges import honey_jar
from layouts.art.containers import draw_container
from layouts.art.plants import draw_plant
from layouts.constants import (
    CELL_QUIET_MM,
    CELL_RADIUS_MM,
    CHOICE_CIRCLE_MM,
    LINE_MM,
    PLAY_W_MM,
    SPOT_MM,
)
from layouts.pen import Pen
from layouts.sheet import SheetContext

SECTION_FONT_MM = 3.0
CHOICE_ROW_MM = 13.0
CHOICE_H_MM = 8.0 + 4 * CHOICE_ROW_MM  # 60
SPOTS_H_MM = 52.0
LEGEND_ROW_MM = 6.4  # layout version 1: the legend alone
SECTION_GAP_MM = 4.0
# Layout version 2: a box beside each plant of the legend where a sketching player draws
# it once (the key of their own drawings); rows as tall as a box, the column of boxes
# kept inside the combo sheet's play column at its version-1 scale.
KEY_VERSION = 2
KEY_ROW_MM = 9.2
KEY_BOX_MM = 8.0
KEY_QUIET_MM = 1.0  # inside the box's line, as a cell's (CELL_QUIET_MM)
KEY_BOX_X_MM = 28.0  # from each legend column's left
KEY_NAME_X_MM = 11.0


def legend_h(version: int) -> float:
    """The legend's height: 46.4 mm in version 1, 63.2 mm with the key's boxes."""
    return 8.0 + 6 * (KEY_ROW_MM if version >= KEY_VERSION else LEGEND_ROW_MM)


def play_front_h(version: int) -> float:
    return CHOICE_H_MM + SPOTS_H_MM + legend_h(version) + 2 * SECTION_GAP_MM

CHOICE_TEXT: dict[PlantChoice, tuple[str, str]] = {
    PlantChoice.ONE_AS_IS: ("1 card", "as is"),
    PlantChoice.ONE_REVERSE: ("1 card", "reverse"),
    PlantChoice.TWO_AS_IS: ("2 cards", "as is"),
    PlantChoice.TWO_ANYWHERE: ("2 cards", "anywhere"),
}


def section_title(pen: Pen, title: str, hint: str = "") -> None:
    pen.rect(0, 0, PLAY_W_MM, 6.2, radius=1.6, fill="banner", stroke=None)
    pen.text(2.5, 4.3, title, SECTION_FONT_MM, bold=True, color="banner-text")
    if hint:
        pen.text(PLAY_W_MM - 2.5, 4.2, hint, 2.2, align="right", color="banner-text")


def _mini_cards(pen: Pen, choice: PlantChoice, x: float, cy: float) -> None:
    """Two stacked cards (top/bottom position) with arrows to the garden's areas."""
    for k, y in enumerate((cy - 4.6, cy + 0.6)):
        pen.rect(x, y, 5.2, 4.0, radius=0.7, fill="paper", width=0.3)
        pen.text_mid(x + 2.6, y + 2.0, "TB"[k], 2.2, bold=True)
    ax = x + 6.6
    top, bot = cy - 2.6, cy + 2.6
    links = {
        PlantChoice.ONE_AS_IS: ((top, top), (bot, bot)),
        PlantChoice.TWO_AS_IS: ((top, top), (bot, bot)),
        PlantChoice.ONE_REVERSE: ((top, bot), (bot, top)),
        PlantChoice.TWO_ANYWHERE: ((top, top), (bot, bot), (top, bot), (bot, top)),
    }[choice]
    for y0, y1 in links:
        _arrow(pen, ax, y0, ax + 4.2, y1)
    for k, y in enumerate((cy - 4.6, cy + 0.6)):
        pen.rect(ax + 4.8, y, 3.8, 4.0, radius=0.6, fill=f"{('top', 'bottom')[k]}-area",
                 width=0.3)
        pen.text_mid(ax + 6.7, y + 2.0, "TB"[k], 2.0, color="soft-ink")
    one = choice in (PlantChoice.ONE_AS_IS, PlantChoice.ONE_REVERSE)
    pen.text_mid(ax + 11.2, cy, "or" if one else "and", 2.0, color="soft-ink", align="left")


def _arrow(pen: Pen, x0: float, y0: float, x1: float, y1: float) -> None:
    """A thin arrow with a filled head at (x1, y1)."""
    dx, dy = x1 - x0, y1 - y0
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    head, half = 1.2, 0.55
    bx, by = x1 - ux * head, y1 - uy * head
    pen.line(x0, y0, bx, by, width=0.3)
    pen.poly([(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)],
             fill="ink", stroke=None)


def draw_choices(ctx: SheetContext) -> None:
    pen = ctx.pen
    section_title(pen, "PLANT CHOICE", "mark one circle a round")
    d = CHOICE_CIRCLE_MM
    for k, choice in enumerate(PlantChoice):
        cy = 8.0 + (k + 0.5) * CHOICE_ROW_MM
        if k % 2 == 0:
            pen.rect(0, cy - CHOICE_ROW_MM / 2, PLAY_W_MM, CHOICE_ROW_MM, radius=1.5,
                     fill="panel", stroke=None)
        big, small = CHOICE_TEXT[choice]
        pen.text(2.0, cy - 0.4, big, 3.2, bold=True)
        pen.text(2.0, cy + 3.4, small, 2.8, color="soft-ink")
        _mini_cards(pen, choice, 18.0, cy)
        for i in range(CHOICE_CIRCLES_PER_OPTION):
            cx = 48.0 + i * 11.0
            pen.circle(cx, cy, d / 2, fill="choice", width=LINE_MM * 1.4)
            ctx.add_field(choice_id(choice, i), FieldKind.CHOICE, cx - d / 2, cy - d / 2, d, d,
                          (Mark.MARKED,))


def _spot(ctx: SheetContext, field_id: str, kind: FieldKind, x: float, y: float,
          role: str) -> None:
    pen = ctx.pen
    s = SPOT_MM
    pen.rect(x - 1.0, y - 1.0, s + 2.0, s + 2.0, radius=CELL_RADIUS_MM + 1.0, fill=role,
             stroke=None)
    pen.rect(x, y, s, s, radius=CELL_RADIUS_MM, fill="paper", width=LINE_MM)
    q = CELL_QUIET_MM
    ctx.add_field(field_id, kind, x + q, y + q, s - 2 * q, s - 2 * q,
                  plant_names(kind))


def draw_spots(ctx: SheetContext) -> None:
    pen = ctx.pen
    section_title(pen, "WILD & BONUS SPOTS", "once per game each")
    cols = (("VEGETABLE", 30.0), ("FRUIT", 58.0))
    for label, x in cols:
        pen.text(x + SPOT_MM / 2, 11.0, label, 2.5, bold=True, align="centre")
    rows = (("WILD", 13.5, "wild"), ("BONUS", 33.5, "bonus"))
    for label, y, role in rows:
        pen.text(2.0, y + SPOT_MM / 2 + 1.1, label, 3.0, bold=True, color=role)
    _spot(ctx, VEG_WILD, FieldKind.VEGETABLE, cols[0][1], rows[0][1], "wild")
    _spot(ctx, FRUIT_WILD, FieldKind.FRUIT, cols[1][1], rows[0][1], "wild")
    _spot(ctx, VEG_BONUS, FieldKind.VEGETABLE, cols[0][1], rows[1][1], "bonus")
    _spot(ctx, FRUIT_BONUS, FieldKind.FRUIT, cols[1][1], rows[1][1], "bonus")
    pen.text(2.0, rows[0][1] + SPOT_MM / 2 + 5.0, "then pot / plant", 2.0, color="soft-ink")
    pen.text(2.0, rows[0][1] + SPOT_MM / 2 + 7.6, "any one, anywhere", 2.0, color="soft-ink")
    pen.text(2.0, rows[1][1] + SPOT_MM / 2 + 5.0, "veg: 2 per container", 2.0, color="soft-ink")
    pen.text(2.0, rows[1][1] + SPOT_MM / 2 + 7.6, "fruit: 1 per planted", 2.0, color="soft-ink")


def draw_legend(ctx: SheetContext) -> None:
    if ctx.version >= KEY_VERSION:
        draw_key(ctx)
        return
    pen = ctx.pen
    section_title(pen, "NOT SKETCHING? WRITE A LETTER")
    columns: tuple[tuple[float, tuple[Vegetable | Fruit, ...]], ...] = (
        (1.0, tuple(Vegetable)),
        (41.0, tuple(Fruit)),
    )
    for x, plants in columns:
        for k, plant in enumerate(plants):
            cy = 8.0 + (k + 0.5) * LEGEND_ROW_MM
            draw_plant(pen, plant, x + 3.0, cy, 5.6)
            pen.text(x + 7.0, cy + 1.3, plant.letter, 3.6, bold=True)
            pen.text(x + 11.5, cy + 1.0, plant.value.replace("-", " "), 2.6)


def draw_key(ctx: SheetContext) -> None:
    """The legend with a box beside each plant: a player who sketches draws each plant
    there once, as they will in the garden, and the reader takes those drawings as the
    player's own named examples (a letter writer leaves the boxes empty)."""
    pen = ctx.pen
    section_title(pen, "YOUR PLANTS", "sketching? draw each once in its box")
    columns: tuple[tuple[float, tuple[Vegetable | Fruit, ...]], ...] = (
        (0.5, tuple(Vegetable)),
        (41.5, tuple(Fruit)),
    )
    room = KEY_BOX_X_MM - KEY_NAME_X_MM - 0.8
    for x, plants in columns:
        for k, plant in enumerate(plants):
            top = 8.0 + k * KEY_ROW_MM + (KEY_ROW_MM - KEY_BOX_MM) / 2
            cy = top + KEY_BOX_MM / 2
            draw_plant(pen, plant, x + 3.0, cy, 5.6)
            pen.text(x + 7.0, cy + 1.3, plant.letter, 3.6, bold=True)
            name = plant.value.replace("-", " ")
            if pen.text_width(name, 2.5) <= room:
                pen.text(x + KEY_NAME_X_MM, cy + 0.9, name, 2.5)
            else:  # golden raspberry: two lines
                first, _, rest = name.partition(" ")
                pen.text(x + KEY_NAME_X_MM, cy - 0.4, first, 2.5)
                pen.text(x + KEY_NAME_X_MM, cy + 2.3, rest, 2.5)
            bx = x + KEY_BOX_X_MM
            pen.rect(bx, top, KEY_BOX_MM, KEY_BOX_MM, radius=CELL_RADIUS_MM, fill="paper",
                     width=LINE_MM)
            q = KEY_QUIET_MM
            ctx.add_key_box(plant.value, bx + q, top + q, KEY_BOX_MM - 2 * q, KEY_BOX_MM - 2 * q)


def draw_play_front(ctx: SheetContext) -> None:
    """The three sections stacked, PLAY_W_MM x play_front_h(version), in the current
    frame."""
    pen = ctx.pen
    draw_choices(ctx)
    with pen.frame(0, CHOICE_H_MM + SECTION_GAP_MM):
        draw_spots(ctx)
    with pen.frame(0, CHOICE_H_MM + SPOTS_H_MM + 2 * SECTION_GAP_MM):
        draw_legend(ctx)


ROUND_GUIDE_H_MM = 62.0
ROUND_STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Choose", ("Mark one circle above for the two",
                "cards just turned up.")),
    ("Pot vegetables", ("Top card to the top area, bottom card",
                        "to the bottom (unless the choice says",
                        "otherwise). Bottom row first.")),
    ("Fruit or tool", ("A fruit goes in a planter space of",
                       "the card's shape. A tool adds one",
                       "plant in its row or line: cross it out.")),
    ("End of round", ("First to fill a container checks its",
                      "pot (+1); everyone else crosses theirs.")),
)


def draw_round_guide(ctx: SheetContext) -> None:
    """A reminder of one round, in our own words."""
    pen = ctx.pen
    section_title(pen, "A ROUND, IN SHORT")
    y = 11.0
    for k, (head, lines) in enumerate(ROUND_STEPS):
        pen.circle(3.6, y - 1.0, 2.6, fill="banner", stroke=None)
        pen.text_mid(3.6, y - 1.0, str(k + 1), 3.0, bold=True, color="banner-text")
        pen.text(8.0, y, head, 3.0, bold=True)
        for j, line in enumerate(lines):
            pen.text(8.0, y + 3.8 + j * 3.4, line, 2.5, color="soft-ink")
        y += 5.6 + 3.4 * len(lines)


def _tally_row(pen: Pen, x: float, y: float, w: float, h: float, label: str, hint: str,
               shade: bool) -> None:
    box_w = 24.0
    if shade:
        pen.rect(x, y, w, h, radius=1.2, fill="panel", stroke=None)
    pen.text(x + 20.0, y + h / 2 - 0.2, label, 3.8, bold=True)
    pen.text(x + 20.0, y + h / 2 + 3.6, hint, 2.5, color="soft-ink")
    pen.rect(x + w - box_w - 2.0, y + 1.2, box_w, h - 2.4, radius=1.2, fill="paper",
             width=LINE_MM)


def draw_tally(ctx: SheetContext, g: Garden, x: float, y: float, w: float) -> None:
    """The back of the play sheet: one line per scoring item, then the total."""
    pen = ctx.pen
    row_h = 15.5
    pen.text(x, y, "SCORE TALLY", 7.0, bold=True)
    pen.text(x, y + 7.0, "Add it up after round 12. Tied? The higher planter score wins, "
             "then more First Potter checks.", 2.9, color="soft-ink")
    yy = y + 13.0
    shade = False
    for area in Area:
        pen.text(x, yy + 4.5, f"{area.value.upper()} AREA", 3.2, bold=True, color="banner")
        yy += 6.5
        for c in g.area(area):
            _tally_row(pen, x, yy, w, row_h, c.id.replace("-", " ").capitalize(),
                       "highest full row, +1 for a checked First Potter", shade)
            with pen.frame(x + 4.0, yy + 3.2, 0.24):
                draw_container(pen, c.id, 8.0, 4.0, 36.0, 22.0)
            yy += row_h
            shade = not shade
    pen.text(x, yy + 4.5, "PLANTER AND BONUSES", 3.2, bold=True, color="banner")
    yy += 6.5
    extras: tuple[tuple[str, str, Vegetable | Fruit | None], ...] = (
        ("Fruit planter", "each row and column with 3 or more fruits", Fruit.STRAWBERRY),
        ("Vegetable bonus", "2 per container holding it (12 at most)", Vegetable.CARROT),
        ("Fruit bonus", "1 per planted fruit of that kind", Fruit.BLUEBERRY),
        ("Jar of Honey", "3 if you circled it", None),
    )
    for label, hint, plant in extras:
        _tally_row(pen, x, yy, w, row_h, label, hint, shade)
        if plant is None:
            honey_jar(pen, x + 9.0, yy + row_h / 2, 10.0)
        else:
            draw_plant(pen, plant, x + 9.0, yy + row_h / 2, 9.0)
        yy += row_h
        shade = not shade
    yy += 3.0
    pen.rect(x, yy, w, 16.0, radius=2.0, fill="banner", stroke=None)
    pen.text(x + 4.0, yy + 10.4, "TOTAL", 6.0, bold=True, color="banner-text")
    pen.rect(x + w - 26.0, yy + 1.5, 24.0, 13.0, radius=1.2, fill="paper", width=LINE_MM)
