"""Every page runs off the server's event loop.

The loop only accepts connections, reads request bodies and sends answers; a page's
store calls, engines and template run in a worker thread, each request on a small event
loop of its own (so the pages stay plain ``async`` functions). A store locked by another
process, or a slow engine, then holds one worker, never the static files or the other
phones. Workers have their own limiter, apart from the one Starlette's static files use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from companion.web.constants import PAGE_WORKERS, UPLOAD_PATHS
from companion.web.readqueue import ReadQueue
from companion.web.uploads import photo_count, read_form

Handler = Callable[[Request], Awaitable[Response]]


class PageWorkers:
    """The worker threads pages run in, at most ``size`` at once (the rest wait their
    turn without holding the loop). Photo uploads have threads of their own, one for each
    place in the read queue, so phones waiting for the readers never hold up a page."""

    def __init__(self, queue: ReadQueue, size: int = PAGE_WORKERS) -> None:
        self._queue = queue
        self._size = size
        self._limiters: tuple[anyio.CapacityLimiter, anyio.CapacityLimiter] | None = None

    def _capacity(self, upload: bool) -> anyio.CapacityLimiter:
        if self._limiters is None:  # made on the server's loop, at the first request
            self._limiters = (anyio.CapacityLimiter(self._size),
                              anyio.CapacityLimiter(self._queue.limit))
        return self._limiters[upload]

    def wrap(self, handler: Handler) -> Handler:
        """``handler`` run in a worker, after its form (if any) was read on the loop and
        its photos (if any) took their place in the read queue."""

        async def off_loop(request: Request) -> Response:
            if request.method == "POST" and request.url.path in UPLOAD_PATHS:
                # Read here, where the body arrives; the page's own ``read_form`` then
                # returns this same form.
                form = await read_form(request)
                ticket = form.get("ticket")
                place = self._queue.join(max(1, photo_count(form)),
                                         ticket if isinstance(ticket, str) else None)
                try:
                    return await anyio.to_thread.run_sync(_own_loop, handler, request,
                                                          limiter=self._capacity(True))
                finally:
                    self._queue.leave(place)
            if request.method == "POST":
                await request.form()
            return await anyio.to_thread.run_sync(_own_loop, handler, request,
                                                  limiter=self._capacity(False))

        off_loop.__name__ = getattr(handler, "__name__", "page")
        off_loop.__doc__ = handler.__doc__
        return off_loop


def _own_loop(handler: Handler, request: Request) -> Response:
    async def call() -> Response:
        return await handler(request)

    return asyncio.run(call())
