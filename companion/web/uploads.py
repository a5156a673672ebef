"""Turning a multipart upload into checked photo bytes (before any of it is kept)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request

from companion.errors import ImageError, InputError
from companion.web import services
from companion.web.constants import MAX_PHOTOS_PER_UPLOAD, MAX_UPLOAD_BYTES

_LABEL_CHARS = re.compile(r"[^A-Za-z0-9._ -]+")


@dataclass(frozen=True)
class Upload:
    data: bytes
    label: str  # the client's file name, tidied: shown and echoed, never used as a path
    info: services.ImageInfo


def label_of(name: str | None, index: int) -> str:
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = _LABEL_CHARS.sub("_", base).strip(" ._")[:80]
    return base or f"photo{index + 1}.jpg"


async def read_form(request: Request) -> FormData:
    """The request's form, refused early when its declared size is over the caps."""
    size = request.headers.get("content-length")
    cap = MAX_UPLOAD_BYTES * MAX_PHOTOS_PER_UPLOAD + 64 * 1024
    if size is None or not size.isdigit():
        raise InputError("send the photo with its length (Content-Length), not chunked")
    if int(size) > cap:
        raise ImageError(f"the upload is {int(size) / 1e6:.0f} MB, more than "
                         f"{MAX_PHOTOS_PER_UPLOAD} photos of {MAX_UPLOAD_BYTES / 1e6:.0f} MB")
    try:
        return await request.form(max_files=MAX_PHOTOS_PER_UPLOAD, max_fields=200)
    except Exception as exc:  # multipart parse errors have no common base class
        raise InputError(f"the upload could not be read: {str(exc).splitlines()[0]}") from None


async def photos(form: FormData, field: str = "photo") -> list[Upload]:
    """Every file sent under ``field``, each checked by content and against the caps."""
    files = [f for f in form.getlist(field) if isinstance(f, UploadFile)]
    files = [f for f in files if f.filename or (f.size or 0) > 0]
    if not files:
        raise InputError(f"no photo was sent (multipart field {field!r})")
    if len(files) > MAX_PHOTOS_PER_UPLOAD:
        raise InputError(f"at most {MAX_PHOTOS_PER_UPLOAD} photos at once")
    out = []
    for i, f in enumerate(files):
        label = label_of(f.filename, i)
        data = await f.read(MAX_UPLOAD_BYTES + 1)
        out.append(Upload(data, label, services.sniff_image(data, label)))
    return out
