"""The web app over a store in this process, ``companion serve`` in a subprocess, and
Debian's chromium for the browser tests with phone-sized pages in it."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
COMBO = EXAMPLES / "delicious/photos/combo-good-light.jpg"  # one player on one photo
BLOCK = EXAMPLES / "dice/photos/table-full.jpg"  # a whole Diced Veggies block
WIDTHS = (360, 390, 412)  # the widths phones have (issue 30)
SCHEMES = ("light", "dark")
READ_TIMEOUT_MS = 90_000  # a page's wait: long enough for a photo read by a cold reader


@contextlib.contextmanager
def client_over(store: Any, readers: Any = None) -> Iterator[Any]:
    """A TestClient of the web app over ``store`` (a 500 is answered, not raised); without
    ``readers``, a reader pool of its own, started only if a photo is read."""
    from starlette.testclient import TestClient

    from companion.web.app import create_app
    from companion.web.readers import ReaderPool

    pool = ReaderPool(1) if readers is None else readers
    try:
        with TestClient(create_app(store, readers=pool), raise_server_exceptions=False) as c:
            yield c
    finally:
        if readers is None:
            pool.close()


def chromium_or_skip() -> str:
    """The chromium binary; missing it skips the test, except in CI, where it fails."""
    exe = shutil.which("chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        exe = None
    if exe is None:
        message = "browser tests need Debian's chromium and playwright (pip) installed"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return exe


@contextlib.contextmanager
def phone_page(browser: Any, width: int = 390, height: int = 844,
               scheme: str = "light") -> Iterator[Any]:
    """A page in a browser context of its own that acts as a phone (touch, mobile
    viewport, that colour scheme); the context is closed after."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                              is_mobile=True, color_scheme=scheme)
    try:
        page = ctx.new_page()
        page.set_default_timeout(READ_TIMEOUT_MS)
        yield page
    finally:
        ctx.close()


class Server:
    """``companion serve --data DIR --port 0`` running until stopped."""

    def __init__(self, data: Path, *extra: str) -> None:
        self.data = data
        self.extra = extra
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.lines: list[str] = []

    def start(self) -> Server:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli.serve", "--data", str(self.data),
             "--port", "0", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().strip()
        if not first.startswith("serving at "):
            err = self.proc.stderr.read() if self.proc.stderr else ""
            self.proc.kill()
            raise AssertionError(f"server did not start: {first!r} {err}")
        self.lines = [first]
        self.url = first.removeprefix("serving at ")
        return self

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def root(self) -> str:
        return self.url.split("?", 1)[0].rstrip("/")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


def children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextlib.contextmanager
def live(app: object) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 in a thread of this process (so a test can
    build it with its own limits); yields its base URL."""
    import threading
    import time

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,  # type: ignore[arg-type]
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
