"""The Delicious play sheet: plant choice circles, wild and bonus spots, the letter legend
(front), and the score tally (back).

The front is three sections drawn in natural frames (PLAY_W_MM wide) so the play sheet and the
combo sheet place the same definition. Choice fields give the printed circle's bounding box;
spot fields give the inner writing area of the spot.
"""

from __future__ import annotations

from companion.games.delicious.garden import (
    FRUIT_BONUS,
    FRUIT_WILD,
    VEG_BONUS,
    VEG_WILD,
    Garden,
    choice_id,
)
from companion.games.delicious.symbols import (
    CHOICE_CIRCLES_PER_OPTION,
    Area,
    Fruit,
    PlantChoice,
    Vegetable,
)
from companion.paper.model import FieldKind
from layouts.art.plants import draw_plant
from layouts.constants import (
    CELL_QUIET_MM,
    CELL_RADIUS_MM,
    CHOICE_CIRCLE_MM,
    LINE_MM,
    PLAY_W_MM,
    SPOT_MM,
)
from layouts.pen import Path, Pen
from layouts.sheet import SheetContext

VEG = tuple(v.value for v in Vegetable)
FRUIT = tuple(f.value for f in Fruit)

SECTION_FONT_MM = 3.0
CHOICE_ROW_MM = 13.0
CHOICE_H_MM = 8.0 + 4 * CHOICE_ROW_MM  # 60
SPOTS_H_MM = 52.0
LEGEND_ROW_MM = 6.4
LEGEND_H_MM = 8.0 + 6 * LEGEND_ROW_MM  # 46.4
SECTION_GAP_MM = 4.0
PLAY_FRONT_H_MM = CHOICE_H_MM + SPOTS_H_MM + LEGEND_H_MM + 2 * SECTION_GAP_MM

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
    used = {
        PlantChoice.ONE_AS_IS: (True, False),
        PlantChoice.ONE_REVERSE: (True, False),
        PlantChoice.TWO_AS_IS: (True, True),
        PlantChoice.TWO_ANYWHERE: (True, True),
    }[choice]
    for k, y in enumerate((cy - 4.6, cy + 0.6)):
        fill = "paper" if used[k] or choice in (PlantChoice.ONE_AS_IS,
                                                PlantChoice.ONE_REVERSE) else "faint"
        pen.rect(x, y, 5.2, 4.0, radius=0.7, fill=fill, width=0.3)
        pen.text_mid(x + 2.6, y + 2.0, "TB"[k], 2.2, bold=True)
    ax = x + 7.0
    if choice is PlantChoice.ONE_REVERSE:
        pen.draw(Path().move(ax, cy - 2.6).line(ax + 4.0, cy + 2.6), width=0.4)
        pen.draw(Path().move(ax, cy + 2.6).line(ax + 4.0, cy - 2.6), width=0.4)
        _arrow_head(pen, ax + 4.0, cy + 2.6, 1)
        _arrow_head(pen, ax + 4.0, cy - 2.6, -1)
    elif choice is PlantChoice.TWO_ANYWHERE:
        for y0 in (cy - 2.6, cy + 2.6):
            for y1 in (cy - 2.6, cy + 2.6):
                pen.line(ax, y0, ax + 4.0, y1, width=0.3)
        pen.text_mid(ax + 2.0, cy, "", 1.0)
    else:
        for y in (cy - 2.6, cy + 2.6):
            pen.line(ax, y, ax + 4.0, y, width=0.4)
            _arrow_head(pen, ax + 4.0, y, 0)
    for k, y in enumerate((cy - 4.6, cy + 0.6)):
        pen.rect(ax + 4.8, y, 3.8, 4.0, radius=0.6, fill=f"{('top', 'bottom')[k]}-area",
                 width=0.3)
        pen.text_mid(ax + 6.7, y + 2.0, "TB"[k], 2.0, color="soft-ink")


def _arrow_head(pen: Pen, x: float, y: float, slope: int) -> None:
    pen.poly([(x + 0.4, y + 0.2 * slope), (x - 1.0, y - 0.8), (x - 1.0 + 0.6 * slope, y + 0.9)],
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
                          ("marked",))


def _spot(ctx: SheetContext, field_id: str, kind: FieldKind, x: float, y: float,
          role: str) -> None:
    pen = ctx.pen
    s = SPOT_MM
    pen.rect(x - 1.0, y - 1.0, s + 2.0, s + 2.0, radius=CELL_RADIUS_MM + 1.0, fill=role,
             stroke=None)
    pen.rect(x, y, s, s, radius=CELL_RADIUS_MM, fill="paper", width=LINE_MM)
    q = CELL_QUIET_MM
    ctx.add_field(field_id, kind, x + q, y + q, s - 2 * q, s - 2 * q,
                  VEG if kind is FieldKind.VEGETABLE else FRUIT)


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


def draw_play_front(ctx: SheetContext) -> None:
    """The three sections stacked, PLAY_W_MM x PLAY_FRONT_H_MM, in the current frame."""
    pen = ctx.pen
    draw_choices(ctx)
    with pen.frame(0, CHOICE_H_MM + SECTION_GAP_MM):
        draw_spots(ctx)
    with pen.frame(0, CHOICE_H_MM + SPOTS_H_MM + 2 * SECTION_GAP_MM):
        draw_legend(ctx)


def draw_tally(ctx: SheetContext, g: Garden, x: float, y: float, w: float) -> None:
    """The back of the play sheet: one line per scoring item, then the total."""
    pen = ctx.pen
    row_h = 9.5
    rows: list[tuple[str, str]] = []
    for area in Area:
        for c in g.area(area):
            rows.append((c.id.replace("-", " ").title(),
                         f"{area.value} area: highest full row, +1 First Potter"))
    rows.append(("Fruit planter", "every row and column with 3+ fruits"))
    rows.append(("Vegetable bonus", "2 per container holding the bonus vegetable (max 12)"))
    rows.append(("Fruit bonus", "1 per bonus fruit in the planter"))
    rows.append(("Jar of Honey", "3 if circled"))
    pen.text(x, y, "SCORE TALLY", 6.0, bold=True)
    pen.text(x, y + 6.0, "Add it up at the end of the game. Ties: higher planter score, "
             "then more First Potter checks.", 2.8, color="soft-ink")
    top = y + 12.0
    box_w = 22.0
    for k, (label, hint) in enumerate(rows):
        ry = top + k * row_h
        if k % 2 == 0:
            pen.rect(x, ry, w, row_h, fill="panel", stroke=None)
        pen.text(x + 3.0, ry + 4.6, label, 3.6, bold=True)
        pen.text(x + 3.0, ry + 8.0, hint, 2.4, color="soft-ink")
        pen.rect(x + w - box_w - 2.0, ry + 1.0, box_w, row_h - 2.0, radius=1.2,
                 fill="paper", width=LINE_MM)
    ty = top + len(rows) * row_h + 3.0
    pen.rect(x, ty, w, 14.0, radius=2.0, fill="banner", stroke=None)
    pen.text(x + 3.0, ty + 9.4, "TOTAL", 5.0, bold=True, color="banner-text")
    pen.rect(x + w - box_w - 2.0, ty + 1.5, box_w, 11.0, radius=1.2, fill="paper",
             width=LINE_MM)
