"""The ``companion serve`` application: pages for game night and the JSON API.

``create_app`` builds everything from its arguments (no module-level state): the store,
the access token of ``--lan`` mode and the in-memory cache of sheet readings.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from companion.errors import CompanionError, IllegalMoveError, InputError
from companion.games.outcome import Finished
from companion.games.registry import BY_SLUG, TITLES
from companion.store import NotFoundError, Store
from companion.web import history_routes, pads, services
from companion.web.constants import READER_PROCESSES, SHEET_CACHE_ENTRIES
from companion.web.security import Guard
from companion.web.uploads import Upload, photos, read_form

SHEET = "delicious-sheet"
DICE = "dice-block"
STATIC_DIR = Path(__file__).parent / "static"


@dataclass
class WebState:
    store: Store
    cache: services.ReadingCache
    readers: services.ReaderPool
    env: Environment
    token: str | None
    join_url: str | None
    join_qr_svg: str | None


def _state(request: Request) -> WebState:
    return request.app.state.web  # type: ignore[no-any-return]


# ---- responses ----------------------------------------------------------------------------


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", "").split(",")[0]


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    st = _state(request)
    night = st.store.current_night()
    html = st.env.get_template(name).render(
        request=request, night=night, games=TITLES, join_url=st.join_url,
        join_qr_svg=st.join_qr_svg, path=request.url.path, **context)
    return HTMLResponse(html, status_code=status)


def _go(request: Request, url: str) -> Response:
    """After a POST: JSON clients get the next page's address, browsers a redirect."""
    if _wants_json(request):
        return JSONResponse({"location": url})
    return RedirectResponse(url, status_code=303)


def _error_response(request: Request, message: str, status: int) -> Response:
    line = " ".join(message.split()) or "something went wrong"
    if _wants_json(request):
        return JSONResponse({"error": line}, status_code=status)
    return _page(request, "error.html", status=status, error=line)


async def _on_companion_error(request: Request, exc: Exception) -> Response:
    status = 404 if isinstance(exc, NotFoundError) else 422 if isinstance(
        exc, CompanionError) and exc.exit_code == 1 else 400
    return _error_response(request, str(exc), status)


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error_response(request, str(exc.detail), exc.status_code)


async def _on_crash(request: Request, exc: Exception) -> Response:
    name = type(exc).__name__
    return _error_response(request, f"internal error ({name}); nothing was changed", 500)


def _int(value: Any, what: str) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise InputError(f"{what} must be a number") from None


@contextlib.contextmanager
def _temp_photo(store: Store, up: Upload) -> Iterator[Path]:
    """The upload under a server-chosen temporary name while a reader looks at it."""
    tmp = store.root / "tmp"
    tmp.mkdir(exist_ok=True)
    path = tmp / f"{secrets.token_hex(12)}{'.heic' if 'hei' in up.info.media_type else '.img'}"
    path.write_bytes(up.data)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


# ---- Tonight ------------------------------------------------------------------------------


async def tonight(request: Request) -> Response:
    st = _state(request)
    night = st.store.current_night()
    plays = st.store.plays(night_id=night.id)
    return _page(request, "tonight.html", players=st.store.night_players(night.id),
                 plays=list(reversed(plays)), standings=st.store.night_standings(night.id),
                 nights=len(st.store.nights()))


async def new_night(request: Request) -> Response:
    form = await request.form()
    keep = form.get("keep") == "on"
    _state(request).store.new_night(str(form.get("name") or "") or None, carry_players=keep)
    return _go(request, "/")


async def add_player(request: Request) -> Response:
    form = await request.form()
    st = _state(request)
    st.store.add_player(st.store.current_night().id, str(form.get("name", "")))
    return _go(request, "/")


async def rename_player(request: Request) -> Response:
    form = await request.form()
    _state(request).store.rename_player(_int(request.path_params["pid"], "player"),
                                        str(form.get("name", "")))
    return _go(request, "/")


async def delete_play(request: Request) -> Response:
    _state(request).store.delete_play(_int(request.path_params["play"], "play"))
    return _go(request, "/")


# ---- Delicious ----------------------------------------------------------------------------


def _sheet(st: WebState, photo: Any, label: str) -> Any:
    path = st.store.photo_path(photo)
    return st.cache.get(SHEET, photo.id, lambda: st.readers.sheet(path, label))


def _dice_reading(st: WebState, photo: Any, label: str) -> Any:
    path = st.store.photo_path(photo)
    return st.cache.get(DICE, photo.id, lambda: st.readers.dice(path, label))


