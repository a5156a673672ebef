"""The six containers as side-view silhouettes around a body box that holds the cells.

Each drawing keeps to its body box plus the margins in ``CONTAINER_MARGINS_MM`` (left,
right, top, bottom) so the garden can space containers without overlaps. Everything is
drawn behind the cells, so the writing areas stay paper white.
"""

from __future__ import annotations

from collections.abc import Callable

from layouts.pen import Path, Pen

# decoration outside the body box: (left, right, top, bottom), mm
CONTAINER_MARGINS_MM: dict[str, tuple[float, float, float, float]] = {
    "wheelbarrow": (3.0, 10.0, 1.5, 7.0),
    "boots": (1.5, 13.0, 4.5, 2.5),
    "watering-can": (10.0, 4.5, 7.0, 1.0),
    "bathtub": (2.5, 2.5, 6.0, 4.0),
    "crate": (1.5, 1.5, 1.5, 1.5),
    "teapot": (7.5, 6.5, 6.5, 1.5),
}

LW = 0.45


def _wheelbarrow(p: Pen, x: float, y: float, w: float, h: float) -> None:
    # frame: from the wheel hub under the tray out to the handle grip at the back
    hub = (x + 3.5, y + h + 2.5)
    grip = (x + w + 9.5, y + h * 0.3)
    p.draw(Path().move(*hub).line(x + w - 4, y + h - 2).line(*grip), stroke="ink", width=1.5)
    p.draw(Path().move(*hub).line(x + w - 4, y + h - 2).line(*grip), stroke="metal", width=0.8)
    p.draw(Path().move(x + w - 7, y + h - 1).line(x + w - 6, y + h + 5.5)
           .line(x + w - 9, y + h + 5.5), stroke="ink", width=0.9)
    p.rect(grip[0] - 3.5, grip[1] - 1.1, 4.6, 2.2, radius=1.1, fill="wheelbarrow-dark",
           width=0.3)
    # wheel
    p.circle(*hub, 4.6, fill="ink", stroke=None)
    p.circle(*hub, 3.0, fill="metal", width=0.3)
    p.circle(*hub, 0.9, fill="ink", stroke=None)
    # tray, rim
    p.draw(Path().move(x - 2.5, y - 1).line(x + w + 2.5, y - 1).line(x + w - 2, y + h + 0.5)
           .curve(x + w - 3, y + h + 1.2, x + 6, y + h + 1.2, x + 4, y + h + 0.5).close(),
           fill="wheelbarrow", width=LW)
    p.draw(Path().move(x - 0.5, y + 1.5).line(x + 4.5, y + h - 1.0), stroke="wheelbarrow-dark",
           width=0.5)
    p.rect(x - 3.0, y - 2.2, w + 6.0, 2.2, radius=1.1, fill="wheelbarrow-dark", width=0.3)


BOOT_SHAFT_MM = 39.0  # a welly stays tall even when it holds only two rows


def _boot(p: Pen, x: float, y: float, w: float, h: float, fill: str, dark: str) -> None:
    toe = 8.0
    top = y - 1 - max(0.0, BOOT_SHAFT_MM - h)
    p.draw(Path().move(x - 1, top).line(x + w + 1, top).line(x + w + 1, y + h - 8)
           .curve(x + w + 3, y + h - 6.5, x + w + toe, y + h - 5.5, x + w + toe, y + h - 1)
           .line(x + w + toe, y + h + 0.5).line(x - 1.5, y + h + 0.5)
           .curve(x - 2.2, y + h - 4, x - 1, y + h - 8, x - 1, y + h - 10).close(),
           fill=fill, width=LW)
    p.rect(x - 2.0, y + h, w + toe + 2.5, 2.2, radius=1.0, fill=dark, width=LW)
    p.rect(x - 1.8, top - 3.2, w + 3.6, 3.6, radius=1.2, fill=dark, width=LW)


def _boots(p: Pen, x: float, y: float, w: float, h: float) -> None:
    """A pair of wellies: the back one peeks out behind and to the right."""
    _boot(p, x + 4.5, y - 1.5, w, h + 1.5, "boots-dark", "boots-dark")
    _boot(p, x, y, w, h, "boots", "boots-dark")


def _watering_can(p: Pen, x: float, y: float, w: float, h: float) -> None:
    # handle arc over the top, then the spout, then the tank
    p.draw(Path().move(x + w * 0.3, y - 0.5).curve(x + w * 0.35, y - 8.5, x + w + 4.5, y - 8,
                                                   x + w + 0.5, y + h * 0.55),
           stroke="ink", width=2.4)
    p.draw(Path().move(x + w * 0.3, y - 0.5).curve(x + w * 0.35, y - 8.5, x + w + 4.5, y - 8,
                                                   x + w + 0.5, y + h * 0.55),
           stroke="watering-can-dark", width=1.5)
    p.draw(Path().move(x + 1, y + h * 0.72).line(x - 7.0, y - 0.5).line(x - 5.2, y - 1.6)
           .line(x + 1, y + h * 0.45).close(), fill="watering-can-dark", width=LW)
    p.draw(Path().poly([(x - 9.8, y + 0.6), (x - 6.6, y - 6.2), (x - 4.6, y - 4.4),
                        (x - 6.4, y - 0.2)]), fill="watering-can", width=LW)
    p.rect(x - 1, y - 1, w + 2, h + 2, radius=3.0, fill="watering-can", width=LW)
    p.rect(x + w * 0.55, y - 2.6, w * 0.28, 2.0, radius=0.8, fill="watering-can-dark",
           width=LW)
    p.line(x - 0.2, y + h - 1.5, x + w + 0.2, y + h - 1.5, stroke="watering-can-dark",
           width=0.6)


