"""Who a request speaks for, and the one list of what the join link may do.

A night has two links: the host's (everything) and the join link that remote players
share. The join link may only reach the routes in ``JOIN_ROUTES``; the Guard answers 403
to everything else, so a page added later is the host's until it is added here.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from starlette.routing import BaseRoute, Match, Mount
from starlette.types import Scope


class Role(StrEnum):
    HOST = "host"  # the host's link (or no token at all: a server on this machine only)
    JOIN = "join"  # the join link: a remote player
    NONE = "none"  # no valid token: refused, but still counted by the rate limits


# (method, route path as registered). What a remote player does: pick or add a name,
# send their own sheets (and see their place in the read queue), see their own score,
# breakdown and questions, answer them, and see the ranking once the host reveals it.
JOIN_ROUTES: frozenset[tuple[str, str]] = frozenset({
    ("GET", "/join"),
    ("POST", "/join/name"),
    ("POST", "/join/upload"),
    ("GET", "/join/me"),
    ("POST", "/join/correct"),
    ("POST", "/join/plant"),
    ("POST", "/join/undo"),
    ("GET", "/join/crop/{rid:int}.png"),
    ("GET", "/queue"),
    ("GET", "/favicon.ico"),
    ("GET", "/static"),  # the stylesheet, the scripts and the icons
    ("GET", "/alive"),  # how the pages' script knows the server is back after a dropped Wi-Fi
    ("GET", "/sw.js"),  # the service worker: the static shell and the offline page only
})
JOIN_REFUSED = ("the join link can only add your name, send your own sheets and see your "
                "own score: ask the host for anything else")


def route_path(routes: Iterable[BaseRoute], scope: Scope) -> str | None:
    """The registered path of the route that would answer ``scope`` (a Mount's prefix for
    a file under it), or None when none would."""
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return route.path if isinstance(route, Mount) else getattr(route, "path", None)
    return None


def join_may(routes: Iterable[BaseRoute], scope: Scope) -> bool:
    """May the join link make this request? Only a route of ``JOIN_ROUTES``."""
    method = "GET" if scope.get("method") == "HEAD" else str(scope.get("method"))
    path = route_path(routes, scope)
    return path is not None and (method, path) in JOIN_ROUTES
