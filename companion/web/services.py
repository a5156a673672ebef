"""The web app's one door to the readers and the rules engines.

Every import of ``companion.vision`` and of the game engines the web pages use sits in
this module, so the readers can move without touching the pages. Each function returns
plain values or exactly the JSON documents the command line prints.
"""

from __future__ import annotations

import dataclasses
import io
import multiprocessing
import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import ImageError, InputError
from companion.games.delicious.players import FieldLike
from companion.games.delicious.read_table import ReadTable, SameName, TableSheet, pair_table
from companion.games.diced_veggies.model import Ingredient
from companion.paper.model import FieldSpec
from companion.web.constants import (
    CROP_GROW_MM,
    IMAGE_FORMATS,
    MAX_UPLOAD_BYTES,
    OVERLAY_JPEG_QUALITY,
    OVERLAY_MAX_SIDE_PX,
)

if TYPE_CHECKING:
    from companion.vision.sheet.reader import SheetReading

# ---- uploads ------------------------------------------------------------------------------


EXIF_ORIENTATION = 0x0112


@dataclass(frozen=True)
class ImageInfo:
    """What an upload is; width and height of the photo upright (EXIF rotation applied)."""

    media_type: str
    width: int
    height: int


def max_pixels() -> int:
    from companion.vision.constants import MAX_IMAGE_PIXELS

    return MAX_IMAGE_PIXELS


def sniff_image(data: bytes, label: str) -> ImageInfo:
    """What the bytes are (never what the name says); refused over the byte or pixel cap."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise ImageError(f"{label}: the file is empty")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ImageError(f"{label}: {len(data) / 1e6:.1f} MB is more than the "
                         f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB limit")
    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
    except ImportError:  # pragma: no cover - a declared dependency
        pass
    limit = max_pixels()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt, (w, h) = str(img.format), img.size
                if img.getexif().get(EXIF_ORIENTATION, 1) in (5, 6, 7, 8):
                    w, h = h, w  # kept upright, as the readers see it
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError,
            ValueError):
        raise ImageError(f"{label}: not a photo (expected JPEG, PNG, WebP or HEIC)") from None
    media = IMAGE_FORMATS.get(fmt)
    if media is None:
        raise ImageError(f"{label}: a {fmt} image; send a JPEG, PNG, WebP or HEIC photo")
    if w * h > limit:
        raise ImageError(f"{label}: {w}x{h} is more than the {limit / 1e6:.0f} MP limit")
    return ImageInfo(media, w, h)


def _encode_jpeg(img: Any) -> bytes:
    import cv2

    h, w = img.shape[:2]
    scale = min(1.0, OVERLAY_MAX_SIDE_PX / max(h, w))
    if scale < 1.0:
        img = cv2.resize(img, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, OVERLAY_JPEG_QUALITY])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 image
        raise InputError("cannot encode the overlay")
    return bytes(buf)


# ---- Delicious sheets ---------------------------------------------------------------------


class ReadingCache:
    """Recent photo readings by (kind, photo id), so a correction or a page view does not
    read the photo again. Bounded; a reading that fell out is read again from its file."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[tuple[str, int], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, kind: str, photo_id: int, load: Callable[[], Any]) -> Any:
        key = (kind, photo_id)
        with self._lock:
            hit = self._items.get(key)
        if hit is None:
            hit = load()
        self.put(kind, photo_id, hit)
        return hit

    def put(self, kind: str, photo_id: int, reading: Any) -> None:
        with self._lock:
            self._items[(kind, photo_id)] = reading
            self._items.move_to_end((kind, photo_id))
            while len(self._items) > self._entries:
                self._items.popitem(last=False)


class ReaderPool:
    """Photos are read in worker processes: the readers' models are not safe to share
    between threads, and on a machine with two cores two phones are served at once."""

    def __init__(self, workers: int) -> None:
        self._workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self._workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_leave_with_parent)
            return self._pool

    def _run(self, fn: Callable[[Path, str], Any], path: Path, label: str) -> Any:
        try:
            return self._executor().submit(fn, path, label).result()
        except BrokenProcessPool:
            with self._lock:
                self._pool = None
            raise InputError(f"{label}: the reader stopped while reading it; "
                             "send it again") from None

    def sheet(self, path: Path, label: str) -> Any:
        return self._run(read_sheet, path, label)

    def dice(self, path: Path, label: str) -> Any:
        return self._run(read_dice, path, label)

    def warm(self) -> None:
        """Start the workers loading the readers' models now, not at the first photo."""
        pool = self._executor()
        for _ in range(self._workers):
            pool.submit(_warm)

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None


