"""Colours by role. The black-and-white palette uses black ink and light greys only, so a
laser printer gives crisp lines and no heavy toner areas."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[float, float, float]


def _hex(code: str) -> RGB:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255)


@dataclass(frozen=True)
class Palette:
    colours: dict[str, RGB]

    def __getitem__(self, role: str) -> RGB:
        return self.colours[role]


_COLOUR = {
    "paper": "#ffffff",
    "ink": "#2b2118",
    "soft-ink": "#6b5a48",
    "faint": "#c9bfb2",
    "panel": "#f6f1e7",
    "top-area": "#eef5e4",
    "bottom-area": "#f8ece0",
    "planter-area": "#f1ebdf",
    "cell-border": "#2b2118",
    "badge": "#ffffff",
    "banner": "#7a9a3a",
    "banner-text": "#ffffff",
    "wheelbarrow": "#d0533f",
    "wheelbarrow-dark": "#8f3527",
    "boots": "#f2c230",
    "boots-dark": "#b98d12",
    "watering-can": "#5b93c7",
    "watering-can-dark": "#33668f",
    "bathtub": "#e4eef3",
    "bathtub-dark": "#8aa5b5",
    "crate": "#d9a566",
    "crate-dark": "#9a6a33",
    "teapot": "#5fa89a",
    "teapot-dark": "#377466",
    "metal": "#9aa3aa",
    "wood": "#b5814a",
    "soil": "#8a6440",
    "planter": "#c98a5a",
    "planter-dark": "#8d5a34",
    "honey": "#f0b429",
    "honey-dark": "#8f5f06",
    "choice": "#ffffff",
    "wild": "#7a9a3a",
    "bonus": "#d0533f",
    # plants and tools
    "green": "#5f9a35",
    "dark-green": "#3d6b22",
    "leaf": "#8cc152",
    "orange": "#ef8a2c",
    "tan": "#d8b98c",
    "brown": "#8a5a34",
    "onion": "#c9739b",
    "red": "#d8393a",
    "purple": "#6a4c93",
    "blue": "#4a6fb5",
    "gold": "#f2b630",
    "pink": "#ef8fa0",
    "steel": "#a7b0b8",
    "handle": "#b5814a",
    "glove": "#e08a3c",
}

_BW = {
    "paper": "#ffffff",
    "ink": "#000000",
    "soft-ink": "#333333",
    "faint": "#b0b0b0",
    "panel": "#ffffff",
    "top-area": "#ffffff",
    "bottom-area": "#ffffff",
    "planter-area": "#ffffff",
    "cell-border": "#000000",
    "badge": "#ffffff",
    "banner": "#000000",
    "banner-text": "#ffffff",
    "metal": "#d0d0d0",
    "wood": "#c8c8c8",
    "soil": "#a0a0a0",
    "honey": "#dddddd",
    "honey-dark": "#000000",
    "choice": "#ffffff",
    "wild": "#000000",
    "bonus": "#000000",
}
_BW_LIGHT = "#e4e4e4"
_BW_MID = "#a8a8a8"
_BW_DARK = "#8c8c8c"  # rims, frames and pair trays: visible, but no solid toner blocks


def palette(bw: bool) -> Palette:
    if not bw:
        return Palette({k: _hex(v) for k, v in _COLOUR.items()})
    out = {}
    for role in _COLOUR:
        if role in _BW:
            out[role] = _hex(_BW[role])
        elif role.endswith("-dark"):
            out[role] = _hex(_BW_DARK)
        elif role in ("green", "dark-green", "brown", "purple", "blue", "red", "planter-dark"):
            out[role] = _hex(_BW_MID)
        else:
            out[role] = _hex(_BW_LIGHT)
    return Palette(out)
