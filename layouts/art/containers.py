"""The six containers as side-view silhouettes around a body box that holds the cells.

Each drawing keeps to its body box plus the margins in ``CONTAINER_MARGINS_MM`` (left,
right, top, bottom) so the garden can space containers without overlaps.
"""

from __future__ import annotations

from collections.abc import Callable

from layouts.pen import Path, Pen

# decoration outside the body box: (left, right, top, bottom), mm
CONTAINER_MARGINS_MM: dict[str, tuple[float, float, float, float]] = {
    "wheelbarrow": (3.0, 12.0, 1.0, 7.0),
    "boots": (3.0, 9.0, 3.0, 3.0),
    "watering-can": (11.0, 6.0, 7.0, 1.0),
    "bathtub": (2.0, 5.0, 4.0, 5.0),
    "crate": (1.5, 1.5, 1.5, 1.5),
    "teapot": (9.0, 8.0, 6.0, 1.5),
}

LW = 0.45


def _wheelbarrow(p: Pen, x: float, y: float, w: float, h: float) -> None:
    r = 6.0
    wx, wy = x + 7, y + h + 1
    # handles and leg behind the tray
    p.draw(Path().move(x + w - 6, y + 2).line(x + w + 11, y + 6), stroke="wood", width=1.8)
    p.draw(Path().move(x + w - 6, y + 2).line(x + w + 11, y + 6), stroke="ink", width=0.3)
    p.line(x + w - 8, y + h, x + w - 6, y + h + 6.5, stroke="ink", width=1.0)
    p.circle(wx, wy, r, fill="metal", width=LW)
    p.circle(wx, wy, r * 0.45, fill="ink", stroke=None)
    p.draw(Path().move(x - 2, y - 0.5).line(x + w + 1.5, y - 0.5).line(x + w - 3, y + h)
           .line(x + 4, y + h).close(), fill="wheelbarrow", width=LW)
    p.line(x - 2.4, y - 0.5, x + w + 2, y - 0.5, stroke="wheelbarrow-dark", width=1.4)


def _boots(p: Pen, x: float, y: float, w: float, h: float) -> None:
    def boot(dx: float, fill: str) -> None:
        p.draw(Path().move(x + dx, y - 1).line(x + w + dx, y - 1).line(x + w + dx, y + h - 6)
               .curve(x + w + dx + 6, y + h - 5, x + w + dx + 9, y + h - 2, x + w + dx + 8,
                      y + h + 1.5)
               .line(x + dx - 2, y + h + 1.5).curve(x + dx - 3, y + h - 3, x + dx, y + h - 5,
                                                   x + dx, y + h - 8).close(),
               fill=fill, width=LW)
        p.rect(x + dx - 2.5, y + h + 0.3, w + 11, 2.4, radius=1.0, fill="boots-dark", width=LW)
    boot(2.5, "boots-dark")
    boot(0.0, "boots")
    p.rect(x - 1, y - 3, w + 2, 3.6, radius=1.2, fill="boots-dark", width=LW)


def _watering_can(p: Pen, x: float, y: float, w: float, h: float) -> None:
    # spout from the lower left, rose at its tip
    p.draw(Path().move(x + 1, y + h * 0.6).line(x - 8, y - 2).line(x - 5, y - 3.5)
           .line(x + 1, y + h * 0.35).close(), fill="watering-can-dark", width=LW)
    p.draw(Path().poly([(x - 11, y - 1), (x - 7, y - 6.5), (x - 4.5, y - 4.5), (x - 8.5, y + 1)]),
           fill="watering-can", width=LW)
    # handle arc over the top
    p.draw(Path().move(x + w * 0.35, y).curve(x + w * 0.4, y - 8, x + w + 4, y - 8, x + w + 3,
                                              y + h * 0.45),
           stroke="watering-can-dark", width=2.0)
    p.rect(x - 1, y - 1, w + 2, h + 2, radius=3.0, fill="watering-can", width=LW)
    p.rect(x + w * 0.3, y - 2.4, w * 0.3, 2.0, radius=0.8, fill="watering-can-dark", width=LW)


def _bathtub(p: Pen, x: float, y: float, w: float, h: float) -> None:
    for fx in (x + 5, x + w - 5):
        p.draw(Path().poly([(fx - 2.5, y + h), (fx + 2.5, y + h), (fx + 1.5, y + h + 4.5),
                            (fx - 2.5, y + h + 4.5)]), fill="metal", width=LW)
    p.line(x + w - 3, y - 1, x + w - 3, y - 4, width=1.0)
    p.draw(Path().move(x + w - 3, y - 4).line(x + w + 3, y - 4).line(x + w + 3, y - 1.5),
           width=1.0)
    p.draw(Path().move(x - 2, y).line(x + w + 2, y).line(x + w + 1, y + h - 4)
           .curve(x + w, y + h + 1, x + w - 4, y + h + 1.5, x + w - 8, y + h + 1.5)
           .line(x + 8, y + h + 1.5).curve(x + 4, y + h + 1.5, x, y + h + 1, x - 1, y + h - 4)
           .close(), fill="bathtub", width=LW)
    p.rect(x - 3, y - 1.6, w + 6, 2.4, radius=1.2, fill="paper", width=LW)


def _crate(p: Pen, x: float, y: float, w: float, h: float) -> None:
    p.rect(x - 1.5, y - 1.5, w + 3, h + 3, fill="crate", width=LW)
    for yy in (y - 1.5, y + h - 1.0):
        p.rect(x - 1.5, yy, w + 3, 2.5, fill="crate-dark", width=LW)
    for xx in (x - 1.5, x + w - 1.0):
        p.rect(xx, y - 1.5, 2.5, h + 3, fill="crate-dark", width=LW)


def _teapot(p: Pen, x: float, y: float, w: float, h: float) -> None:
    # spout
    p.draw(Path().move(x + 1, y + h * 0.75).curve(x - 5, y + h * 0.7, x - 7, y + 2, x - 9, y - 2)
           .line(x - 6.5, y - 2.5).curve(x - 4, y + 2, x - 2, y + h * 0.4, x + 1, y + h * 0.45)
           .close(), fill="teapot", width=LW)
    # handle
    p.draw(Path().move(x + w - 1, y + 2).curve(x + w + 9, y, x + w + 9, y + h - 2, x + w - 1,
                                               y + h - 4),
           stroke="teapot-dark", width=2.2)
    p.rect(x - 1, y - 1, w + 2, h + 2.5, radius=5.0, fill="teapot", width=LW)
    # lid and knob
    p.draw(Path().move(x + w * 0.2, y - 1).curve(x + w * 0.25, y - 5, x + w * 0.75, y - 5,
                                                 x + w * 0.8, y - 1).close(),
           fill="teapot-dark", width=LW)
    p.circle(x + w / 2, y - 5, 1.3, fill="teapot-dark", width=LW)


CONTAINER_ART: dict[str, Callable[[Pen, float, float, float, float], None]] = {
    "wheelbarrow": _wheelbarrow,
    "boots": _boots,
    "watering-can": _watering_can,
    "bathtub": _bathtub,
    "crate": _crate,
    "teapot": _teapot,
}


def draw_container(pen: Pen, container: str, x: float, y: float, w: float, h: float) -> None:
    CONTAINER_ART[container](pen, x, y, w, h)
