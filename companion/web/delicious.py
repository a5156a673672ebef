"""The Delicious page: photos of a table's sheets uploaded, read, paired, corrected by
hand, scored and saved, with each sheet's overlay and the crops of fields to check.

The table is scored by ``companion.games.delicious.read_table``, the path ``companion
delicious read`` takes; this module only shapes it for the page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from companion.errors import CompanionError, InputError
from companion.games.delicious.field_words import field_words
from companion.games.delicious.players import FieldLike
from companion.games.delicious.read_table import ReadTable, SameName, TableSheet, pair_table
from companion.games.delicious.supply import Supply
from companion.games.registry import BY_SLUG
from companion.paper.model import FieldSpec, SheetGeometry
from companion.store import NewPhoto, Photo
from companion.text import ascii_number
from companion.web.constants import CROP_GROW_MM
from companion.web.drawings import keep_table_drawings
from companion.web.pictures import encode_jpeg
from companion.web.readers import SHEET
from companion.web.render import (
    WebState,
    form_reading,
    go,
    owned_reading,
    page,
    scoring_of,
    state,
    whole,
)
from companion.web.share_links import share_of
from companion.web.supply import night_supply
from companion.web.uploads import photos, read_form, read_uploads

if TYPE_CHECKING:
    from companion.vision.sheet.reader import SheetReading


# How far a field's tap target reaches past its printed box, in box sizes on each side:
# as far as it goes with no two fields' targets overlapping on any Delicious sheet.
TAP_GROW = 0.15


def sheet_json(reading: SheetReading) -> dict[str, Any]:
    """The reading as stored: what the photo showed, without the sheet's own score and
    problems, which a correction or the table's other sheets change (they are recomputed)."""
    doc = dict(reading.to_json())
    doc.pop("score", None)
    doc.pop("violations", None)
    return doc


@dataclass(frozen=True)
class ReviewField:
    key: int  # the sheet item holding the field
    field: str
    kind: str
    value: str | None
    confidence: float
    allowed: tuple[str, ...]
    corrected: bool
    words: str = ""  # where the field is on the paper, for people (field_words)
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # left, top, w, h: % of page
    state: str = "ok"  # ok, review or problem: the colour the overlay draws it in


@dataclass(frozen=True)
class Question:
    """A group of one player's alike drawings to name with one tap (``questions`` of
    ``delicious read --json``): its fields as (sheet item, field), the guess and choices."""

    id: str
    fields: tuple[tuple[int, str], ...]
    guess: str | None
    choices: tuple[str, ...]
    what: str = "drawing"  # what its cells hold: "drawing" or "letter"


@dataclass(frozen=True)
class PlayerResult:
    name: str
    keys: tuple[int, ...]  # the sheet items that make this player
    doc: dict[str, Any]  # exactly one player's ``delicious read --json`` document
    review: tuple[ReviewField, ...]
    corrected: tuple[ReviewField, ...]
    every: dict[int, tuple[ReviewField, ...]] = dataclasses.field(default_factory=dict)
    # every field of each sheet (after corrections): the tap targets over its overlay
    questions: tuple[Question, ...] = ()
    named: tuple[tuple[int, str], ...] = ()  # a field of each group named by hand (undo)
    # drawings named like the player's own named drawings of earlier sheets, no question
    own_named: int = 0
    # drawings named like the player's drawings in their sheet's key, no question
    key_named: int = 0
    # drawings asked about, and the sheet's key left empty: suggest it for next time
    key_hint: bool = False
    # drawings named once the player's answers ruled their other plants out
    answers_named: int = 0

    def pick(self, chosen: str | None) -> ReviewField | None:
        """The field ``KEY:FIELD`` (a tap on the overlay, or the list) if it is this
        player's."""
        key, _, fid = (chosen or "").partition(":")
        if not ascii_number(key, 19):  # not "²", not past any id
            return None
        return next((f for f in self.every.get(int(key), ()) if f.field == fid), None)

    @property
    def problems(self) -> list[str]:
        return [str(v["message"]) for v in self.doc.get("violations", [])]


