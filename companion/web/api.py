"""The JSON API: photos in, exactly the documents the command line prints out."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from companion.errors import InputError
from companion.games.delicious.read_table import TableSheet
from companion.web.delicious import score_table
from companion.web.dice import dice_cuts_json, dice_read_json
from companion.web.render import error_response, state
from companion.web.uploads import photos, read_form, read_uploads

if TYPE_CHECKING:
    from companion.vision.dice.reader import DiceReading


def _flags(request: Request) -> tuple[bool, bool]:
    q = request.query_params
    return q.get("full_only") in ("1", "true"), q.get("kids") in ("1", "true")


async def delicious_read(request: Request) -> Response:
    st = state(request)
    ups = await photos(await read_form(request))
    readings = await run_in_threadpool(read_uploads, st.store, ups, st.readers.sheet)
    table = score_table([TableSheet(i, r) for i, r in enumerate(readings)])
    return JSONResponse(table.json())


async def _dice(request: Request,
                what: Callable[[DiceReading, str], dict[str, Any]]) -> Response:
    st = state(request)
    ups = await photos(await read_form(request))
    if len(ups) != 1:
        raise InputError("send exactly one photo of the block")
    (reading,) = await run_in_threadpool(read_uploads, st.store, ups, st.readers.dice)
    return JSONResponse(what(reading, ups[0].label))


async def dice_read(request: Request) -> Response:
    return await _dice(request, dice_read_json)


async def dice_cuts(request: Request) -> Response:
    full_only, kids = _flags(request)
    return await _dice(request, lambda r, _: dice_cuts_json(r, full_only, kids))


async def not_found(request: Request) -> Response:
    return error_response(request, f"no such API: {request.method} {request.url.path}", 404)


ROUTES_POST = (
    ("/api/delicious/read", delicious_read), ("/api/dice/read", dice_read),
    ("/api/dice/cuts", dice_cuts),
)
