"""The ``companion serve`` application: the pages for game night and the JSON API,
gathered from one module per page.

``create_app`` builds everything from its arguments (no module-level state): the store,
the access token of ``--lan`` mode and the in-memory cache of sheet readings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from companion.errors import CompanionError
from companion.store import Store
from companion.web import (
    api,
    bigscreen,
    delicious,
    dice,
    history,
    join,
    offline,
    pads,
    printing,
    sharing,
    supply,
    tonight,
)
from companion.web.constants import (
    PHOTO_READ_S,
    READ_QUEUE_PHOTOS,
    READER_PROCESSES,
    SHEET_CACHE_ENTRIES,
    THINK_LIMIT_S,
    THINKERS,
)
from companion.web.dice import cut_words
from companion.web.ratelimit import RateLimiter
from companion.web.readers import ReaderPool, ReadingCache
from companion.web.readqueue import ReadQueue
from companion.web.render import (
    WebState,
    new_once,
    on_companion_error,
    on_crash,
    on_http_error,
    place_in_queue,
)
from companion.web.security import Guard
from companion.web.thinking import Thinker
from companion.web.tonight import join_link
from companion.web.uploads import sweep_leftovers
from companion.web.workers import PageWorkers

STATIC_DIR = Path(__file__).parent / "static"
Handler = Callable[[Request], Awaitable[Response]]
# each with ROUTES_POST and ROUTES_GET
PAGES = (tonight, delicious, dice, pads, printing, supply, sharing, join, bigscreen)

__all__ = ["create_app", "join_link"]


def _routes(method: str, table: Sequence[tuple[str, Handler]]) -> list[Route]:
    return [Route(p, h, methods=[method]) for p, h in table]


def _off_loop(routes: Sequence[Route], workers: PageWorkers) -> list[BaseRoute]:
    """The same routes, each page run in a worker (companion.web.workers)."""
    return [Route(r.path, workers.wrap(r.endpoint), methods=sorted((r.methods or set())
                                                                    - {"HEAD"}))
            for r in routes]


def create_app(store: Store, token: str | None = None, join_url: str | None = None,
               readers: ReaderPool | None = None,
               allowed_hosts: frozenset[str] | None = None,
               think_limit_s: float = THINK_LIMIT_S,
               read_queue: int = READ_QUEUE_PHOTOS, *,
               join_token: str | None = None, public: str | None = None,
               loopback_hosts: frozenset[str] = frozenset(),
               host_url: str | None = None, join_link_url: str | None = None,
               limiter: RateLimiter | None = None) -> Guard:
    """The ASGI app over ``store``; with ``token`` every request must carry it, with
    ``allowed_hosts`` its Host header must name one of them.

    ``readers`` reads photos (worker processes); the caller closes the pool it passes.
    A long engine question (Dulce's advice) is stopped after ``think_limit_s``; at most
    ``read_queue`` photos wait for the readers (more are answered 503, busy).
    ``join_token`` opens the join link's routes only (``companion.web.roles``); ``public``
    (``https://NAME``) marks cookies Secure and sends the strict headers; ``join_url`` is
    what the pages' QR code shows.
    """
    env = Environment(loader=PackageLoader("companion.web", "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True)
    qr_svg = None
    if join_url is not None:
        import segno

        qr_svg = segno.make(join_url, error="m").svg_inline(scale=5, dark="#111",
                                                            light="#fff", border=2,
                                                            omitsize=True)
    pages: list[Route] = list(history.routes())
    for module in PAGES:
        pages += _routes("POST", module.ROUTES_POST)
    pages += _routes("POST", api.ROUTES_POST)
    for module in PAGES:
        pages += _routes("GET", module.ROUTES_GET)
    queue = ReadQueue(read_queue, READER_PROCESSES, PHOTO_READ_S)
    routes = _off_loop(pages, PageWorkers(queue))
    routes.append(Route("/queue", place_in_queue, methods=["GET"]))
    routes += [Route("/alive", offline.alive, methods=["GET"]),
               Route("/sw.js", offline.service_worker, methods=["GET"])]
    routes.append(Route("/big/events", bigscreen.events, methods=["GET"]))  # on the loop
    routes += [Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
               Route("/api/{rest:path}", api.not_found, methods=["GET", "POST"])]
    app = Starlette(routes=routes, exception_handlers={
        CompanionError: on_companion_error, HTTPException: on_http_error,
        Exception: on_crash})
    sweep_leftovers(store)  # what uploads interrupted by a stop or a crash left
    pool = readers or ReaderPool(READER_PROCESSES)
    app.state.web = WebState(store, ReadingCache(SHEET_CACHE_ENTRIES), pool, env, token,
                             join_url, qr_svg, Thinker(think_limit_s, THINKERS), queue,
                             public=public, host_url=host_url, join_link=join_link_url)
    if token is not None:
        app.state.web.secret = token
    env.globals["static"] = lambda name: f"/static/{name}"
    env.globals["once"] = new_once
    env.filters["cut_words"] = cut_words
    return Guard(app, token, allowed_hosts, join_token=join_token, public=public is not None,
                 loopback_hosts=loopback_hosts, limiter=limiter)
