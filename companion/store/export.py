"""The store's history written out: our JSON (imported back exactly), CSV, and BG Stats.

The JSON holds players, aliases, nights and plays with the engine's detail; photos,
readings and corrections stay in the data directory (``companion backup`` copies the
database whole). Documented field by field in docs/history.md.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import uuid
from typing import Any
from urllib.parse import quote

from companion.games.registry import BY_SLUG, title
from companion.store.aliases import aliases, resolve, rows
from companion.store.db import Store
from companion.store.errors import NotFoundError
from companion.store.history import HistoryRow, HistorySeat, history

FORMAT = "companion-plays"
FORMAT_VERSION = 1
# uuid5 namespace of BG Stats ids, so the same game, player or location exported twice
# keeps one uuid (BG Stats then updates instead of duplicating).
BGSTATS_NS = uuid.uuid5(uuid.NAMESPACE_URL, "companion:bgstats")
BGSTATS_ABOUT = ("A play file for the Board Game Stats app, written by companion: open it "
                 "with BG Stats (share, export or open-in) to import the plays.")
# BG Stats' documented push-play link: the play as URL-encoded JSON, opened by the app on
# the same phone (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
BGSTATS_PUSH = "https://app.bgstatsapp.com/createPlay.html?data="
CSV_COLUMNS = ("play", "date", "night", "location", "game", "seat", "player", "spelled",
               "score", "place", "winner", "tiebreak", "duration_min", "source")


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def export_json(store: Store) -> dict[str, Any]:
    """Everything ``companion import`` needs to rebuild these players, nights and plays."""
    players = [{"name": str(r["name"]), "created_at": str(r["created_at"])}
               for r in rows(store, "SELECT name, created_at FROM players ORDER BY id")]
    seated: dict[int, list[str]] = {}
    for r in rows(store, "SELECT np.night_id, p.name FROM night_players np JOIN players p "
                         "ON p.id = np.player_id ORDER BY np.night_id, np.seat"):
        seated.setdefault(int(r["night_id"]), []).append(str(r["name"]))
    nights = [{"uid": str(r["uid"]), "name": str(r["name"]), "date": str(r["date"]),
               "location": r["location"], "created_at": str(r["created_at"]),
               "players": seated.get(int(r["id"]), [])}
              for r in rows(store, "SELECT * FROM nights ORDER BY id")]
    seats: dict[int, list[dict[str, Any]]] = {}
    for r in rows(store, "SELECT pp.*, p.name FROM play_players pp JOIN players p "
                         "ON p.id = pp.player_id ORDER BY pp.play_id, pp.seat"):
        seats.setdefault(int(r["play_id"]), []).append(
            {"player": str(r["name"]), "score": r["score"], "place": r["place"],
             "winner": bool(r["winner"])})
    plays = [{"uid": str(r["uid"]), "night": r["night_uid"], "game": str(r["game"]),
              "date": str(r["date"]), "tiebreak": r["tiebreak"], "source": str(r["source"]),
              "duration_min": r["duration_min"], "created_at": str(r["created_at"]),
              "detail": json.loads(r["detail"]), "seats": seats.get(int(r["id"]), [])}
             for r in rows(store, "SELECT pl.*, n.uid AS night_uid FROM plays pl "
                                  "LEFT JOIN nights n ON n.id = pl.night_id ORDER BY pl.id")]
    return {"format": FORMAT, "version": FORMAT_VERSION, "schema_version": store.version,
            "exported_at": _now(), "players": players,
            "aliases": [{"alias": a.alias.name, "player": a.player.name}
                        for a in aliases(store)],
            "nights": nights, "plays": plays}


# A text cell a spreadsheet would run as a formula starts with one of these (OWASP's CSV
# injection list); such a cell is written with a leading apostrophe, which spreadsheets
# show as text and do not print.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A player's or night's text as a CSV cell no spreadsheet runs as a formula."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def export_csv(store: Store) -> str:
    """One row a player in a play (spreadsheets sum it as they like)."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for h in history(store):
        for i, s in enumerate(h.seats):
            out.writerow([h.uid, h.date, csv_text(h.night or ""), csv_text(h.location or ""),
                          h.game, i + 1, csv_text(s.name), csv_text(s.spelled),
                          "" if s.score is None else f"{s.score:g}",
                          "" if s.place is None else s.place, int(s.winner),
                          csv_text(h.tiebreak or ""),
                          "" if h.duration_min is None else h.duration_min,
                          h.source])
    return buf.getvalue()


def _bg_uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(BGSTATS_NS, f"{kind}:{key}")).upper()


def _local(stamp: str) -> dt.datetime:
    when = dt.datetime.fromisoformat(stamp)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone()