def _sheet_items(st: WebState, scoring_id: int) -> list[services.SheetItem]:
    names = {p.id: p.name for p in st.store.players()}
    items = []
    for r in st.store.readings(scoring_id):
        if r.kind != SHEET:
            continue
        photo = st.store.photo(r.photo_id)
        reading = _sheet(st, photo, str(r.doc["photo"]))
        fixes = tuple((c.field, c.value) for c in st.store.corrections(r.id))
        items.append(services.SheetItem(r.id, reading, fixes,
                                        names.get(r.player_id) if r.player_id else None))
    return items


async def delicious(request: Request) -> Response:
    st = _state(request)
    sid = request.query_params.get("s")
    context: dict[str, Any] = {"scoring": None, "table": None, "table_error": None}
    if sid:
        scoring = st.store.scoring(_int(sid, "scoring"))
        context["scoring"] = scoring
        items = await run_in_threadpool(_sheet_items, st, scoring.id)
        if items:
            try:
                context["table"] = services.score_table(items)
            except CompanionError as exc:
                context["table_error"] = str(exc)
        context["readings"] = {it.key: it for it in items}
        context["saved"] = st.store.play(scoring.play_id) if scoring.play_id else None
    night = st.store.current_night()
    context["players"] = st.store.night_players(night.id)
    context["earlier"] = [(sc, len(st.store.photos(sc.id)))
                          for sc in reversed(st.store.scorings(night.id, "delicious"))]
    return _page(request, "delicious.html", **context)


def _read_uploads(st: WebState, ups: list[Upload],
                  read: Callable[[Path, str], Any]) -> list[Any]:
    """Each upload read from a temporary file by ``read`` (a sheet or a dice reader)."""
    out = []
    for up in ups:
        with _temp_photo(st.store, up) as path:
            out.append(read(path, up.label))
    return out


def _read_sheets(st: WebState, ups: list[Upload]) -> list[Any]:
    return _read_uploads(st, ups, st.readers.sheet)


async def delicious_upload(request: Request) -> Response:
    st = _state(request)
    form = await read_form(request)
    ups = await photos(form)
    readings = await run_in_threadpool(_read_sheets, st, ups)  # all read before any is kept
    sid = form.get("s")
    night = st.store.current_night()
    scoring = (_scoring_of(st, sid, "delicious") if sid
               else st.store.new_scoring("delicious", night.id))
    for up, reading in zip(ups, readings, strict=True):
        photo, _ = st.store.add_photo(up.data, up.info.media_type, up.info.width,
                                      up.info.height, scoring_id=scoring.id,
                                      reading=(SHEET, services.sheet_json(reading)))
        st.cache.put(SHEET, photo.id, reading)
    return _go(request, f"/delicious?s={scoring.id}")


async def delicious_correct(request: Request) -> Response:
    st = _state(request)
    sid = _int(request.path_params["sid"], "scoring")
    form = await request.form()
    reading, photo = _form_reading(st, sid, form, SHEET)
    rid = reading.id
    field = str(form.get("field", ""))
    value = str(form.get("value", ""))
    sheet = await run_in_threadpool(_sheet, st, photo, str(reading.doc["photo"]))
    allowed = services.field_allowed(sheet, field)
    if value != "" and value not in allowed:
        raise InputError(f"{value!r} is not allowed in {field}; choose {', '.join(allowed)}")
    st.store.correct(rid, field, value or None)
    return _go(request, f"/delicious?s={sid}#r{rid}")


async def delicious_undo(request: Request) -> Response:
    st = _state(request)
    sid = _int(request.path_params["sid"], "scoring")
    form = await request.form()
    rid = _form_reading(st, sid, form, SHEET)[0].id
    st.store.undo_correction(rid)
    return _go(request, f"/delicious?s={sid}#r{rid}")


async def delicious_player(request: Request) -> Response:
    st = _state(request)
    sid = _int(request.path_params["sid"], "scoring")
    form = await request.form()
    rid = _form_reading(st, sid, form, SHEET)[0].id
    pid = form.get("player")
    st.store.set_reading_player(rid, _int(pid, "player") if pid else None)
    return _go(request, f"/delicious?s={sid}")


async def delicious_save(request: Request) -> Response:
    st = _state(request)
    sid = _int(request.path_params["sid"], "scoring")
    scoring = st.store.scoring(sid)
    items = await run_in_threadpool(_sheet_items, st, sid)
    outcome = BY_SLUG["delicious"].play(services.score_table(items).json())
    if scoring.play_id:
        st.store.delete_play(scoring.play_id)
    st.store.save_outcome(outcome, night_id=scoring.night_id, source="web", scoring_id=sid)
    return _go(request, "/")


