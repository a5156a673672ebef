"""Small printed marks: points badges, tool badges, the First Potter pot, the honey jar."""

from __future__ import annotations

from companion.games.delicious.symbols import Tool
from layouts.art.quiet import quiet
from layouts.art.tools import draw_tool
from layouts.pen import Path, Pen


def points_badge(pen: Pen, cx: float, cy: float, d: float, points: int) -> None:
    pen.circle(cx, cy, d / 2, fill="badge", width=0.4)
    pen.text_mid(cx, cy, str(points), d * 0.55, bold=True)


def score_bubble(pen: Pen, cx: float, cy: float, d: float) -> None:
    """An empty circle where a player writes points."""
    pen.circle(cx, cy, d / 2, fill="paper", stroke="soft-ink", width=0.3, dash=(0.8, 0.6))


def tool_badge(pen: Pen, tool: Tool, x: float, y: float, size: float,
               marked: bool = False) -> None:
    """A framed tool icon; ``marked`` when players cross it out, so its art is quiet."""
    pen.rect(x, y, size, size, radius=size * 0.2, fill="badge", width=0.35)
    if marked:
        with quiet(pen):
            draw_tool(pen, tool, x + size / 2, y + size / 2, size * 0.86)
    else:
        draw_tool(pen, tool, x + size / 2, y + size / 2, size * 0.86)


def first_potter(pen: Pen, cx: float, cy: float, d: float) -> None:
    """A little flower pot and +1, quiet so a check or cross drawn over it shows."""
    pen.circle(cx, cy, d / 2, fill="badge", width=0.4)
    with quiet(pen), pen.icon(cx, cy, d):
        pen.draw(Path().poly([(16, 48), (50, 48), (45, 80), (21, 80)]), fill="planter",
                 width=4)
        pen.rect(12, 40, 42, 10, radius=3, fill="planter-dark", width=4)
        pen.draw(Path().move(33, 40).curve(32, 30, 26, 24, 18, 22), stroke="green", width=6)
        pen.draw(Path().move(33, 40).curve(34, 28, 42, 22, 50, 22), stroke="green", width=6)
        pen.text(74, 60, "+1", 30, bold=True, align="centre")


def honey_jar(pen: Pen, cx: float, cy: float, size: float) -> None:
    with pen.icon(cx, cy, size):
        pen.rect(24, 14, 52, 12, radius=3, fill="honey-dark", width=3)
        pen.draw(Path().move(20, 30).curve(10, 40, 10, 86, 24, 92).line(76, 92)
                 .curve(90, 86, 90, 40, 80, 30).close(), fill="honey", width=3)
        pen.draw(Path().move(22, 30).line(78, 30).line(78, 44).curve(66, 40, 60, 54, 52, 46)
                 .curve(44, 40, 36, 54, 22, 44).close(), fill="honey-dark", stroke=None)
        pen.rect(30, 56, 40, 24, radius=3, fill="paper", width=2.5)
        pen.text(50, 73, "HONEY", 11, bold=True, align="centre")
