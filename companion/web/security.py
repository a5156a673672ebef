"""The access token of ``--lan`` mode and the same-origin rule for forms."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.web.constants import TOKEN_BYTES, TOKEN_COOKIE


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class Guard:
    """403 for a request without the token (``--lan``) and for a cross-site POST.

    The token may come as ``?t=`` (the URL in the QR code), then rides in a cookie; it is
    compared in constant time. A browser sends Origin on every cross-origin POST, so a
    POST whose Origin is another site, or that the browser marks cross-site, is refused;
    scripts that send neither (curl) are let through to the token check.
    """

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        denied = self._denied(request)
        if denied is not None:
            await denied(scope, receive, send)
            return
        set_cookie = (self.token is not None and request.query_params.get("t")
                      and request.cookies.get(TOKEN_COOKIE) != self.token)
        if not set_cookie:
            await self.app(scope, receive, send)
            return
        token = self.token or ""

        async def send_with_cookie(message: dict) -> None:  # type: ignore[type-arg]
            if message["type"] == "http.response.start":
                cookie = (f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; "
                          "Max-Age=86400")
                message.setdefault("headers", []).append((b"set-cookie", cookie.encode()))
            await send(message)

        await self.app(scope, receive, send_with_cookie)  # type: ignore[arg-type]

    def _denied(self, request: Request) -> Response | None:
        api = request.url.path.startswith("/api/")
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
        return None


def _refuse(api: bool, message: str) -> Response:
    if api:
        return JSONResponse({"error": message}, status_code=403)
    return PlainTextResponse(message, status_code=403)


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
