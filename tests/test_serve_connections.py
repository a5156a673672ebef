"""Issue #27 item 16: slow, huge and half-open connections to ``companion serve --lan``.

A connection has HEADER_DEADLINE_S to send a request's head and MAX_HEAD_BYTES for it
(companion.web.protocol); the token is checked as soon as the head is complete, before
any of the body is read. Every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest

from companion.web.constants import HEADER_DEADLINE_S, MAX_HEAD_BYTES
from tests.web_support import Server

HALF_OPEN = 300


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("lan"), "--lan", "--host", "127.0.0.1").start()
    urllib.request.urlopen(server.url, timeout=30).read()  # warm: the first page is slower
    yield server
    server.stop()


def _port(server: Server) -> int:
    return int(server.root.rsplit(":", 1)[1])


def _answer(sock: socket.socket) -> bytes:
    """The server's first bytes on ``sock`` (b"" when it closed the connection)."""
    try:
        return sock.recv(200)
    except ConnectionResetError:
        return b""


def test_half_open_connections_are_dropped_and_starve_no_one(lan: Server) -> None:
    held = []
    for i in range(HALF_OPEN):
        s = socket.create_connection(("127.0.0.1", _port(lan)), timeout=30)
        if i % 3 == 1:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # a head that never ends
        held.append(s)
    opened = time.monotonic()
    drip = socket.create_connection(("127.0.0.1", _port(lan)), timeout=30)
    drip.sendall(b"GET / HTTP/1.1\r\n")
    served = []
    for _ in range(3):  # a phone with the token, while all of them are held
        t0 = time.monotonic()
        with urllib.request.urlopen(lan.url, timeout=30) as r:
            assert r.status == 200 and b"</html>" in r.read()
        served.append(time.monotonic() - t0)
    assert min(served) < 1.0, served
    dripped = None  # a header line every 0.25 s does not push the deadline back
    while time.monotonic() - opened < HEADER_DEADLINE_S + 5:
        try:
            drip.sendall(b"X-Slow: 1\r\n")
        except OSError:
            dripped = time.monotonic() - opened
            break
        time.sleep(0.25)
    assert dripped is not None and dripped < HEADER_DEADLINE_S + 2, dripped
    for s in held:
        assert _answer(s) == b""  # closed by the server
        s.close()
    assert time.monotonic() - opened < HEADER_DEADLINE_S + 6


@pytest.mark.parametrize("pieces", [1, 40])
def test_a_huge_head_is_refused_in_one_write_or_in_pieces(lan: Server, pieces: int) -> None:
    head = (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (6 * MAX_HEAD_BYTES)
            + b"\r\n\r\n")
    s = socket.create_connection(("127.0.0.1", _port(lan)), timeout=10)
    step = len(head) // pieces + 1
    try:
        for i in range(0, len(head), step):
            s.sendall(head[i:i + step])
    except OSError:
        pass  # closed while sending: refused
    answer = _answer(s)
    assert answer.startswith((b"HTTP/1.1 431", b"HTTP/1.1 400")) or answer == b"", answer
    assert b"403" not in answer  # refused for its size, before the app saw it
    s.close()
    # a head near the cap is still served
    ok = socket.create_connection(("127.0.0.1", _port(lan)), timeout=10)
    token = lan.url.split("t=")[1]
    ok.sendall(f"GET /?t={token} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ".encode()
               + b"a" * (MAX_HEAD_BYTES - 200) + b"\r\n\r\n")
    assert _answer(ok).startswith(b"HTTP/1.1 200")
    ok.close()


def test_no_token_is_refused_before_the_body_arrives(lan: Server) -> None:
    s = socket.create_connection(("127.0.0.1", _port(lan)), timeout=10)
    t0 = time.monotonic()
    s.sendall(b"POST /delicious/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Content-Type: multipart/form-data; boundary=x\r\n"
              b"Content-Length: 20000000\r\n\r\n")  # and not one byte of the 20 MB
    assert _answer(s).startswith(b"HTTP/1.1 403")
    assert time.monotonic() - t0 < 2.0
    s.sendall(b"x" * 65536)  # its body is not read, not even to be dropped: closed
    assert _closed(s) and time.monotonic() - t0 < 2.0
    s.close()


def _closed(sock: socket.socket) -> bool:
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    return True


def test_an_upload_refused_for_a_long_file_name_is_answered_not_reset(lan: Server) -> None:
    """A file name over python-multipart's 4 KB part header is refused while the photo is
    still on its way: the rest of the body was taken for the next request's head (over
    MAX_HEAD_BYTES: closed, the client saw a reset). Now the client sends it all, reads the
    one-line 400, and the same connection serves its next request."""
    token = lan.url.split("?t=", 1)[1]
    boundary = "b0undary"
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; '
            f'filename="{"a" * 6000}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n').encode()
    body = head + b"\xff" * (8 * 2**20) + f"\r\n--{boundary}--\r\n".encode()
    s = socket.create_connection(("127.0.0.1", _port(lan)), timeout=30)
    s.sendall((f"POST /api/delicious/read HTTP/1.1\r\nHost: {lan.root.split('//')[1]}\r\n"
               f"Authorization: Bearer {token}\r\n"
               f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
    answer = _response(s)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert answer.endswith(b'{"error":"the upload could not be read: a file name in it is too '
                           b'long; rename the photo and send it again"}'), answer
    s.sendall(f"GET /alive HTTP/1.1\r\nHost: {lan.root.split('//')[1]}\r\n"
              f"Authorization: Bearer {token}\r\n\r\n".encode())
    assert _response(s).startswith(b"HTTP/1.1 204")
    s.close()


def _response(sock: socket.socket) -> bytes:
    """One whole response (its head and its Content-Length of body) from ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, data
        body += chunk
    return head + b"\r\n\r\n" + body
