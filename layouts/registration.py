"""Corner markers, the QR label and the header every sheet carries.

Markers sit in the page corners (hands and pencils work in the middle of a sheet) and the
QR code on the top edge, which a writing hand rarely covers.
"""

from __future__ import annotations

import segno

from companion.paper.model import Box, MarkerSpec
from layouts.constants import (
    HEADER_BOTTOM_MM,
    MARKER_INSET_MM,
    MARKER_MODULES,
    MARKER_QUIET_MM,
    MARKER_SIZE_MM,
    QR_ERROR,
    QR_QUIET_MODULES,
    QR_SIZE_MM,
    SMALL_FONT_MM,
    SUBTITLE_FONT_MM,
    TITLE_FONT_MM,
)
from layouts.markers import marker_modules
from layouts.sheet import SheetContext

# The QR's quiet zone ends where the page content begins, so nothing printed below can
# cut into it (the paper's bare top edge is part of the zone above).
QR_QUIET_BOTTOM_MM = HEADER_BOTTOM_MM
CODE_LABEL = "Player code "


def marker_centres(page_mm: tuple[float, float]) -> list[tuple[int, tuple[float, float]]]:
    """Ids 0-3 at top-left, top-right, bottom-right, bottom-left."""
    w, h = page_mm
    d = MARKER_INSET_MM
    return [(0, (d, d)), (1, (w - d, d)), (2, (w - d, h - d)), (3, (d, h - d))]


def draw_markers(ctx: SheetContext) -> None:
    pen = ctx.pen
    s = MARKER_SIZE_MM
    module = s / MARKER_MODULES
    for marker_id, (cx, cy) in marker_centres(ctx.page_mm):
        x0, y0 = cx - s / 2, cy - s / 2
        q = MARKER_QUIET_MM
        pen.rect(x0 - q, y0 - q, s + 2 * q, s + 2 * q, fill="paper", stroke=None)
        grid = marker_modules(marker_id)
        pen.rect(x0, y0, s, s, fill=(0, 0, 0), stroke=None)
        for r, row in enumerate(grid):
            for c, black in enumerate(row):
                if not black:
                    # a hair of overlap avoids anti-aliasing seams between white modules
                    pen.rect(x0 + c * module, y0 + r * module, module + 0.01, module + 0.01,
                             fill=(1, 1, 1), stroke=None)
        ctx.markers.append(MarkerSpec(marker_id, (cx, cy), s))


def draw_qr(ctx: SheetContext, right_mm: float, bottom_mm: float = QR_QUIET_BOTTOM_MM) -> Box:
    """The label QR with its quiet zone (QR_QUIET_MODULES modules, the standard's four)
    ending at ``right_mm`` and ``bottom_mm``."""
    payload = ctx.geometry().label(ctx.code).encode()
    qr = segno.make(payload, error=QR_ERROR, micro=False)
    rows = [list(r) for r in qr.matrix]
    n = len(rows)
    module = QR_SIZE_MM / n
    quiet = QR_QUIET_MODULES * module
    x0 = right_mm - quiet - QR_SIZE_MM
    y0 = bottom_mm - quiet - QR_SIZE_MM
    pen = ctx.pen
    pen.rect(x0 - quiet, y0 - quiet, QR_SIZE_MM + 2 * quiet, QR_SIZE_MM + 2 * quiet,
             fill="paper", stroke=None)
    for r, row in enumerate(rows):
        c = 0
        while c < n:  # one rectangle per horizontal run keeps the PDF small
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                pen.rect(x0 + start * module, y0 + r * module, (c - start) * module + 0.005,
                         module + 0.005, fill=(0, 0, 0), stroke=None)
            else:
                c += 1
    box = Box(x0, y0, QR_SIZE_MM, QR_SIZE_MM)
    ctx.qr_box = box
    ctx.qr_modules = n
    return box


def draw_header(ctx: SheetContext, x: float, title: str, subtitle: str) -> None:
    """Title, subtitle and the player code, in the top band between the markers."""
    pen = ctx.pen
    pen.text(x, 13.0, title, TITLE_FONT_MM, bold=True)
    pen.text(x, 18.6, subtitle, SUBTITLE_FONT_MM, color="soft-ink")
    if ctx.code:
        pen.text(x, 24.6, CODE_LABEL, SMALL_FONT_MM, color="soft-ink")
        lx = x + pen.text_width(CODE_LABEL, SMALL_FONT_MM)
        tw = pen.text_width(ctx.code, SUBTITLE_FONT_MM, bold=True)
        pen.rect(lx - 0.2, 21.2, tw + 2.4, 4.6, radius=1.0, fill="paper", stroke="ink",
                 width=0.3)
        pen.text(lx + 1.0, 24.9, ctx.code, SUBTITLE_FONT_MM, bold=True)


def registration(ctx: SheetContext, title: str, subtitle: str, *, title_x: float) -> None:
    """Markers, QR (left of the top-right marker) and header text."""
    draw_markers(ctx)
    right = ctx.width - (MARKER_INSET_MM + MARKER_SIZE_MM / 2 + MARKER_QUIET_MM) + 1.0
    box = draw_qr(ctx, right)
    # the header ends a millimetre short of the QR's quiet zone
    limit = box.x - QR_QUIET_MODULES * box.w / ctx.qr_modules - 1.0
    pen = ctx.pen
    code_w = (pen.text_width(CODE_LABEL, SMALL_FONT_MM)
              + pen.text_width(ctx.code, SUBTITLE_FONT_MM, bold=True) + 2.2) if ctx.code else 0.0
    widest = max(pen.text_width(title, TITLE_FONT_MM, bold=True),
                 pen.text_width(subtitle, SUBTITLE_FONT_MM), code_w)
    draw_header(ctx, min(title_x, limit - widest), title, subtitle)
