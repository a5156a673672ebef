"""One player under two spellings: an alias points a player row at the one it means.

Nothing is rewritten: plays keep the spelling they were saved under, and every total
(history, standings, exports' canonical names) reads through the alias, so an alias set by
mistake is undone by removing it.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.store.db import Store
from companion.store.errors import NotFoundError, StoreError
from companion.store.models import Player

# The player a seat counts for, given ``pp`` (play_players) joined with ``a``
# (player_aliases) on the seat's player id.
CANONICAL_ID = "COALESCE(a.canonical_id, pp.player_id)"
ALIAS_JOIN = "LEFT JOIN player_aliases a ON a.player_id = pp.player_id"


def rows(store: Store, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
    """A read outside any write transaction (the store's own reader)."""
    return store._query(sql, args)


@dataclass(frozen=True)
class Alias:
    alias: Player  # the other spelling
    player: Player  # who it means


def _find(store: Store, name: str) -> Player:
    try:
        return store.player(name)
    except NotFoundError:
        known = ", ".join(p.name for p in store.players()[:8])
        raise NotFoundError(f"no player {name!r}"
                            + (f" (known: {known}...)" if known else "")) from None


def canonical(store: Store, player: Player) -> Player:
    """The player an alias points at, or the player itself."""
    found = rows(store, "SELECT p.id, p.name FROM player_aliases a JOIN players p "
                        "ON p.id = a.canonical_id WHERE a.player_id = ?", (player.id,))
    return Player(int(found[0]["id"]), str(found[0]["name"])) if found else player


def resolve(store: Store, name: str) -> Player:
    """The player meant by ``name`` (any of its spellings); unknown names are refused."""
    return canonical(store, _find(store, name))


def set_alias(store: Store, name: str, other: str) -> Alias:
    """Count ``other`` as ``name`` from now on (both must already be known players).

    If ``name`` is itself an alias, ``other`` joins the player it points at; spellings
    that pointed at ``other`` move along with it.
    """
    target = resolve(store, name)
    alias = _find(store, other)
    if alias.id == target.id:
        raise StoreError(f"{other!r} and {name!r} are already the same player")
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    with store.transaction() as c:
        c.execute("UPDATE player_aliases SET canonical_id = ? WHERE canonical_id = ?",
                  (target.id, alias.id))
        c.execute("INSERT OR REPLACE INTO player_aliases (player_id, canonical_id, created_at) "
                  "VALUES (?, ?, ?)", (alias.id, target.id, now))
    return Alias(alias, target)


def remove_alias(store: Store, other: str) -> Alias:
    """Count ``other`` as a player of its own again."""
    alias = _find(store, other)
    target = canonical(store, alias)
    if target.id == alias.id:
        raise StoreError(f"{other!r} is not an alias")
    with store.transaction() as c:
        c.execute("DELETE FROM player_aliases WHERE player_id = ?", (alias.id,))
    return Alias(alias, target)


def aliases(store: Store) -> list[Alias]:
    return [Alias(Player(int(r["aid"]), str(r["aname"])), Player(int(r["pid"]), str(r["pname"])))
            for r in rows(store, "SELECT a.player_id AS aid, pa.name AS aname, "
                          "a.canonical_id AS pid, pc.name AS pname FROM player_aliases a "
                          "JOIN players pa ON pa.id = a.player_id "
                          "JOIN players pc ON pc.id = a.canonical_id ORDER BY pc.name, pa.name")]
