"""Turning a multipart upload into checked photo bytes (before any of it is kept), and
handing a checked upload to a reader under a name the server chose."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import re
import secrets
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request

from companion.errors import ImageError, InputError
from companion.fileio import copies_message, first_repeat
from companion.store import Store, StoreFullError
from companion.text import ascii_number
from companion.vision.constants import IMAGE_FORMATS, MAX_IMAGE_PIXELS
from companion.web.constants import (
    MAX_PHOTOS_PER_UPLOAD,
    MAX_UPLOAD_BODY_BYTES,
    MAX_UPLOAD_BYTES,
)

# Letters and digits of any script stay ("写真.jpg", "Zoë 1.jpg"): a name of Chinese
# letters was "jpg". Controls, bidi marks, slashes and the like do not.
_LABEL_CHARS = re.compile(r"[^\w. -]+")
EXIF_ORIENTATION = 0x0112
R = TypeVar("R")
TEMP_DIR = "tmp"  # in the data directory: photos being read, never kept
LEFTOVER_AGE_S = 300.0  # a temporary file older than this was left by an interrupted upload
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


@dataclass(frozen=True)
class ImageInfo:
    """What an upload is; width and height of the photo upright (EXIF rotation applied)."""

    media_type: str
    width: int
    height: int


@dataclass(frozen=True)
class Upload:
    data: bytes
    label: str  # the client's file name, tidied: shown and echoed, never used as a path
    info: ImageInfo
    sha256: str  # of ``data``, hex: one photo under two names, or sent again, is told by it


def sniff_image(data: bytes, label: str) -> ImageInfo:
    """What the bytes are (never what the name says); refused over the byte or pixel cap,
    or for a shape (aspect, bit depth) that must not be decoded."""
    from PIL import Image, UnidentifiedImageError

    from companion.vision.load import shape_problem

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
    limit = MAX_IMAGE_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt, (w, h) = str(img.format), img.size
                # From the header alone: getexif() decodes a whole PNG to find its EXIF.
                problem = shape_problem(w, h, img.mode, limit)
                if problem is not None:
                    raise ImageError(f"{label}: {problem}")
                if img.getexif().get(EXIF_ORIENTATION, 1) in (5, 6, 7, 8):
                    w, h = h, w  # kept upright, as the readers see it
    except ImageError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError,
            ValueError):
        raise ImageError(f"{label}: not a photo (expected JPEG, PNG, WebP or HEIC)") from None
    media = IMAGE_FORMATS.get(fmt)
    if media is None:
        raise ImageError(f"{label}: a {fmt} image; send a JPEG, PNG, WebP or HEIC photo")
    if w * h > limit:
        raise ImageError(f"{label}: {w}x{h} is more than the {limit / 1e6:.0f} MP limit")
    return ImageInfo(media, w, h)


def label_of(name: str | None, index: int) -> str:
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = _LABEL_CHARS.sub("_", base).strip(" ._")[:80]
    return base or f"photo{index + 1}.jpg"


async def read_form(request: Request) -> FormData:
    """The request's form, refused early when its declared size is over the caps."""
    size = request.headers.get("content-length")
    cap = MAX_UPLOAD_BODY_BYTES
    if size is None or not ascii_number(size):
        raise InputError("send the photo with its length (Content-Length), not chunked")
    if int(size) > cap:
        raise ImageError(f"the upload is {int(size) / 1e6:.0f} MB, more than "
                         f"{MAX_PHOTOS_PER_UPLOAD} photos of {MAX_UPLOAD_BYTES / 1e6:.0f} MB")
    try:
        return await request.form(max_files=MAX_PHOTOS_PER_UPLOAD, max_fields=200)
    except OSError as exc:
        if exc.errno in FULL_ERRNOS:
            raise StoreFullError("the disk is full: the upload could not be received; "
                                 "nothing was kept") from None
        raise InputError(f"the upload could not be read: {exc.strerror}") from None
    except Exception as exc:  # multipart parse errors have no common base class
        raise InputError(f"the upload could not be read: {_form_problem(exc)}") from None


