"""What every page shares: the app's state, rendering a template with the base context,
answering a POST, turning errors into a page or a JSON line, and the form helpers that
find a stored scoring or reading and refuse one from another table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from jinja2 import Environment
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from companion.errors import CompanionError, InputError
from companion.games.registry import TITLES
from companion.store import (
    NotFoundError,
    Photo,
    Reading,
    Scoring,
    Store,
    StoreBusyError,
    StoreFullError,
)
from companion.web.busy import BusyError
from companion.web.readers import ReaderPool, ReadingCache
from companion.web.readqueue import ReadQueue
from companion.web.thinking import Thinker


@dataclass
class WebState:
    store: Store
    cache: ReadingCache
    readers: ReaderPool
    env: Environment
    token: str | None
    join_url: str | None
    join_qr_svg: str | None
    thinker: Thinker
    queue: ReadQueue


def state(request: Request) -> WebState:
    web = request.app.state.web
    assert isinstance(web, WebState)
    return web


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", "").split(",")[0]


def page(request: Request, name: str, **context: object) -> HTMLResponse:
    """The template ``name`` with the base context every page has (night, nav, QR)."""
    return render(request, name, 200, context)


def render(request: Request, name: str, status: int,
           context: Mapping[str, object]) -> HTMLResponse:
    st = state(request)
    night = st.store.current_night()
    html = st.env.get_template(name).render(
        request=request, night=night, games=TITLES, join_url=st.join_url,
        join_qr_svg=st.join_qr_svg, path=request.url.path, **context)
    return HTMLResponse(html, status_code=status)


def go(request: Request, url: str) -> Response:
    """After a POST: JSON clients get the next page's address, browsers a redirect."""
    if wants_json(request):
        return JSONResponse({"location": url})
    return RedirectResponse(url, status_code=303)


def error_response(request: Request, message: str, status: int,
                   headers: Mapping[str, str] | None = None) -> Response:
    line = " ".join(message.split()) or "something went wrong"
    if wants_json(request):
        return JSONResponse({"error": line}, status_code=status, headers=headers)
    if status in (503, 507):  # the page itself needs the store: a plain one, no night
        return HTMLResponse(plain_error(line), status_code=status, headers=headers)
    response = render(request, "error.html", status, {"error": line})
    response.headers.update(headers or {})
    return response


def plain_error(line: str) -> str:
    """An error page that needs nothing from the store (it may be the store's error)."""
    from html import escape

    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport"'
            ' content="width=device-width, initial-scale=1"><meta name="color-scheme" '
            'content="light dark"><title>Try again · companion</title><link rel="stylesheet"'
            ' href="/static/app.css"></head><body><main id="main"><p class="error" '
            f'role="alert">{escape(line)}</p><p><a class="button" href="/">Back to tonight'
            '</a></p></main></body></html>')


# Retry-After of a busy store: a lock held by another process is usually a backup or an
# import, over in seconds.
STORE_RETRY_S = 5


async def on_companion_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, StoreBusyError):
        return error_response(request, str(exc), 503, {"Retry-After": str(STORE_RETRY_S)})
    if isinstance(exc, StoreFullError):
        return error_response(request, str(exc), 507)
    if isinstance(exc, BusyError):
        return error_response(request, str(exc), 503, exc.headers)
    status = 404 if isinstance(exc, NotFoundError) else 422 if isinstance(
        exc, CompanionError) and exc.exit_code == 1 else 400
    return error_response(request, str(exc), status)


async def on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error_response(request, str(exc.detail), exc.status_code)


async def on_crash(request: Request, exc: Exception) -> Response:
    name = type(exc).__name__
    return error_response(request, f"internal error ({name}); nothing was changed", 500)


def whole(value: object, what: str) -> int:
    """A number from a form or a URL, refused in words when it is not one."""
    try:
        return int(str(value))
    except ValueError:
        raise InputError(f"{what} must be a number") from None


def form_reading(st: WebState, sid: int, form: FormData, kind: str) -> tuple[Reading, Photo]:
    """The reading a form names, refused unless it belongs to the scoring in the URL."""
    reading = st.store.reading(whole(form.get("reading"), "reading"))
    photo = st.store.photo(reading.photo_id)
    if photo.scoring_id != sid or reading.kind != kind:
        raise NotFoundError(f"no reading {reading.id} in scoring {sid}")
    return reading, photo


def scoring_of(st: WebState, sid: object, game: str) -> Scoring:
    scoring = st.store.scoring(whole(sid, "scoring"))
    if scoring.game != game:
        raise NotFoundError(f"no {game} scoring {scoring.id}")
    return scoring


def owned_reading(st: WebState, request: Request, kind: str) -> tuple[Reading, Photo]:
    """The reading in the URL (``/<game>/{sid}/.../{rid}``), if that scoring holds it."""
    sid = whole(request.path_params["sid"], "scoring")
    reading = st.store.reading(whole(request.path_params["rid"], "reading"))
    photo = st.store.photo(reading.photo_id)
    if photo.scoring_id != sid or reading.kind != kind:
        raise NotFoundError("no such picture")
    return reading, photo


async def place_in_queue(request: Request) -> Response:
    """Where an upload waits (``?ticket=`` its phone chose): on the loop, never queued
    behind the pages or the photos it reports on."""
    place = state(request).queue.ahead(request.query_params.get("ticket", ""))
    if place is None:
        return JSONResponse({"ahead": None}, headers={"Cache-Control": "no-store"})
    ahead, photos = place
    return JSONResponse({"ahead": ahead, "photos": photos, "line": queue_line(ahead, photos)},
                        headers={"Cache-Control": "no-store"})


def queue_line(ahead: int, photos: int) -> str:
    mine = "your photo" if photos == 1 else "your photos"
    if ahead == 0:
        return f"Reading {mine}…"
    return f"{ahead} photo{'s' if ahead != 1 else ''} ahead of yours"
