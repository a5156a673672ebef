"""Tonight: the night's players and plays, a new night, and the join QR code."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from companion.store import NotFoundError
from companion.store.history import count_plays
from companion.web.paging import paging
from companion.web.render import form_once, go, page, state, whole

TONIGHT_PAGE_PLAYS = 30  # the night's plays a page shows, newest first


async def tonight(request: Request) -> Response:
    st = state(request)
    night = st.store.current_night()
    pages = paging(request, count_plays(st.store, night_id=night.id), TONIGHT_PAGE_PLAYS)
    plays = st.store.plays(night_id=night.id, latest=pages.size, skip=pages.skip)
    return page(request, "tonight.html", players=st.store.night_players(night.id),
                plays=list(reversed(plays)), standings=st.store.night_standings(night.id),
                paging=pages)


async def new_night(request: Request) -> Response:
    form = await request.form()
    keep = form.get("keep") == "on"
    state(request).store.new_night(str(form.get("name") or "") or None, carry_players=keep,
                                   once=form_once(form))
    return go(request, "/")


async def add_player(request: Request) -> Response:
    form = await request.form()
    st = state(request)
    st.store.add_player(st.store.current_night().id, str(form.get("name", "")))
    return go(request, "/")


async def rename_player(request: Request) -> Response:
    form = await request.form()
    state(request).store.rename_player(whole(request.path_params["pid"], "player"),
                                       str(form.get("name", "")))
    return go(request, "/")


async def delete_play(request: Request) -> Response:
    form = await request.form()
    state(request).store.delete_play(whole(request.path_params["play"], "play"),
                                     once=form_once(form))
    return go(request, "/")


async def qr(request: Request) -> Response:
    svg = state(request).join_qr_svg
    if svg is None:
        raise NotFoundError("the QR code is shown in --lan mode only")
    return Response(svg, media_type="image/svg+xml")


async def favicon(request: Request) -> Response:
    """The icon browsers ask for at /favicon.ico whatever the page says."""
    return FileResponse(Path(__file__).parent / "static" / "favicon.ico",
                        media_type="image/x-icon",
                        headers={"Cache-Control": "public, max-age=86400"})


def join_link(base: str, token: str | None) -> str:
    return f"{base}/?{urlencode({'t': token})}" if token else f"{base}/"


ROUTES_POST = (
    ("/night/new", new_night), ("/players/add", add_player),
    ("/players/{pid:int}/rename", rename_player), ("/plays/{play:int}/delete", delete_play),
)
ROUTES_GET = (("/", tonight), ("/qr.svg", qr), ("/favicon.ico", favicon))