def _form_problem(exc: BaseException) -> str:
    """What was wrong with a form that could not be parsed, in a player's words where the
    parser's cause is known (Starlette answers "Invalid multipart data" for all of them)."""
    seen: BaseException | None = exc
    for _ in range(8):  # the exception, what it was raised from, and so on
        if seen is None:
            break
        if "header size" in str(seen):  # python-multipart: a part's header over 4 KB
            return "a file name in it is too long; rename the photo and send it again"
        seen = seen.__cause__ or seen.__context__
    return str(getattr(exc, "detail", None) or exc).splitlines()[0]


def _files(form: FormData, field: str) -> list[UploadFile]:
    files = [f for f in form.getlist(field) if isinstance(f, UploadFile)]
    return [f for f in files if f.filename or (f.size or 0) > 0]


def photo_count(form: FormData, field: str = "photo") -> int:
    """How many photos the form holds (each takes a place in the read queue)."""
    return min(len(_files(form, field)), MAX_PHOTOS_PER_UPLOAD)


async def photos(form: FormData, field: str = "photo") -> list[Upload]:
    """Every file sent under ``field``, each checked by content and against the caps."""
    files = _files(form, field)
    if not files:
        raise InputError(f"no photo was sent (multipart field {field!r})")
    if len(files) > MAX_PHOTOS_PER_UPLOAD:
        raise InputError(f"at most {MAX_PHOTOS_PER_UPLOAD} photos at once")
    out = []
    for i, f in enumerate(files):
        label = label_of(f.filename, i)
        data = await f.read(MAX_UPLOAD_BYTES + 1)
        out.append(Upload(data, label, sniff_image(data, label),
                          hashlib.sha256(data).hexdigest()))
    copy = first_repeat((up.label, up.sha256) for up in out)
    if copy:  # cp a.jpg b.jpg: one sheet, never two players who tie
        raise InputError(copies_message(*copy))
    return out


@contextlib.contextmanager
def temp_photo(store: Store, up: Upload) -> Iterator[Path]:
    """The upload under a server-chosen temporary name while a reader looks at it; gone
    afterwards, whatever happened (a full disk included)."""
    tmp = store.root / TEMP_DIR
    path = tmp / f"{secrets.token_hex(12)}{'.heic' if 'hei' in up.info.media_type else '.img'}"
    try:
        tmp.mkdir(exist_ok=True)
        _spill(path, up.data)
        yield path
    except OSError as exc:
        if exc.errno in FULL_ERRNOS:
            raise StoreFullError("the disk is full: the photo could not be read; nothing "
                                 "was kept") from None
        raise
    finally:
        path.unlink(missing_ok=True)


def _spill(path: Path, data: bytes) -> None:
    with open(path, "xb") as fh:
        fh.write(data)


def sweep_leftovers(store: Store, older_than_s: float = LEFTOVER_AGE_S) -> int:
    """Remove what interrupted uploads left (temporary photos, part-written photo files)
    older than ``older_than_s``; the number removed. Newer ones may belong to a server
    that is running."""
    now = time.time()
    found = [*(store.root / TEMP_DIR).glob("*"), *store.photo_dir.glob(".*.part")]
    removed = 0
    for path in found:
        try:
            if path.is_file() and now - path.stat().st_mtime > older_than_s:
                path.unlink()
                removed += 1
        except OSError:  # gone meanwhile, or not ours to remove: left for the next start
            continue
    return removed


def read_uploads(store: Store, ups: Sequence[Upload],
                 read: Callable[[Path, str], R]) -> list[R]:
    """Each upload read from a temporary file by ``read`` (a sheet or a dice reader)."""
    out = []
    for up in ups:
        with temp_photo(store, up) as path:
            out.append(read(path, up.label))
    return out
