"""The access token of ``--lan`` mode and the same-origin rule for forms."""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.fileio import write_atomic
from companion.store.errors import StoreError
from companion.web.constants import (
    MAX_FORM_BYTES,
    TOKEN_BYTES,
    TOKEN_COOKIE,
    TOKEN_FILE,
    UPLOAD_PATHS,
)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def kept_token(root: Path, rotate: bool = False) -> str:
    """The ``--lan`` token kept in the data directory (readable by its owner only), so a
    restart does not make every phone scan again; made anew when missing or ``rotate``."""
    path = root / TOKEN_FILE
    try:
        if not rotate and path.is_file():
            token = path.read_text(encoding="ascii").strip()
            if len(token) >= TOKEN_BYTES and token.replace("-", "").replace("_", "").isalnum():
                return token
        token = new_token()
        write_atomic(path, token.encode("ascii") + b"\n")
        path.chmod(0o600)
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"cannot keep the access token in {path}: {exc}") from None
    return token


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


# The names a server on this machine answers to in every mode.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def host_name(header: str) -> str | None:
    """The host name of a Host header ("[::1]:8000" -> "::1"), lower case; None if the
    header is not a host and optional port."""
    try:
        parts = urlsplit("//" + header)
        name = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    if not name or parts.path or parts.query or parts.fragment or parts.username:
        return None
    return name.lower()


class Guard:
    """400 for a Host the server was not started for, 403 for a request without the token
    (``--lan``) and for a cross-site POST.

    The Host check stops DNS rebinding: a web page on evil.example that re-points its name
    at 127.0.0.1 reaches this server with ``Host: evil.example``. (Starlette's
    TrustedHostMiddleware cuts the header at the first colon, so it cannot accept an IPv6
    literal such as ``[::1]:8000``; hence this small parser.) ``allowed_hosts`` None skips
    the check, for an app used in-process (tests).

    The token may come as ``?t=`` (the URL in the QR code), then rides in a cookie; it is
    compared in constant time. A browser sends Origin on every cross-origin POST, so a
    POST whose Origin is another site, or that the browser marks cross-site, is refused;
    scripts that send neither (curl) are let through to the token check.
    """

    def __init__(self, app: ASGIApp, token: str | None,
                 allowed_hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.token = token
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        denied = self._denied(request)
        if denied is not None:
            await denied(scope, receive, send)
            return
        set_cookie = bool(self.token is not None and request.query_params.get("t")
                          and request.cookies.get(TOKEN_COOKIE) != self.token)
        cookie = (f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Lax; "
                  "Max-Age=86400").encode()
        static = request.url.path.startswith("/static/")

        async def send_guarded(message: dict) -> None:  # type: ignore[type-arg]
            if message["type"] == "http.response.start":
                # Pages carry the token (links, the QR code) and crops a player's sheet:
                # neither may stay in a shared cache or leak to another site through a Referer
                # ("same-origin": "no-referrer" would make the browser send "Origin: null"
                # with our own forms). Only static
                # files and what a route marks private (one phone's own cache) are kept.
                headers = [(k, v) for k, v in message.get("headers", [])
                           if static or k.lower() != b"cache-control"
                           or v.lower().startswith(b"private")]
                headers.append((b"referrer-policy", b"same-origin"))
                if not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                if set_cookie:
                    headers.append((b"set-cookie", cookie))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_guarded)  # type: ignore[arg-type]

    def _denied(self, request: Request) -> Response | None:
        api = request.url.path.startswith("/api/")
        if self.allowed_hosts is not None:
            name = host_name(request.headers.get("host", ""))
            if name is None or name not in self.allowed_hosts:
                return _refuse(api, "this server does not answer to that host name; use the "
                                    "URL companion serve printed", status=400)
        if self.token is not None:
            given = request.query_params.get("t") or request.cookies.get(TOKEN_COOKIE) or ""
            auth = request.headers.get("authorization", "")
            if auth.lower().startswith("bearer "):
                given = auth[7:].strip()
            if not _same(given, self.token):
                return _refuse(api, "the access token is missing or wrong: scan the QR code "
                                    "again or use the URL companion serve printed")
        if request.method == "POST" and not _same_origin(request):
            return _refuse(api, "this form was sent from another site")
        if request.method == "POST" and request.url.path not in UPLOAD_PATHS:
            size = request.headers.get("content-length", "")
            if not (size.isascii() and size.isdigit()):
                return _refuse(api, "send the form with its length (Content-Length)",
                               status=411)
            if int(size) > MAX_FORM_BYTES:
                return _refuse(api, f"the form is larger than {MAX_FORM_BYTES // 1024} KB",
                               status=413)
        return None


def _refuse(api: bool, message: str, status: int = 403) -> Response:
    if api:
        return JSONResponse({"error": message}, status_code=status)
    return PlainTextResponse(message, status_code=status)


def _same_origin(request: Request) -> bool:
    if request.headers.get("sec-fetch-site", "") == "cross-site":
        return False
    origin = request.headers.get("origin")
    if origin is None:
        referer = request.headers.get("referer")
        if referer is None:
            return True
        origin = referer
    parts = urlsplit(origin)
    if origin == "null" or not parts.netloc:
        return False
    return parts.netloc.lower() == (request.headers.get("host") or "").lower()
