"""Value types for printed sheets. Units: millimetres, x right and y down from the
page's top-left corner (docs/contracts.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.errors import InputError, UnknownNameError
from companion.games.registry import SHEETS
from companion.text import ascii_number

# Portrait width x height in mm.
PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "letter": (215.9, 279.4),
    "a4": (210.0, 297.0),
}

# ArUco markers: OpenCV's 4x4 dictionary with 50 ids; ids 0..3 sit at the top-left,
# top-right, bottom-right and bottom-left corners of every readable sheet.
ARUCO_DICTIONARY = "DICT_4X4_50"
CORNER_MARKER_IDS = (0, 1, 2, 3)

# QR payload, kept to QR alphanumeric characters so the symbol stays at version 1 (21
# modules, about 1 mm a module) and reads even when the sheet is small in a photo:
# "CMP1:<sheet code>:<version>:<variant>:<paper code>:<player code>", e.g. "CMP1:DC:1:A:L:MDGY".
QR_PREFIX = "CMP1"
SHEET_CODES: dict[str, str] = {s.id: s.code for s in SHEETS}
PAPER_CODES: dict[str, str] = {"letter": "L", "a4": "A4"}


def paper_size_mm(paper: str, landscape: bool = False) -> tuple[float, float]:
    try:
        w, h = PAPER_SIZES_MM[paper]
    except KeyError:
        raise UnknownNameError(
            f"unknown paper {paper!r}; choose one of {', '.join(PAPER_SIZES_MM)}"
        ) from None
    return (h, w) if landscape else (w, h)


class FieldKind(StrEnum):
    VEGETABLE = "vegetable"
    FRUIT = "fruit"
    CHOICE = "choice"
    FIRST_POTTER = "first-potter"
    TOOL = "tool"
    HONEY = "honey"
    NUMBER = "number"  # score-pad entries


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def as_list(self) -> list[float]:
        return [round(self.x, 3), round(self.y, 3), round(self.w, 3), round(self.h, 3)]


@dataclass(frozen=True)
class FieldSpec:
    id: str
    kind: FieldKind
    box_mm: Box
    allowed: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "box_mm": self.box_mm.as_list(),
            "allowed": list(self.allowed),
        }


@dataclass(frozen=True)
class MarkerSpec:
    id: int
    center_mm: tuple[float, float]
    size_mm: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "center_mm": [round(self.center_mm[0], 3), round(self.center_mm[1], 3)],
            "size_mm": self.size_mm,
        }


@dataclass(frozen=True)
class SheetLabel:
    """What the QR code on a sheet says about it."""

    sheet: str
    version: int
    variant: str
    paper: str
    code: str = ""

    def encode(self) -> str:
        sheet = SHEET_CODES.get(self.sheet, self.sheet.upper())
        paper = PAPER_CODES.get(self.paper, self.paper.upper())
        return ":".join(
            (QR_PREFIX, sheet, str(self.version), self.variant, paper, self.code.upper())
        )

    @classmethod
    def decode(cls, text: str) -> SheetLabel:
        parts = text.strip().split(":")
        if len(parts) != 6 or parts[0] != QR_PREFIX:
            raise InputError("the QR code is not one of our sheets")
        sheets = {v: k for k, v in SHEET_CODES.items()}
        papers = {v: k for k, v in PAPER_CODES.items()}
        _, sheet, version, variant, paper, code = parts
        if (sheet not in sheets or paper not in papers
                or not ascii_number(version, 3)):
            raise InputError(f"the sheet's QR code is damaged: {text!r}")
        return cls(sheets[sheet], int(version), variant, papers[paper], code)


@dataclass(frozen=True)
class SheetGeometry:
    sheet: str
    version: int
    variant: str
    paper: str
    page_mm: tuple[float, float]
    markers: tuple[MarkerSpec, ...]
    fields: tuple[FieldSpec, ...]
    qr_box_mm: Box | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def field(self, field_id: str) -> FieldSpec:
        for f in self.fields:
            if f.id == field_id:
                return f
        raise UnknownNameError(f"sheet {self.sheet} has no field {field_id!r}")

    def label(self, code: str = "") -> SheetLabel:
        return SheetLabel(self.sheet, self.version, self.variant, self.paper, code)

    @property
    def key_boxes(self) -> dict[str, Box]:
        """The boxes of the sheet's key, plant -> box (``extra["drawing_key"]``; none
        before layout version 2): where a sketching player draws each plant once."""
        key = self.extra.get("drawing_key")
        return {str(p): Box(*b) for p, b in key.items()} if isinstance(key, dict) else {}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sheet": self.sheet,
            "version": self.version,
            "variant": self.variant,
            "paper": self.paper,
            "page_mm": [round(self.page_mm[0], 3), round(self.page_mm[1], 3)],
            "markers": [m.to_json() for m in self.markers],
            "fields": [f.to_json() for f in self.fields],
        }
        if self.qr_box_mm is not None:
            out["qr_box_mm"] = self.qr_box_mm.as_list()
        for key, value in self.extra.items():  # sheet-specific additions, never overriding
            out.setdefault(key, value)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2)
