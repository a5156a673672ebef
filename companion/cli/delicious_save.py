"""``delicious read --save``: the play, and its photos, readings and hand corrections.

The photos go into the store as the web app keeps its uploads (one scoring linked to the
play), so the play opens in ``companion serve`` with its pictures, overlay and corrections.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.cli.store_options import save_result
from companion.errors import IllegalMoveError, ImageError
from companion.games.registry import BY_SLUG
from companion.store.db import Store
from companion.store.models import Play

SHEET = "delicious-sheet"  # the reading kind the web app keeps for a sheet photo


def _image(path: str) -> tuple[bytes, str, int, int]:
    from PIL import Image

    from companion.vision.constants import IMAGE_FORMATS

    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
    except ImportError:  # pragma: no cover - a declared dependency
        pass
    data = Path(path).read_bytes()
    with Image.open(path) as img:
        media = IMAGE_FORMATS.get(str(img.format))
        w, h = img.size
    if media is None:
        raise ImageError(f"{path}: cannot keep a {img.format} image in the store")
    return data, media, w, h


def _keep(store: Store, night_id: int, players: Sequence[Any], names: Sequence[str]) -> int:
    scoring = store.new_scoring("delicious", night_id)
    for p, name in zip(players, names, strict=True):
        person = store.player(name, create=True)
        holder: dict[str, int] = {}
        for sheet in p.sheets:
            data, media, w, h = _image(sheet.photo)
            doc = {**sheet.to_json(), "photo": Path(sheet.photo).name}
            _, reading = store.add_photo(data, media, w, h, scoring_id=scoring.id,
                                         reading=(SHEET, doc))
            assert reading is not None
            store.set_reading_player(reading.id, person.id)
            for fid in sheet.readings:
                holder.setdefault(fid, reading.id)
        for fid, value in p.corrections:
            store.correct(holder[fid], fid, value)
    return scoring.id


def save_table(doc: dict[str, Any], players: Sequence[Any], given: Sequence[str],
               legal: bool, data: str | None, night: str | None) -> Play:
    if not legal:
        raise IllegalMoveError("not saved: a sheet breaks a rule (fix it with --set first)")
    result = BY_SLUG["delicious"].play(doc, given)
    names = [s.name for s in result.seats]
    return save_result(result, data, night, lambda store, nid: _keep(store, nid, players, names))
