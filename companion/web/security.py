"""The access tokens (the host's link and the join link), the Host check, the rate limits
and the same-origin rule for forms."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.fileio import write_atomic
from companion.store.errors import StoreError
from companion.text import ascii_number
from companion.web.constants import (
    MAX_FORM_BYTES,
    TOKEN_BYTES,
    TOKEN_COOKIE,
    TOKEN_FILE,
    UPLOAD_PATHS,
)
from companion.web.ratelimit import RateLimiter, retry_after
from companion.web.roles import JOIN_REFUSED, Role, join_may


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def kept_token(root: Path, rotate: bool = False, name: str = TOKEN_FILE) -> str:
    """A token kept in the data directory (readable by its owner only), so a restart does
    not make every phone scan again; made anew when missing or ``rotate``. ``name``: the
    host's (``--lan``) or the join link's file."""
    path = root / name
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


# Headers every answer carries in --public mode (no HSTS: the host's proxy owns TLS and
# may serve other things under that name). Pages use style attributes (the tap targets'
# boxes), never inline scripts.
PUBLIC_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
     b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(self), microphone=(), geolocation=()"),
)
LOOPBACK_CLIENTS = ("127.0.0.1", "::1")


@dataclass(frozen=True)
class Links:
    """The night's two tokens: the host's (everything) and the join link's (a remote
    player's own sheets, ``companion.web.roles``). No host token: a server for this
    machine only, where every request is the host's."""

    host: str | None = None
    join: str | None = None

    def role(self, given: str) -> Role:
        if self.host is None:
            return Role.HOST
        if _same(given, self.host):
            return Role.HOST
        if self.join is not None and _same(given, self.join):
            return Role.JOIN
        return Role.NONE


class Guard:
    """400 for a Host the server was not started for, 429 past a link's rate limit, 403
    for a request without a token (``--lan``, ``--public``), for the join link outside its
    routes and for a cross-site POST.

    The Host check stops DNS rebinding: a web page on evil.example that re-points its name
    at 127.0.0.1 reaches this server with ``Host: evil.example``. (Starlette's
    TrustedHostMiddleware cuts the header at the first colon, so it cannot accept an IPv6
    literal such as ``[::1]:8000``; hence this small parser.) ``allowed_hosts`` None skips
    the check, for an app used in-process (tests). ``loopback_hosts`` are accepted only
    from this machine (``--public``: the host's own browser, while the world comes through
    the proxy under the public name).

    The token may come as ``?t=`` (the URL in the QR code), then rides in a cookie; it is
    compared in constant time. A browser sends Origin on every cross-origin POST, so a
    POST whose Origin is another site, or that the browser marks cross-site, is refused;
    scripts that send neither (curl) are let through to the token check. The request's
    role goes to the pages in ``request.state.role``.
    """

    def __init__(self, app: ASGIApp, token: str | None,
                 allowed_hosts: frozenset[str] | None = None, *,
                 join_token: str | None = None, public: bool = False,
                 loopback_hosts: frozenset[str] = frozenset(),
                 limiter: RateLimiter | None = None) -> None:
        self.app = app
        self.links = Links(token, join_token if token is not None else None)
        self.allowed_hosts = allowed_hosts
        self.loopback_hosts = loopback_hosts
        self.public = public
        # Limits hold wherever a token is needed (a phone, a remote player); a server for
        # this machine alone is the host's own.
        self.limiter = limiter if limiter is not None else (
            RateLimiter() if token is not None else None)

    @property
    def token(self) -> str | None:
        return self.links.host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = _given_token(request)
        role = self.links.role(given)
        denied = self._denied(request, role)
        if denied is not None:
            await denied(scope, receive, send)
            return
        scope.setdefault("state", {})["role"] = role
        set_cookie = bool(self.links.host is not None and request.query_params.get("t")
                          and request.cookies.get(TOKEN_COOKIE) != given)
        cookie = (f"{TOKEN_COOKIE}={given}; Path=/; HttpOnly; SameSite=Lax; "
                  f"Max-Age=86400{'; Secure' if self.public else ''}").encode()
        static = request.url.path.startswith("/static/")
        public = self.public

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
                if public:
                    headers += PUBLIC_HEADERS
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_guarded)  # type: ignore[arg-type]

    def _host_ok(self, request: Request) -> bool:
        if self.allowed_hosts is None:
            return True
        name = host_name(request.headers.get("host", ""))
        if name is None:
            return False
        if name in self.allowed_hosts:
            return True
        client = request.client.host if request.client else ""
        return name in self.loopback_hosts and client in LOOPBACK_CLIENTS

    def _denied(self, request: Request, role: Role) -> Response | None:
        api = request.url.path.startswith("/api/")
        if not self._host_ok(request):
            return _refuse(api, "this server does not answer to that host name; use the "
                                "URL companion serve printed", status=400, headers=_CLOSE)
        if self.limiter is not None and not (role is not Role.NONE and _shell(request)):
            wait = self.limiter.take(role, request.client.host if request.client else "")
            if wait > 0:
                return _refuse(api, "too many requests from this link or this address; "
                                    f"try again in {retry_after(wait)} s", status=429,
                               headers={"Retry-After": retry_after(wait)})
        if role is Role.NONE:
            return _refuse(api, "the access token is missing or wrong: scan the QR code "
                                "again or use the URL companion serve printed", headers=_CLOSE)
        if role is Role.JOIN and not join_may(getattr(self.app, "routes", ()),
                                              request.scope):
            return _refuse(api, JOIN_REFUSED)
        if request.method == "POST" and not _same_origin(request):
            return _refuse(api, "this form was sent from another site")
        if request.method == "POST" and request.url.path not in UPLOAD_PATHS:
            size = request.headers.get("content-length", "")
            if not ascii_number(size):
                return _refuse(api, "send the form with its length (Content-Length)",
                               status=411)
            if int(size) > MAX_FORM_BYTES:
                return _refuse(api, f"the form is larger than {MAX_FORM_BYTES // 1024} KB",
                               status=413)
        return None


def _given_token(request: Request) -> str:
    given = request.query_params.get("t") or request.cookies.get(TOKEN_COOKIE) or ""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        given = auth[7:].strip()
    return given


SHELL_PATHS = frozenset({"/favicon.ico", "/sw.js", "/alive"})


def _shell(request: Request) -> bool:
    """The pages' static shell and the reconnect check: cheap, fetched several at a time
    by every page a phone opens, so a link's own phones are not limited by them."""
    path = request.url.path
    return request.method == "GET" and (path.startswith("/static/") or path in SHELL_PATHS)


# A stranger's request (no token, another host name) is answered and its connection closed:
# its body is never read, not even to be dropped (companion.web.protocol).
_CLOSE = {"connection": "close"}


def _refuse(api: bool, message: str, status: int = 403,
            headers: dict[str, str] | None = None) -> Response:
    if api:
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    return PlainTextResponse(message, status_code=status, headers=headers)


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
