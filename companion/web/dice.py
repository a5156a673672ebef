"""The dice page: a block photographed and read, every legal cut drawn on it, dice
corrected by hand, and a cut judged from a photo before and one after.

The documents are the command line's (``companion.games.diced_veggies``); this module
reads the photos, applies the corrections and shapes the overlay for a phone.

The night keeps its dice game's colours: its first photo of a full starting block teaches
them (as ``dice read --save-colours`` does) and every later dice photo that night is read
against them (``--colours``), until they are forgotten. A reading kept in the store holds
the colours it was read with, so reading its photo again gives the same dice.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from companion.errors import CompanionError, InputError
from companion.games.diced_veggies.compare import judge_change
from companion.games.diced_veggies.cutting import CutOptions
from companion.games.diced_veggies.documents import cuts_document
from companion.games.diced_veggies.model import Block, Ingredient
from companion.store import Correction, NewPhoto, Photo, Reading, Store
from companion.store.dice_colours import dice_colours, forget_dice_colours, keep_dice_colours
from companion.text import ascii_number
from companion.vision.dice.doubt_words import doubts_sentence
from companion.web.pictures import encode_jpeg
from companion.web.readers import DICE
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
from companion.web.uploads import photos, read_form, read_uploads

if TYPE_CHECKING:
    from companion.vision.dice.reader import DiceReading

# The dice a correction may name: the engine's own list.
INGREDIENTS: tuple[str, ...] = tuple(i.value for i in Ingredient)


# The key of a stored dice reading's document holding the colours it was read with.
COLOURS_KEY = "colours"


def dice_reading(st: WebState, photo: Photo, reading: Reading) -> DiceReading:
    """The photo's dice, read again (with the colours its reading was read with) when the
    cache no longer holds them."""
    path = st.store.photo_path(photo)
    label, colours = str(reading.doc["photo"]), reading.doc.get(COLOURS_KEY)
    return st.cache.get(DICE, photo.id, lambda: st.readers.dice(path, label, colours))


def learnt_colours(reading: DiceReading) -> dict[str, Any] | None:
    """The dice colours document a full starting block teaches, None for any other block."""
    from companion.vision.dice.colours import learn_colours

    try:
        return learn_colours(reading).to_json()
    except InputError:
        return None


def dice_read_json(reading: DiceReading, label: str) -> dict[str, Any]:
    """Exactly what ``companion dice read --json`` prints."""
    return {"photo": label, **reading.to_json()}


def parse_die(value: str) -> tuple[str, int] | None:
    """``carrot:3`` -> (ingredient, pips); ``none`` -> None (no die there)."""
    if value == "none":
        return None
    name, _, pips = value.partition(":")
    if name not in INGREDIENTS or pips not in tuple("123456"):
        raise InputError(f"a die is INGREDIENT:PIPS (pips 1-6) or none, not {value!r}")
    return name, int(pips)


def parse_cell(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdecimal() and len(p.strip()) <= 3
                                  for p in parts):
        raise InputError(f"a die's cell is ROW,COL, not {text[:40]!r}")
    return int(parts[0]), int(parts[1])


def corrected_dice(reading: DiceReading,
                   corrections: Sequence[tuple[str, str | None]]) -> DiceReading:
    """The reading with dice set by hand (certain, out of review) or removed."""
    dice = {d.cell: d for d in reading.dice}
    for cell_text, value in corrections:
        cell = parse_cell(cell_text)
        if cell not in dice:
            raise InputError(f"no die was read at {cell_text}")
        die = parse_die(value or "none")
        if die is None:
            del dice[cell]
            continue
        dice[cell] = dataclasses.replace(dice[cell], ingredient=Ingredient(die[0]), value=die[1],
                                         confidence=1.0, review=False, flags=())
    kept = [dice[d.cell] for d in reading.dice if d.cell in dice]
    return dataclasses.replace(reading, dice=kept)


def _options(full_only: bool = False, kids: bool = False) -> CutOptions:
    return CutOptions(full_length_only=full_only, kids=kids)


def _block(reading: DiceReading, require_connected: bool = True) -> Block:
    return Block.from_json(reading.block_json(), require_connected=require_connected)


def dice_cuts_json(reading: DiceReading, full_only: bool = False,
                   kids: bool = False) -> dict[str, Any]:
    """Exactly what ``companion dice cuts --json`` prints for the block read."""
    return cuts_document(_block(reading), _options(full_only, kids))


def dice_check_json(before: DiceReading, after: DiceReading, full_only: bool = False,
                    kids: bool = False) -> dict[str, Any]:
    """Exactly what ``companion dice check BEFORE AFTER --json`` prints."""
    change = judge_change(_block(before), _block(after, require_connected=False),
                          _options(full_only, kids))
    return dict(change.to_json())


@dataclass(frozen=True)
class DieSpot:
    """Where a die sits on the dice overlay, in percent of the picture (for tap targets)."""

    row: int
    col: int
    ingredient: str
    value: int
    review: bool
    left: float
    top: float
    size: float  # width and height, percent of the picture's width


def _block_box(reading: DiceReading, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The block with a margin of 1.6 dice: what the phone is shown of the photo."""
    import numpy as np

    h, w = shape[:2]
    if not reading.dice:
        return 0, 0, w, h
    pts = np.concatenate([reading.grid.corners(d.row, d.col) for d in reading.dice])
    pitch = float(np.median([reading.grid.pitch_px(d.row, d.col) for d in reading.dice]))
    (x0, y0), (x1, y1) = pts.min(axis=0) - 1.6 * pitch, pts.max(axis=0) + 1.6 * pitch
    return max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))


