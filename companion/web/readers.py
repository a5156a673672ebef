"""The photo readers behind the web app: a pool of worker processes and a bounded cache
of recent readings.

The readers' models are not safe to share between threads, and on a machine with two
cores two phones are served at once, so photos are read in worker processes; a reading
is kept for the corrections and page views that follow it.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from companion.errors import ImageError, InputError

if TYPE_CHECKING:
    from companion.vision.dice.reader import DiceReading
    from companion.vision.sheet.reader import SheetReading

R = TypeVar("R")

SHEET = "delicious-sheet"  # the reading kind stored for a Delicious sheet photo
DICE = "dice-block"  # and for a Diced Veggies block photo


class ReadingCache:
    """Recent photo readings by (kind, photo id), so a correction or a page view does not
    read the photo again. Bounded; a reading that fell out is read again from its file."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[tuple[str, int], object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, kind: str, photo_id: int, load: Callable[[], R]) -> R:
        """The reading of that kind (one kind is always one type), loaded when missing."""
        key = (kind, photo_id)
        with self._lock:
            hit = self._items.get(key)
        reading = load() if hit is None else cast(R, hit)
        self.put(kind, photo_id, reading)
        return reading

    def put(self, kind: str, photo_id: int, reading: object) -> None:
        with self._lock:
            self._items[(kind, photo_id)] = reading
            self._items.move_to_end((kind, photo_id))
            while len(self._items) > self._entries:
                self._items.popitem(last=False)


class ReaderPool:
    """Worker processes that read photos, started on first use (or by ``warm``)."""

    def __init__(self, workers: int) -> None:
        self._workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self._workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=leave_with_parent)
            return self._pool

    def _run(self, fn: Callable[..., R], path: Path, label: str, *more: object) -> R:
        try:
            return self._executor().submit(fn, path, label, *more).result()
        except BrokenProcessPool:
            with self._lock:
                self._pool = None
            raise InputError(f"{label}: the reader stopped while reading it; "
                             "send it again") from None

    def sheet(self, path: Path, label: str) -> SheetReading:
        return self._run(read_sheet, path, label)

    def dice(self, path: Path, label: str,
             colours: dict[str, Any] | None = None) -> DiceReading:
        """``colours``: the game's dice colours document, to read the photo against."""
        return self._run(read_dice, path, label, colours)

    def warm(self) -> None:
        """Start the workers loading the readers' models now, not at the first photo."""
        pool = self._executor()
        for _ in range(self._workers):
            pool.submit(_warm)

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None


def leave_with_parent() -> None:
    """A worker ends as soon as the server process is gone, even when it was killed."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - always set in a spawned worker
        return

    def watch() -> None:
        parent.join()
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def _warm() -> None:
    import companion.vision.sheet.reader as sr

    sr._classifier()  # the letter model, loaded once a worker


def read_sheet(path: Path, label: str) -> SheetReading:
    """One photographed Delicious sheet read; ``label`` replaces the path in its JSON."""
    from companion.vision.sheet.reader import read_photo

    try:
        reading = read_photo(str(path))
    except ImageError as exc:
        raise ImageError(_naming(exc, path, label)) from None
    return dataclasses.replace(reading, photo=label)


def read_dice(path: Path, label: str, colours: dict[str, Any] | None = None) -> DiceReading:
    """One photographed Diced Veggies block read, against the game's dice colours (their
    document, as ``dice read --save-colours`` writes it) when given."""
    from companion.vision.dice.colours import DiceColours
    from companion.vision.dice.reader import read_dice_photo

    known = None if colours is None else DiceColours.from_json(colours)
    try:
        return read_dice_photo(path, known)
    except ImageError as exc:
        raise ImageError(_naming(exc, path, label)) from None


def _naming(exc: Exception, path: Path, label: str) -> str:
    """The reader's message with the upload's name where the server's file name was."""
    msg = str(exc).replace(str(path), label)
    return msg if msg.startswith(label) else f"{label}: {msg}"
