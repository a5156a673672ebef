"""The answer of a server that is full: 503 with Retry-After, in words."""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import CompanionError


class BusyError(CompanionError):
    """Too much is being worked on already; the client is told when to try again."""


    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = max(1, int(retry_after_s))

    @property
    def headers(self) -> Mapping[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class TooBigError(CompanionError):
    """A question the server gave up on at its time limit (422 with the reason)."""

    exit_code = 1
