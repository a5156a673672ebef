"""The dice colours kept with a night: taught by the night's first photo of a full
starting block, then used to read every later dice photo of that night (as ``companion
dice read --colours`` does). The store keeps the document; it reads no photo itself."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, NamedTuple

from companion.store.db import Store


class NightColours(NamedTuple):
    doc: dict[str, Any]  # the dice colours document (docs/formats.md, "Dice colours")
    photo_id: int | None  # the photo that taught them (None once that photo is gone)
    created_at: str


def keep_dice_colours(store: Store, night_id: int, doc: dict[str, Any],
                      photo_id: int | None) -> None:
    """Keep (or replace) the night's dice colours and the photo they were learnt from."""
    store.night(night_id)  # NotFoundError for a night that is not there
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    with store.transaction() as c:
        c.execute("INSERT INTO night_dice_colours (night_id, doc, photo_id, created_at) "
                  "VALUES (?, ?, ?, ?) ON CONFLICT (night_id) DO UPDATE SET "
                  "doc = excluded.doc, photo_id = excluded.photo_id, "
                  "created_at = excluded.created_at",
                  (night_id, json.dumps(doc, sort_keys=True), photo_id, now))


def forget_dice_colours(store: Store, night_id: int) -> None:
    with store.transaction() as c:
        c.execute("DELETE FROM night_dice_colours WHERE night_id = ?", (night_id,))


def dice_colours(store: Store, night_id: int | None) -> NightColours | None:
    """The night's dice colours, or None when none are kept."""
    if night_id is None:
        return None
    with store.transaction() as c:
        row = c.execute("SELECT doc, photo_id, created_at FROM night_dice_colours "
                        "WHERE night_id = ?", (night_id,)).fetchone()
    if row is None:
        return None
    return NightColours(json.loads(row[0]), None if row[1] is None else int(row[1]), str(row[2]))
