"""The print page: the chosen sheets as one PDF, a set per player, each with its own
player code (so garden and play photos pair by code)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from companion.errors import InputError
from companion.games.registry import SHEETS
from companion.web.render import page, whole

MAX_SETS = 8


def print_pdf(names: Sequence[str], paper: str, bw: bool, variant: str, copies: int) -> bytes:
    """The chosen sheets, one set a player, each set with its own player code."""
    import pypdfium2 as pdfium

    import layouts

    known = {s.id for s in SHEETS}
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise InputError(f"choose sheets from the list (unknown: {', '.join(bad) or 'none'})")
    if len(set(names)) != len(names):  # the page's boxes send each sheet once
        raise InputError("choose each sheet once")
    if not 1 <= copies <= MAX_SETS:
        raise InputError(f"players must be 1 to {MAX_SETS}")
    sets = []
    for _ in range(copies):
        buf = io.BytesIO()
        layouts.render_pdf(list(names), buf, paper=paper, variant=variant, bw=bw,
                           code=layouts.new_code())
        sets.append(buf.getvalue())
    if len(sets) == 1:
        return sets[0]
    out = pdfium.PdfDocument.new()
    for data in sets:
        out.import_pages(pdfium.PdfDocument(data))
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


async def print_page(request: Request) -> Response:
    return page(request, "print.html", sheets=[(s.id, s.title) for s in SHEETS])


async def print_post(request: Request) -> Response:
    form = await request.form()
    names = [str(n) for n in form.getlist("sheet")]
    paper = str(form.get("paper", "letter"))
    variant = str(form.get("variant", "A"))
    copies = whole(form.get("players", "1"), "players")
    data = await run_in_threadpool(print_pdf, names, paper, form.get("colour") == "bw",
                                   variant, copies)
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": 'attachment; filename="companion-sheets.pdf"'})


ROUTES_POST = (("/print", print_post),)
ROUTES_GET = (("/print", print_page),)