def _form_reading(st: WebState, sid: int, form: Any, kind: str) -> tuple[Any, Any]:
    """The reading a form names, refused unless it belongs to the scoring in the URL."""
    reading = st.store.reading(_int(form.get("reading"), "reading"))
    photo = st.store.photo(reading.photo_id)
    if photo.scoring_id != sid or reading.kind != kind:
        raise NotFoundError(f"no reading {reading.id} in scoring {sid}")
    return reading, photo


def _scoring_of(st: WebState, sid: Any, game: str) -> Any:
    scoring = st.store.scoring(_int(sid, "scoring"))
    if scoring.game != game:
        raise NotFoundError(f"no {game} scoring {scoring.id}")
    return scoring


def _owned_reading(st: WebState, request: Request, kind: str) -> tuple[Any, Any]:
    sid = _int(request.path_params["sid"], "scoring")
    reading = st.store.reading(_int(request.path_params["rid"], "reading"))
    photo = st.store.photo(reading.photo_id)
    if photo.scoring_id != sid or reading.kind != kind:
        raise NotFoundError("no such picture")
    return reading, photo


async def delicious_overlay(request: Request) -> Response:
    st = _state(request)
    reading, _ = _owned_reading(st, request, SHEET)
    items = await run_in_threadpool(_sheet_items, st, _int(request.path_params["sid"], "s"))
    table = services.score_table(items)
    data = await run_in_threadpool(services.sheet_overlay, table, reading.id)
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


async def delicious_crop(request: Request) -> Response:
    st = _state(request)
    reading, photo = _owned_reading(st, request, SHEET)
    sheet = await run_in_threadpool(_sheet, st, photo, str(reading.doc["photo"]))
    data = services.field_crop(sheet, request.query_params.get("field", ""))
    return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})


# ---- Diced Veggies ------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceView:
    rid: int
    role: str
    label: str
    reading: Any  # DiceReading after corrections
    read_doc: dict[str, Any]
    corrections: list[Any]
    cuts: dict[str, Any] | None
    cuts_error: str | None
    spots: list[services.DieSpot]
    aspect: float  # height / width of the overlay picture


def _dice_views(st: WebState, scoring_id: int) -> list[DiceView]:
    out = []
    for r in st.store.readings(scoring_id):
        if r.kind != DICE:
            continue
        photo = st.store.photo(r.photo_id)
        raw = _dice_reading(st, photo, str(r.doc["photo"]))
        fixes = st.store.corrections(r.id)
        reading = services.corrected_dice(raw, [(c.field, c.value) for c in fixes])
        cuts, err = None, None
        try:
            cuts = services.dice_cuts_json(reading)
        except CompanionError as exc:
            err = str(exc)
        spots, aspect = services.dice_spots(reading, (photo.width, photo.height))
        out.append(DiceView(r.id, photo.role, str(r.doc["photo"]), reading,
                            services.dice_read_json(reading, str(r.doc["photo"])), fixes,
                            cuts, err, spots, aspect))
    return out


async def dice(request: Request) -> Response:
    st = _state(request)
    sid = request.query_params.get("s")
    context: dict[str, Any] = {"scoring": None, "views": [], "verdict": None,
                               "verdict_error": None, "cut": None}
    if sid:
        scoring = st.store.scoring(_int(sid, "scoring"))
        views = await run_in_threadpool(_dice_views, st, scoring.id)
        context.update(scoring=scoring, views=views)
        roles = {v.role: v for v in views}
        if "before" in roles and "after" in roles:
            try:
                context["verdict"] = services.dice_check_json(roles["before"].reading,
                                                              roles["after"].reading)
            except CompanionError as exc:
                context["verdict_error"] = str(exc)
        cut = request.query_params.get("cut")
        if cut is not None and cut.isdigit():
            context["cut"] = int(cut)
    context["ingredients"] = services.INGREDIENTS
    return _page(request, "dice.html", **context)


def _read_dice_uploads(st: WebState, ups: list[Upload]) -> list[Any]:
    return _read_uploads(st, ups, st.readers.dice)


