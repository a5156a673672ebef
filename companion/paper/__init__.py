"""The paper model: sheets, fields, markers and their geometry in millimetres.

A layout in ``layouts/`` builds a ``SheetGeometry`` while it draws; the photo reader
reads exactly those fields back. Nothing here knows how a sheet is drawn or read.
"""

from companion.paper.model import (
    PAPER_SIZES_MM,
    Box,
    FieldKind,
    FieldSpec,
    MarkerSpec,
    SheetGeometry,
    SheetLabel,
    paper_size_mm,
)

__all__ = [
    "PAPER_SIZES_MM",
    "Box",
    "FieldKind",
    "FieldSpec",
    "MarkerSpec",
    "SheetGeometry",
    "SheetLabel",
    "paper_size_mm",
]
