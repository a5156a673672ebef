"""The four corner markers, as bits of OpenCV's ArUco DICT_4X4_50, ids 0-3.

Copied once from OpenCV's ``aruco.getPredefinedDictionary(DICT_4X4_50)`` so that layouts
never needs OpenCV at run time; tests/test_sheets_markers.py checks them against it. Each
pattern is the 4x4 data area, row by row from the top, ``#`` black; a one-module black
border surrounds it.
"""

from __future__ import annotations

MARKER_BITS: dict[int, tuple[str, str, str, str]] = {
    0: (".#..", "#.#.", "##..", "##.#"),
    1: ("####", "....", ".##.", ".#.#"),
    2: ("##..", "##..", "##.#", "..#."),
    3: (".##.", ".##.", "#.##", "#..#"),
}


def marker_modules(marker_id: int) -> list[list[bool]]:
    """The full 6x6 module grid, True where black."""
    inner = MARKER_BITS[marker_id]
    grid = [[True] * 6]
    grid += [[True, *(ch == "#" for ch in row), True] for row in inner]
    grid.append([True] * 6)
    return grid
