"""A small drawing layer over a ReportLab canvas: millimetres, y downward, nested frames.

Sheets are laid out by code that both records fields and draws. When there is no canvas
(``geometry()``), the same code runs and only the recorded boxes matter, so geometry and
drawing can never drift apart.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from companion.paper.model import Box
from layouts.constants import LINE_MM
from layouts.palette import RGB, Palette, palette

Paint = str | RGB | None  # a palette role, an explicit colour, or nothing
Point = tuple[float, float]

FONT = "Helvetica"
FONT_BOLD = "Helvetica-Bold"


@dataclass
class Path:
    """A vector outline in the current frame's units; replayed onto the canvas."""

    ops: list[tuple[str, tuple[float, ...]]] = field(default_factory=list)

    def move(self, x: float, y: float) -> Path:
        self.ops.append(("m", (x, y)))
        return self

    def line(self, x: float, y: float) -> Path:
        self.ops.append(("l", (x, y)))
        return self

    def curve(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> Path:
        self.ops.append(("c", (x1, y1, x2, y2, x, y)))
        return self

    def close(self) -> Path:
        self.ops.append(("z", ()))
        return self

    def poly(self, points: Sequence[Point], closed: bool = True) -> Path:
        self.move(*points[0])
        for p in points[1:]:
            self.line(*p)
        if closed:
            self.close()
        return self

    def ellipse(self, cx: float, cy: float, rx: float, ry: float) -> Path:
        self.ops.append(("e", (cx, cy, rx, ry)))
        return self

    def round_rect(self, x: float, y: float, w: float, h: float, r: float) -> Path:
        self.ops.append(("r", (x, y, w, h, r)))
        return self


class Pen:
    """Draws in millimetres from the page's top-left corner, y downward."""

    def __init__(self, canvas: Canvas | None, page_mm: tuple[float, float], bw: bool) -> None:
        self.canvas = canvas
        self.page_mm = page_mm
        self.bw = bw
        self.palette: Palette = palette(bw)
        self._frames: list[tuple[float, float, float]] = [(0.0, 0.0, 1.0)]
        if canvas is not None:
            canvas.translate(0, page_mm[1] * mm)
            canvas.scale(mm, -mm)
            canvas.setLineJoin(1)
            canvas.setLineCap(1)

    # ---- frames ---------------------------------------------------------------------
    @property
    def scale(self) -> float:
        return self._frames[-1][2]

    def to_page(self, x: float, y: float) -> Point:
        ox, oy, s = self._frames[-1]
        return (ox + x * s, oy + y * s)

    def page_box(self, x: float, y: float, w: float, h: float) -> Box:
        px, py = self.to_page(x, y)
        return Box(px, py, w * self.scale, h * self.scale)

    @contextmanager
    def frame(self, ox: float, oy: float, s: float = 1.0) -> Iterator[None]:
        """Local coordinates: (0, 0) at (ox, oy) of the current frame, units times s."""
        px, py = self.to_page(ox, oy)
        self._frames.append((px, py, self.scale * s))
        if self.canvas is not None:
            self.canvas.saveState()
            self.canvas.translate(ox, oy)
            self.canvas.scale(s, s)
        try:
            yield
        finally:
            self._frames.pop()
            if self.canvas is not None:
                self.canvas.restoreState()

    @contextmanager
    def icon(self, cx: float, cy: float, size: float) -> Iterator[None]:
        """A 100 x 100 design grid centred on (cx, cy), ``size`` mm across."""
        with self.frame(cx - size / 2, cy - size / 2, size / 100):
            yield

    # ---- paint ----------------------------------------------------------------------
    def color(self, paint: Paint) -> Color | None:
        if paint is None:
            return None
        rgb = self.palette[paint] if isinstance(paint, str) else paint
        return Color(*rgb)

    def draw(
        self,
        path: Path,
        *,
        fill: Paint = None,
        stroke: Paint = "ink",
        width: float = LINE_MM,
        dash: Sequence[float] | None = None,
        even_odd: bool = False,
    ) -> None:
        c = self.canvas
        if c is None or (fill is None and stroke is None):
            return
        p = c.beginPath()
        for op, a in path.ops:
            if op == "m":
                p.moveTo(*a)
            elif op == "l":
                p.lineTo(*a)
            elif op == "c":
                p.curveTo(*a)
            elif op == "z":
                p.close()
            elif op == "e":
                cx, cy, rx, ry = a
                p.ellipse(cx - rx, cy - ry, 2 * rx, 2 * ry)
            elif op == "r":
                x, y, w, h, r = a
                if r > 0:
                    p.roundRect(x, y, w, h, r)
                else:
                    p.rect(x, y, w, h)
        c.saveState()
        fc, sc = self.color(fill), self.color(stroke)
        if fc is not None:
            c.setFillColor(fc)
        if sc is not None:
            c.setStrokeColor(sc)
            c.setLineWidth(width)
            if dash:
                c.setDash(list(dash))
        c.drawPath(p, fill=int(fc is not None), stroke=int(sc is not None), fillMode=int(even_odd))
        c.restoreState()

    def rect(
        self, x: float, y: float, w: float, h: float, *, radius: float = 0.0,
        fill: Paint = None, stroke: Paint = "ink", width: float = LINE_MM,
        dash: Sequence[float] | None = None,
    ) -> None:
        self.draw(Path().round_rect(x, y, w, h, radius), fill=fill, stroke=stroke,
                  width=width, dash=dash)

    def circle(
        self, cx: float, cy: float, r: float, *, fill: Paint = None, stroke: Paint = "ink",
        width: float = LINE_MM, dash: Sequence[float] | None = None,
    ) -> None:
        self.draw(Path().ellipse(cx, cy, r, r), fill=fill, stroke=stroke, width=width,
                  dash=dash)

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, *, fill: Paint = None,
        stroke: Paint = "ink", width: float = LINE_MM,
    ) -> None:
        self.draw(Path().ellipse(cx, cy, rx, ry), fill=fill, stroke=stroke, width=width)

    def poly(
        self, points: Sequence[Point], *, closed: bool = True, fill: Paint = None,
        stroke: Paint = "ink", width: float = LINE_MM,
    ) -> None:
        self.draw(Path().poly(points, closed), fill=fill if closed else None, stroke=stroke,
                  width=width)

    def line(
        self, x1: float, y1: float, x2: float, y2: float, *, stroke: Paint = "ink",
        width: float = LINE_MM, dash: Sequence[float] | None = None,
    ) -> None:
        self.draw(Path().move(x1, y1).line(x2, y2), stroke=stroke, width=width, dash=dash)

    # ---- text -----------------------------------------------------------------------
    @staticmethod
    def text_width(s: str, size: float, bold: bool = False) -> float:
        return float(stringWidth(s, FONT_BOLD if bold else FONT, size))

    def text(
        self, x: float, y: float, s: str, size: float, *, align: str = "left",
        bold: bool = False, color: Paint = "ink", upward: bool = False,
    ) -> None:
        """Draw ``s`` with its baseline at y; align is left, centre or right of x.
        ``upward`` turns the text to read from bottom to top."""
        c = self.canvas
        if c is None:
            return
        c.saveState()
        c.translate(x, y)
        if upward:
            c.rotate(-90)
        c.scale(1, -1)
        c.setFont(FONT_BOLD if bold else FONT, size)
        fc = self.color(color)
        if fc is not None:
            c.setFillColor(fc)
        if align == "centre":
            c.drawCentredString(0, 0, s)
        elif align == "right":
            c.drawRightString(0, 0, s)
        else:
            c.drawString(0, 0, s)
        c.restoreState()

    def text_mid(
        self, cx: float, cy: float, s: str, size: float, *, bold: bool = False,
        color: Paint = "ink", align: str = "centre",
    ) -> None:
        """Text vertically centred on cy (capital height is about 0.72 of the size)."""
        self.text(cx, cy + 0.36 * size, s, size, align=align, bold=bold, color=color)
