"""The host's big screen, for sharing on the video call: who has sent a sheet and who has
not, and the ranking, hidden until the host reveals it. The page follows the table through
server-sent events (Starlette's StreamingResponse; no new dependency), so it never
reloads.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from companion.errors import CompanionError
from companion.web.remote import board
from companion.web.render import go, page, state

# The stream looks for a change this often (a remote upload or answer bumps a counter)
# and sends the board again at least every BOARD_REFRESH_S (the host may correct a
# remote sheet on the Delicious page, which bumps nothing); a comment line keeps proxies
# from closing a quiet stream.
BOARD_POLL_S = 0.5
BOARD_REFRESH_S = 5.0


async def big(request: Request) -> Response:
    st = state(request)
    return page(request, "big.html", board=board(st), join_link=st.join_link)


async def events(request: Request) -> Response:
    """The board as server-sent events: one ``data:`` line of JSON each time it changes.
    A client that does not ask for ``text/event-stream`` (a script) gets the board once,
    as JSON, rather than a stream that never ends."""
    st = state(request)
    if "text/event-stream" not in request.headers.get("accept", ""):
        return JSONResponse(await anyio.to_thread.run_sync(board, st),
                            headers={"Cache-Control": "no-store"})

    async def stream() -> AsyncIterator[str]:
        last_doc, last_version, last_time = "", -1, 0.0
        loop = asyncio.get_running_loop()
        while not await request.is_disconnected():
            version = st.remote.version
            now = loop.time()
            if version != last_version or now - last_time >= BOARD_REFRESH_S:
                last_version, last_time = version, now
                try:
                    doc = json.dumps(await anyio.to_thread.run_sync(board, st))
                except CompanionError as exc:
                    doc = json.dumps({"error": str(exc)})
                if doc != last_doc:
                    last_doc = doc
                    yield f"data: {doc}\n\n"
                else:
                    yield ": still here\n\n"
            await asyncio.sleep(BOARD_POLL_S)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def reveal(request: Request) -> Response:
    st = state(request)
    form = await request.form()
    night = st.store.current_night()
    if form.get("show", "1") == "0":
        st.remote.revealed.discard(night.id)
    else:
        st.remote.revealed.add(night.id)
    st.remote.changed()
    return go(request, "/big")


ROUTES_POST = (("/big/reveal", reveal),)
ROUTES_GET = (("/big", big),)
