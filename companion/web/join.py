"""The join link's pages: a remote player says who they are, sends their own sheets and
sees their own score, breakdown and questions at once (``companion.web.remote``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from companion.errors import InputError
from companion.games.delicious.players import COMBO_SHEET, GARDEN_SHEET, PLAY_SHEET
from companion.store import NewPhoto, NotFoundError, Player, clean_name
from companion.text import name_key
from companion.web.delicious import (
    TableScore,
    check_value,
    field_crop,
    group_fields,
    sheet_json,
)
from companion.web.readers import SHEET
from companion.web.remote import (
    PLAYER_COOKIE,
    REMOTE,
    board,
    cookie_player,
    light,
    light_sheet,
    own_readings,
    own_table,
    owns,
    player_cookie,
    remote_table,
    table_players,
)
from companion.web.render import WebState, go, page, state, wants_json, whole
from companion.web.uploads import Upload, photos, read_form, read_uploads

PLAYER_COOKIE_S = 2 * 86400  # a game night and the morning after


def _me(request: Request) -> Player | None:
    return cookie_player(state(request), request.cookies.get(PLAYER_COOKIE))


def _need_me(request: Request) -> Player:
    me = _me(request)
    if me is None:
        raise InputError("say who you are first: open the join link again")
    return me


async def join(request: Request) -> Response:
    st = state(request)
    night = st.store.current_night()
    return page(request, "join.html", me=_me(request), players=st.store.night_players(night.id))


async def name(request: Request) -> Response:
    """Pick a name of the night or add one. A name that has already sent sheets from
    another phone is refused: its sheets and answers are that phone's."""
    st = state(request)
    form = await request.form()
    night = st.store.current_night()
    me = _me(request)
    chosen = form.get("player")
    if chosen:
        pid = whole(chosen, "player")
        if pid not in {p.id for p in st.store.night_players(night.id)}:
            raise NotFoundError("that name is not at tonight's table; add yours instead")
        player = st.store.player(pid)
    else:
        typed = str(form.get("name", "")).strip()
        if not typed:
            raise InputError("type your name, or pick it from the list")
        with st.remote.lock:  # two phones typing "Ann" and "ann" at once: one is refused
            _refuse_taken(st, night.id, clean_name(typed, "name"), me)
            player = st.store.add_player(night.id, typed)
    sid = remote_table(st, night.id)
    if (sid is not None and (me is None or me.id != player.id)
            and own_readings(st, sid, player.id)):
        raise InputError(f"{player.name} has already sent sheets from another phone; pick "
                         f"another name, or ask the host")
    if not chosen:
        st.remote.changed()
    response = go(request, "/join/me")
    response.set_cookie(PLAYER_COOKIE, player_cookie(st, player.id), max_age=PLAYER_COOKIE_S,
                        httponly=True, samesite="lax", secure=st.public is not None)
    return response


def _refuse_taken(st: WebState, night_id: int, typed: str, me: Player | None) -> None:
    """Refuse a typed name that is one of the table's (joined or sent) as the store compares
    names ("ann", "ANN", full-width letters): two phones would become one player. The
    phone that is that player may type it again."""
    key = name_key(typed)
    for player in table_players(st, night_id):
        if name_key(player.name) == key and (me is None or me.id != player.id):
            raise InputError(f"{typed!r} is taken at this table ({player.name}): pick it "
                             "from the list if it is yours, or type another name")


async def me(request: Request) -> Response:
    st = state(request)
    player = _me(request)
    if player is None:
        return RedirectResponse("/join", status_code=303)
    night = st.store.current_night()
    sid = remote_table(st, night.id)
    table = await run_in_threadpool(own_table, st, sid, player, night.id) if sid else None
    sheets = {str(r.doc.get("sheet")) for r in own_readings(st, sid, player.id)} if sid else set()
    if sheets & {GARDEN_SHEET} and PLAY_SHEET not in sheets:
        next_sheet = "your play sheet"
    elif sheets & {PLAY_SHEET} and GARDEN_SHEET not in sheets:
        next_sheet = "your garden sheet"
    else:
        next_sheet = ""
    doc = board(st) if night.id in st.remote.revealed else None
    if wants_json(request):
        return JSONResponse(me_json(player, table, doc["ranking"] if doc else None))
    return page(request, "join_me.html", me=player, table=table, next_sheet=next_sheet,
                sent=bool(sheets), combo=COMBO_SHEET in sheets,
                ranking=doc["ranking"] if doc else None)


def me_json(player: Player, table: TableScore | None,
            ranking: list[dict[str, Any]] | None) -> dict[str, Any]:
    """``GET /join/me`` for a script: the player's own score, breakdown and questions."""
    p = table.players[0] if table and table.players else None
    return {
        "player": player.name,
        "total": p.doc["score"]["total"] if p else None,
        "breakdown": p.doc["score"]["breakdown"] if p else None,
        "problems": p.problems if p else [],
        "questions": [{"reading": f.key, "field": f.field, "words": f.words, "value": f.value,
                       "allowed": list(f.allowed)} for f in p.review] if p else [],
        # groups of alike drawings (or letters) named with one POST /join/plant each
        "groups": [{"id": q.id, "fields": [{"reading": k, "field": f} for k, f in q.fields],
                    "guess": q.guess, "choices": list(q.choices), "what": q.what}
                   for q in p.questions] if p else [],
        "unpaired": [u.message for u in table.unpaired] if table else [],
        "ranking": ranking,
    }


