"""The queue of photos waiting for the readers: bounded, first come first served, each
upload's place shown to its phone ("3 photos ahead of yours").

An upload takes its place once its body has arrived and before it waits for a worker
thread; beyond ``limit`` photos it is answered at once "busy, try again in N s" (503),
so a crowd of phones gets a clear answer instead of a long wait, and nothing that was
admitted is ever dropped or handed to another upload.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from companion.web.busy import BusyError

MAX_TICKET_CHARS = 64
LEARN_RATE = 0.2  # weight of the latest read in the learnt seconds a photo
LEARN_RANGE = 4.0  # the learnt seconds stay within the guess divided or multiplied by this


@dataclass(frozen=True)
class Place:
    number: int  # arrival order
    photos: int
    ticket: str | None  # the phone's own name for its upload, to ask for its place


class ReadQueue:
    """At most ``limit`` photos admitted (being read or waiting); ``read_s`` a photo on
    one of ``workers`` readers is the first guess behind Retry-After.

    The guess is then learnt from the uploads leaving while the readers stay busy (the
    time since the previous one left, times the readers): a fixed guess longer than this
    machine's reads told busy phones to come back after the queue had drained, so the
    readers idled before every wave of retries (100 retrying phones: 89.5 s against
    68.7 s for a server without a queue).
    """

    def __init__(self, limit: int, workers: int, read_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = max(1, limit)
        self._workers = max(1, workers)
        self._guess = read_s
        self._read_s = read_s
        self._clock = clock
        self._last_left: float | None = None
        self._places: OrderedDict[int, Place] = OrderedDict()
        self._count = itertools.count(1)
        self._lock = threading.Lock()

    def join(self, photos: int, ticket: str | None = None) -> Place:
        """A place for ``photos``, or BusyError when the queue is full (an upload alone
        is always admitted, however many photos it holds)."""
        ticket = ticket[:MAX_TICKET_CHARS] if ticket else None
        with self._lock:
            queued = sum(p.photos for p in self._places.values())
            if queued and queued + photos > self.limit:
                wait = math.ceil(queued * self._read_s / self._workers)
                raise BusyError(f"busy: {queued} photos are waiting to be read; try again "
                                f"in {wait} s", wait)
            if not queued:  # the readers were idle: their next read starts now
                self._last_left = self._clock()
            place = Place(next(self._count), photos, ticket)
            self._places[place.number] = place
            return place

    def leave(self, place: Place) -> None:
        with self._lock:
            self._places.pop(place.number, None)
            now = self._clock()
            still_busy = sum(p.photos for p in self._places.values()) >= self._workers
            if still_busy and self._last_left is not None:
                seen = (now - self._last_left) * self._workers / max(1, place.photos)
                seen = min(max(seen, self._guess / LEARN_RANGE), self._guess * LEARN_RANGE)
                self._read_s += LEARN_RATE * (seen - self._read_s)
            self._last_left = now

    @property
    def read_s(self) -> float:
        """The seconds a photo takes on one reader, as learnt so far."""
        with self._lock:
            return self._read_s

    def ahead(self, ticket: str) -> tuple[int, int] | None:
        """(photos ahead of this upload's, its own photos), None when it holds no place."""
        with self._lock:
            before = 0
            for p in self._places.values():
                if p.ticket == ticket[:MAX_TICKET_CHARS]:
                    return before, p.photos
                before += p.photos
        return None

    @property
    def queued(self) -> int:
        with self._lock:
            return sum(p.photos for p in self._places.values())