@dataclass(frozen=True)
class UnpairedSheet:
    """A sheet that makes no whole player (its partner is missing, or its code is on two
    gardens): shown with why, never scored."""

    key: int
    doc: dict[str, Any]  # its entry in ``unpaired`` of ``delicious read --json``
    message: str  # why it is not scored, naming the missing sheet or both photos
    missing: str | None  # the sheet to photograph (delicious-garden or delicious-play)


@dataclass(frozen=True)
class TableScore:
    """The table as the Delicious page shows it, over the one scoring path
    (``companion.games.delicious.read_table``) the command line takes too."""

    read: ReadTable[SheetReading] = dataclasses.field(repr=False, compare=False)
    players: tuple[PlayerResult, ...]  # whole players only: what is scored and saved
    unpaired: tuple[UnpairedSheet, ...] = ()

    @property
    def ranking(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.read.result.standings] if len(self.players) > 1 else []

    @property
    def legal(self) -> bool:
        return self.read.legal

    @property
    def pairing(self) -> list[dict[str, Any]]:
        return [pr.to_json() for pr in self.read.pairing.problems]

    def json(self) -> dict[str, Any]:
        """What ``companion delicious read --json`` prints for these photos."""
        return self.read.document


def _field_view(key: int, reading: FieldLike, spec: FieldSpec, corrected: bool,
                geometry: SheetGeometry | None = None, state: str = "ok") -> ReviewField:
    box = (0.0, 0.0, 0.0, 0.0)
    if geometry is not None:
        pw, ph = geometry.page_mm
        b = spec.box_mm
        g = TAP_GROW * min(b.w, b.h)  # a finger needs more than the printed box
        box = (round((b.x - g) / pw * 100, 3), round((b.y - g) / ph * 100, 3),
               round((b.w + 2 * g) / pw * 100, 3), round((b.h + 2 * g) / ph * 100, 3))
    return ReviewField(key, spec.id, spec.kind.value, reading.value, round(reading.confidence, 3),
                       tuple(spec.allowed), corrected,
                       field_words(geometry, spec.id) if geometry is not None else spec.id,
                       box, state)


def _every_field(key: int, sheet: SheetReading, readings: Mapping[str, FieldLike],
                 review: Collection[str], violating: Collection[str],
                 hand: Collection[str]) -> tuple[ReviewField, ...]:
    """Every field of one sheet as the page offers it for correction, in the sheet's order."""
    out = []
    for spec in sheet.geometry.fields:
        if spec.id not in readings or spec.id not in sheet.readings:
            continue
        state = ("problem" if spec.id in violating else "review" if spec.id in review
                 else "ok")
        out.append(_field_view(key, readings[spec.id], spec, spec.id in hand, sheet.geometry,
                               state))
    return tuple(out)