async def dice_upload(request: Request) -> Response:
    st = _state(request)
    form = await read_form(request)
    ups = (await photos(form))[:1]
    role = str(form.get("role") or "block")
    if role not in ("block", "before", "after"):
        raise InputError("role must be block, before or after")
    sid = form.get("s")
    scoring = None
    if role == "after":
        if not sid:
            raise InputError("snap the block before the cut first")
        scoring = _scoring_of(st, sid, "diced-veggies")
        if [p.role for p in st.store.photos(scoring.id)] != ["before"]:
            raise InputError("an after photo goes with one before photo; snap before first")
    (reading,) = await run_in_threadpool(_read_dice_uploads, st, ups)
    if scoring is None:
        scoring = st.store.new_scoring("diced-veggies", st.store.current_night().id)
    up = ups[0]
    photo, _ = st.store.add_photo(up.data, up.info.media_type, up.info.width, up.info.height,
                                  scoring_id=scoring.id, role=role,
                                  reading=(DICE, services.dice_read_json(reading, up.label)))
    st.cache.put(DICE, photo.id, reading)
    return _go(request, f"/dice?s={scoring.id}")


async def dice_correct(request: Request) -> Response:
    st = _state(request)
    sid = _int(request.path_params["sid"], "scoring")
    form = await request.form()
    rid = _form_reading(st, sid, form, DICE)[0].id
    if form.get("undo"):
        st.store.undo_correction(rid)
        return _go(request, f"/dice?s={sid}")
    cell = str(form.get("cell", ""))
    value = str(form.get("value", ""))
    services.parse_cell(cell)
    services.parse_die(value)
    st.store.correct(rid, cell, value)
    return _go(request, f"/dice?s={sid}")


async def dice_overlay(request: Request) -> Response:
    st = _state(request)
    reading, photo = _owned_reading(st, request, DICE)
    views = await run_in_threadpool(_dice_views, st, _int(request.path_params["sid"], "s"))
    view = next(v for v in views if v.rid == reading.id)
    doc: dict[str, Any] | None = view.cuts
    cut = request.query_params.get("cut")
    if view.role == "after":
        before = next((v for v in views if v.role == "before"), None)
        doc = services.dice_check_json(before.reading, view.reading) if before else None
    elif cut is not None and cut.isdigit() and view.cuts and int(cut) < len(view.cuts["cuts"]):
        chosen = view.cuts["cuts"][int(cut)]
        doc = {"legal": True, "taken": chosen["taken"], "sum": chosen["sum"], "cut": chosen}
    data = await run_in_threadpool(services.dice_overlay, st.store.photo_path(photo),
                                   view.reading, doc)
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


# ---- score pads ---------------------------------------------------------------------------


def _pad_game(request: Request) -> str:
    game = str(request.path_params["game"])
    if game not in pads.PADS:
        raise NotFoundError(f"no score pad for {game!r}")
    return game


async def pad(request: Request) -> Response:
    st = _state(request)
    game = _pad_game(request)
    names = [p.name for p in st.store.night_players(st.store.current_night().id)]
    rows = min(pads.MAX_PAD_PLAYERS, max(len(names), 2))
    return _pad_page(request, game, rows, {}, None, None)


def _pad_page(request: Request, game: str, rows: int, values: dict[str, str],
              result: Finished | None, advice: list[str] | None) -> Response:
    st = _state(request)
    names = [p.name for p in st.store.night_players(st.store.current_night().id)]
    return _page(request, "pad.html", game=game, title=TITLES[game],
                 columns=pads.PADS[game], rows=rows, values=values, result=result,
                 advice=advice, suggestions=names)


async def pad_post(request: Request) -> Response:
    st = _state(request)
    game = _pad_game(request)
    form = await request.form()
    values = {k: str(v) for k, v in form.items()}
    rows = min(pads.MAX_PAD_PLAYERS, max(2, _int(form.get("rows", "2"), "rows")))
    if form.get("action") == "more":
        rows = min(pads.MAX_PAD_PLAYERS, rows + 1)
        return _pad_page(request, game, rows, values, None, None)
    if form.get("action") in ("score-order", "best-harvest"):
        try:
            doc = json.loads(str(form.get("state", "")))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"the Dulce state is not JSON: {exc.msg} at line {exc.lineno}") from None
        lines, _ = services.dulce_advice(str(form.get("action")), doc)
        return _pad_page(request, game, rows, values, None, lines)
    info = BY_SLUG[game]
    result = info.score_pad(pads.state_from_form(game, values))
    if form.get("action") == "save":
        if result.problems:
            raise IllegalMoveError(f"not saved: {result.problems[0]}")
        st.store.save_outcome(info.play(result.doc), night_id=st.store.current_night().id,
                              source="web")
        return _go(request, "/")
    return _pad_page(request, game, rows, values, result, None)


# ---- print --------------------------------------------------------------------------------


async def print_page(request: Request) -> Response:
    return _page(request, "print.html", sheets=services.sheet_choices())


