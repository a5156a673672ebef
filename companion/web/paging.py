"""Long lists shown a page at a time (``?page=N``, newest first), so a store of years of
plays answers as fast and as small as a new one."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.requests import Request

from companion.errors import InputError
from companion.text import ascii_number

MAX_PAGE_DIGITS = 9


@dataclass(frozen=True)
class Paging:
    """Page ``number`` (1 = the newest) of ``total`` items, ``size`` a page."""

    number: int
    size: int
    total: int
    base: str  # the page's address with its other query parameters, without page

    @property
    def skip(self) -> int:
        return (self.number - 1) * self.size

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    def url(self, number: int) -> str:
        sep = "&" if "?" in self.base else "?"
        return self.base if number == 1 else f"{self.base}{sep}{urlencode({'page': number})}"

    @property
    def newer(self) -> str | None:
        return self.url(self.number - 1) if self.number > 1 else None

    @property
    def older(self) -> str | None:
        return self.url(self.number + 1) if self.number < self.pages else None


def paging(request: Request, total: int, size: int) -> Paging:
    """The page the request asks for (``?page=``), refused in words when it is not one."""
    raw = request.query_params.get("page", "1").strip() or "1"
    if not ascii_number(raw, MAX_PAGE_DIGITS) or int(raw) < 1:
        raise InputError(f"page must be a whole number from 1, not {raw[:20]!r}")
    others = [(k, v) for k, v in request.query_params.multi_items() if k != "page"]
    base = request.url.path + (f"?{urlencode(others)}" if others else "")
    pages = max(1, -(-total // size))
    return Paging(min(int(raw), pages), size, total, base)
