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
from companion.web.uploads import read_form

Handler = Callable[[Request], Awaitable[Response]]


class PageWorkers:
    """The worker threads pages run in, at most ``size`` at once (the rest wait their
    turn without holding the loop)."""

    def __init__(self, size: int = PAGE_WORKERS) -> None:
        self._size = size
        self._limiter: anyio.CapacityLimiter | None = None

    def _capacity(self) -> anyio.CapacityLimiter:
        if self._limiter is None:  # made on the server's loop, at the first request
            self._limiter = anyio.CapacityLimiter(self._size)
        return self._limiter

    def wrap(self, handler: Handler) -> Handler:
        """``handler`` run in a worker, after its form (if any) was read on the loop."""

        async def off_loop(request: Request) -> Response:
            if request.method == "POST":
                # Read here, where the body arrives; the page's own ``request.form()``
                # then returns this same form.
                if request.url.path in UPLOAD_PATHS:
                    await read_form(request)
                else:
                    await request.form()
            return await anyio.to_thread.run_sync(_own_loop, handler, request,
                                                  limiter=self._capacity())

        off_loop.__name__ = getattr(handler, "__name__", "page")
        off_loop.__doc__ = handler.__doc__
        return off_loop


def _own_loop(handler: Handler, request: Request) -> Response:
    async def call() -> Response:
        return await handler(request)

    return asyncio.run(call())
