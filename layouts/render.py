"""Geometry, PDF and image output for the sheets."""

from __future__ import annotations

import io
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import pypdfium2 as pdfium
from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.errors import InputError, UnknownNameError
from companion.games.delicious.garden import VARIANTS
from companion.games.registry import sheet_game
from companion.paper.model import PAPER_SIZES_MM, SheetGeometry, paper_size_mm
from layouts.constants import LAYOUT_CHANGES, LAYOUT_VERSION
from layouts.registry import sheet_spec
from layouts.sheet import SheetContext

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 4
CODE_MAX_LENGTH = 12


def new_code() -> str:
    """A random player code, printed and put in the QR so separate photos can be merged."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_codes(players: int) -> list[str]:
    """``players`` different fresh codes: one per player, so their photos pair safely."""
    if players < 1:
        raise InputError(f"--players must be at least 1, not {players}")
    codes: list[str] = []
    while len(codes) < players:
        code = new_code()
        if code not in codes:
            codes.append(code)
    return codes


def layout_versions(name: str) -> tuple[int, ...]:
    """The layout versions that drew ``name`` differently, newest first (each the newest
    of its layout): the versions a photo of it may need to be told apart by."""
    older = [v - 1 for v in sorted(LAYOUT_CHANGES, reverse=True) if name in LAYOUT_CHANGES[v]]
    return (LAYOUT_VERSION, *older)


def _check(name: str, paper: str, variant: str, code: str,
           version: int = LAYOUT_VERSION) -> None:
    sheet_spec(name)
    if not 1 <= version <= LAYOUT_VERSION:
        raise UnknownNameError(f"unknown layout version {version}; this companion draws "
                               f"versions 1 to {LAYOUT_VERSION}")
    paper_size_mm(paper)
    if variant not in VARIANTS:
        raise UnknownNameError(f"unknown variant {variant!r}; choose one of "
                               f"{', '.join(VARIANTS)}")
    if len(code) > CODE_MAX_LENGTH or not code.isascii() or not (code == "" or code.isalnum()):
        raise InputError(f"player code {code!r} must be 1-{CODE_MAX_LENGTH} letters or digits")


def _context(name: str, paper: str, variant: str, code: str, canvas: Canvas | None,
             bw: bool, version: int = LAYOUT_VERSION) -> SheetContext:
    spec = sheet_spec(name)
    return SheetContext(name, paper, variant, code, spec.landscape, canvas, bw,
                        version=version)


def geometry(name: str, paper: str = "letter", variant: str = "A",
             version: int = LAYOUT_VERSION) -> SheetGeometry:
    """Every readable field, the markers and the QR box of a sheet, in mm (``version``:
    an older layout's, to read a sheet printed from it)."""
    _check(name, paper, variant, "", version)
    ctx = _context(name, paper, variant, "", None, False, version)
    sheet_spec(name).build(ctx)
    return ctx.geometry()


def render_pdf(
    names: Sequence[str],
    out: str | Path | BinaryIO,
    *,
    paper: str = "letter",
    variant: str = "A",
    bw: bool = False,
    code: str | None = None,
    codes: Sequence[str] | None = None,
    version: int = LAYOUT_VERSION,
) -> int:
    """Write the sheets, in order, into one PDF; the number of pages written (a sheet can
    take two). ``code=None`` draws a fresh player code shared by every sheet in the file;
    ``codes`` prints the sheets once per code, one set for each player (see
    ``new_codes``). Only the sheets whose photos pair by it carry the code."""
    if not names:
        raise InputError("name at least one sheet to print")
    if codes is not None and code is not None:
        raise InputError("give one player code or one per player, not both")
    sets = [c.upper() for c in codes] if codes is not None else [
        new_code() if code is None else code.upper()]
    if not sets:
        raise InputError("print the sheets for at least one player")
    for code in sets:
        for name in names:
            _check(name, paper, variant, code, version)
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(PAPER_SIZES_MM[paper][0] * mm, PAPER_SIZES_MM[paper][1] * mm))
    canvas.setTitle(", ".join(names))
    canvas.setAuthor("companion")
    canvas.setCreator("companion layouts")
    for code, name in ((c, n) for c in sets for n in names):
        spec = sheet_spec(name)
        w, h = paper_size_mm(paper, spec.landscape)
        canvas.setPageSize((w * mm, h * mm))
        ctx = _context(name, paper, variant, code if pairs_by_code(name) else "", canvas, bw,
                       version)
        spec.build(ctx)
        canvas.showPage()
    pages = canvas.getPageNumber() - 1
    canvas.save()
    data = buf.getvalue()
    if isinstance(out, (str, Path)):
        path = Path(out)
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    else:
        out.write(data)
    return pages


def pairs_by_code(name: str) -> bool:
    """Whether a sheet's photos are paired by its player code (a Delicious garden with its
    play sheet); a score pad or the dice mat has no use for one."""
    return sheet_spec(name).readable and sheet_game(name).slug == "delicious"


def render_image(
    name: str,
    *,
    paper: str = "letter",
    variant: str = "A",
    dpi: int = 150,
    bw: bool = False,
    code: str = "",
    version: int = LAYOUT_VERSION,
) -> Image.Image:
    """The sheet's first page as an RGB image, rendered by pdfium at ``dpi``."""
    buf = io.BytesIO()
    render_pdf([name], buf, paper=paper, variant=variant, bw=bw, code=code, version=version)
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        page = pdf[0]
        image = page.render(scale=dpi / 72.0).to_pil().convert("RGB")
    finally:
        pdf.close()
    return image
