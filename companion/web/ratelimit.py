"""Token buckets that keep one link, or one address, from taking the whole server.

Each link (the host's, the join link's, a request with no valid token) has a bucket of its
own, and so has each client address under that link: a phone that retries in a loop is
slowed down, the other hundred players are not. Written here rather than taken from a
library because the limits depend on the link the Guard has just recognised, before any
route runs (slowapi and friends decorate routes and key on the address alone).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from companion.web.roles import Role


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_s`` a second."""

    burst: float
    per_s: float


@dataclass(frozen=True)
class Limits:
    """One link's limits: the link as a whole and each address using it."""

    link: Rate
    address: Rate


# The host link drives the big screen, corrections and saving for a whole table; the
# join link is shared by up to 100 players, each of whom sends a sheet or two, reads their
# own page and polls their place in the read queue (about 1 request a second while
# waiting). A request with no valid token gets little: it can only be refused.
LIMITS: dict[Role, Limits] = {
    Role.HOST: Limits(link=Rate(2000, 200), address=Rate(600, 60)),
    Role.JOIN: Limits(link=Rate(1500, 100), address=Rate(60, 3)),
    Role.NONE: Limits(link=Rate(200, 20), address=Rate(20, 1)),
}
BUCKETS_KEPT = 10_000  # the addresses remembered; the least recently seen are forgotten


class _Bucket:
    __slots__ = ("level", "at")

    def __init__(self, level: float, at: float) -> None:
        self.level = level
        self.at = at


class RateLimiter:
    """Token buckets by key; ``take`` answers 0 (go) or the seconds until one is free."""

    def __init__(self, limits: dict[Role, Limits] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or LIMITS
        self._clock = clock
        self._buckets: OrderedDict[tuple[str, ...], _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, role: Role, address: str) -> float:
        """Take one request from the link's bucket and the address's; the wait in
        seconds when either is empty (nothing is taken then)."""
        lim = self.limits[role]
        now = self._clock()
        with self._lock:
            link = self._bucket(("link", role.value), lim.link, now)
            addr = self._bucket(("addr", role.value, address), lim.address, now)
            wait = max(_wait(link, lim.link), _wait(addr, lim.address))
            if wait > 0:
                return wait
            link.level -= 1
            addr.level -= 1
            return 0.0

    def _bucket(self, key: tuple[str, ...], rate: Rate, now: float) -> _Bucket:
        b = self._buckets.get(key)
        if b is None:
            b = self._buckets[key] = _Bucket(rate.burst, now)
            while len(self._buckets) > BUCKETS_KEPT:
                self._buckets.popitem(last=False)
        else:
            b.level = min(rate.burst, b.level + (now - b.at) * rate.per_s)
            b.at = now
            self._buckets.move_to_end(key)
        return b


def _wait(b: _Bucket, rate: Rate) -> float:
    return 0.0 if b.level >= 1 else (1 - b.level) / rate.per_s


def retry_after(wait_s: float) -> str:
    """Whole seconds for Retry-After, at least 1."""
    return str(max(1, math.ceil(wait_s)))
