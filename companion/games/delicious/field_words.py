"""A sheet's field id in words a player can find on the paper ("Wheelbarrow, top row,
left" for ``garden.wheelbarrow.r2.c0``).

Rows and columns are counted from where the fields are printed (the geometry), not from
their ids: a container's ``r0`` is its bottom row on the sheet.
"""

from __future__ import annotations

import re

from companion.paper.model import Box, SheetGeometry
from companion.text import ascii_number

_CELL = re.compile(r"^(?P<sheet>garden|play)\.(?P<part>[\w-]+)\.r(?P<row>\d+)\.c(?P<col>\d+)$")
_TOOL = re.compile(r"^garden\.(?P<part>[\w-]+)\.tool\.(?P<axis>r|row|col)(?P<n>\d+)$")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_CHOICES = {"1-as-is": "1 as is", "1-reverse": "1 reversed", "2-as-is": "2 as is",
            "2-anywhere": "2 anywhere"}
_PLAY = {"veg-wild": "Play sheet, vegetable wild spot", "fruit-wild": "Play sheet, fruit wild spot",
         "veg-bonus": "Play sheet, vegetable bonus", "fruit-bonus": "Play sheet, fruit bonus"}


def _nth(i: int) -> str:
    return _ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th"


def _place(i: int, n: int, first: str, last: str, noun: str = "") -> str:
    """Position ``i`` of ``n`` along a line: "left", "second from the left", "middle";
    with a noun: "top row", "second row from the top"."""
    tail = f" {noun}" if noun else ""
    if i == 0:
        return f"{first}{tail}"
    if i == n - 1:
        return f"{last}{tail}"
    if n % 2 == 1 and i == n // 2:
        return f"middle{tail}"
    k, end = (i, first) if i < n / 2 else (n - 1 - i, last)
    return f"{_nth(k)}{tail} from the {end}"


def _title(part: str) -> str:
    return part.replace("-", " ").capitalize()


def _cells(geometry: SheetGeometry, part: str) -> dict[tuple[int, int], Box]:
    out = {}
    for f in geometry.fields:
        m = _CELL.match(f.id)
        if m and m["part"] == part:
            out[int(m["row"]), int(m["col"])] = f.box_mm
    return out


def _order(centres: dict[int, float], key: int) -> tuple[int, int]:
    """Where ``key`` falls among ``centres`` sorted, and how many there are."""
    keys = sorted(centres, key=lambda k: centres[k])
    return keys.index(key), len(keys)


def _row_words(cells: dict[tuple[int, int], Box], row: int) -> str:
    ys: dict[int, list[float]] = {}
    for (r, _), b in cells.items():
        ys.setdefault(r, []).append(b.y)
    i, n = _order({r: sum(v) / len(v) for r, v in ys.items()}, row)
    return _place(i, n, "top", "bottom", "row") if n > 1 else ""


def _col_words(cells: dict[tuple[int, int], Box], row: int | None, col: int,
               noun: str = "") -> str:
    """The column of a cell within its row (``row`` given) or within the container."""
    xs: dict[int, list[float]] = {}
    for (r, c), b in cells.items():
        if row is None or r == row:
            xs.setdefault(c, []).append(b.x)
    i, n = _order({c: sum(v) / len(v) for c, v in xs.items()}, col)
    return _place(i, n, "left", "right", noun) if n > 1 else ""


def field_words(geometry: SheetGeometry, field_id: str) -> str:
    """``field_id`` as a player would point at it on this sheet; an id this function does
    not know comes back unchanged."""
    if m := _CELL.match(field_id):
        cells = _cells(geometry, m["part"])
        row, col = int(m["row"]), int(m["col"])
        if (row, col) not in cells:
            return field_id
        words = [_title(m["part"]), _row_words(cells, row), _col_words(cells, row, col)]
        return ", ".join(w for w in words if w)
    if m := _TOOL.match(field_id):
        cells = _cells(geometry, m["part"])
        n = int(m["n"])
        if m["axis"] == "col":
            if not any(c == n for _, c in cells):
                return field_id
            return f"{_title(m['part'])}, tool under the {_col_words(cells, None, n, 'column')}"
        if not any(r == n for r, _ in cells):
            return field_id
        where = _row_words(cells, n)
        return f"{_title(m['part'])}, tool beside the {where}" if where else \
            f"{_title(m['part'])}, tool"
    parts = field_id.split(".")
    if len(parts) == 3 and parts[0] == "garden" and parts[2] == "first-potter":
        return f"{_title(parts[1])}, First Potter box"
    if field_id == "garden.honey":
        return "Jar of Honey"
    if len(parts) == 4 and parts[:2] == ["play", "choice"] and parts[2] in _CHOICES \
            and ascii_number(parts[3], 3):
        return f"Plant choice {_CHOICES[parts[2]]}, circle {int(parts[3]) + 1}"
    if len(parts) == 2 and parts[0] == "play" and parts[1] in _PLAY:
        return _PLAY[parts[1]]
    return field_id
