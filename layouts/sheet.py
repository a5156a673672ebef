"""The sheet context every layout draws into, and the registry of sheets.

A sheet's build function records fields and draws in one pass. ``geometry()`` runs it
without a canvas; ``render_pdf()`` runs it with one. One definition, two uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from companion.paper.model import (
    Box,
    FieldKind,
    FieldSpec,
    MarkerSpec,
    SheetGeometry,
    paper_size_mm,
)
from layouts.constants import LAYOUT_VERSION
from layouts.pen import Pen


@dataclass
class SheetContext:
    """Where a layout records fields and markers while it draws (page 1 only)."""

    sheet: str
    paper: str
    variant: str
    code: str
    landscape: bool
    canvas: Canvas | None
    bw: bool
    page_mm: tuple[float, float] = (0.0, 0.0)
    fields: list[FieldSpec] = field(default_factory=list)
    markers: list[MarkerSpec] = field(default_factory=list)
    qr_box: Box | None = None
    qr_modules: int = 0  # modules across the QR symbol (its quiet zone is 4 of them)
    extra: dict[str, object] = field(default_factory=dict)
    page: int = 0
    version: int = LAYOUT_VERSION  # the layout version drawn (older ones for reading)
    pen: Pen = field(init=False)

    def __post_init__(self) -> None:
        self.page_mm = paper_size_mm(self.paper, self.landscape)
        self.pen = Pen(self.canvas, self.page_mm, self.bw)

    @property
    def width(self) -> float:
        return self.page_mm[0]

    @property
    def height(self) -> float:
        return self.page_mm[1]

    def add_field(
        self, field_id: str, kind: FieldKind, x: float, y: float, w: float, h: float,
        allowed: Sequence[str],
    ) -> Box:
        """Record a field whose box is (x, y, w, h) in the pen's current frame."""
        box = self.pen.page_box(x, y, w, h)
        if self.page == 0:
            self.fields.append(FieldSpec(field_id, kind, box, tuple(allowed)))
        return box

    def add_key_box(self, plant: str, x: float, y: float, w: float, h: float) -> Box:
        """Record the box where a player draws ``plant`` once (the key of their own
        drawings, layout version 2): in the geometry's ``extra["drawing_key"]``, since it
        is read as an example of the player's hand, not as a field of the game."""
        box = self.pen.page_box(x, y, w, h)
        if self.page == 0:
            key = self.extra.setdefault("drawing_key", {})
            assert isinstance(key, dict)
            key[plant] = box.as_list()
        return box

    def new_page(self) -> None:
        """Start the back of the sheet; fields are recorded on the front only."""
        self.page += 1
        if self.canvas is not None:
            self.canvas.showPage()
        self.pen = Pen(self.canvas, self.page_mm, self.bw)

    def geometry(self) -> SheetGeometry:
        return SheetGeometry(
            sheet=self.sheet,
            version=self.version,
            variant=self.variant,
            paper=self.paper,
            page_mm=self.page_mm,
            markers=tuple(self.markers),
            fields=tuple(self.fields),
            qr_box_mm=self.qr_box,
            extra=dict(self.extra),
        )


BuildFn = Callable[[SheetContext], None]


@dataclass(frozen=True)
class SheetSpec:
    name: str
    title: str
    landscape: bool
    readable: bool
    build: BuildFn
