"""Vegetable and fruit icons on a 100 x 100 grid (y down), drawn with a few simple shapes
so they stay recognisable small, in colour and in grey."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.delicious.symbols import Fruit, Vegetable
from layouts.pen import Path, Pen

W = 4.0  # outline width in grid units


def _broccoli(p: Pen) -> None:
    p.draw(Path().move(42, 56).line(36, 92).curve(44, 96, 56, 96, 64, 92).line(58, 56).close(),
           fill="leaf", width=W)
    for cx, cy, r in ((30, 46, 17), (70, 46, 17), (50, 30, 20), (50, 52, 16)):
        p.circle(cx, cy, r, fill="green", width=W)
    for cx, cy in ((44, 26), (58, 34), (28, 44), (70, 42)):
        p.circle(cx, cy, 3.2, fill="dark-green", stroke=None)


def _carrot(p: Pen) -> None:
    p.draw(Path().move(48, 30).curve(40, 16, 30, 10, 22, 8).move(52, 30).curve(52, 16, 56, 8, 62, 4)
           .move(56, 32).curve(64, 20, 74, 16, 84, 16), stroke="green", width=7)
    p.draw(Path().move(34, 34).curve(46, 22, 66, 26, 70, 42).curve(62, 62, 40, 82, 18, 94)
           .curve(20, 72, 24, 50, 34, 34).close(), fill="orange", width=W)
    for y in (48, 62):
        p.line(40, y, 52, y - 4, width=3)


def _lettuce(p: Pen) -> None:
    p.circle(50, 54, 40, fill="leaf", width=W)
    p.draw(Path().move(16, 50).curve(30, 30, 70, 30, 84, 50), width=W)
    p.draw(Path().move(24, 70).curve(40, 48, 60, 48, 76, 70), width=W)
    p.draw(Path().move(50, 94).line(50, 40), stroke="green", width=W)


def _mushroom(p: Pen) -> None:
    p.draw(Path().move(38, 52).line(34, 90).curve(44, 95, 56, 95, 66, 90).line(62, 52).close(),
           fill="paper", width=W)
    p.draw(Path().move(8, 56).curve(8, 10, 92, 10, 92, 56).curve(70, 62, 30, 62, 8, 56).close(),
           fill="tan", width=W)
    for cx, cy, r in ((34, 34, 6), (60, 28, 5), (70, 44, 4)):
        p.circle(cx, cy, r, fill="paper", stroke=None)


def _onion(p: Pen) -> None:
    p.draw(Path().move(50, 14).curve(58, 30, 90, 40, 86, 66).curve(82, 90, 18, 90, 14, 66)
           .curve(10, 40, 42, 30, 50, 14).close(), fill="onion", width=W)
    p.draw(Path().move(50, 14).line(48, 4).move(50, 14).line(56, 6), width=W)
    p.draw(Path().move(40, 34).curve(28, 50, 30, 74, 42, 84), width=3)
    p.draw(Path().move(60, 34).curve(72, 50, 70, 74, 58, 84), width=3)
    p.draw(Path().move(44, 88).line(40, 96).move(50, 88).line(50, 97).move(56, 88).line(60, 96),
           width=3)


def _pepper(p: Pen) -> None:
    p.draw(Path().move(50, 26).curve(62, 18, 86, 20, 86, 46).curve(86, 72, 76, 92, 64, 92)
           .curve(58, 92, 54, 86, 50, 86).curve(46, 86, 42, 92, 36, 92)
           .curve(24, 92, 14, 72, 14, 46).curve(14, 20, 38, 18, 50, 26).close(),
           fill="red", width=W)
    p.draw(Path().move(50, 40).curve(48, 60, 48, 74, 50, 86), width=3)
    p.draw(Path().move(40, 24).curve(44, 18, 56, 18, 60, 24).line(56, 28).line(44, 28).close(),
           fill="green", width=W)
    p.draw(Path().move(50, 20).curve(50, 12, 54, 8, 60, 6), stroke="green", width=7)


def _blueberry(p: Pen) -> None:
    for cx, cy, r in ((34, 62, 24), (66, 62, 24), (50, 36, 24)):
        p.circle(cx, cy, r, fill="blue", width=W)
        p.draw(Path().poly([(cx - 5, cy - 4), (cx, cy - 8), (cx + 5, cy - 4), (cx + 4, cy + 2),
                            (cx - 4, cy + 2)]), fill="purple", width=2.5)


def _fig(p: Pen) -> None:
    p.draw(Path().move(50, 16).curve(56, 30, 88, 50, 86, 70).curve(84, 92, 16, 92, 14, 70)
           .curve(12, 50, 44, 30, 50, 16).close(), fill="purple", width=W)
    p.draw(Path().move(50, 16).line(52, 4), stroke="green", width=6)
    p.ellipse(50, 70, 18, 12, fill="pink", width=2.5)
    for cx, cy in ((44, 68), (52, 72), (56, 66), (48, 76)):
        p.circle(cx, cy, 1.8, fill="ink", stroke=None)


def _golden_raspberry(p: Pen) -> None:
    p.draw(Path().move(18, 36).curve(16, 70, 36, 96, 50, 96).curve(64, 96, 84, 70, 82, 36)
           .close(), fill="gold", width=W)
    for y, xs in ((42, (29, 43, 57, 71)), (56, (30, 44, 58, 72)), (70, (36, 50, 64)),
                  (84, (43, 57))):
        for x in xs:
            p.circle(x if y != 56 else x - 1, y, 7.2, fill="gold", width=2.5)
            p.circle((x if y != 56 else x - 1) - 2, y - 2, 1.6, fill="paper", stroke=None)
    p.draw(Path().poly([(16, 36), (28, 20), (38, 30), (50, 12), (62, 30), (72, 20), (84, 36),
                        (50, 42)]), fill="green", width=W)


def _strawberry(p: Pen) -> None:
    p.draw(Path().move(50, 94).curve(20, 78, 8, 50, 16, 36).curve(24, 24, 40, 30, 50, 30)
           .curve(60, 30, 76, 24, 84, 36).curve(92, 50, 80, 78, 50, 94).close(),
           fill="red", width=W)
    for cx, cy in ((34, 48), (50, 46), (66, 48), (40, 62), (58, 62), (50, 76), (30, 60),
                   (70, 60)):
        p.ellipse(cx, cy, 2.2, 3.2, fill="gold", stroke=None)
    p.draw(Path().poly([(26, 30), (38, 16), (50, 28), (62, 16), (74, 30), (50, 38)]),
           fill="green", width=W)
    p.line(50, 22, 50, 6, stroke="green", width=6)


def _watermelon(p: Pen) -> None:
    p.draw(Path().move(6, 34).curve(10, 86, 90, 86, 94, 34).close(), fill="green", width=W)
    p.draw(Path().move(14, 34).curve(18, 74, 82, 74, 86, 34).close(), fill="red", width=2.5)
    for cx, cy in ((34, 46), (50, 54), (66, 46), (42, 60), (58, 60)):
        p.ellipse(cx, cy, 2.6, 4.0, fill="ink", stroke=None)


VEGETABLE_ART: dict[Vegetable, Callable[[Pen], None]] = {
    Vegetable.BROCCOLI: _broccoli,
    Vegetable.CARROT: _carrot,
    Vegetable.LETTUCE: _lettuce,
    Vegetable.MUSHROOM: _mushroom,
    Vegetable.ONION: _onion,
    Vegetable.PEPPER: _pepper,
}
FRUIT_ART: dict[Fruit, Callable[[Pen], None]] = {
    Fruit.BLUEBERRY: _blueberry,
    Fruit.FIG: _fig,
    Fruit.GOLDEN_RASPBERRY: _golden_raspberry,
    Fruit.STRAWBERRY: _strawberry,
    Fruit.WATERMELON: _watermelon,
}


def draw_plant(pen: Pen, plant: Vegetable | Fruit, cx: float, cy: float, size: float) -> None:
    art = VEGETABLE_ART[plant] if isinstance(plant, Vegetable) else FRUIT_ART[plant]
    with pen.icon(cx, cy, size):
        art(pen)