def _leave_with_parent() -> None:
    """A worker ends as soon as the server process is gone, even when it was killed."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - always set in a spawned worker
        return

    def watch() -> None:
        parent.join()
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def _warm() -> None:
    import companion.vision.sheet.reader as sr

    sr._classifier()  # the letter model, loaded once a worker


def read_sheet(path: Path, label: str) -> Any:
    """One photographed Delicious sheet read; ``label`` replaces the path in its JSON."""
    from companion.vision.sheet.reader import read_photo

    try:
        reading = read_photo(str(path))
    except ImageError as exc:
        raise ImageError(_naming(exc, path, label)) from None
    return dataclasses.replace(reading, photo=label)


def _naming(exc: Exception, path: Path, label: str) -> str:
    """The reader's message with the upload's name where the server's file name was."""
    msg = str(exc).replace(str(path), label)
    return msg if msg.startswith(label) else f"{label}: {msg}"


def sheet_json(reading: Any) -> dict[str, Any]:
    """The reading as stored: what the photo showed, without the sheet's own score and
    problems, which a correction or the table's other sheets change (they are recomputed)."""
    doc = dict(reading.to_json())
    doc.pop("score", None)
    doc.pop("violations", None)
    return doc


SheetItem = TableSheet  # a sheet in a table being scored: key, reading, corrections, name


@dataclass(frozen=True)
class ReviewField:
    key: int  # the sheet item holding the field
    field: str
    kind: str
    value: str | None
    confidence: float
    allowed: tuple[str, ...]
    corrected: bool


@dataclass(frozen=True)
class PlayerResult:
    name: str
    keys: tuple[int, ...]  # the sheet items that make this player
    doc: dict[str, Any]  # exactly one player's ``delicious read --json`` document
    review: tuple[ReviewField, ...]
    corrected: tuple[ReviewField, ...]


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


def _field_view(key: int, reading: FieldLike, spec: FieldSpec, corrected: bool) -> ReviewField:
    return ReviewField(key, spec.id, spec.kind.value, reading.value, round(reading.confidence, 3),
                       tuple(spec.allowed), corrected)


def score_table(items: Sequence[SheetItem[SheetReading]]) -> TableScore:
    """Pair sheets into players, apply corrections, check and score them as one table,
    exactly as ``companion delicious read --json`` does; a sheet without its partner is
    listed, not scored."""
    if not items:
        raise InputError("no sheets to score")
    read = pair_table(items).score(same_name=SameName.SUFFIX)
    results = []
    for i, p in enumerate(read.players):
        readings = p.readings
        hand = {fid for it in read.owners[i] for fid, _ in it.corrections}
        review, corrected = [], []
        for it in read.owners[i]:
            specs = {s.id: s for s in it.reading.geometry.fields}
            for fid in p.review:
                if fid in specs and fid in it.reading.readings:
                    review.append(_field_view(it.key, readings[fid], specs[fid], False))
            for fid in sorted(hand & set(it.reading.readings)):
                corrected.append(_field_view(it.key, readings[fid], specs[fid], True))
        results.append(PlayerResult(read.names[i], tuple(it.key for it in read.owners[i]),
                                    read.document["players"][i] if "players" in read.document
                                    else _one_player(read.document), tuple(review),
                                    tuple(corrected)))
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
    return _encode_jpeg(img)


def field_crop(reading: Any, field: str) -> bytes:
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


def field_allowed(reading: Any, field: str) -> tuple[str, ...]:
    for s in reading.geometry.fields:
        if s.id == field:
            return tuple(s.allowed)
    raise InputError(f"{field!r} is not a field of this sheet")


# ---- Diced Veggies ------------------------------------------------------------------------

# The dice a correction may name: the engine's own list.
INGREDIENTS: tuple[str, ...] = tuple(i.value for i in Ingredient)



def read_dice(path: Path, label: str) -> Any:
    from companion.vision.dice.reader import read_dice_photo

    try:
        return read_dice_photo(path)
    except ImageError as exc:
        raise ImageError(_naming(exc, path, label)) from None


def dice_read_json(reading: Any, label: str) -> dict[str, Any]:
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
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise InputError(f"a die's cell is ROW,COL, not {text!r}") from None
    return r, c


def corrected_dice(reading: Any, corrections: Sequence[tuple[str, str | None]]) -> Any:
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


