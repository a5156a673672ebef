"""Which sheets exist, how each is titled and built."""

from __future__ import annotations

from collections.abc import Callable

from companion.errors import UnknownNameError
from companion.games.registry import SHEETS
from layouts.delicious_sheets import build_combo, build_garden, build_play
from layouts.dice_mat import build_mat
from layouts.scorepads import PADS, build_pad
from layouts.sheet import SheetContext, SheetSpec

# How each sheet of the game registry is drawn; its title and kind come from the registry.
_BUILDERS: dict[str, Callable[[SheetContext], None]] = {
    "delicious-garden": build_garden,
    "delicious-play": build_play,
    "delicious-combo": build_combo,
    "diced-veggies-mat": build_mat,
    **{s.id: build_pad for s in SHEETS if s.id in PADS},
}

_SPECS: tuple[SheetSpec, ...] = tuple(
    SheetSpec(s.id, s.title, s.landscape, s.readable, _BUILDERS[s.id]) for s in SHEETS)

SHEET_NAMES: tuple[str, ...] = tuple(s.name for s in _SPECS)
READABLE_SHEETS: tuple[str, ...] = tuple(s.name for s in _SPECS if s.readable)


def sheet_spec(name: str) -> SheetSpec:
    for s in _SPECS:
        if s.name == name:
            return s
    raise UnknownNameError(f"unknown sheet {name!r}; choose one of {', '.join(SHEET_NAMES)}")