def dice_spots(reading: DiceReading,
               photo_size: tuple[int, int]) -> tuple[list[DieSpot], float]:
    """Each die's tap target on the overlay ``dice_overlay`` draws, and the overlay's
    height / width (``photo_size``: the upright photo's width and height)."""
    x0, y0, x1, y1 = _block_box(reading, (photo_size[1], photo_size[0]))
    bw, bh = max(1, x1 - x0), max(1, y1 - y0)
    out = []
    for d in reading.dice:
        cx, cy = reading.grid.center(d.row, d.col)
        size = reading.grid.pitch_px(d.row, d.col) / bw * 100
        out.append(DieSpot(d.row, d.col, d.ingredient.value, d.value, d.review,
                           round((cx - x0) / bw * 100 - size / 2, 2),
                           round((cy - y0) / bh * 100 - size * bw / bh / 2, 2), round(size, 2)))
    return out, bh / bw


def dice_overlay(photo: Path, reading: DiceReading,
                 doc: Mapping[str, Any] | None = None) -> bytes:
    """The photo with the grid, each die and the cuts (or one judged cut), cropped to the
    block with a margin so it fills a phone's width, as a JPEG."""
    from companion.vision.dice.overlay import render_cuts, render_reading

    img = render_reading(photo, reading) if doc is None else render_cuts(photo, reading, doc)
    x0, y0, x1, y1 = _block_box(reading, img.shape)
    return encode_jpeg(img[y0:y1, x0:x1])


def cut_words(cut: Mapping[str, Any]) -> str:
    """A cut of ``dice cuts --json`` in words, for people at the table."""
    seam = "column" if cut.get("seam") == "vertical" else "row"
    depth = cut.get("depth")
    deep = f"{depth} {'die' if depth == 1 else 'dice'} deep" if depth else "all the way"
    return (f"blade between {seam}s {cut.get('index')} and {int(cut.get('index', 0)) + 1}, "
            f"from the {cut.get('from')}, {deep}, push {cut.get('push')}")


# ---- routes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceView:
    rid: int
    role: str
    label: str
    reading: DiceReading  # after corrections
    read_doc: dict[str, Any]
    corrections: list[Correction]
    cuts: dict[str, Any] | None
    cuts_error: str | None
    spots: list[DieSpot]
    aspect: float  # height / width of the overlay picture
    with_colours: bool = False  # read with the colours the night's first block taught
    taught: bool = False  # this photo taught the night's dice colours


def _dice_views(st: WebState, scoring_id: int, teacher: int | None = None) -> list[DiceView]:
    """The scoring's dice photos as the page shows them; ``teacher``: the photo that taught
    the night's colours."""
    out = []
    for r in st.store.readings(scoring_id):
        if r.kind != DICE:
            continue
        photo = st.store.photo(r.photo_id)
        raw = dice_reading(st, photo, r)
        fixes = st.store.corrections(r.id)
        reading = corrected_dice(raw, [(c.field, c.value) for c in fixes])
        cuts, err = None, None
        try:
            cuts = dice_cuts_json(reading)
        except CompanionError as exc:
            err = str(exc)
        spots, aspect = dice_spots(reading, (photo.width, photo.height))
        out.append(DiceView(r.id, photo.role, str(r.doc["photo"]), reading,
                            dice_read_json(reading, str(r.doc["photo"])), fixes,
                            cuts, err, spots, aspect, COLOURS_KEY in r.doc,
                            photo.id == teacher))
    return out


def _cut_index(text: str | None) -> int | None:
    """The cut the page draws (``?cut=N``); anything else draws them all."""
    if text is None or not ascii_number(text, 6):
        return None
    return int(text)


async def dice_page(request: Request) -> Response:
    st = state(request)
    sid = request.query_params.get("s")
    context: dict[str, object] = {"scoring": None, "views": [], "verdict": None,
                               "verdict_error": None, "cut": None}
    night = st.store.current_night().id
    if sid:
        scoring = st.store.scoring(whole(sid, "scoring"))
        night = scoring.night_id if scoring.night_id is not None else night
    kept = dice_colours(st.store, night)
    context["colours"] = kept
    if sid:
        views = await run_in_threadpool(_dice_views, st, scoring.id,
                                        kept.photo_id if kept else None)
        context.update(scoring=scoring, views=views)
        roles = {v.role: v for v in views}
        if "before" in roles and "after" in roles:
            try:
                context["verdict"] = dice_check_json(roles["before"].reading,
                                                              roles["after"].reading)
            except CompanionError as exc:
                context["verdict_error"] = str(exc)
        context["cut"] = _cut_index(request.query_params.get("cut"))
    context["ingredients"] = INGREDIENTS
    context["doubts"] = doubts_sentence
    return page(request, "dice.html", **context)


