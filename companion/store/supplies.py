"""The community supply seed kept with a night, so the night's sheets are checked against
the supply its players saw (``companion delicious supply --seed S``)."""

from __future__ import annotations

import datetime as dt

from companion.store.db import Store

# The store keeps the seed and the deal's name; it deals nothing itself (engines do).


def keep_supply_seed(store: Store, night_id: int, seed: int, algorithm: str) -> None:
    """Keep (or replace) the night's supply seed."""
    store.night(night_id)  # NotFoundError for a night that is not there
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    with store.transaction() as c:
        c.execute("INSERT INTO night_supply (night_id, seed, algorithm, created_at) "
                  "VALUES (?, ?, ?, ?) ON CONFLICT (night_id) DO UPDATE SET "
                  "seed = excluded.seed, algorithm = excluded.algorithm, "
                  "created_at = excluded.created_at", (night_id, seed, algorithm, now))


def forget_supply_seed(store: Store, night_id: int) -> None:
    with store.transaction() as c:
        c.execute("DELETE FROM night_supply WHERE night_id = ?", (night_id,))


def supply_seed(store: Store, night_id: int | None) -> tuple[int, str] | None:
    """The night's supply seed and the deal's name, or None when none is kept."""
    if night_id is None:
        return None
    with store.transaction() as c:
        row = c.execute("SELECT seed, algorithm FROM night_supply WHERE night_id = ?",
                        (night_id,)).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))
