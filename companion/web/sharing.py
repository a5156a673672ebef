"""The picture of a saved play (``/plays/{play}/share.png``): its ranking and, for a
Delicious table read from photos, each player's sheet overlays as they are now."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from companion.games.registry import title
from companion.store.history import HistoryRow
from companion.web.delicious import score_table, sheet_overlay, table_sheets
from companion.web.render import WebState, state, whole
from companion.web.share_image import ShareSeat, ShareTable, share_png
from companion.web.share_links import saved_row, share_of
from companion.web.supply import night_supply


def _overlays(st: WebState, row: HistoryRow) -> tuple[tuple[str, tuple[bytes, ...]], ...]:
    """Each player's overlays (ranking order) when the play is a Delicious table read
    from photos; none for a score pad."""
    if row.game != "delicious" or row.scoring_id is None:
        return ()
    items = table_sheets(st, row.scoring_id)
    if not items:
        return ()
    scoring = st.store.scoring(row.scoring_id)
    table = score_table(items, night_supply(st.store, scoring.night_id))
    by_name = {p.name: p for p in table.players}
    order = [s.spelled for s in sorted(row.seats, key=lambda s: (s.place is None,
                                                                 s.place or 0))]
    names = [n for n in order if n in by_name] + [n for n in by_name if n not in order]
    return tuple((n, tuple(sheet_overlay(table, k) for k in by_name[n].keys)) for n in names)


def share_table(st: WebState, play_id: int) -> ShareTable:
    row = saved_row(st.store, play_id)
    seats = tuple(ShareSeat(s.place, s.name, s.score, s.winner)
                  for s in sorted(row.seats, key=lambda s: (s.place is None, s.place or 0)))
    where = " · ".join(x for x in (row.date, row.night, row.location) if x)
    return ShareTable(title(row.game), where, seats, _overlays(st, row), row.tiebreak)


async def share_picture(request: Request) -> Response:
    st = state(request)
    play_id = whole(request.path_params["play"], "play")
    share = share_of(st.store, play_id)
    data = await run_in_threadpool(lambda: share_png(share_table(st, play_id)))
    return Response(data, media_type="image/png", headers={
        "Cache-Control": "no-store",
        "Content-Disposition": f'inline; filename="{share.filename}"'})


ROUTES_POST: tuple[tuple[str, Callable[[Request], Awaitable[Response]]], ...] = ()
ROUTES_GET = (("/plays/{play:int}/share.png", share_picture),)
