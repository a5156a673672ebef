"""The HTTP connection of ``companion serve``: uvicorn's h11 protocol with a deadline and
a size cap for a request's headers.

uvicorn times out an idle keep-alive connection but not one that sends its headers a byte
at a time (or never), so a few hundred such connections would be held open for ever. Here
a connection that is waiting for a request's headers gets HEADER_DEADLINE_S to send them
all, then is closed; the request body and the response are not limited by it.

h11 refuses a head over 16 KB only while it is incomplete: one that arrives whole in a
read (up to 256 KB on loopback) was parsed and handed on. Here a head over MAX_HEAD_BYTES
is answered 431 and the connection closed, however it arrives.

The application (the token check of ``--lan``) sees a request only once its head is
complete: that is where ASGI starts. So a client without the token can hold a connection
for at most HEADER_DEADLINE_S and send at most MAX_HEAD_BYTES before it is refused, and
it is refused before any of its body is read.

A request answered before its body was read (no token; an upload whose form is refused,
such as a file name over python-multipart's 4 KB part header) still has body on the way.
That body is not the next request's head (it was counted as one, and a photo's bytes soon
made a "head" over MAX_HEAD_BYTES: the connection was closed under the client's feet, which
saw a reset instead of its answer). uvicorn reads and drops it; here for at most
DRAIN_DEADLINE_S and MAX_UPLOAD_BODY_BYTES, then the connection is closed.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion.web.constants import (
    DRAIN_DEADLINE_S,
    HEADER_DEADLINE_S,
    MAX_HEAD_BYTES,
    MAX_UPLOAD_BODY_BYTES,
)

_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
              b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
              b"content-length: %d\r\n\r\n%s")
_TOO_LARGE_TEXT = b"the request's headers are larger than %d KB" % (MAX_HEAD_BYTES // 1024)


class DeadlineH11Protocol(H11Protocol):
    _deadline: asyncio.TimerHandle | None = None
    _head = 0  # bytes of the request head received so far
    _tail = b""  # the last bytes of the head so far, where its end may start
    _dropped = -1  # body bytes received after the answer was sent (-1: none is dropped)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._draining():
            if self._dropped < 0:  # the answer went before the body: dropped, for a while
                self._dropped = 0
                self._disarm()
                self._arm(DRAIN_DEADLINE_S)
            self._dropped += len(data)
            if self._dropped > MAX_UPLOAD_BODY_BYTES:
                self._disarm()
                self.transport.close()
                return
        elif self._waiting_for_headers() and self._head_too_large(data):
            self._disarm()
            self.transport.write(_TOO_LARGE % (len(_TOO_LARGE_TEXT), _TOO_LARGE_TEXT))
            self.transport.close()
            return
        super().data_received(data)
        if self._draining():
            return
        if self._dropped >= 0:  # the body is all dropped: the next head has its own time
            self._dropped = -1
            self._disarm()
        if self._waiting_for_headers():
            self._arm()
        else:
            self._disarm()
            self._head, self._tail = 0, b""

    def _head_too_large(self, data: bytes) -> bool:
        """Count ``data`` up to the blank line that ends the head (body bytes after it in
        the same read are not the head's)."""
        seen = self._tail + data
        end = seen.find(b"\r\n\r\n")
        self._head += len(data) if end < 0 else end + 4 - len(self._tail)
        self._tail = seen[-3:]
        return self._head > MAX_HEAD_BYTES

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _answered(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _draining(self) -> bool:
        """Answered, and the request's body still coming (uvicorn drops it)."""
        return self._answered() and self.conn.their_state is h11.SEND_BODY

    def _waiting_for_headers(self) -> bool:
        return self._answered() and self.conn.their_state is not h11.SEND_BODY

    def _arm(self, seconds: float = HEADER_DEADLINE_S) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self._answered() and not self.transport.is_closing():
            self.transport.close()
