"""The Diced Veggies mat: a frame corner guide where the block of dice is settled for a
photo, with the corner markers around it.

Players push the frame's corner into the printed L so the block's top-left die sits at a
known place; the faint grid shows die-sized cells. ``extra`` in the geometry gives the
block's origin (inner corner of the L), the die pitch and the gridded block area, in mm;
the mat stays grey so nothing printed can look like a coloured die.
"""

from __future__ import annotations

from layouts.constants import (
    CORNER_KEEPOUT_MM,
    DIE_MM,
    HEADER_BOTTOM_MM,
    LINE_BOLD_MM,
    MAT_GRID_CELLS,
    SMALL_FONT_MM,
)
from layouts.pen import Path
from layouts.registration import registration
from layouts.sheet import SheetContext

GUIDE_ARM_MM = 60.0
GUIDE_BAR_MM = 5.0  # thickness of the printed L (the frame's wall)
GUIDE_GREY = (0.62, 0.62, 0.62)  # neutral in colour and bw: no die colour on the mat


def build_mat(ctx: SheetContext) -> None:
    pen = ctx.pen
    registration(ctx, "Diced Veggies \u00b7 Dice mat", "settle the block in the corner",
                 title_x=CORNER_KEEPOUT_MM + 1.5)
    n = MAT_GRID_CELLS
    span = n * DIE_MM
    ox = (ctx.width - span) / 2 + GUIDE_BAR_MM / 2
    oy = HEADER_BOTTOM_MM + (ctx.height - HEADER_BOTTOM_MM - CORNER_KEEPOUT_MM - span) / 2
    # the die grid, faint so it never reads as a die edge
    pen.rect(ox, oy, span, span, radius=2.0, fill="paper", stroke="faint", width=0.3)
    for k in range(1, n):
        pen.line(ox + k * DIE_MM, oy, ox + k * DIE_MM, oy + span, stroke="faint", width=0.25,
                 dash=(1.0, 1.5))
        pen.line(ox, oy + k * DIE_MM, ox + span, oy + k * DIE_MM, stroke="faint", width=0.25,
                 dash=(1.0, 1.5))
    # the L: the frame's inner corner touches (ox, oy)
    b = GUIDE_BAR_MM
    arm = GUIDE_ARM_MM
    pen.draw(Path().poly([(ox - b, oy - b), (ox + arm, oy - b), (ox + arm, oy), (ox, oy),
                          (ox, oy + arm), (ox - b, oy + arm)]),
             fill=GUIDE_GREY, stroke="ink", width=LINE_BOLD_MM)
    pen.text(ox - b, oy - b - 3.0,
             "Slide the frame's corner into the grey L, then lift the frame away.",
             SMALL_FONT_MM * 1.3, color="soft-ink")
    pen.text(ctx.width / 2, oy + span + 8.0,
             "Photograph from above with all four corner squares in view.",
             SMALL_FONT_MM * 1.2, align="centre", color="soft-ink")
    ctx.extra["block_origin_mm"] = [round(ox, 3), round(oy, 3)]
    ctx.extra["die_mm"] = DIE_MM
    ctx.extra["grid_cells"] = n
    ctx.extra["block_area_mm"] = [round(ox, 3), round(oy, 3), span, span]