def _bathtub(p: Pen, x: float, y: float, w: float, h: float) -> None:
    # tap on the rim
    tx = x + 3.0
    p.draw(Path().move(tx, y - 1).line(tx, y - 5).curve(tx, y - 6.5, tx + 3.5, y - 6.5,
                                                        tx + 3.5, y - 4.5),
           stroke="ink", width=1.4)
    p.draw(Path().move(tx, y - 1).line(tx, y - 5).curve(tx, y - 6.5, tx + 3.5, y - 6.5,
                                                        tx + 3.5, y - 4.5),
           stroke="metal", width=0.7)
    p.rect(tx - 2.2, y - 4.0, 1.4, 1.6, radius=0.4, fill="metal", width=0.3)
    # claw feet
    for fx in (x + 4.0, x + w - 13.0):
        p.draw(Path().move(fx - 1.5, y + h - 1).curve(fx - 2.5, y + h + 2, fx - 3, y + h + 3,
                                                      fx - 2.5, y + h + 3.8)
               .line(fx + 2.5, y + h + 3.8).curve(fx + 2, y + h + 2.5, fx + 1.5, y + h + 1,
                                                  fx + 1.5, y + h - 1).close(),
               fill="metal", width=0.35)
    p.draw(Path().move(x - 2, y).line(x + w + 2, y).line(x + w + 1.5, y + h - 5)
           .curve(x + w + 1, y + h + 1.5, x + w - 5, y + h + 1.8, x + w - 10, y + h + 1.8)
           .line(x + 10, y + h + 1.8).curve(x + 5, y + h + 1.8, x - 1, y + h + 1.5, x - 1.5,
                                            y + h - 5).close(), fill="bathtub", width=LW)
    p.rect(x - 3, y - 1.6, w + 6, 2.4, radius=1.2, fill="paper", width=LW)


def _crate(p: Pen, x: float, y: float, w: float, h: float) -> None:
    p.rect(x - 1.5, y - 1.5, w + 3, h + 3, fill="crate", width=LW)
    for yy in (y - 1.5, y + h - 1.0):
        p.rect(x - 1.5, yy, w + 3, 2.5, fill="crate-dark", width=LW)
    for xx in (x - 1.5, x + w - 1.0):
        p.rect(xx, y - 1.5, 2.5, h + 3, fill="crate-dark", width=LW)
    for xx in (x - 0.25, x + w + 0.25):
        for yy in (y - 0.25, y + h + 0.25):
            p.circle(xx, yy, 0.35, fill="ink", stroke=None)


def _teapot(p: Pen, x: float, y: float, w: float, h: float) -> None:
    # handle loop behind the pot
    p.draw(Path().move(x + w - 1, y + 2.5).curve(x + w + 7.5, y + 0.5, x + w + 7.5, y + h - 2,
                                                 x + w - 1, y + h - 4),
           stroke="ink", width=2.6)
    p.draw(Path().move(x + w - 1, y + 2.5).curve(x + w + 7.5, y + 0.5, x + w + 7.5, y + h - 2,
                                                 x + w - 1, y + h - 4),
           stroke="teapot-dark", width=1.6)
    # spout
    p.draw(Path().move(x + 1, y + h * 0.78).curve(x - 4, y + h * 0.72, x - 5.5, y + 3, x - 7.5,
                                                  y - 2.5)
           .line(x - 5.0, y - 3.0).curve(x - 3.5, y + 2, x - 2, y + h * 0.42, x + 1, y + h * 0.42)
           .close(), fill="teapot", width=LW)
    # pot: rounder at the bottom
    p.draw(Path().move(x + 3, y - 1.2).line(x + w - 3, y - 1.2)
           .curve(x + w + 1.5, y - 1, x + w + 2, y + h * 0.5, x + w + 1.2, y + h - 1)
           .curve(x + w + 0.5, y + h + 2.2, x + w - 3, y + h + 2.2, x + w - 6, y + h + 2.2)
           .line(x + 6, y + h + 2.2).curve(x + 3, y + h + 2.2, x - 0.5, y + h + 2.2, x - 1.2,
                                            y + h - 1)
           .curve(x - 2, y + h * 0.5, x - 1.5, y - 1, x + 3, y - 1.2).close(),
           fill="teapot", width=LW)
    # lid and knob
    p.draw(Path().move(x + w * 0.22, y - 1.2).curve(x + w * 0.26, y - 5.2, x + w * 0.74, y - 5.2,
                                                    x + w * 0.78, y - 1.2).close(),
           fill="teapot-dark", width=LW)
    p.circle(x + w / 2, y - 5.2, 1.2, fill="teapot-dark", width=LW)


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
