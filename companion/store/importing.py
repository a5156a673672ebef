"""``companion import``: our JSON export read back, checked whole before anything is written.

Everything lands in one transaction: a file that is malformed anywhere, or names an
unknown game, changes nothing. Plays and nights carry their uid, so importing a file twice
(or into the store it came from) adds nothing the second time.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import InputError
from companion.fileio import STDIN, check_json_tree, parse_json, source_label
from companion.games.registry import game as game_info
from companion.store.db import Store, clean_name, name_key
from companion.store.export import FORMAT, FORMAT_VERSION
from companion.store.history import check_date

MAX_IMPORT_BYTES = 200 * 1024 * 1024


@dataclass(frozen=True)
class ImportReport:
    players: int  # new players
    nights: int  # new nights
    plays: int  # new plays
    skipped: int  # plays already in the store
    aliases: int


def _fail(where: str, what: str) -> InputError:
    return InputError(f"{where}: {what}")


def _obj(x: Any, where: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise _fail(where, "expected an object")
    return x


def _list(doc: dict[str, Any], key: str, where: str) -> list[Any]:
    x = doc.get(key, [])
    if not isinstance(x, list):
        raise _fail(f"{where}{key}", "expected a list")
    return x


def _text(doc: dict[str, Any], key: str, where: str, optional: bool = False) -> str | None:
    x = doc.get(key)
    if x is None and optional:
        return None
    if not isinstance(x, str) or not x.strip():
        raise _fail(f"{where}.{key}", "expected a non-empty string")
    return x


def _name(doc: dict[str, Any], key: str, where: str) -> str:
    try:
        return clean_name(str(_text(doc, key, where)), "name")
    except InputError as exc:
        raise _fail(f"{where}.{key}", str(exc)) from None


def _number(doc: dict[str, Any], key: str, where: str, whole: bool = False) -> Any:
    x = doc.get(key)
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, int | float) or (whole and not isinstance(x, int)):
        raise _fail(f"{where}.{key}", f"expected {'a whole number' if whole else 'a number'}")
    return x


def _uid(doc: dict[str, Any], where: str) -> str:
    text = str(_text(doc, "uid", where))
    if len(text) != 32 or any(c not in "0123456789abcdef" for c in text):
        raise _fail(f"{where}.uid", "expected 32 lowercase hex digits")
    return text


def _date(doc: dict[str, Any], key: str, where: str) -> str:
    return check_date(str(_text(doc, key, where)), f"{where}.{key}")


def load(path: str | Path) -> dict[str, Any]:
    """The file's JSON document, or one clear line saying why it is not an export."""
    p = Path(source_label(path))  # standard input for "-", as every JSON file argument
    try:
        if os.fspath(path) == STDIN:
            raw = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
            if len(raw) > MAX_IMPORT_BYTES:
                raise InputError(f"{p}: larger than {MAX_IMPORT_BYTES // 2**20} MB")
        else:
            if p.exists() and not p.is_file():  # a FIFO would wait forever, a device never end
                raise InputError(f"{p}: not a regular file")
            if p.stat().st_size > MAX_IMPORT_BYTES:
                raise InputError(f"{p}: larger than {MAX_IMPORT_BYTES // 2**20} MB")
            raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: {exc.strerror or exc}") from None
    try:
        doc = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(f"{p}: not JSON{where}; expected a `companion export --format json` "
                         "file") from None
    except (RecursionError, ValueError):
        doc = parse_json(raw, str(p))  # names the hostile part (depth, a huge number)
    check_json_tree(doc, str(p))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f"{p}: not a companion export (no \"format\": \"{FORMAT}\"); CSV and "
                         "BG Stats files are for other apps and cannot be imported")
    version = doc.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION or version < 1:
        raise InputError(f"{p}: export format version {version!r}; this companion reads "
                         f"version {FORMAT_VERSION} (upgrade companion)")
    return doc


