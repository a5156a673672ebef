"""Which sheets exist, how each is titled and built."""

from __future__ import annotations

from companion.errors import UnknownNameError
from layouts.delicious_sheets import build_combo, build_garden, build_play
from layouts.dice_mat import build_mat
from layouts.scorepads import build_pad
from layouts.sheet import SheetSpec

_SPECS: tuple[SheetSpec, ...] = (
    SheetSpec("delicious-garden", "Delicious garden sheet", False, True, build_garden),
    SheetSpec("delicious-play", "Delicious play sheet (front and back)", False, True, build_play),
    SheetSpec("delicious-combo", "Delicious garden + play on one page", True, True, build_combo),
    SheetSpec("delicious-scorepad", "Delicious score pad", False, False, build_pad),
    SheetSpec("diced-veggies-mat", "Diced Veggies dice mat", False, True, build_mat),
    SheetSpec("diced-veggies-scorepad", "Diced Veggies score pad", False, False, build_pad),
    SheetSpec("dulce-scorepad", "Dulce score pad", False, False, build_pad),
    SheetSpec("wild-gardens-scorepad", "Wild Gardens score pad", False, False, build_pad),
    SheetSpec("deli-duel-scorepad", "Deli Duel score pad", False, False, build_pad),
)

SHEET_NAMES: tuple[str, ...] = tuple(s.name for s in _SPECS)
READABLE_SHEETS: tuple[str, ...] = tuple(s.name for s in _SPECS if s.readable)


def sheet_spec(name: str) -> SheetSpec:
    for s in _SPECS:
        if s.name == name:
            return s
    raise UnknownNameError(f"unknown sheet {name!r}; choose one of {', '.join(SHEET_NAMES)}")
