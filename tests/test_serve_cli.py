"""``companion serve`` on the command line: bad data dir, busy port, the first line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli.serve import serve
from tests.web_support import Server


def test_data_dir_that_is_a_file(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    result = CliRunner().invoke(serve, ["--data", str(f / "sub"), "--port", "0"])
    assert result.exit_code == 2
    assert "cannot open the data directory" in result.output
    assert "Traceback" not in result.output


def test_busy_port(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.output


def test_first_line_and_lan_qr(tmp_path: Path) -> None:
    plain = Server(tmp_path / "a").start()
    plain.stop()
    assert plain.url.startswith("http://127.0.0.1:") and plain.url.endswith("/")
    lan = Server(tmp_path / "b", "--lan", "--host", "127.0.0.1").start()
    try:
        assert lan.proc is not None and lan.proc.stdout is not None
        assert "?t=" in lan.url and len(lan.url.split("?t=")[1]) >= 32
        assert "Scan this" in lan.proc.stdout.readline()
        assert "\u2588" in lan.proc.stdout.readline() + lan.proc.stdout.readline()
    finally:
        lan.stop()


def test_sigterm_closes_the_readers_without_leaked_semaphores(tmp_path: Path) -> None:
    import httpx


    s = Server(tmp_path).start()
    assert s.proc is not None
    assert httpx.get(s.url, timeout=10).status_code == 200
    s.proc.terminate()
    _, err = s.proc.communicate(timeout=30)
    s.proc = None
    assert "leaked" not in err and "Traceback" not in err, err


def test_new_token_without_lan_or_public_is_refused(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """--new-token alone made no token and served as if it were not given."""
    import uvicorn

    def served(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "run", served)
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--port", "0", "--new-token"])
    assert result.exit_code == 2 and "--new-token makes new links for --lan or --public" \
        in result.output
