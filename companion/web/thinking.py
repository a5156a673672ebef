"""Engine runs that can take long (Dulce's best harvest and scoring order on a big
kitchen), each in a process of its own that is stopped at a time limit.

A page starts a question and waits a moment; an answer not ready by then is shown as
"still thinking" and asked for again by the phone, so no phone and no worker waits out
an engine. The process is killed at the limit and the question answered "too big".
"""

from __future__ import annotations

import multiprocessing
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from companion.errors import CompanionError
from companion.web.busy import BusyError, TooBigError

KEEP_ANSWERS_S = 600.0  # an answer not asked for again in this long is dropped


@dataclass
class _Job:
    process: BaseProcess
    conn: Connection
    started: float
    context: dict[str, Any]  # what the page needs to show the answer (the form's values)
    answer: tuple[str, Any] | None = None  # ("ok", value) or ("error", exception)
    ended: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass(frozen=True)
class Thinking:
    """Not ready yet: ``elapsed_s`` of at most ``limit_s``."""

    job: str
    elapsed_s: float
    limit_s: float


class Thinker:
    """At most ``workers`` questions at once, each stopped after ``limit_s``."""

    def __init__(self, limit_s: float, workers: int) -> None:
        self.limit_s = limit_s
        self._workers = workers
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")

    def start(self, fn: Callable[..., Any], *args: Any, context: dict[str, Any]) -> str:
        """A new question; BusyError when ``workers`` are thinking already."""
        with self._lock:
            now = time.monotonic()
            for key in [k for k, j in self._jobs.items()
                        if j.ended is not None and now - j.ended > KEEP_ANSWERS_S]:
                del self._jobs[key]
            running = sum(1 for j in self._jobs.values() if j.ended is None)
            if running >= self._workers:
                raise BusyError(f"{running} long questions are being worked out already; "
                                f"try again in {self.limit_s:.0f} s", int(self.limit_s))
            theirs, ours = self._context.Pipe(duplex=False)
            proc = self._context.Process(target=_answer, args=(ours, fn, args), daemon=True)
            proc.start()
            ours.close()
            key = secrets.token_urlsafe(12)
            self._jobs[key] = _Job(proc, theirs, now, context)
        return key

    def context(self, key: str) -> dict[str, Any]:
        with self._lock:
            job = self._jobs.get(key)
        if job is None:
            raise TooBigError("that question is no longer kept; ask it again")
        return job.context

    def wait(self, key: str, wait_s: float) -> Any:
        """The answer (an engine error raised as itself), or Thinking after ``wait_s``;
        TooBigError once the limit has passed (the process is stopped)."""
        with self._lock:
            job = self._jobs.get(key)
        if job is None:
            raise TooBigError("that question is no longer kept; ask it again")
        with job.lock:
            if job.answer is None:
                left = job.started + self.limit_s - time.monotonic()
                if job.conn.poll(max(0.0, min(wait_s, left))):
                    try:
                        job.answer = job.conn.recv()
                    except EOFError:
                        job.answer = ("error", CompanionError(
                            "the engine stopped without an answer; ask again"))
                elif time.monotonic() - job.started >= self.limit_s:
                    job.answer = ("error", TooBigError(
                        f"too big: this kitchen needs more than the {self.limit_s:.0f} s "
                        "the server gives one question; work it out on a computer with "
                        "companion dulce"))
                else:
                    return Thinking(key, time.monotonic() - job.started, self.limit_s)
                self._end(job)
        kind, value = job.answer
        if kind == "error":
            raise value
        return value

    def _end(self, job: _Job) -> None:
        if job.process.is_alive():
            job.process.kill()
        job.process.join(5)
        job.conn.close()
        job.ended = time.monotonic()

    def close(self) -> None:
        with self._lock:
            jobs = list(self._jobs.values())
            self._jobs.clear()
        for job in jobs:
            if job.ended is None:
                self._end(job)


def _answer(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """In the question's process: the answer or the engine's error, sent back."""
    from companion.web.readers import leave_with_parent

    leave_with_parent()
    try:
        conn.send(("ok", fn(*args)))
    except CompanionError as exc:
        conn.send(("error", CompanionError(str(exc)) if not _pickles(exc) else exc))
    except RecursionError:
        conn.send(("error", CompanionError("the state is nested too deeply")))
    except Exception as exc:  # the page answers in one line; the server log keeps nothing
        conn.send(("error", CompanionError(f"the engine failed ({type(exc).__name__})")))
    finally:
        conn.close()


def _pickles(exc: Exception) -> bool:
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # any failure to round-trip means: send it as a plain line
        return False
    return True