def score_table(items: Sequence[TableSheet[SheetReading]],
                supply: Supply | None = None) -> TableScore:
    """Pair sheets into players, apply corrections, check and score them as one table,
    exactly as ``companion delicious read --json`` does; a sheet without its partner is
    listed, not scored."""
    if not items:
        raise InputError("no sheets to score")
    read = pair_table(items).score(same_name=SameName.SUFFIX, supply=supply)
    results = []
    for i, p in enumerate(read.players):
        readings = p.readings
        hand = {fid for it in read.owners[i] for fid, _ in it.corrections}
        review, corrected = [], []
        every: dict[int, tuple[ReviewField, ...]] = {}
        violating = {f for v in read.result.violations[i] for f in v.fields}
        asked = {f for q in p.questions for f in q["fields"]}  # shown as questions instead
        key_of = {fid: it.key for it in read.owners[i] for fid in it.reading.readings}
        for it in read.owners[i]:
            g = it.reading.geometry
            specs = {s.id: s for s in g.fields}
            for fid in p.review:
                if fid in specs and fid in it.reading.readings and fid not in asked:
                    review.append(_field_view(it.key, readings[fid], specs[fid], False, g))
            for fid in sorted(hand & set(it.reading.readings)):
                corrected.append(_field_view(it.key, readings[fid], specs[fid], True, g))
            every[it.key] = _every_field(it.key, it.reading, readings, p.review, violating,
                                         hand)
        results.append(PlayerResult(read.names[i], tuple(it.key for it in read.owners[i]),
                                    read.document["players"][i] if "players" in read.document
                                    else _one_player(read.document), tuple(review),
                                    tuple(corrected), every,
                                    tuple(Question(q["id"], tuple((key_of[f], f)
                                                                  for f in q["fields"]),
                                                   q["guess"], tuple(q["choices"]),
                                                   q["what"])
                                          for q in p.questions),
                                    tuple((key_of[g.fields[0]], g.fields[0]) for g in p.groups
                                          if len(g.fields) > 1 and set(g.fields) <= hand),
                                    len(p.named_by_drawings), len(p.named_by_key),
                                    p.key_hint, len(p.named_by_answers)))
    unpaired = []
    for (sheet, p), doc in zip(read.unpaired, read.document.get("unpaired", []), strict=True):
        problem = read.pairing.problem_for(p)
        unpaired.append(UnpairedSheet(sheet.key, doc, problem.message if problem else "",
                                      problem.missing if problem else None))
    return TableScore(read, tuple(results), tuple(unpaired))


def _one_player(doc: dict[str, Any]) -> dict[str, Any]:
    """A lone player's document without the table's keys."""
    return {k: v for k, v in doc.items() if k not in ("pairing", "errors")}


def sheet_overlay(table: TableScore, key: int) -> bytes:
    """The flattened sheet with every reading drawn (after corrections), as a JPEG; a sheet
    left unpaired carries why it is not scored across its top."""
    from companion.vision.sheet.overlay import draw_overlay

    try:
        sheet, m = table.read.marks(key)
    except KeyError:
        raise InputError(f"no sheet {key} in this table") from None
    img = draw_overlay(sheet.reading, m.violating, m.container_points, m.summary, m.review,
                       m.readings, m.notes)
    return encode_jpeg(img)


def field_crop(reading: SheetReading, field: str) -> bytes:
    """A field's box (with a margin) from the flattened sheet, as a PNG."""
    import cv2

    from companion.vision.sheet.marks import box_px, crop

    specs = {s.id: s for s in reading.geometry.fields}
    if field not in specs or field not in reading.readings:
        raise InputError(f"{field!r} is not a field of this sheet")
    b = specs[field].box_mm
    rect = box_px((b.x, b.y, b.w, b.h), reading.registration.px_per_mm, CROP_GROW_MM,
                  reading.readings[field].shift_px)
    patch = crop(reading.rectified, rect)
    ok, buf = cv2.imencode(".png", patch)
    if not ok:  # pragma: no cover
        raise InputError("cannot encode the crop")
    return bytes(buf)


def check_value(reading: SheetReading, field: str, value: str, *, empty: bool) -> None:
    """Refuse a ``value`` the sheet's ``field`` cannot hold (``empty``: "" empties it)."""
    for s in reading.geometry.fields:
        if s.id == field:
            if value not in s.allowed and not (empty and value == ""):
                raise InputError(f"{value!r} is not allowed in {field}; choose "
                                 f"{', '.join(s.allowed)}")
            return
    raise InputError(f"{field!r} is not a field of this sheet")


# ---- routes -------------------------------------------------------------------------------


def _sheet(st: WebState, photo: Photo, label: str) -> SheetReading:
    path = st.store.photo_path(photo)
    return st.cache.get(SHEET, photo.id, lambda: st.readers.sheet(path, label))


def table_sheets(st: WebState, scoring_id: int) -> list[TableSheet[SheetReading]]:
    """The scoring's sheets with their corrections and the players they were given to."""
    names = {p.id: p.name for p in st.store.players()}
    items = []
    for r in st.store.readings(scoring_id):
        if r.kind != SHEET:
            continue
        photo = st.store.photo(r.photo_id)
        reading = st.drawings.read_with(st.store, _sheet(st, photo, str(r.doc["photo"])),
                                        r.player_id)
        fixes = tuple((c.field, c.value) for c in st.store.corrections(r.id))
        items.append(TableSheet(r.id, reading, fixes,
                                names.get(r.player_id) if r.player_id else None))
    return items


