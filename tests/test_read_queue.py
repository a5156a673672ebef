"""The read queue's Retry-After follows the reads this machine makes, not a fixed guess."""

from __future__ import annotations

import pytest

from companion.web.busy import BusyError
from companion.web.readqueue import ReadQueue


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _busy_wait(queue: ReadQueue) -> int:
    with pytest.raises(BusyError) as caught:
        queue.join(1)
    return caught.value.retry_after_s  # type: ignore[attr-defined,no-any-return]


def test_retry_after_learns_the_reads_while_the_readers_stay_busy() -> None:
    clock = Clock()
    queue = ReadQueue(24, 2, 1.7, clock=clock)
    places = [queue.join(1) for _ in range(24)]
    assert _busy_wait(queue) == 21  # 24 photos x 1.7 s on 2 readers: the first guess
    for place in places[:20]:  # one leaves every 0.35 s: 0.7 s a photo on each reader
        clock.now += 0.35
        queue.leave(place)
        places.append(queue.join(1))
    assert 0.7 <= queue.read_s < 0.8
    assert _busy_wait(queue) == 9  # 24 x ~0.72 / 2


def test_an_idle_spell_is_not_a_slow_read() -> None:
    clock = Clock()
    queue = ReadQueue(24, 2, 1.7, clock=clock)
    first = queue.join(1)
    clock.now += 1.7
    queue.leave(first)
    clock.now += 600  # nobody for ten minutes
    places = [queue.join(1) for _ in range(5)]
    clock.now += 0.85
    queue.leave(places[0])
    assert queue.read_s == pytest.approx(1.7)
    assert ReadQueue(24, 2, 1.7, clock=clock).read_s == 1.7
