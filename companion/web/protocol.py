"""The HTTP connection of ``companion serve``: uvicorn's h11 protocol with a deadline for
a request's headers.

uvicorn times out an idle keep-alive connection but not one that sends its headers a byte
at a time (or never), so a few hundred such connections would be held open for ever. Here
a connection that is waiting for a request's headers gets HEADER_DEADLINE_S to send them
all, then is closed; the request body and the response are not limited by it.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

from companion.web.constants import HEADER_DEADLINE_S


class DeadlineH11Protocol(H11Protocol):
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._waiting_for_headers():
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(HEADER_DEADLINE_S, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()
