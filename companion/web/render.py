"""What every page shares: the app's state, rendering a template with the base context,
answering a POST, turning errors into a page or a JSON line, and the form helpers that
find a stored scoring or reading and refuse one from another table."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

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
from companion.text import ascii_number
from companion.web.busy import BusyError
from companion.web.constants import DRAWINGS_CACHE_ENTRIES, MAX_ERROR_CHARS
from companion.web.drawings import KeptDrawings
from companion.web.readers import ReaderPool, ReadingCache
from companion.web.readqueue import ReadQueue
from companion.web.remote_state import RemoteState
from companion.web.roles import Role
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
    public: str | None = None  # --public's https://NAME
    host_url: str | None = None  # the host's link, absolute
    join_link: str | None = None  # the join link for remote players, absolute
    remote: RemoteState = field(default_factory=RemoteState)
    # players' kept drawings, parsed (web/drawings.py)
    drawings: KeptDrawings = field(default_factory=lambda: KeptDrawings(DRAWINGS_CACHE_ENTRIES))
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    # signs a remote player's name cookie (the host token when there is one)


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


def go(request: Request, url: str, **made: int) -> Response:
    """After a POST: JSON clients get the next page's address (and what was made, such as
    the saved ``play``), browsers a redirect."""
    if wants_json(request):
        return JSONResponse({"location": url, **made})
    return RedirectResponse(url, status_code=303)


# A form's one-time key (``once``): rendered into the page, kept with the change it makes,
# so a double tap or a resent form is answered with the first change.
_ONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_once() -> str:
    return secrets.token_urlsafe(18)


def form_once(form: FormData | Mapping[str, object]) -> str | None:
    """The form's one-time key, if it carries one."""
    value = form.get("once")
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _ONCE.fullmatch(value):
        raise InputError("the form's one-time key is not one this server wrote; "
                         "open the page again")
    return value


@dataclass(frozen=True)
class UndoOffer:
    """An undo button on an error page: the latest correction of one photo's reading."""

    action: str
    reading: int
    correction: int
    label: str
    dice: bool  # the dice page's correct route, which undoes with ``undo=1``


def undo_offers(request: Request) -> list[UndoOffer]:
    """Undo for each correction in force in the scoring the request names (``s`` or the
    path's ``sid``), so an error page never leaves a table stuck behind a correction."""
    st = state(request)
    sid = request.path_params.get("sid", request.query_params.get("s"))
    if sid is None:
        return []
    try:
        scoring = st.store.scoring(whole(sid, "scoring"))
        out = []
        for r in st.store.readings(scoring.id):
            fixes = st.store.corrections(r.id)
            if not fixes:
                continue
            dice = scoring.game == "diced-veggies"
            action = f"/{'dice' if dice else 'delicious'}/{scoring.id}/" + (
                "correct" if dice else "undo")
            out.append(UndoOffer(action, r.id, fixes[-1].id, str(r.doc.get("photo", "")),
                                 dice))
        return out
    except CompanionError:
        return []


def error_response(request: Request, message: str, status: int,
                   headers: Mapping[str, str] | None = None) -> Response:
    line = " ".join(message.split()) or "something went wrong"
    if len(line) > MAX_ERROR_CHARS:  # a message quoting what a client sent, however long
        line = line[:MAX_ERROR_CHARS - 1] + "…"
    if wants_json(request):
        return JSONResponse({"error": line}, status_code=status, headers=headers)
    if status in (503, 507):  # the page itself needs the store: a plain one, no night
        return HTMLResponse(plain_error(line), status_code=status, headers=headers)
    # A remote player's page has no host menu and no host's undo: both would be refused.
    joined = getattr(request.state, "role", None) == Role.JOIN
    response = render(request, "error.html", status, {
        "error": line, "undo": [] if joined else undo_offers(request), "joined": joined})
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


MAX_ID = 2**63 - 1  # SQLite's largest integer: no id is larger


def whole(value: object, what: str) -> int:
    """A number from a form or a URL (an id or a count), refused in words when it is not
    one or is past any id (Python's int() would take "²", "1_0" and 5,000 digits)."""
    text = str(value).strip()
    digits = text.removeprefix("-")
    if not ascii_number(digits):
        raise InputError(f"{what} must be a number")
    if len(digits) > len(str(MAX_ID)) or int(digits) > MAX_ID:
        raise InputError(f"{what} is out of range: no {what} has a number that large")
    return int(text)


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