def _sent(st: WebState, night_id: int, player_id: int) -> set[str]:
    """The bytes (sha256) of the photos that are the player's sheets now."""
    sid = remote_table(st, night_id)
    if sid is None:
        return set()
    return {st.store.photo(r.photo_id).sha256 for r in own_readings(st, sid, player_id)}


def _refuse_others(st: WebState, night_id: int, player_id: int, ups: Sequence[Upload],
                   digests: Sequence[str]) -> None:
    """Refuse a photo whose bytes another player of the remote table sent: one sheet, never
    two players who tie."""
    sid = remote_table(st, night_id)
    if sid is None:
        return
    for r in st.store.readings(sid):
        if r.kind != SHEET or r.player_id is None or r.player_id == player_id:
            continue
        digest = st.store.photo(r.photo_id).sha256
        if digest in digests:
            up = ups[digests.index(digest)]
            other = st.store.player(r.player_id).name
            raise InputError(f"{up.label} is a copy of {r.doc.get('photo')}, which {other} "
                             "sent (the same bytes): send a photo of your own sheet")


async def upload(request: Request) -> Response:
    st = state(request)
    player = _need_me(request)
    form = await read_form(request)
    ups = await photos(form)
    night = st.store.current_night()
    digests = [up.sha256 for up in ups]
    if set(digests) <= _sent(st, night.id, player.id):
        return go(request, "/join/me")  # a double tap or a retry: kept once, not read again
    _refuse_others(st, night.id, player.id, ups, digests)
    readings = await run_in_threadpool(read_uploads, st.store, ups, st.readers.sheet)
    with st.remote.lock:  # one remote table a night, however many phones send at once
        sent = _sent(st, night.id, player.id)  # what a send at the same time kept
        _refuse_others(st, night.id, player.id, ups, digests)  # or another phone's
        fresh = []
        for up, reading, digest in zip(ups, readings, digests, strict=True):
            if digest not in sent:
                sent.add(digest)
                fresh.append((reading, NewPhoto(up.data, up.info.media_type, up.info.width,
                                                up.info.height, role=REMOTE,
                                                reading=(SHEET, sheet_json(reading)))))
        if not fresh:
            return go(request, "/join/me")
        new = [n for _, n in fresh]
        sid = remote_table(st, night.id)
        if sid is None:
            made, kept = st.store.add_photos(new, new_scoring=("delicious", night.id))
            assert made is not None
            st.remote.tables[night.id] = made
        else:
            _, kept = st.store.add_photos(new, scoring_id=sid)
        for _, stored in kept:  # the player's before the next send looks (_sent)
            if stored is not None:
                st.store.set_reading_player(stored.id, player.id)
        readings = [r for r, _ in fresh]
    for (photo, _), reading in zip(kept, readings, strict=True):
        st.cache.put(SHEET, photo.id, reading)
        st.remote.light.put(SHEET, photo.id, light(reading))
    st.remote.changed()
    return go(request, "/join/me")


async def correct(request: Request) -> Response:
    st = state(request)
    player = _need_me(request)
    form = await request.form()
    reading = owns(st, player, whole(form.get("reading"), "reading"))
    field = str(form.get("field", ""))
    value = str(form.get("value", ""))
    sheet = await run_in_threadpool(light_sheet, st, st.store.photo(reading.photo_id),
                                    str(reading.doc["photo"]))
    check_value(sheet, field, value, empty=True)
    st.store.correct(reading.id, field, value or None)
    st.remote.changed()
    return go(request, f"/join/me#r{reading.id}")


async def plant(request: Request) -> Response:
    """One tap names a whole group of the player's alike drawings (the host's ``name``)."""
    st = state(request)
    player = _need_me(request)
    form = await request.form()
    reading = owns(st, player, whole(form.get("reading"), "reading"))
    field, value = str(form.get("field", "")), str(form.get("value", ""))
    sheet = await run_in_threadpool(light_sheet, st, st.store.photo(reading.photo_id),
                                    str(reading.doc["photo"]))
    check_value(sheet, field, value, empty=False)
    night = st.store.current_night()
    sid = remote_table(st, night.id)
    table = await run_in_threadpool(own_table, st, sid, player, night.id) if sid else None
    if table is None or not table.players:
        raise InputError("send both of your sheets first: a drawing is named on a whole sheet")
    # the table is the player's own sheets only, so every field of the group is theirs
    for key, fid in group_fields(table, reading.id, field):
        st.store.correct(key, fid, value)
    st.remote.changed()
    return go(request, f"/join/me#r{reading.id}")


async def undo(request: Request) -> Response:
    st = state(request)
    player = _need_me(request)
    form = await request.form()
    reading = owns(st, player, whole(form.get("reading"), "reading"))
    st.store.undo_correction(reading.id)
    st.remote.changed()
    return go(request, f"/join/me#r{reading.id}")


async def crop(request: Request) -> Response:
    st = state(request)
    player = _need_me(request)
    reading = owns(st, player, whole(request.path_params["rid"], "reading"))
    photo = st.store.photo(reading.photo_id)
    sheet = await run_in_threadpool(st.cache.get, SHEET, photo.id, lambda: st.readers.sheet(
        st.store.photo_path(photo), str(reading.doc["photo"])))
    data = field_crop(sheet, request.query_params.get("field", ""))
    return Response(data, media_type="image/png",
                    headers={"Cache-Control": "private, max-age=3600"})




ROUTES_POST = (
    ("/join/name", name),
    ("/join/upload", upload),
    ("/join/correct", correct),
    ("/join/plant", plant),
    ("/join/undo", undo),
)
ROUTES_GET = (
    ("/join", join),
    ("/join/me", me),
    ("/join/crop/{rid:int}.png", crop),
)
