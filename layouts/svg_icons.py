"""The sheets' own plant, tool and garden-icon art as SVG, for the web pages.

The icons are drawn once, by the same art functions as the printed sheets, so a player
sees on screen the picture they sketch on paper. ``SvgPen`` replays a ``Pen``'s paths as
SVG elements instead of ReportLab calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.games.delicious.symbols import Fruit, Shape, Tool, Vegetable
from layouts.art.plants import FRUIT_ART, VEGETABLE_ART
from layouts.art.shapes import STAR_GROWTH, hexagon_points, star_points
from layouts.art.tools import TOOL_ART
from layouts.constants import LINE_MM
from layouts.palette import RGB
from layouts.pen import Paint, Path, Pen

GRID = 100  # the art's design grid (layouts/art: 100 x 100, y down)


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _rgb(c: RGB) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in c)


class SvgPen(Pen):
    """A ``Pen`` that writes SVG elements in the design grid's units."""

    def __init__(self) -> None:
        super().__init__(None, (GRID, GRID), bw=False)
        self.elements: list[str] = []

    def _paint(self, paint: Paint) -> str:
        if paint is None:
            return "none"
        return _rgb(self.palette[paint] if isinstance(paint, str) else paint)

    def draw(self, path: Path, *, fill: Paint = None, stroke: Paint = "ink",
             width: float = LINE_MM, dash: Sequence[float] | None = None,
             even_odd: bool = False) -> None:
        if fill is None and stroke is None:
            return
        d: list[str] = []
        for op, a in path.ops:
            n = [_num(v) for v in a]
            if op in ("m", "l", "c"):
                d.append(op.upper() + " ".join(n))
            elif op == "z":
                d.append("Z")
            elif op == "e":
                cx, cy, rx, ry = a
                d.append(f"M{_num(cx - rx)} {_num(cy)}a{_num(rx)} {_num(ry)} 0 1 0 "
                         f"{_num(2 * rx)} 0a{_num(rx)} {_num(ry)} 0 1 0 {_num(-2 * rx)} 0Z")
            elif op == "r":
                x, y, w, h, r = a
                d.append(f"M{_num(x + r)} {_num(y)}h{_num(w - 2 * r)}"
                         f"a{_num(r)} {_num(r)} 0 0 1 {_num(r)} {_num(r)}v{_num(h - 2 * r)}"
                         f"a{_num(r)} {_num(r)} 0 0 1 {_num(-r)} {_num(r)}h{_num(2 * r - w)}"
                         f"a{_num(r)} {_num(r)} 0 0 1 {_num(-r)} {_num(-r)}v{_num(2 * r - h)}"
                         f"a{_num(r)} {_num(r)} 0 0 1 {_num(r)} {_num(-r)}Z")
        attrs = [f'd="{"".join(d)}"', f'fill="{self._paint(fill)}"']
        if stroke is not None:
            attrs.append(f'stroke="{self._paint(stroke)}" stroke-width="{_num(width)}"')
        if dash:
            attrs.append(f'stroke-dasharray="{" ".join(_num(v) for v in dash)}"')
        if even_odd:
            attrs.append('fill-rule="evenodd"')
        self.elements.append(f"<path {' '.join(attrs)}/>")

    def svg(self, title: str) -> str:
        body = "".join(self.elements)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-4 -4 108 108" '
                f'stroke-linecap="round" stroke-linejoin="round" role="img">'
                f"<title>{title}</title>{body}</svg>\n")


def _shape_art(shape: Shape) -> Path:
    r = 42.0
    if shape is Shape.HEXAGON:
        return Path().poly(hexagon_points(50, 50, r))
    if shape is Shape.OVAL:
        return Path().ellipse(50, 50, r, r * 0.84)
    return Path().poly(star_points(50, 52, r * STAR_GROWTH))


def icon_svgs() -> dict[str, str]:
    """Every icon a web page shows, by file name: plants, tools, garden icons."""
    out: dict[str, str] = {}
    for veg, art in VEGETABLE_ART.items():
        out[f"{veg}.svg"] = _drawn(art, _title(veg))
    for fruit, art in FRUIT_ART.items():
        out[f"{fruit}.svg"] = _drawn(art, _title(fruit))
    for tool, art in TOOL_ART.items():
        out[f"{tool}.svg"] = _drawn(art, _title(tool))
    for shape in Shape:
        pen = SvgPen()
        pen.draw(_shape_art(shape), fill="paper", stroke="ink", width=6)
        out[f"{shape}.svg"] = pen.svg(str(shape))
    return out


def _title(plant: Vegetable | Fruit | Tool) -> str:
    return str(plant).replace("-", " ")


def _drawn(art: Callable[[Pen], None], title: str) -> str:
    pen = SvgPen()
    art(pen)
    return pen.svg(title)