async def print_post(request: Request) -> Response:
    form = await request.form()
    names = [str(n) for n in form.getlist("sheet")]
    paper = str(form.get("paper", "letter"))
    variant = str(form.get("variant", "A"))
    copies = _int(form.get("players", "1"), "players")
    data = await run_in_threadpool(services.print_pdf, names, paper,
                                   form.get("colour") == "bw", variant, copies)
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": 'attachment; filename="companion-sheets.pdf"'})


# ---- JSON API -----------------------------------------------------------------------------


def _api_flags(request: Request) -> tuple[bool, bool]:
    q = request.query_params
    return q.get("full_only") in ("1", "true"), q.get("kids") in ("1", "true")


async def api_delicious_read(request: Request) -> Response:
    st = _state(request)
    ups = await photos(await read_form(request))
    readings = await run_in_threadpool(_read_sheets, st, ups)
    table = services.score_table([services.SheetItem(i, r) for i, r in enumerate(readings)])
    return JSONResponse(table.json())


async def _api_dice(request: Request, what: Callable[[Any, str], dict[str, Any]]) -> Response:
    st = _state(request)
    ups = await photos(await read_form(request))
    if len(ups) != 1:
        raise InputError("send exactly one photo of the block")
    (reading,) = await run_in_threadpool(_read_dice_uploads, st, ups)
    return JSONResponse(what(reading, ups[0].label))


async def api_dice_read(request: Request) -> Response:
    return await _api_dice(request, services.dice_read_json)


async def api_dice_cuts(request: Request) -> Response:
    full_only, kids = _api_flags(request)
    return await _api_dice(request, lambda r, _: services.dice_cuts_json(r, full_only, kids))


async def api_not_found(request: Request) -> Response:
    return JSONResponse({"error": f"no such API: {request.method} {request.url.path}"},
                        status_code=404)


def _qr_page(request: Request) -> Response:
    svg = _state(request).join_qr_svg
    if svg is None:
        raise NotFoundError("the QR code is shown in --lan mode only")
    return Response(svg, media_type="image/svg+xml")


async def qr(request: Request) -> Response:
    return _qr_page(request)


def join_link(base: str, token: str | None) -> str:
    return f"{base}/?{urlencode({'t': token})}" if token else f"{base}/"


# ---- the application ----------------------------------------------------------------------


def create_app(store: Store, token: str | None = None, join_url: str | None = None,
               readers: services.ReaderPool | None = None) -> Any:
    """The ASGI app over ``store``; with ``token`` every request must carry it.

    ``readers`` reads photos (worker processes); the caller closes the pool it passes.
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
    Handler = Callable[[Request], Awaitable[Response]]
    post: list[tuple[str, Handler]] = [
        ("/night/new", new_night), ("/players/add", add_player),
        ("/players/{pid:int}/rename", rename_player), ("/plays/{play:int}/delete", delete_play),
        ("/delicious/upload", delicious_upload),
        ("/delicious/{sid:int}/correct", delicious_correct),
        ("/delicious/{sid:int}/undo", delicious_undo),
        ("/delicious/{sid:int}/player", delicious_player),
        ("/delicious/{sid:int}/save", delicious_save),
        ("/dice/upload", dice_upload), ("/dice/{sid:int}/correct", dice_correct),
        ("/pads/{game}", pad_post), ("/print", print_post),
        ("/api/delicious/read", api_delicious_read), ("/api/dice/read", api_dice_read),
        ("/api/dice/cuts", api_dice_cuts),
    ]
    get: list[tuple[str, Handler]] = [
        ("/", tonight), ("/delicious", delicious), ("/dice", dice), ("/pads/{game}", pad),
        ("/print", print_page), ("/qr.svg", qr),
        ("/delicious/{sid:int}/overlay/{rid:int}.jpg", delicious_overlay),
        ("/delicious/{sid:int}/crop/{rid:int}.png", delicious_crop),
        ("/dice/{sid:int}/overlay/{rid:int}.jpg", dice_overlay),
    ]
    routes: list[Any] = history_routes.routes()
    routes += [Route(p, h, methods=["POST"]) for p, h in post]
    routes += [Route(p, h, methods=["GET"]) for p, h in get]
    routes += [Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
               Route("/api/{rest:path}", api_not_found, methods=["GET", "POST"])]
    app = Starlette(routes=routes, exception_handlers={
        CompanionError: _on_companion_error, HTTPException: _on_http_error,
        Exception: _on_crash})
    pool = readers or services.ReaderPool(READER_PROCESSES)
    app.state.web = WebState(store, services.ReadingCache(SHEET_CACHE_ENTRIES), pool, env,
                             token, join_url, qr_svg)
    env.globals["static"] = lambda name: f"/static/{name}"
    env.filters["cut_words"] = services.cut_words
    return Guard(app, token)