async def delicious(request: Request) -> Response:
    st = state(request)
    sid = request.query_params.get("s")
    context: dict[str, object] = {"scoring": None, "table": None, "table_error": None,
                                  "last_fix": {}}
    if sid:
        scoring = st.store.scoring(whole(sid, "scoring"))
        context["scoring"] = scoring
        items = await run_in_threadpool(table_sheets, st, scoring.id)
        if items:
            try:
                context["table"] = score_table(items, night_supply(st.store,
                                                                  scoring.night_id))
            except CompanionError as exc:
                context["table_error"] = str(exc)
        context["readings"] = {it.key: it for it in items}
        # each sheet's undo names the correction it takes back, so a double tap undoes one
        context["last_fix"] = {it.key: fixes[-1].id for it in items
                               if (fixes := st.store.corrections(it.key))}
        context["saved"] = st.store.play(scoring.play_id) if scoring.play_id else None
        context["share"] = share_of(st.store, scoring.play_id) if scoring.play_id else None
    night = st.store.current_night()
    context["players"] = st.store.night_players(night.id)
    context["earlier"] = [(sc, len(st.store.photos(sc.id)))
                          for sc in reversed(st.store.scorings(night.id, "delicious"))]
    return page(request, "delicious.html", **context)


async def upload(request: Request) -> Response:
    st = state(request)
    form = await read_form(request)
    ups = await photos(form)
    sid = form.get("s")
    into = scoring_of(st, sid, "delicious").id if sid else None
    fresh = None if sid else ("delicious", st.store.current_night().id)
    # The same photos sent again (a double tap, a retry) are answered with the first.
    again = st.store.kept_photos([NewPhoto(up.data, up.info.media_type, up.info.width,
                                           up.info.height) for up in ups],
                                 scoring_id=into, new_scoring=fresh)
    if again is not None:
        return go(request, f"/delicious?s={again[0]}")
    readings = await run_in_threadpool(read_uploads, st.store, ups, st.readers.sheet)
    # all read before any is kept, and all kept or none
    new = [NewPhoto(up.data, up.info.media_type, up.info.width, up.info.height,
                    reading=(SHEET, sheet_json(reading)))
           for up, reading in zip(ups, readings, strict=True)]
    scoring_id, kept = st.store.add_photos(new, scoring_id=into, new_scoring=fresh, once=True)
    for (photo, _), reading in zip(kept, readings, strict=True):
        st.cache.put(SHEET, photo.id, reading)
    return go(request, f"/delicious?s={scoring_id}")


async def correct(request: Request) -> Response:
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    form = await request.form()
    reading, photo = form_reading(st, sid, form, SHEET)
    rid = reading.id
    field = str(form.get("field", ""))
    value = str(form.get("value", ""))
    sheet = await run_in_threadpool(_sheet, st, photo, str(reading.doc["photo"]))
    check_value(sheet, field, value, empty=True)
    st.store.correct(rid, field, value or None)
    return go(request, f"/delicious?s={sid}#r{rid}")


def group_fields(table: TableScore, key: int, fid: str) -> list[tuple[int, str]]:
    """(sheet item, field) of every drawing grouped with ``fid`` of sheet ``key``."""
    for i, p in enumerate(table.read.players):
        keys = {f: it.key for it in table.read.owners[i] for f in it.reading.readings}
        if keys.get(fid) == key:
            return [(keys[f], f) for f in p.group_of(fid)]
    raise InputError(f"{fid!r} is not a field of this table")


def _grouped_with(st: WebState, sid: int, key: int, fid: str) -> list[tuple[int, str]]:
    """The fields grouped with ``fid`` of sheet ``key`` in scoring ``sid`` as the table
    reads now (corrections included): the groups are the whole table's, not one sheet's."""
    supply = night_supply(st.store, st.store.scoring(sid).night_id)
    table = score_table(table_sheets(st, sid), supply)
    return group_fields(table, key, fid)


