"""The six garden tools on a 100 x 100 grid (y down)."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.delicious.symbols import Tool
from layouts.pen import Path, Pen

W = 4.5


def _trowel(p: Pen) -> None:
    p.line(90, 10, 64, 40, stroke="ink", width=15)
    p.line(90, 10, 64, 40, stroke="handle", width=8)
    p.draw(Path().move(56, 36).line(66, 46).line(60, 52).line(50, 42).close(), fill="metal",
           width=W)
    p.draw(Path().move(52, 40).curve(40, 30, 20, 40, 8, 92).curve(60, 80, 70, 62, 60, 50).close(),
           fill="steel", width=W)


def _rake(p: Pen) -> None:
    p.line(88, 6, 38, 60, stroke="ink", width=13)
    p.line(88, 6, 38, 60, stroke="handle", width=6)
    p.draw(Path().move(14, 44).line(58, 80), stroke="ink", width=9)
    for k in range(5):
        x, y = 16 + k * 10.5, 46 + k * 8.6
        p.line(x, y, x - 12, y + 12, width=6)


def _shears(p: Pen) -> None:
    p.draw(Path().move(46, 58).line(14, 6).curve(30, 8, 50, 30, 58, 50).close(), fill="steel",
           width=W)
    p.draw(Path().move(54, 58).line(86, 6).curve(70, 8, 50, 30, 42, 50).close(), fill="steel",
           width=W)
    p.circle(32, 78, 15, fill="red", width=W)
    p.circle(68, 78, 15, fill="red", width=W)
    p.circle(32, 78, 6, fill="paper", width=3)
    p.circle(68, 78, 6, fill="paper", width=3)
    p.circle(50, 54, 4.5, fill="ink", stroke=None)


def _hoe(p: Pen) -> None:
    p.line(88, 6, 34, 72, stroke="ink", width=13)
    p.line(88, 6, 34, 72, stroke="handle", width=6)
    p.line(34, 72, 30, 84, stroke="ink", width=6)
    p.draw(Path().poly([(8, 80), (52, 80), (48, 96), (12, 96)]), fill="steel", width=W)


def _gloves(p: Pen) -> None:
    p.draw(Path().move(30, 92).line(30, 52).curve(24, 44, 14, 34, 18, 28)
           .curve(24, 24, 32, 34, 36, 40)
           .line(36, 16).curve(36, 10, 44, 10, 44, 16).line(44, 38).line(46, 10)
           .curve(46, 4, 54, 4, 54, 10).line(54, 38).line(58, 14).curve(58, 8, 66, 8, 66, 14)
           .line(64, 40).line(70, 22).curve(72, 16, 80, 18, 78, 24).line(72, 58).line(72, 92)
           .close(), fill="glove", width=W)
    p.rect(28, 78, 46, 14, fill="green", width=W)


def _spade(p: Pen) -> None:
    p.draw(Path().move(38, 6).line(62, 6).line(62, 12).line(54, 12).line(54, 16).line(46, 16)
           .line(46, 12).line(38, 12).close(), fill="handle", width=W)
    p.rect(45, 14, 10, 40, fill="handle", width=W)
    p.draw(Path().move(30, 52).line(70, 52).line(70, 84).curve(64, 96, 36, 96, 30, 84).close(),
           fill="steel", width=W)


TOOL_ART: dict[Tool, Callable[[Pen], None]] = {
    Tool.TROWEL: _trowel,
    Tool.RAKE: _rake,
    Tool.SHEARS: _shears,
    Tool.HOE: _hoe,
    Tool.GLOVES: _gloves,
    Tool.SPADE: _spade,
}


def draw_tool(pen: Pen, tool: Tool, cx: float, cy: float, size: float) -> None:
    with pen.icon(cx, cy, size):
        TOOL_ART[tool](pen)