def _options(full_only: bool = False, kids: bool = False) -> Any:
    from companion.games.diced_veggies.cutting import CutOptions

    return CutOptions(full_length_only=full_only, kids=kids)


def _block(reading: Any, require_connected: bool = True) -> Any:
    from companion.games.diced_veggies.model import Block

    return Block.from_json(reading.block_json(), require_connected=require_connected)


def dice_cuts_json(reading: Any, full_only: bool = False, kids: bool = False) -> dict[str, Any]:
    """Exactly what ``companion dice cuts --json`` prints for the block read."""
    from companion.games.diced_veggies.documents import cuts_document

    return cuts_document(_block(reading), _options(full_only, kids))


def dice_check_json(before: Any, after: Any, full_only: bool = False,
                    kids: bool = False) -> dict[str, Any]:
    """Exactly what ``companion dice check BEFORE AFTER --json`` prints."""
    from companion.games.diced_veggies.compare import judge_change

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


def _block_box(reading: Any, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The block with a margin of 1.6 dice: what the phone is shown of the photo."""
    import numpy as np

    h, w = shape[:2]
    if not reading.dice:
        return 0, 0, w, h
    pts = np.concatenate([reading.grid.corners(d.row, d.col) for d in reading.dice])
    pitch = float(np.median([reading.grid.pitch_px(d.row, d.col) for d in reading.dice]))
    (x0, y0), (x1, y1) = pts.min(axis=0) - 1.6 * pitch, pts.max(axis=0) + 1.6 * pitch
    return max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))


def dice_spots(reading: Any, photo_size: tuple[int, int]) -> tuple[list[DieSpot], float]:
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


def dice_overlay(photo: Path, reading: Any, doc: Mapping[str, Any] | None = None) -> bytes:
    """The photo with the grid, each die and the cuts (or one judged cut), cropped to the
    block with a margin so it fills a phone's width, as a JPEG."""
    from companion.vision.dice.overlay import render_cuts, render_reading

    img = render_reading(photo, reading) if doc is None else render_cuts(photo, reading, doc)
    x0, y0, x1, y1 = _block_box(reading, img.shape)
    return _encode_jpeg(img[y0:y1, x0:x1])


def cut_words(cut: Mapping[str, Any]) -> str:
    """A cut of ``dice cuts --json`` in words, for people at the table."""
    seam = "column" if cut.get("seam") == "vertical" else "row"
    depth = cut.get("depth")
    deep = f"{depth} {'die' if depth == 1 else 'dice'} deep" if depth else "all the way"
    return (f"blade between {seam}s {cut.get('index')} and {int(cut.get('index', 0)) + 1}, "
            f"from the {cut.get('from')}, {deep}, push {cut.get('push')}")


# ---- score pads ---------------------------------------------------------------------------


def dulce_advice(kind: str, doc: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """Dulce's best scoring order or best harvest for a player state, as text and JSON."""
    from companion.games.dulce import parse, report
    from companion.games.dulce.harvest import best_harvest
    from companion.games.dulce.scoring import Kitchen, best_scoring

    st = parse.player_state(doc)
    if kind == "score-order":
        kitchen = Kitchen.of(st.cafes)
        plan = best_scoring(kitchen, kitchen.fill_of(st.cafes))
        return report.scoring_text(plan), report.scoring_json(plan)
    if kind == "best-harvest":
        advice = best_harvest(st)
        return report.harvest_text(advice), report.harvest_json(advice)
    raise InputError(f"unknown Dulce advice {kind!r}")


# ---- printing -----------------------------------------------------------------------------


def sheet_choices() -> list[tuple[str, str]]:
    import layouts

    return [(n, layouts.sheet_spec(n).title) for n in layouts.SHEET_NAMES]


def print_pdf(names: Sequence[str], paper: str, bw: bool, variant: str, copies: int) -> bytes:
    """The chosen sheets, one set a player, each set with its own player code."""
    import pypdfium2 as pdfium

    import layouts

    known = set(layouts.SHEET_NAMES)
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise InputError(f"choose sheets from the list (unknown: {', '.join(bad) or 'none'})")
    if not 1 <= copies <= 8:
        raise InputError("players must be 1 to 8")
    sets = []
    for _ in range(copies):
        buf = io.BytesIO()
        layouts.render_pdf(list(names), buf, paper=paper, variant=variant, bw=bw,
                           code=layouts.new_code())
        sets.append(buf.getvalue())
    if len(sets) == 1:
        return sets[0]
    out = pdfium.PdfDocument.new()
    for data in sets:
        out.import_pages(pdfium.PdfDocument(data))
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()
