"""Which night a play saved from the command line goes to, found or started atomically
(two processes saving to the same new night at once must not start it twice)."""

from __future__ import annotations

import datetime as dt

from companion.store.db import LATEST_NIGHT, Store, clean_name
from companion.store.models import Night


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def night_for(store: Store, name: str | None = None, today: str | None = None) -> Night:
    """The latest night called ``name`` (without case), else tonight's: the night with
    the latest date (``LATEST_NIGHT``, as the web app chooses it) if that is today.
    Either is started when missing, in the same transaction."""
    day = today or dt.date.today().isoformat()
    title = clean_name(name, "night name") if name is not None else f"Game night {day}"
    with store.transaction() as c:
        if name is not None:
            row = c.execute("SELECT id FROM nights WHERE name = ? COLLATE NOCASE "
                            "ORDER BY id DESC LIMIT 1", (title,)).fetchone()
        else:
            latest = c.execute(LATEST_NIGHT).fetchone()
            row = latest if latest is not None and latest[1] == day else None
        if row is None:
            cur = c.execute("INSERT INTO nights (name, date, created_at) VALUES (?, ?, ?)",
                            (title, day, _now()))
            night_id = int(cur.lastrowid or 0)
        else:
            night_id = int(row[0])
    return store.night(night_id)
