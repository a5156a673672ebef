"""History and standings pages: every saved play, a play opened with its pictures, and
each game's table with a chart of the players' scores night by night (Chart.js, shipped
in static/vendor, so the page draws offline)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import NamedTuple

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from companion.errors import InputError
from companion.games.registry import GAMES, title
from companion.games.registry import game as game_info
from companion.store import Correction, NotFoundError, Photo, Reading, Store
from companion.store.history import (
    HistoryRow,
    check_date,
    count_plays,
    history,
    play_detail,
)
from companion.store.standings import score_series, standings
from companion.web.paging import paging
from companion.web.readers import DICE, SHEET
from companion.web.render import page, state, whole
from companion.web.share_links import share_of

API_PAGE_MAX = 1000  # plays one /api/history page holds at most

CHART_JS_VERSION = "4.6.1"
CHART_JS = "vendor/chart.umd.min.js"
HISTORY_PAGE_PLAYS = 100  # plays a page of the history shows, newest first


def _store(request: Request) -> Store:
    return state(request).store


class Filters(NamedTuple):
    """The history page's filters (query parameters; empty means all)."""

    game: str | None
    player: str | None
    since: str | None


def _filters(request: Request) -> Filters:
    q = request.query_params
    since = q.get("since") or None
    if since is not None:  # named as the page's filter is, not as the command line's --since
        since = check_date(since, "since")
    return Filters(q.get("game") or None, q.get("player") or None, since)


async def history_page(request: Request) -> Response:
    store = _store(request)
    f = _filters(request)
    total = count_plays(store, game=f.game, player=f.player, since=f.since)
    pages = paging(request, total, HISTORY_PAGE_PLAYS)
    rows = history(store, game=f.game, player=f.player, since=f.since, latest=pages.size,
                   skip=pages.skip)
    return page(request, "history.html", rows=list(reversed(rows)), total=total, paging=pages,
                 filters=f, game_list=GAMES, titles={g.slug: g.title for g in GAMES},
                 player_list=[p.name for p in store.players()])


async def history_api(request: Request) -> Response:
    """Every play (as ``history --json``), or with ``latest=N`` one page of the newest N
    after ``skip`` newer ones, with the filtered ``total``: a store of 200,000 plays need
    not be sent whole."""
    f = _filters(request)
    store = _store(request)
    q = request.query_params
    if "latest" not in q and "skip" not in q:
        rows = history(store, game=f.game, player=f.player, since=f.since)
        return JSONResponse({"plays": [r.to_json() for r in rows]})
    latest = whole(q.get("latest", str(API_PAGE_MAX)), "latest")
    skip = whole(q.get("skip", "0"), "skip")
    if not 1 <= latest <= API_PAGE_MAX or skip < 0:
        raise InputError(f"latest must be 1 to {API_PAGE_MAX} and skip 0 or more")
    rows = history(store, game=f.game, player=f.player, since=f.since, latest=latest,
                   skip=skip)
    total = count_plays(store, game=f.game, player=f.player, since=f.since)
    return JSONResponse({"plays": [r.to_json() for r in rows], "total": total})


def _one(store: Store, play_id: int) -> HistoryRow:
    rows = history(store, ids=[play_id])
    if not rows:
        raise NotFoundError(f"no play {play_id}")
    return rows[0]


@dataclass(frozen=True)
class Picture:
    """A play's photo as its page shows it: the overlay the app draws and the corrections."""

    photo: Photo
    label: str
    overlay: str | None
    scoring: int
    kind: str | None
    corrections: list[Correction]


def _pictures(store: Store, play_id: int) -> list[Picture]:
    """The play's photos, with the overlay page the app draws for each and its corrections."""
    out = []
    for s in _scorings(store, play_id):
        for photo in store.photos(s):
            readings: list[Reading | None] = [
                r for r in store.readings(s) if r.photo_id == photo.id]
            for r in readings or [None]:
                overlay = None
                if r is not None and r.kind == SHEET:
                    overlay = f"/delicious/{s}/overlay/{r.id}.jpg"
                elif r is not None and r.kind == DICE:
                    overlay = f"/dice/{s}/overlay/{r.id}.jpg"
                out.append(Picture(
                    photo, str(r.doc.get("photo", "")) if r else photo.file, overlay, s,
                    r.kind if r else None,
                    store.corrections(r.id, include_undone=True) if r else []))
    return out


def _scorings(store: Store, play_id: int) -> list[int]:
    from companion.store.aliases import rows

    return [int(r["id"]) for r in rows(store, "SELECT id FROM scorings WHERE play_id = ? "
                                              "ORDER BY id", (play_id,))]


async def play_page(request: Request) -> Response:
    store = _store(request)
    play_id = whole(request.path_params["play"], "play")
    row = _one(store, play_id)
    detail = play_detail(store, play_id)
    return page(request, "history_play.html", row=row, game_title=title(row.game),
                 pictures=_pictures(store, play_id), share=share_of(store, play_id),
                 share_overlays=row.game == "delicious" and row.scoring_id is not None,
                 detail=json.dumps(detail, indent=1, sort_keys=True) if detail else None)


async def photo_file(request: Request) -> Response:
    """A stored photo by its id (the file name comes from the store, never the request)."""
    store = _store(request)
    photo = store.photo(whole(request.path_params["photo"], "photo"))
    path = store.photo_path(photo)
    if not path.is_file():
        raise NotFoundError(f"photo {photo.id} is missing from {store.photo_dir}")
    return FileResponse(path, media_type=photo.media_type,
                        headers={"Cache-Control": "private, max-age=86400"})


async def standings_page(request: Request) -> Response:
    tables = standings(_store(request))
    return page(request, "standings.html", tables=tables, game=None, chart=None,
                 game_list=GAMES, chart_js=CHART_JS)


async def game_standings_page(request: Request) -> Response:
    store = _store(request)
    try:
        slug = game_info(str(request.path_params["game"])).slug
    except InputError as exc:
        raise NotFoundError(str(exc)) from None
    (table,) = standings(store, slug)
    chart = score_series(store, slug)
    chart["score_label"] = game_info(slug).score_label
    return page(request, "standings.html", tables=[table], game=slug, chart=chart,
                 game_list=GAMES, chart_js=CHART_JS)


async def standings_api(request: Request) -> Response:
    game = request.query_params.get("game") or None
    return JSONResponse({"standings": [t.to_json() for t in standings(_store(request), game)]})


def routes() -> list[Route]:
    """The routes to put in front of the app's own (before its /api catch-all)."""
    return [
        Route("/history", history_page, methods=["GET"]),
        Route("/history/plays/{play:int}", play_page, methods=["GET"]),
        Route("/history/photos/{photo:int}", photo_file, methods=["GET"]),
        Route("/standings", standings_page, methods=["GET"]),
        Route("/standings/{game}", game_standings_page, methods=["GET"]),
        Route("/api/history", history_api, methods=["GET"]),
        Route("/api/standings", standings_api, methods=["GET"]),
    ]
