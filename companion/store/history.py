"""Every saved play, one row each, with the names read through aliases."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from companion.errors import InputError
from companion.games.registry import game as game_info
from companion.games.registry import title
from companion.store.aliases import ALIAS_JOIN, CANONICAL_ID, resolve, rows
from companion.store.db import Store


@dataclass(frozen=True)
class HistorySeat:
    name: str  # the player counted (through aliases)
    spelled: str  # the name as saved with the play
    score: float | None
    place: int | None
    winner: bool


@dataclass(frozen=True)
class HistoryRow:
    play_id: int
    uid: str
    date: str
    night: str | None
    location: str | None
    game: str
    seats: tuple[HistorySeat, ...]
    tiebreak: str | None
    source: str
    duration_min: int | None
    scoring_id: int | None

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.winner]

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["seats"] = [asdict(s) for s in self.seats]
        doc["winners"] = self.winners
        return doc


def check_date(text: str, what: str = "--since") -> str:
    """An ISO date (YYYY-MM-DD) as given, or one clear error."""
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise InputError(f"{what} {text!r}: write the date as YYYY-MM-DD") from None


def _filter(store: Store, game: str | None, player: str | None, since: str | None,
            night_id: int | None, ids: Sequence[int] | None) -> tuple[str, list[Any]]:
    """The WHERE clause over ``plays pl`` for these filters, with its arguments."""
    where: list[str] = []
    args: list[Any] = []
    if game is not None:
        where.append("pl.game = ?")
        args.append(game_info(game).slug)
    if since is not None:
        where.append("pl.date >= ?")
        args.append(check_date(since))
    if night_id is not None:
        where.append("pl.night_id = ?")
        args.append(night_id)
    if ids is not None:
        where.append(f"pl.id IN ({','.join('?' * len(ids))})")
        args.extend(ids)
    if player is not None:
        pid = resolve(store, player).id
        where.append(f"pl.id IN (SELECT pp.play_id FROM play_players pp {ALIAS_JOIN} "
                     f"WHERE {CANONICAL_ID} = ?)")
        args.append(pid)
    return (f" WHERE {' AND '.join(where)}" if where else ""), args


def count_plays(store: Store, *, game: str | None = None, player: str | None = None,
                since: str | None = None, night_id: int | None = None) -> int:
    cond, args = _filter(store, game, player, since, night_id, None)
    return int(rows(store, f"SELECT COUNT(*) AS n FROM plays pl{cond}", args)[0]["n"])


def history(store: Store, *, game: str | None = None, player: str | None = None,
            since: str | None = None, night_id: int | None = None,
            ids: Sequence[int] | None = None, latest: int | None = None,
            skip: int = 0) -> list[HistoryRow]:
    """Plays oldest first, filtered; ``latest`` keeps only the last N after the ``skip``
    newest (a page of the list)."""
    cond, args = _filter(store, game, player, since, night_id, ids)
    ids_sql = f"SELECT pl.id FROM plays pl{cond}"
    if latest is not None:
        ids_sql += f" ORDER BY pl.date DESC, pl.id DESC LIMIT {int(latest)} OFFSET {int(skip)}"
    found = rows(store,
                 "SELECT pl.*, n.name AS night_name, n.location AS location, "
                 "(SELECT MIN(s.id) FROM scorings s WHERE s.play_id = pl.id) AS scoring_id "
                 f"FROM plays pl LEFT JOIN nights n ON n.id = pl.night_id "
                 f"WHERE pl.id IN ({ids_sql}) ORDER BY pl.date, pl.id", args)
    if not found:
        return []
    seats: dict[int, list[HistorySeat]] = {}
    for r in rows(store,
                  f"SELECT pp.play_id, pp.score, pp.place, pp.winner, ps.name AS spelled, "
                  f"pc.name AS name FROM play_players pp {ALIAS_JOIN} "
                  f"JOIN players ps ON ps.id = pp.player_id "
                  f"JOIN players pc ON pc.id = {CANONICAL_ID} "
                  f"WHERE pp.play_id IN ({ids_sql}) ORDER BY pp.play_id, pp.seat", args):
        seats.setdefault(int(r["play_id"]), []).append(HistorySeat(
            str(r["name"]), str(r["spelled"]), r["score"], r["place"], bool(r["winner"])))
    return [HistoryRow(int(r["id"]), str(r["uid"]), str(r["date"]), r["night_name"],
                       r["location"], str(r["game"]), tuple(seats.get(int(r["id"]), [])),
                       r["tiebreak"], str(r["source"]), r["duration_min"], r["scoring_id"])
            for r in found]


def play_detail(store: Store, play_id: int) -> dict[str, Any]:
    """The engine's JSON result kept with a play."""
    found = rows(store, "SELECT detail FROM plays WHERE id = ?", (play_id,))
    return json.loads(found[0]["detail"]) if found else {}


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


def history_text(items: Sequence[HistoryRow]) -> list[str]:
    """One line a play: date, night, game, players by place with scores, winner, tiebreak."""
    if not items:
        return ["No plays saved yet (save one with --save, or from companion serve)."]
    out = []
    for h in items:
        seats = sorted(h.seats, key=lambda s: (s.place is None, s.place or 0))
        people = ", ".join(f"{s.place or '-'}. {s.name} {_num(s.score)}".rstrip() for s in seats)
        win = " and ".join(h.winners) or "nobody"
        line = (f"{h.date}  {h.night or '(no night)'}  {title(h.game)}: {people}; "
                f"won by {win}")
        if h.tiebreak:
            line += f" ({h.tiebreak})"
        out.append(line)
    return out
