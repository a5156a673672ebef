"""Delicious sheets: the garden, the play sheet (front and back) and the combo page."""

from __future__ import annotations

from companion.games.delicious.garden import garden
from companion.games.delicious.symbols import Fruit, Vegetable
from layouts.art.plants import draw_plant
from layouts.constants import (
    CORNER_KEEPOUT_MM,
    GARDEN_H_MM,
    GARDEN_W_MM,
    HEADER_BOTTOM_MM,
    PAGE_MARGIN_MM,
    PLAY_W_MM,
    SMALL_FONT_MM,
)
from layouts.delicious_garden import draw_garden
from layouts.delicious_play import (
    CHOICE_H_MM,
    ROUND_GUIDE_H_MM,
    SPOTS_H_MM,
    draw_choices,
    draw_legend,
    draw_play_front,
    draw_round_guide,
    draw_spots,
    draw_tally,
    legend_h,
    play_front_h,
)
from layouts.registration import registration
from layouts.sheet import SheetContext

TITLE_X_MM = CORNER_KEEPOUT_MM + 1.5
COMBO_SPLIT_MM = 200.0
ROW_GAP_MM = 8.0  # landscape page: garden left of this x, play sheet right of it


def _fit(w: float, h: float, box_w: float, box_h: float) -> float:
    return min(box_w / w, box_h / h)


def _footer(ctx: SheetContext, text: str) -> None:
    ctx.pen.text(ctx.width / 2, ctx.height - 11.0, text, SMALL_FONT_MM, align="centre",
                 color="soft-ink")


def build_garden(ctx: SheetContext) -> None:
    g = garden(ctx.variant)
    registration(ctx, "Delicious \u00b7 Garden", f"Garden sheet, side {ctx.variant}",
                 title_x=TITLE_X_MM)
    top = HEADER_BOTTOM_MM + 1.0
    bottom = ctx.height - CORNER_KEEPOUT_MM - 1.0
    avail_w = ctx.width - 2 * PAGE_MARGIN_MM
    s = _fit(GARDEN_W_MM, GARDEN_H_MM, avail_w, bottom - top)
    ox = (ctx.width - GARDEN_W_MM * s) / 2
    with ctx.pen.frame(ox, top, s):
        draw_garden(ctx, g)
    _footer(ctx, "Fill every container from the bottom row up. "
                 "A container scores its highest full row.")


def build_play(ctx: SheetContext) -> None:
    """Two columns: plant choice over the letter legend, spots over a round guide."""
    g = garden(ctx.variant)
    registration(ctx, "Delicious \u00b7 Play", f"Play sheet, side {ctx.variant}",
                 title_x=TITLE_X_MM)
    gap = 8.0
    top = HEADER_BOTTOM_MM + 4.0
    bottom = ctx.height - CORNER_KEEPOUT_MM - 2.0
    left_h = CHOICE_H_MM + legend_h(ctx.version)
    right_h = SPOTS_H_MM + ROUND_GUIDE_H_MM
    s = _fit(2 * PLAY_W_MM, max(left_h, right_h) + 12.0,
             ctx.width - 2 * PAGE_MARGIN_MM - gap, bottom - top)
    x0 = (ctx.width - 2 * PLAY_W_MM * s - gap) / 2
    x1 = x0 + PLAY_W_MM * s + gap
    spare = (bottom - top) - (max(left_h, right_h)) * s
    row2 = top + max(CHOICE_H_MM, SPOTS_H_MM) * s + ROW_GAP_MM
    pen = ctx.pen
    # what is left below becomes a doodle strip for practising sketches
    dy = row2 + max(legend_h(ctx.version), ROUND_GUIDE_H_MM) * s + ROW_GAP_MM
    if spare > 2 * ROW_GAP_MM + 20.0:
        pen.rect(x0, dy, ctx.width - 2 * x0, bottom - dy, radius=3.0, fill="paper",
                 stroke="faint", width=0.5, dash=(2.0, 1.5))
        pen.text(x0 + 4.0, dy + 6.0, "Practise your sketches here", 3.2, bold=True,
                 color="soft-ink")
        plants = (*Vegetable, *Fruit)
        step = (ctx.width - 2 * x0 - 16.0) / len(plants)
        for k, plant in enumerate(plants):
            draw_plant(pen, plant, x0 + 8.0 + (k + 0.5) * step, dy + 15.0, 9.0)
    with pen.frame(x0, top, s):
        draw_choices(ctx)
    with pen.frame(x1, top, s):
        draw_spots(ctx)
    with pen.frame(x0, row2, s):
        draw_legend(ctx)
    with pen.frame(x1, row2, s):
        draw_round_guide(ctx)
    _footer(ctx, "Score tally on the back.")
    ctx.new_page()
    draw_tally(ctx, g, 22.0, 26.0, ctx.width - 44.0)


def build_combo(ctx: SheetContext) -> None:
    g = garden(ctx.variant)
    pen = ctx.pen
    px0, px1 = COMBO_SPLIT_MM + 3.0, ctx.width - PAGE_MARGIN_MM
    py0, py1 = HEADER_BOTTOM_MM + 2.0, ctx.height - CORNER_KEEPOUT_MM - 1.0
    sp = _fit(PLAY_W_MM, play_front_h(ctx.version), px1 - px0, py1 - py0)
    play_x = px0 + (px1 - px0 - PLAY_W_MM * sp) / 2
    registration(ctx, "Delicious", f"Side {ctx.variant}", title_x=play_x)
    gx0, gx1 = CORNER_KEEPOUT_MM + 1.0, COMBO_SPLIT_MM
    gy0, gy1 = PAGE_MARGIN_MM, ctx.height - PAGE_MARGIN_MM
    s = _fit(GARDEN_W_MM, GARDEN_H_MM, gx1 - gx0, gy1 - gy0)
    with pen.frame(gx0, gy0 + (gy1 - gy0 - GARDEN_H_MM * s) / 2, s):
        draw_garden(ctx, g)
    with pen.frame(play_x, py0, sp):
        draw_play_front(ctx)
