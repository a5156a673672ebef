"""Grid cells and 4-connectivity, shared by the block model and the cut engine.

Cells are ``(row, col)`` tuples; row 0 is the top of a photo as displayed. The bitmask
form packs a block into one int (one bit per cell, one spare column per row so a shift
never wraps into the next row), which makes flood fills over a 35-die block cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Cell = tuple[int, int]

NEIGHBOURS_4: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONALS: tuple[Cell, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def components(cells: Iterable[Cell]) -> list[frozenset[Cell]]:
    """The 4-connected pieces of ``cells``, largest first, ties by their smallest cell."""
    todo = set(cells)
    pieces: list[frozenset[Cell]] = []
    while todo:
        start = min(todo)
        todo.discard(start)
        piece = {start}
        stack = [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in NEIGHBOURS_4:
                n = (r + dr, c + dc)
                if n in todo:
                    todo.discard(n)
                    piece.add(n)
                    stack.append(n)
        pieces.append(frozenset(piece))
    pieces.sort(key=lambda p: (-len(p), min(p)))
    return pieces


def corner_contacts(pieces: Sequence[frozenset[Cell]]) -> list[tuple[Cell, Cell]]:
    """Pairs of cells from different pieces that touch only diagonally."""
    owner = {cell: i for i, piece in enumerate(pieces) for cell in piece}
    found: list[tuple[Cell, Cell]] = []
    for cell in sorted(owner):
        for dr, dc in DIAGONALS:
            other = (cell[0] + dr, cell[1] + dc)
            if other > cell and other in owner and owner[other] != owner[cell]:
                found.append((cell, other))
    return found


def fmt_cell(cell: Cell) -> str:
    return f"({cell[0]},{cell[1]})"


def fmt_cells(cells: Iterable[Cell]) -> str:
    return " ".join(fmt_cell(c) for c in sorted(cells))


@dataclass(frozen=True)
class BitGrid:
    """Cells of a bounding box as bits: bit ``(r - top) * stride + (c - left)``."""

    top: int
    left: int
    height: int
    width: int

    @property
    def stride(self) -> int:
        return self.width + 1  # one empty guard column per row

    @classmethod
    def around(cls, cells: Iterable[Cell]) -> BitGrid:
        cs = list(cells)
        if not cs:
            return cls(0, 0, 0, 0)
        rows = [r for r, _ in cs]
        cols = [c for _, c in cs]
        return cls(min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1)

    def bit(self, cell: Cell) -> int:
        return 1 << ((cell[0] - self.top) * self.stride + (cell[1] - self.left))

    def mask(self, cells: Iterable[Cell]) -> int:
        m = 0
        for cell in cells:
            m |= self.bit(cell)
        return m

    def cells(self, mask: int) -> list[Cell]:
        out: list[Cell] = []
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            out.append((self.top + index // self.stride, self.left + index % self.stride))
            mask ^= low
        return out

    def connected(self, mask: int) -> bool:
        """Whether the set bits form one 4-connected piece (an empty set counts as one)."""
        if mask == 0:
            return True
        s = self.stride
        seen = mask & -mask
        while True:
            grown = (seen | seen << 1 | seen >> 1 | seen << s | seen >> s) & mask
            if grown == seen:
                return seen == mask
            seen = grown
