"""Printable sheets. Each sheet is defined once: the code that draws it also records its
geometry (fields, markers, QR box in mm), so readers never measure a picture by hand.

Public API: ``SHEET_NAMES``, ``READABLE_SHEETS``, ``geometry``, ``render_pdf``,
``render_image``, ``layout_versions``, ``LAYOUT_VERSION``.
"""

from layouts.constants import LAYOUT_VERSION
from layouts.registry import READABLE_SHEETS, SHEET_NAMES, sheet_spec
from layouts.render import (
    geometry,
    layout_versions,
    new_code,
    new_codes,
    render_image,
    render_pdf,
)

__all__ = [
    "LAYOUT_VERSION",
    "READABLE_SHEETS",
    "SHEET_NAMES",
    "geometry",
    "layout_versions",
    "new_code",
    "new_codes",
    "render_image",
    "render_pdf",
    "sheet_spec",
]