def _checked(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with every field checked (raises at the first bad one)."""
    players = []
    for i, p in enumerate(_list(doc, "players", "")):
        w = f"players[{i}]"
        p = _obj(p, w)
        players.append((_name(p, "name", w), _text(p, "created_at", w, optional=True)))
    al = []
    for i, a in enumerate(_list(doc, "aliases", "")):
        w = f"aliases[{i}]"
        a = _obj(a, w)
        al.append((_name(a, "alias", w), _name(a, "player", w)))
    nights = []
    for i, n in enumerate(_list(doc, "nights", "")):
        w = f"nights[{i}]"
        n = _obj(n, w)
        seated = [clean_name(str(x), "name") if isinstance(x, str) else None
                  for x in _list(n, "players", f"{w}.")]
        if None in seated:
            raise _fail(f"{w}.players", "expected a list of names")
        nights.append({"uid": _uid(n, w), "name": _name(n, "name", w),
                       "date": _date(n, "date", w),
                       "location": _text(n, "location", w, optional=True),
                       "created_at": _text(n, "created_at", w, optional=True),
                       "players": seated})
    night_uids = {n["uid"] for n in nights}
    plays = []
    for i, pl in enumerate(_list(doc, "plays", "")):
        w = f"plays[{i}]"
        pl = _obj(pl, w)
        try:
            game = game_info(str(_text(pl, "game", w))).slug
        except InputError as exc:
            raise _fail(f"{w}.game", str(exc)) from None
        night = pl.get("night")
        if night is not None and night not in night_uids:
            raise _fail(f"{w}.night", f"{night!r} is not one of the file's nights")
        detail = pl.get("detail", {})
        if not isinstance(detail, dict):
            raise _fail(f"{w}.detail", "expected an object")
        seats = []
        for j, s in enumerate(_list(pl, "seats", f"{w}.")):
            ws = f"{w}.seats[{j}]"
            s = _obj(s, ws)
            winner = s.get("winner", False)
            if not isinstance(winner, bool):
                raise _fail(f"{ws}.winner", "expected true or false")
            place = _number(s, "place", ws, whole=True)
            seats.append((_name(s, "player", ws), _number(s, "score", ws), place, winner))
        if not seats:
            raise _fail(f"{w}.seats", "a play needs at least one player")
        plays.append({"uid": _uid(pl, w), "night": night, "game": game,
                      "date": _date(pl, "date", w),
                      "tiebreak": _text(pl, "tiebreak", w, optional=True),
                      "source": _text(pl, "source", w, optional=True) or "import",
                      "duration_min": _number(pl, "duration_min", w, whole=True),
                      "created_at": _text(pl, "created_at", w, optional=True),
                      "detail": detail, "seats": seats})
    return {"players": players, "aliases": al, "nights": nights, "plays": plays}


def _player(c: sqlite3.Connection, name: str, created: str | None, now: str,
            counter: list[int]) -> int:
    row = c.execute("SELECT id FROM players WHERE name_key(name) = name_key(?)",
                    (name,)).fetchone()
    if row is not None:
        return int(row[0])
    counter[0] += 1
    cur = c.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", (name, created or now))
    return int(cur.lastrowid or 0)


def import_doc(store: Store, doc: dict[str, Any], now: str) -> ImportReport:
    """Add the export's players, aliases, nights and plays that the store lacks."""
    data = _checked(doc)
    new_players = [0]
    new_nights = new_plays = skipped = 0
    with store.transaction() as c:
        pids = {name_key(name): _player(c, name, created, now, new_players)
                for name, created in data["players"]}

        def pid(name: str) -> int:
            if name_key(name) not in pids:
                pids[name_key(name)] = _player(c, name, None, now, new_players)
            return pids[name_key(name)]

        nids: dict[str, int] = {}
        for n in data["nights"]:
            row = c.execute("SELECT id FROM nights WHERE uid = ?", (n["uid"],)).fetchone()
            if row is not None:
                nids[n["uid"]] = int(row[0])
                continue
            cur = c.execute("INSERT INTO nights (name, date, location, created_at, uid) "
                            "VALUES (?, ?, ?, ?, ?)", (n["name"], n["date"], n["location"],
                                                       n["created_at"] or now, n["uid"]))
            nids[n["uid"]] = int(cur.lastrowid or 0)
            new_nights += 1
            for seat, name in enumerate(n["players"]):
                c.execute("INSERT OR IGNORE INTO night_players (night_id, player_id, seat) "
                          "VALUES (?, ?, ?)", (nids[n["uid"]], pid(name), seat))
        for p in data["plays"]:
            if c.execute("SELECT 1 FROM plays WHERE uid = ?", (p["uid"],)).fetchone():
                skipped += 1
                continue
            cur = c.execute(
                "INSERT INTO plays (night_id, game, date, tiebreak, source, detail, duration_min,"
                " created_at, uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (nids.get(p["night"]) if p["night"] else None, p["game"], p["date"],
                 p["tiebreak"], p["source"], json.dumps(p["detail"], sort_keys=True),
                 p["duration_min"], p["created_at"] or now, p["uid"]))
            play_id = int(cur.lastrowid or 0)
            for seat, (name, score, place, winner) in enumerate(p["seats"]):
                c.execute("INSERT INTO play_players (play_id, seat, player_id, score, place, "
                          "winner) VALUES (?, ?, ?, ?, ?, ?)",
                          (play_id, seat, pid(name), score, place, int(winner)))
            new_plays += 1
        n_alias = 0
        for alias, target in data["aliases"]:
            a, t = pid(alias), pid(target)
            # Keep aliases one step deep, as set_alias does: the target's own player, and
            # whatever pointed at the alias follows it. An export whose aliases form a ring
            # (A -> B, B -> A) would otherwise make both players vanish from every total.
            row = c.execute("SELECT canonical_id FROM player_aliases WHERE player_id = ?",
                            (t,)).fetchone()
            t = int(row[0]) if row is not None else t
            if a == t:
                continue
            c.execute("UPDATE player_aliases SET canonical_id = ? WHERE canonical_id = ?", (t, a))
            c.execute("INSERT OR REPLACE INTO player_aliases (player_id, canonical_id, "
                      "created_at) VALUES (?, ?, ?)", (a, t, now))
            n_alias += 1
    return ImportReport(new_players[0], new_nights, new_plays, skipped, n_alias)
