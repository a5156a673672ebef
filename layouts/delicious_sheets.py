"""Delicious sheets: the garden, the play sheet (front and back) and the combo page."""

from __future__ import annotations

from companion.games.delicious.garden import garden
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
from layouts.delicious_play import PLAY_FRONT_H_MM, draw_play_front, draw_tally
from layouts.registration import registration
from layouts.sheet import SheetContext

TITLE_X_MM = CORNER_KEEPOUT_MM + 1.5
COMBO_SPLIT_MM = 200.0  # landscape page: garden left of this x, play sheet right of it


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
    g = garden(ctx.variant)
    registration(ctx, "Delicious \u00b7 Play", f"Play sheet, side {ctx.variant}",
                 title_x=TITLE_X_MM)
    top = HEADER_BOTTOM_MM + 2.0
    bottom = ctx.height - CORNER_KEEPOUT_MM - 1.0
    s = _fit(PLAY_W_MM, PLAY_FRONT_H_MM, ctx.width - 2 * PAGE_MARGIN_MM, bottom - top)
    ox = (ctx.width - PLAY_W_MM * s) / 2
    with ctx.pen.frame(ox, top, s):
        draw_play_front(ctx)
    _footer(ctx, "Score tally on the back.")
    ctx.new_page()
    draw_tally(ctx, g, 20.0, 24.0, ctx.width - 40.0)


def build_combo(ctx: SheetContext) -> None:
    g = garden(ctx.variant)
    pen = ctx.pen
    registration(ctx, "Delicious", f"Side {ctx.variant}",
                 title_x=COMBO_SPLIT_MM + 3.0)
    gx0, gx1 = CORNER_KEEPOUT_MM + 1.0, COMBO_SPLIT_MM
    gy0, gy1 = PAGE_MARGIN_MM, ctx.height - PAGE_MARGIN_MM
    s = _fit(GARDEN_W_MM, GARDEN_H_MM, gx1 - gx0, gy1 - gy0)
    with pen.frame(gx0, gy0 + (gy1 - gy0 - GARDEN_H_MM * s) / 2, s):
        draw_garden(ctx, g)
    px0, px1 = COMBO_SPLIT_MM + 3.0, ctx.width - PAGE_MARGIN_MM
    py0, py1 = HEADER_BOTTOM_MM + 2.0, ctx.height - CORNER_KEEPOUT_MM - 1.0
    sp = _fit(PLAY_W_MM, PLAY_FRONT_H_MM, px1 - px0, py1 - py0)
    with pen.frame(px0 + (px1 - px0 - PLAY_W_MM * sp) / 2, py0, sp):
        draw_play_front(ctx)