def _bg_time(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M:%S")


def _play_date(date: str, created_at: str) -> str:
    """The play's date with the time it was saved (local), or midnight if saved later."""
    saved = _local(created_at)
    return _bg_time(saved) if saved.date().isoformat() == date else f"{date} 00:00:00"


def _bg_game(slug: str) -> dict[str, Any]:
    """What BG Stats is told about a game, in the play file and in a push link alike."""
    info = BY_SLUG.get(slug)
    return {"name": title(slug), "bggId": (info.bgg_id if info else None) or 0,
            "highestWins": info.highest_wins if info else True, "noPoints": False}


def _bg_comments(h: HistoryRow) -> str:
    return "; ".join(x for x in (h.night, h.tiebreak) if x)


def _bg_seat(s: HistorySeat) -> dict[str, Any]:
    """A seat's place as BG Stats reads it (rank 0: no place). The score is written as
    each format shows: text in the play file, a number in a push link."""
    return {"winner": s.winner, "rank": s.place or 0}


def _bg_number(score: float | None) -> float | int | str:
    """A score as a JSON number (whole ones without ".0"); none: empty."""
    if score is None:
        return ""
    return int(score) if float(score).is_integer() else score


def bgstats_push(store: Store, play_id: int) -> dict[str, Any]:
    """One saved play in BG Stats' push-play form (the JSON its link carries), from the
    same history row and game facts the play file is written from."""
    found = history(store, ids=[play_id])
    if not found:
        raise NotFoundError(f"no play {play_id}")
    h = found[0]
    created = str(rows(store, "SELECT created_at FROM plays WHERE id = ?",
                       (play_id,))[0]["created_at"])
    doc: dict[str, Any] = {
        "game": {**_bg_game(h.game), "sourceGameId": h.game},
        "playDate": _play_date(h.date, created),
        "durationMin": h.duration_min or 0,
        "board": "", "comments": _bg_comments(h),
        "players": [{"name": s.name, "score": _bg_number(s.score),
                     **_bg_seat(s), "startPlayer": False, "role": ""} for s in h.seats],
    }
    if h.location:
        doc["location"] = h.location
    if doc["game"]["bggId"] == 0:
        del doc["game"]["bggId"]  # unknown: BG Stats matches the game by name
    return doc


def bgstats_link(store: Store, play_id: int) -> str:
    """The link that opens BG Stats (on the same phone) with this play filled in."""
    text = json.dumps(bgstats_push(store, play_id), ensure_ascii=False,
                      separators=(",", ":"))
    return BGSTATS_PUSH + quote(text, safe="")


def export_bgstats(store: Store, me: str | None = None) -> dict[str, Any]:
    """A BG Stats play file (the JSON the app opens to import plays).

    Players are the counted ones (aliases folded in); ``me`` names the app's owner.
    """
    plays = history(store)
    created = {str(r["uid"]): str(r["created_at"])
               for r in rows(store, "SELECT uid, created_at FROM plays")}
    now = _bg_time(dt.datetime.now().astimezone())
    game_ids = {slug: i + 1 for i, slug in enumerate(
        sorted({h.game for h in plays}, key=lambda g: (g not in BY_SLUG, g)))}
    player_ids: dict[str, int] = {}
    location_ids: dict[str, int] = {}
    for h in plays:
        for s in h.seats:
            player_ids.setdefault(s.name, len(player_ids) + 1)
        if h.location:
            location_ids.setdefault(h.location, len(location_ids) + 1)
    games = []
    for slug, gid in game_ids.items():
        games.append({"id": gid, "uuid": _bg_uuid("game", slug), **_bg_game(slug),
                      "bggName": title(slug), "cooperative": False, "usesTeams": False,
                      "modificationDate": now})
    out_plays = []
    for h in plays:
        comments = _bg_comments(h)
        play: dict[str, Any] = {
            "uuid": str(uuid.UUID(hex=h.uid)).upper(),
            "gameRefId": game_ids[h.game],
            "playDate": _play_date(h.date, created[h.uid]),
            "entryDate": _bg_time(_local(created[h.uid])),
            "modificationDate": _bg_time(_local(created[h.uid])),
            "durationMin": h.duration_min or 0,
            "ignored": False, "manualWinner": False, "rounds": 0, "usesTeams": False,
            "scoringSetting": 0, "board": "", "comments": comments,
            "playerScores": [
                {"playerRefId": player_ids[s.name], "score": "" if s.score is None
                 else f"{s.score:g}", **_bg_seat(s), "seatOrder": i, "newPlayer": False,
                 "startPlayer": False}
                for i, s in enumerate(h.seats)],
        }
        if h.location:
            play["locationRefId"] = location_ids[h.location]
        out_plays.append(play)
    doc: dict[str, Any] = {
        "about": BGSTATS_ABOUT,
        "players": [{"id": pid, "uuid": _bg_uuid("player", name.lower()), "name": name,
                     "isAnonymous": False, "modificationDate": now}
                    for name, pid in player_ids.items()],
        "locations": [{"id": lid, "uuid": _bg_uuid("location", name.lower()), "name": name,
                       "modificationDate": now} for name, lid in location_ids.items()],
        "games": games,
        "plays": out_plays,
    }
    if me is not None:
        who = resolve(store, me).name  # any spelling of the owner
        mine = player_ids.get(who)
        if mine is None:
            raise NotFoundError(f"--me {me!r}: that player is in none of the exported plays")
        doc["userInfo"] = {"meRefId": mine}
    return doc