async def upload(request: Request) -> Response:
    st = state(request)
    form = await read_form(request)
    ups = (await photos(form))[:1]
    role = str(form.get("role") or "block")
    if role not in ("block", "before", "after"):
        raise InputError("role must be block, before or after")
    sid = form.get("s")
    up = ups[0]
    scoring = None
    if role == "after":
        if not sid:
            raise InputError("snap the block before the cut first")
        scoring = scoring_of(st, sid, "diced-veggies")
    night = (scoring.night_id if scoring is not None and scoring.night_id is not None
             else st.store.current_night().id)
    into = scoring.id if scoring is not None else None
    fresh = None if scoring is not None else ("diced-veggies", night)
    # The same photo sent again (a double tap, a retry) is answered with the first.
    again = st.store.kept_photos([NewPhoto(up.data, up.info.media_type, up.info.width,
                                           up.info.height, role)],
                                 scoring_id=into, new_scoring=fresh)
    if again is not None:
        return go(request, f"/dice?s={again[0]}")
    if scoring is not None and [p.role for p in st.store.photos(scoring.id)] != ["before"]:
        raise InputError("an after photo goes with one before photo; snap before first")
    kept = dice_colours(st.store, night)
    known = None if kept is None else kept.doc
    read = functools.partial(st.readers.dice, colours=known)
    (reading,) = await run_in_threadpool(read_uploads, st.store, ups, read)
    doc = dice_read_json(reading, up.label)
    if known is not None:
        doc[COLOURS_KEY] = known
    new = [NewPhoto(up.data, up.info.media_type, up.info.width, up.info.height, role,
                    (DICE, doc))]
    scoring_id, ((photo, _),) = st.store.add_photos(new, scoring_id=into, new_scoring=fresh,
                                                       once=True)
    st.cache.put(DICE, photo.id, reading)
    if kept is None:
        await run_in_threadpool(_teach, st.store, night, reading, photo.id)
    return go(request, f"/dice?s={scoring_id}")


def _teach(store: Store, night: int, reading: DiceReading, photo_id: int) -> None:
    """Keep the colours of the night's first full starting block."""
    learnt = learnt_colours(reading)
    if learnt is not None:
        keep_dice_colours(store, night, learnt, photo_id)


async def forget_colours(request: Request) -> Response:
    """Forget the night's dice colours: later photos are read alone (and the next full
    block teaches them again)."""
    st = state(request)
    form = await request.form()
    sid = form.get("s")
    night = st.store.current_night().id
    if sid:
        scoring = scoring_of(st, sid, "diced-veggies")
        night = scoring.night_id if scoring.night_id is not None else night
    forget_dice_colours(st.store, night)
    return go(request, f"/dice?s={whole(sid, 'scoring')}" if sid else "/dice")


async def correct(request: Request) -> Response:
    st = state(request)
    sid = whole(request.path_params["sid"], "scoring")
    form = await request.form()
    reading, photo = form_reading(st, sid, form, DICE)
    rid = reading.id
    if form.get("undo"):
        cid = form.get("correction")
        st.store.undo_correction(rid, whole(cid, "correction") if cid else None)
        return go(request, f"/dice?s={sid}")
    cell = str(form.get("cell", ""))
    value = str(form.get("value", ""))
    parse_cell(cell)
    parse_die(value)
    # Checked against the dice read and the corrections kept so far, so a correction
    # that names no die is refused before it is stored (it would break the page).
    raw = await run_in_threadpool(dice_reading, st, photo, reading)
    fixes = [(c.field, c.value) for c in st.store.corrections(rid)]
    corrected_dice(raw, [*fixes, (cell, value)])
    st.store.correct(rid, cell, value)
    return go(request, f"/dice?s={sid}")


async def overlay(request: Request) -> Response:
    st = state(request)
    reading, photo = owned_reading(st, request, DICE)
    views = await run_in_threadpool(_dice_views, st, whole(request.path_params["sid"], "s"))
    view = next(v for v in views if v.rid == reading.id)
    doc: dict[str, Any] | None = view.cuts
    cut = _cut_index(request.query_params.get("cut"))
    if view.role == "after":
        before = next((v for v in views if v.role == "before"), None)
        doc = dice_check_json(before.reading, view.reading) if before else None
    elif cut is not None and view.cuts and cut < len(view.cuts["cuts"]):
        chosen = view.cuts["cuts"][cut]
        doc = {"legal": True, "taken": chosen["taken"], "sum": chosen["sum"], "cut": chosen}
    data = await run_in_threadpool(dice_overlay, st.store.photo_path(photo),
                                   view.reading, doc)
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


ROUTES_POST = (("/dice/upload", upload), ("/dice/{sid:int}/correct", correct),
               ("/dice/colours/forget", forget_colours))
ROUTES_GET = (("/dice", dice_page), ("/dice/{sid:int}/overlay/{rid:int}.jpg", overlay))
