"""Printable sheets. Each sheet is defined once: the code that draws it also records its
geometry (fields, markers, QR box in mm), so readers never measure a picture by hand.

Public API: ``SHEET_NAMES``, ``READABLE_SHEETS``, ``geometry``, ``render_pdf``,
``render_image``.
"""

from layouts.registry import READABLE_SHEETS, SHEET_NAMES, sheet_spec
from layouts.render import geometry, new_code, new_codes, render_image, render_pdf

__all__ = [
    "READABLE_SHEETS",
    "SHEET_NAMES",
    "geometry",
    "new_code",
    "new_codes",
    "render_image",
    "render_pdf",
    "sheet_spec",
]
