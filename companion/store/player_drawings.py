"""A sketching player's named drawings, kept with the player: saved with each table of
theirs, used to read their later sheets (as ``companion delicious read --save-drawings`` /
``--drawings`` do with a file). The store keeps the document; it reads no photo itself."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from typing import Any

from companion.store.db import Store


def keep_player_drawings(store: Store, player_id: int, doc: dict[str, Any]) -> None:
    """Keep (or replace) the player's drawings document."""
    update_player_drawings(store, player_id, lambda _: doc)


def update_player_drawings(store: Store, player_id: int,
                           change: Callable[[dict[str, Any] | None], dict[str, Any]]) -> None:
    """Keep ``change(kept)`` as the player's drawings document, read and written in one
    transaction: two tables of one player saved at once both count."""
    store.player(player_id)  # NotFoundError for a player that is not there
    # to the microsecond: it is the version a reader's cache compares (drawings_stamp)
    now = dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")
    with store.transaction() as c:
        doc = change(_kept(c, player_id))
        c.execute("INSERT INTO player_drawings (player_id, doc, updated_at) VALUES (?, ?, ?) "
                  "ON CONFLICT (player_id) DO UPDATE SET doc = excluded.doc, "
                  "updated_at = excluded.updated_at",
                  (player_id, json.dumps(doc, separators=(",", ":")), now))


def player_drawings(store: Store, player_id: int | None) -> dict[str, Any] | None:
    """The player's drawings document, or None when none is kept."""
    if player_id is None:
        return None
    with store.transaction() as c:
        return _kept(c, player_id)


def drawings_stamp(store: Store, player_id: int) -> str | None:
    """When the player's drawings were last kept (None: none are), without the document:
    a cache of parsed drawings asks this on every page and reads the document only when
    it changed."""
    with store.transaction() as c:
        row = c.execute("SELECT updated_at FROM player_drawings WHERE player_id = ?",
                        (player_id,)).fetchone()
    return None if row is None else str(row[0])


def _kept(c: sqlite3.Connection, player_id: int) -> dict[str, Any] | None:
    row = c.execute("SELECT doc FROM player_drawings WHERE player_id = ?",
                    (player_id,)).fetchone()
    return None if row is None else dict(json.loads(row[0]))


def forget_player_drawings(store: Store, player_id: int) -> bool:
    """Forget the player's drawings; whether any were kept."""
    with store.transaction() as c:
        return c.execute("DELETE FROM player_drawings WHERE player_id = ?",
                         (player_id,)).rowcount > 0