async def name(request: Request) -> Response:
    """One tap names a whole group of alike drawings (``--name FIELD=PLANT``)."""
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    form = await request.form()
    reading, photo = form_reading(st, sid, form, SHEET)
    field, value = str(form.get("field", "")), str(form.get("value", ""))
    sheet = await run_in_threadpool(_sheet, st, photo, str(reading.doc["photo"]))
    check_value(sheet, field, value, empty=False)
    for key, fid in await run_in_threadpool(_grouped_with, st, sid, reading.id, field):
        st.store.correct(key, fid, value)
    return go(request, f"/delicious?s={sid}#r{reading.id}")


async def unname(request: Request) -> Response:
    """Undo one tap's naming: the latest correction of every field of the group."""
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    form = await request.form()
    rid = form_reading(st, sid, form, SHEET)[0].id
    field = str(form.get("field", ""))
    for key, fid in await run_in_threadpool(_grouped_with, st, sid, rid, field):
        mine = [c for c in st.store.corrections(key) if c.field == fid]
        if mine:
            st.store.undo_correction(key, mine[-1].id)
    return go(request, f"/delicious?s={sid}#r{rid}")


async def undo(request: Request) -> Response:
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    form = await request.form()
    rid = form_reading(st, sid, form, SHEET)[0].id
    cid = form.get("correction")
    st.store.undo_correction(rid, whole(cid, "correction") if cid else None)
    return go(request, f"/delicious?s={sid}#r{rid}")


async def player(request: Request) -> Response:
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    form = await request.form()
    rid = form_reading(st, sid, form, SHEET)[0].id
    pid = form.get("player")
    st.store.set_reading_player(rid, whole(pid, "player") if pid else None)
    return go(request, f"/delicious?s={sid}")


async def save(request: Request) -> Response:
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    scoring = st.store.scoring(sid)
    items = await run_in_threadpool(table_sheets, st, sid)
    kept = night_supply(st.store, scoring.night_id)
    table = score_table(items, kept)
    outcome = BY_SLUG["delicious"].play(table.json())
    # The store decides, in the saving transaction, whether this table is saved already
    # (a double tap answers with the first play) or saved differently (replaced).
    play = st.store.save_outcome(outcome, night_id=scoring.night_id, source="web",
                                 scoring_id=sid)
    # each player's drawings named at this table read their next sheets
    await run_in_threadpool(keep_table_drawings, st.store, table.read,
                            {r.id: r.player_id for r in st.store.readings(sid)})
    return go(request, "/", play=play.id)


async def overlay(request: Request) -> Response:
    st = state(request)
    reading, _ = owned_reading(st, request, SHEET)
    sid = whole(request.path_params["sid"], "s")
    items = await run_in_threadpool(table_sheets, st, sid)
    table = score_table(items, night_supply(st.store, st.store.scoring(sid).night_id))
    data = await run_in_threadpool(sheet_overlay, table, reading.id)
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


async def crop(request: Request) -> Response:
    st = state(request)
    reading, photo = owned_reading(st, request, SHEET)
    sheet = await run_in_threadpool(_sheet, st, photo, str(reading.doc["photo"]))
    data = field_crop(sheet, request.query_params.get("field", ""))
    return Response(data, media_type="image/png",
                    headers={"Cache-Control": "private, max-age=3600"})


ROUTES_POST = (
    ("/delicious/upload", upload),
    ("/delicious/{sid:int}/correct", correct),
    ("/delicious/{sid:int}/undo", undo),
    ("/delicious/{sid:int}/name", name),
    ("/delicious/{sid:int}/unname", unname),
    ("/delicious/{sid:int}/player", player),
    ("/delicious/{sid:int}/save", save),
)
ROUTES_GET = (
    ("/delicious", delicious),
    ("/delicious/{sid:int}/overlay/{rid:int}.jpg", overlay),
    ("/delicious/{sid:int}/crop/{rid:int}.png", crop),
)
