"""The SQLite store behind ``companion serve`` and the CLI's saved plays.

One database file and a ``photos/`` folder under the data directory. WAL mode, every
change in one ``BEGIN IMMEDIATE`` transaction (so two processes saving at once queue
rather than fail), ``synchronous=FULL`` so a change the caller was told about survives a
killed process. Photo files are written and fsynced before the row that names them is
committed; a crash in between leaves at most an unreferenced file, never a dangling row.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.fileio import write_atomic
from companion.games.outcome import Outcome
from companion.store import schema
from companion.store.errors import (
    NotFoundError,
    StoreBusyError,
    StoreError,
    StoreFullError,
    StoreVersionError,
)
from companion.store.models import (
    Correction,
    NewPhoto,
    Night,
    Photo,
    Play,
    Player,
    Reading,
    Scoring,
    Seat,
    SeatInput,
    Standing,
)
from companion.store.paths import DB_NAME, PHOTO_DIR, data_dir
from companion.text import MAX_NAME_CHARS, name_key

BUSY_TIMEOUT_S = 15.0
LOCK_RETRY_S = 0.05  # SQLite's own wait a try; the store tries again until its wait_s
PHOTO_SUFFIX = MappingProxyType({"image/jpeg": ".jpg", "image/png": ".png",
                                 "image/webp": ".webp", "image/heic": ".heic",
                                 "image/heif": ".heif"})


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _today() -> str:
    return dt.date.today().isoformat()


# Characters a name may not hold: terminal controls (an escape sequence in `history`
# output), lone surrogates (unprintable) and the bidi overrides that make one name look
# like another.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_name(name: str, what: str = "name") -> str:
    """A player or night name with spaces tidied; empty, over-long or control-laden names
    are refused."""
    text = unicodedata.normalize("NFC", " ".join(str(name).split()))
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI_CONTROLS:
            raise StoreError(f"the {what} holds a control character ({ascii(ch)})")
    if not text:
        raise StoreError(f"the {what} is empty")
    if len(text) > MAX_NAME_CHARS:
        raise StoreError(f"the {what} is longer than {MAX_NAME_CHARS} characters")
    return text


# Tonight, for the web and the command line alike: the night with the latest date (the
# latest started among nights of one date). Not the latest row: an imported export of an
# older night is a new row.
LATEST_NIGHT = "SELECT id, date FROM nights ORDER BY date DESC, id DESC LIMIT 1"


class Store:
    """A connection to one data directory; safe to share between threads of one process."""

    def __init__(self, root: Path, conn: sqlite3.Connection,
                 wait_s: float = BUSY_TIMEOUT_S) -> None:
        self.root = root
        self._conn = conn
        self._lock = threading.RLock()
        self._wait_s = wait_s

    # ---- opening ----------------------------------------------------------------------

    @classmethod
    def open(cls, data: str | os.PathLike[str] | None = None,
             wait_s: float = BUSY_TIMEOUT_S) -> Store:
        """Open (creating and migrating as needed) the store in the chosen data dir; a
        call waits at most ``wait_s`` for a lock, then raises StoreBusyError."""
        root = data_dir(data)
        try:
            (root / PHOTO_DIR).mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(root / DB_NAME, timeout=wait_s,
                                   isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the data directory {root}: {exc}") from None
        try:
            conn.create_function("name_key", 1, name_key, deterministic=True)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn)
            # From now on SQLite waits a moment a try; the store's own tries stop at wait_s.
            conn.execute(f"PRAGMA busy_timeout = {int(min(wait_s, LOCK_RETRY_S) * 1000)}")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{root / DB_NAME}: not a companion database ({exc})") from None
        except BaseException:
            conn.close()
            raise
        return cls(root, conn, wait_s)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """This connection to oneself, waiting no longer than a lock of SQLite's would."""
        if not self._lock.acquire(timeout=self._wait_s):
            raise StoreBusyError(f"the store is busy (waited {self._wait_s:g} s); try again")
        try:
            yield
        finally:
            self._lock.release()

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[None]:
        """SQLite's write lock, waited for in short tries with this connection free in
        between, so this process's reads go on while another process holds the lock."""
        deadline = time.monotonic() + self._wait_s
        while True:
            with self._locked():
                try:
                    self._conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    failure = self._failure(exc)
                    if type(failure) is StoreError:
                        failure = StoreError(f"the database is busy or read-only: {exc}")
                    if not isinstance(failure, StoreBusyError) or time.monotonic() > deadline:
                        raise failure from None
                else:
                    yield
                    return
            time.sleep(LOCK_RETRY_S)

    def _failure(self, exc: sqlite3.OperationalError) -> StoreError:
        """A failed write in words, typed by its cause (busy, disk full, other)."""
        text = str(exc)
        if "locked" in text or "busy" in text:
            return StoreBusyError(f"the store is busy (waited {self._wait_s:g} s); try again")
        if "full" in text:
            return StoreFullError(f"the disk is full: cannot write to the store in "
                                  f"{self.root}; nothing was changed")
        return StoreError(f"cannot write to the store in {self.root}: {text}")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def db_path(self) -> Path:
        return self.root / DB_NAME

    @property
    def photo_dir(self) -> Path:
        return self.root / PHOTO_DIR

    @property
    def version(self) -> int:
        return current_version(self._conn)

    def backup(self, target: str | os.PathLike[str]) -> Path:
        """A consistent copy of the database (SQLite's online backup), photos not included."""
        out = Path(target)
        try:
            dst = sqlite3.connect(out)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write {out}: {exc}") from None
        try:
            with self._lock:
                self._conn.backup(dst)
        finally:
            dst.close()
        return out

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it lands or none of it does."""
        with self._write_lock():
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException as exc:
                # SQLite has already rolled back after some errors (a full disk): a second
                # ROLLBACK would hide the cause behind "no transaction is active".
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.OperationalError):
                    raise self._failure(exc) from None
                raise

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        deadline = time.monotonic() + self._wait_s
        while True:
            with self._locked():
                try:
                    cur = self._conn.execute(sql, args)
                    cur.row_factory = sqlite3.Row
                    return list(cur.fetchall())
                except sqlite3.OperationalError as exc:
                    failure = self._failure(exc)
                    if not isinstance(failure, StoreBusyError):
                        raise
                    if time.monotonic() > deadline:
                        raise failure from None
            time.sleep(LOCK_RETRY_S)

    # ---- nights -----------------------------------------------------------------------

    def new_night(self, name: str | None = None, date: str | None = None,
                  location: str | None = None, carry_players: bool = False,
                  once: str | None = None) -> Night:
        """Start a night; with ``carry_players`` the last night's players sit down again.

        ``once`` (a form's one-time key): a second request with it gets the first night."""
        day = date or _today()
        title = clean_name(name, "night name") if name else f"Game night {day}"
        with self.transaction() as c:
            earlier = _earlier(c, once, "night")
            if earlier is not None:
                return self.night(earlier)
            last = c.execute(LATEST_NIGHT).fetchone()
            cur = c.execute(
                "INSERT INTO nights (name, date, location, created_at) VALUES (?, ?, ?, ?)",
                (title, day, location, _now()))
            nid = int(cur.lastrowid or 0)
            if carry_players and last is not None:
                c.execute("INSERT INTO night_players (night_id, player_id, seat) "
                          "SELECT ?, player_id, seat FROM night_players WHERE night_id = ?",
                          (nid, last[0]))
            _keep(c, once, "night", nid)
        return self.night(nid)

    def night(self, night_id: int) -> Night:
        rows = self._query("SELECT * FROM nights WHERE id = ?", (night_id,))
        if not rows:
            raise NotFoundError(f"no night {night_id}")
        return _night(rows[0])

    def nights(self) -> list[Night]:
        return [_night(r) for r in self._query("SELECT * FROM nights ORDER BY id")]

    def current_night(self) -> Night:
        """The latest night by its date, started now if the store has none."""
        rows = self._query(LATEST_NIGHT)
        if rows:
            return self.night(int(rows[0]["id"]))
        day = _today()
        with self.transaction() as c:  # two processes starting at once make one night
            row = c.execute(LATEST_NIGHT).fetchone()
            if row is None:
                row = (c.execute("INSERT INTO nights (name, date, location, created_at) "
                                 "VALUES (?, ?, NULL, ?)",
                                 (f"Game night {day}", day, _now())).lastrowid,)
        return self.night(int(row[0]))

    # ---- players ----------------------------------------------------------------------

    def player(self, name_or_id: str | int, create: bool = False) -> Player:
        if isinstance(name_or_id, int):
            rows = self._query("SELECT id, name FROM players WHERE id = ?", (name_or_id,))
        else:
            rows = self._query("SELECT id, name FROM players WHERE name_key(name) = name_key(?)",
                               (clean_name(name_or_id, "player name"),))
        if rows:
            return Player(int(rows[0]["id"]), str(rows[0]["name"]))
        if create and isinstance(name_or_id, str):
            with self.transaction() as c:
                pid = _player_id(c, name_or_id)
            return self.player(pid)
        raise NotFoundError(f"no player {name_or_id!r}")

    def players(self) -> list[Player]:
        return [Player(int(r["id"]), str(r["name"]))
                for r in self._query("SELECT id, name FROM players ORDER BY name")]

    def add_player(self, night_id: int, name: str) -> Player:
        """Seat a player at the night (known players are matched without case)."""
        self.night(night_id)
        with self.transaction() as c:
            pid = _player_id(c, name)
            seat = c.execute("SELECT COALESCE(MAX(seat) + 1, 0) FROM night_players "
                             "WHERE night_id = ?", (night_id,)).fetchone()[0]
            c.execute("INSERT OR IGNORE INTO night_players (night_id, player_id, seat) "
                      "VALUES (?, ?, ?)", (night_id, pid, seat))
        return self.player(pid)

    def rename_player(self, player_id: int, new_name: str) -> Player:
        """Rename everywhere; a name another player already has is refused."""
        name = clean_name(new_name, "player name")
        self.player(player_id)
        with self.transaction() as c:
            other = c.execute("SELECT id FROM players WHERE name_key(name) = name_key(?) "
                              "AND id != ?",
                              (name, player_id)).fetchone()
            if other is not None:
                raise StoreError(f"there is already a player called {name!r}")
            c.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
        return self.player(player_id)

    def night_players(self, night_id: int) -> list[Player]:
        rows = self._query("SELECT p.id, p.name FROM night_players np JOIN players p "
                           "ON p.id = np.player_id WHERE np.night_id = ? ORDER BY np.seat",
                           (night_id,))
        return [Player(int(r["id"]), str(r["name"])) for r in rows]

    # ---- plays ------------------------------------------------------------------------

    def save_play(self, game: str, seats: Sequence[SeatInput], *, night_id: int | None = None,
                  date: str | None = None, tiebreak: str | None = None,
                  detail: dict[str, Any] | None = None, source: str = "web",
                  duration_min: int | None = None, scoring_id: int | None = None,
                  once: str | None = None) -> Play:
        """Save one play with every player's score and place in one transaction.

        Players are created as needed and seated at the night; a scoring given is linked
        to the play (so its photos and corrections open from the play). Saving is
        idempotent, decided inside the transaction so no timing of two taps makes two
        plays: a scoring already saved as this very play answers with that play (saved
        differently, after a correction, the new play replaces it), and a request whose
        one-time key ``once`` was seen answers with the play that request made.
        """
        if not seats:
            raise StoreError("a play needs at least one player")
        keys = [name_key(clean_name(s.name, "player name")) for s in seats]
        counts = Counter(keys)
        twice = next((s.name for s, k in zip(seats, keys, strict=True) if counts[k] > 1), None)
        if twice is not None:  # one player in two seats would count twice in the standings
            raise StoreError(f"two players share the name {twice.strip()!r}; "
                             "give each player a name of their own")
        day = date
        if day is None and night_id is not None:
            day = self.night(night_id).date
        detail_json = json.dumps(detail or {}, sort_keys=True)
        with self.transaction() as c:
            earlier = _earlier(c, once, "play")
            if earlier is None and scoring_id is not None:
                row = c.execute("SELECT play_id FROM scorings WHERE id = ?",
                                (scoring_id,)).fetchone()
                if row is None:
                    raise NotFoundError(f"no scoring {scoring_id}")
                if row[0] is not None and _same_play(c, int(row[0]), game, seats, tiebreak,
                                                     detail_json):
                    earlier = int(row[0])
                elif row[0] is not None:
                    c.execute("DELETE FROM plays WHERE id = ?", (row[0],))
            if earlier is not None:
                return self.play(earlier)
            cur = c.execute(
                "INSERT INTO plays (night_id, game, date, tiebreak, source, detail, "
                "duration_min, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (night_id, game, day or _today(), tiebreak, source, detail_json, duration_min,
                 _now()))
            play_id = int(cur.lastrowid or 0)
            for i, s in enumerate(seats):
                pid = _player_id(c, s.name)
                c.execute("INSERT INTO play_players (play_id, seat, player_id, score, place, "
                          "winner) VALUES (?, ?, ?, ?, ?, ?)",
                          (play_id, i, pid, s.score, s.place, int(s.winner)))
                if night_id is not None:
                    c.execute("INSERT OR IGNORE INTO night_players (night_id, player_id, seat) "
                              "SELECT ?, ?, COALESCE(MAX(seat) + 1, 0) FROM night_players "
                              "WHERE night_id = ?", (night_id, pid, night_id))
            if scoring_id is not None:
                c.execute("UPDATE scorings SET play_id = ? WHERE id = ?", (play_id, scoring_id))
            _keep(c, once, "play", play_id)
        return self.play(play_id)

    def save_outcome(self, outcome: Outcome, *, night_id: int | None, source: str,
                     scoring_id: int | None = None, once: str | None = None) -> Play:
        """Save a finished game as the games turn it into a play (``Game.play``): the one
        way the command line and the web app keep a result."""
        seats = [SeatInput(s.name, s.score, s.place, s.winner) for s in outcome.seats]
        return self.save_play(outcome.game, seats, night_id=night_id,
                              tiebreak=outcome.tiebreak, detail=outcome.detail,
                              source=source, scoring_id=scoring_id, once=once)

    def play(self, play_id: int) -> Play:
        plays = self.plays(ids=[play_id])
        if not plays:
            raise NotFoundError(f"no play {play_id}")
        return plays[0]

    def plays(self, *, night_id: int | None = None, game: str | None = None,
              player: str | None = None, since: str | None = None,
              ids: Sequence[int] | None = None, latest: int | None = None,
              skip: int = 0) -> list[Play]:
        """Plays oldest first, filtered by night, game, player name or ISO date; ``latest``
        keeps only the newest N after the ``skip`` newest (a page of a list)."""
        where: list[str] = []
        args: list[Any] = []
        if night_id is not None:
            where.append("pl.night_id = ?")
            args.append(night_id)
        if game is not None:
            where.append("pl.game = ?")
            args.append(game)
        if since is not None:
            where.append("pl.date >= ?")
            args.append(since)
        if ids is not None:
            where.append(f"pl.id IN ({','.join('?' * len(ids))})")
            args.extend(ids)
        if player is not None:
            where.append("pl.id IN (SELECT pp.play_id FROM play_players pp JOIN players p "
                         "ON p.id = pp.player_id WHERE p.name = ?)")
            args.append(clean_name(player, "player name"))
        sql = "SELECT * FROM plays pl" + (f" WHERE {' AND '.join(where)}" if where else "")
        if latest is not None:
            sql = (f"SELECT * FROM ({sql} ORDER BY pl.date DESC, pl.id DESC LIMIT ? OFFSET ?)"
                   " pl")
            args += [int(latest), int(skip)]
        rows = self._query(sql + " ORDER BY pl.date, pl.id", args)
        if not rows:
            return []
        seats: dict[int, list[Seat]] = {}
        marks = ",".join("?" * len(rows))
        for r in self._query(
                "SELECT pp.*, p.name FROM play_players pp JOIN players p ON p.id = pp.player_id "
                f"WHERE pp.play_id IN ({marks}) ORDER BY pp.play_id, pp.seat",
                [r["id"] for r in rows]):
            seats.setdefault(int(r["play_id"]), []).append(Seat(
                int(r["seat"]), Player(int(r["player_id"]), str(r["name"])),
                r["score"], r["place"], bool(r["winner"])))
        return [Play(int(r["id"]), r["night_id"], str(r["game"]), str(r["date"]),
                     tuple(seats.get(int(r["id"]), [])), r["tiebreak"], str(r["source"]),
                     json.loads(r["detail"]), r["duration_min"], str(r["created_at"]))
                for r in rows]

    def delete_play(self, play_id: int, once: str | None = None) -> None:
        """Delete a play; a second request with the same one-time key ``once`` is answered
        as the first was, though the play is gone."""
        with self.transaction() as c:
            if _earlier(c, once, "delete") is not None:
                return
            if c.execute("SELECT 1 FROM plays WHERE id = ?", (play_id,)).fetchone() is None:
                raise NotFoundError(f"no play {play_id}")
            c.execute("DELETE FROM plays WHERE id = ?", (play_id,))
            _keep(c, once, "delete", play_id)

    def night_standings(self, night_id: int) -> list[Standing]:
        """Tonight's players by wins, then plays; players who have not played yet show 0."""
        rows = self._query(
            "SELECT p.id, p.name, COUNT(pp.play_id) AS plays, COALESCE(SUM(pp.winner), 0) AS wins "
            "FROM night_players np JOIN players p ON p.id = np.player_id "
            "LEFT JOIN play_players pp ON pp.player_id = p.id "
            "AND pp.play_id IN (SELECT id FROM plays WHERE night_id = ?) "
            "WHERE np.night_id = ? GROUP BY p.id ORDER BY wins DESC, plays DESC, np.seat",
            (night_id, night_id))
        return [Standing(Player(int(r["id"]), str(r["name"])), int(r["plays"]), int(r["wins"]))
                for r in rows]

    # ---- scorings, photos, readings, corrections --------------------------------------

    def new_scoring(self, game: str, night_id: int | None) -> Scoring:
        with self.transaction() as c:
            cur = c.execute("INSERT INTO scorings (night_id, game, created_at) VALUES (?, ?, ?)",
                            (night_id, game, _now()))
        return self.scoring(int(cur.lastrowid or 0))

    def scoring(self, scoring_id: int) -> Scoring:
        rows = self._query("SELECT * FROM scorings WHERE id = ?", (scoring_id,))
        if not rows:
            raise NotFoundError(f"no scoring {scoring_id}")
        r = rows[0]
        return Scoring(int(r["id"]), r["night_id"], str(r["game"]), r["play_id"],
                       str(r["created_at"]))

    def scorings(self, night_id: int, game: str | None = None) -> list[Scoring]:
        rows = self._query("SELECT id FROM scorings WHERE night_id = ?"
                           + (" AND game = ?" if game else "") + " ORDER BY id",
                           (night_id, game) if game else (night_id,))
        return [self.scoring(int(r["id"])) for r in rows]

    def add_photo(self, data: bytes, media_type: str, width: int, height: int, *,
                  scoring_id: int | None = None, role: str = "",
                  reading: tuple[str, dict[str, Any]] | None = None,
                  ) -> tuple[Photo, Reading | None]:
        """Keep an uploaded photo under a server-chosen name, with its reading if given.

        The caller has already checked the content (``media_type`` is what it sniffed);
        nothing the client sent becomes part of the path.
        """
        _, kept = self.add_photos([NewPhoto(data, media_type, width, height, role, reading)],
                                  scoring_id=scoring_id)
        return kept[0]

    def add_photos(self, photos: Sequence[NewPhoto], *, scoring_id: int | None = None,
                   new_scoring: tuple[str, int | None] | None = None, once: bool = False,
                   ) -> tuple[int | None, list[tuple[Photo, Reading | None]]]:
        """Keep photos (with their readings) all or none: in scoring ``scoring_id``, or in
        a scoring made with them from ``new_scoring`` (game, night id); its id and what
        was kept. A full disk keeps nothing, not even the new scoring.

        With ``once`` (a phone's upload) a photo whose bytes were already kept for the same
        night, game and role is not kept again: the answer names the first photo and its
        reading, and a new table goes to the table that photo is in. The check and the
        insert share one write transaction, so two uploads at once keep one photo.
        """
        if once:
            found = self.kept_photos(photos, scoring_id=scoring_id, new_scoring=new_scoring)
            if found is not None:
                return found
        written: list[Path] = []
        unused: list[Path] = []
        try:
            names = [self._write_photo(p, written) for p in photos]
            with self.transaction() as c:
                game, night_id = (new_scoring if new_scoring is not None
                                  else _scoring_game_night(c, scoring_id))
                keys = [photo_key(night_id, game, p.role, p.data) for p in photos]
                kept = _kept_keys(c, keys) if once else {}
                if new_scoring is not None:
                    earlier = next((kept[k] for k in keys if k in kept), None)
                    if earlier is not None:  # a retried new table: the table it made
                        scoring_id = int(c.execute("SELECT scoring_id FROM photos WHERE id = ?",
                                                   (earlier,)).fetchone()[0])
                    else:
                        cur = c.execute("INSERT INTO scorings (night_id, game, created_at) "
                                        "VALUES (?, ?, ?)", (night_id, game, _now()))
                        scoring_id = int(cur.lastrowid or 0)
                ids = []
                for p, name, key in zip(photos, names, keys, strict=True):
                    if key in kept:
                        unused.append(self.photo_dir / name)
                        ids.append((kept[key], _first_reading(c, kept[key])))
                        continue
                    cur = c.execute(
                        "INSERT INTO photos (scoring_id, role, file, media_type, bytes, width,"
                        " height, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (scoring_id, p.role, name, p.media_type, len(p.data), p.width,
                         p.height, hashlib.sha256(p.data).hexdigest(), _now()))
                    photo_id = int(cur.lastrowid or 0)
                    c.execute("INSERT OR IGNORE INTO photo_keys (key, photo_id) VALUES (?, ?)",
                              (key, photo_id))
                    kept[key] = photo_id
                    ids.append((photo_id, _insert_reading(c, photo_id, *p.reading)
                                if p.reading is not None else None))
        except BaseException:
            for path in written:
                path.unlink(missing_ok=True)
            raise
        for path in unused:  # the same bytes were kept by an earlier upload
            path.unlink(missing_ok=True)
        return scoring_id, [(self.photo(pid), self.reading(rid) if rid else None)
                            for pid, rid in ids]

    def kept_photos(self, photos: Sequence[NewPhoto], *, scoring_id: int | None = None,
                    new_scoring: tuple[str, int | None] | None = None,
                    ) -> tuple[int | None, list[tuple[Photo, Reading | None]]] | None:
        """What ``add_photos(..., once=True)`` answers when every one of ``photos`` is
        already kept (the table they are in and the first photos), else None: a retried
        upload is answered without reading or writing anything."""
        if new_scoring is not None:
            game, night_id = new_scoring
        else:
            with self._locked():
                game, night_id = _scoring_game_night(self._conn, scoring_id)
        keys = [photo_key(night_id, game, p.role, p.data) for p in photos]
        kept = {str(r["key"]): int(r["photo_id"]) for r in self._query(
            f"SELECT key, photo_id FROM photo_keys WHERE key IN ({','.join('?' * len(keys))})",
            keys)} if keys else {}
        if not keys or any(k not in kept for k in keys):
            return None
        first = [self.photo(kept[k]) for k in keys]
        readings = [self._query("SELECT * FROM readings WHERE photo_id = ? ORDER BY id LIMIT 1",
                                (p.id,)) for p in first]
        return (first[0].scoring_id,
                [(p, _reading(r[0]) if r else None) for p, r in zip(first, readings, strict=True)])

    def _write_photo(self, photo: NewPhoto, written: list[Path]) -> str:
        """The photo's file written and fsynced under a new name (added to ``written``)."""
        suffix = PHOTO_SUFFIX.get(photo.media_type)
        if suffix is None:
            raise StoreError(f"cannot keep a photo of type {photo.media_type}")
        name = f"{dt.datetime.now(dt.UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(8)}{suffix}"
        final = self.photo_dir / name
        try:
            write_atomic(final, photo.data, fresh=True)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise StoreFullError("the disk is full: the photo was not kept; nothing "
                                     "was changed") from None
            raise StoreError(f"cannot keep the photo: {exc.strerror}") from None
        written.append(final)
        return name

    def photo(self, photo_id: int) -> Photo:
        rows = self._query("SELECT * FROM photos WHERE id = ?", (photo_id,))
        if not rows:
            raise NotFoundError(f"no photo {photo_id}")
        return _photo(rows[0])

    def photos(self, scoring_id: int) -> list[Photo]:
        return [_photo(r) for r in self._query(
            "SELECT * FROM photos WHERE scoring_id = ? ORDER BY id", (scoring_id,))]

    def photo_path(self, photo: Photo) -> Path:
        return self.photo_dir / photo.file

    def add_reading(self, photo_id: int, kind: str, doc: dict[str, Any]) -> Reading:
        with self.transaction() as c:
            rid = _insert_reading(c, photo_id, kind, doc)
        return self.reading(rid)

    def reading(self, reading_id: int) -> Reading:
        rows = self._query("SELECT * FROM readings WHERE id = ?", (reading_id,))
        if not rows:
            raise NotFoundError(f"no reading {reading_id}")
        return _reading(rows[0])

    def readings(self, scoring_id: int) -> list[Reading]:
        """The readings of a scoring's photos, in upload order."""
        return [_reading(r) for r in self._query(
            "SELECT r.* FROM readings r JOIN photos ph ON ph.id = r.photo_id "
            "WHERE ph.scoring_id = ? ORDER BY ph.id, r.id", (scoring_id,))]

    def set_reading_player(self, reading_id: int, player_id: int | None) -> Reading:
        self.reading(reading_id)
        if player_id is not None:
            self.player(player_id)
        with self.transaction() as c:
            c.execute("UPDATE readings SET player_id = ? WHERE id = ?", (player_id, reading_id))
        return self.reading(reading_id)

    def correct(self, reading_id: int, field: str, value: str | None) -> Correction:
        """Record a correction by hand (None empties the field); undo keeps it as history.

        The same correction twice in a row (a double tap) is kept once, so one undo
        takes it back."""
        self.reading(reading_id)
        with self.transaction() as c:
            last = c.execute("SELECT id, field, value FROM corrections WHERE reading_id = ? "
                             "AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
                             (reading_id,)).fetchone()
            if last is not None and (last[1], last[2]) == (field, value):
                return self._correction(int(last[0]))
            cur = c.execute("INSERT INTO corrections (reading_id, field, value, created_at) "
                            "VALUES (?, ?, ?, ?)", (reading_id, field, value, _now()))
        return self._correction(int(cur.lastrowid or 0))

    def undo_correction(self, reading_id: int,
                        correction_id: int | None = None) -> Correction | None:
        """Undo the latest correction still in force (None when there is none), or the
        one named: undoing it again (a double tap) changes nothing more."""
        with self.transaction() as c:
            if correction_id is not None:
                row = c.execute("SELECT id, undone_at FROM corrections WHERE id = ? AND "
                                "reading_id = ?", (correction_id, reading_id)).fetchone()
                if row is None:
                    raise NotFoundError(f"no correction {correction_id} of reading {reading_id}")
                if row[1] is not None:
                    return self._correction(int(row[0]))
            else:
                row = c.execute("SELECT id FROM corrections WHERE reading_id = ? AND undone_at "
                                "IS NULL ORDER BY id DESC LIMIT 1", (reading_id,)).fetchone()
            if row is None:
                return None
            c.execute("UPDATE corrections SET undone_at = ? WHERE id = ?", (_now(), row[0]))
        return self._correction(int(row[0]))

    def corrections(self, reading_id: int, include_undone: bool = False) -> list[Correction]:
        """Corrections oldest first (later ones win for the same field)."""
        extra = "" if include_undone else " AND undone_at IS NULL"
        rows = self._query("SELECT * FROM corrections WHERE reading_id = ?" + extra
                           + " ORDER BY id", (reading_id,))
        return [_correction(r) for r in rows]

    def _correction(self, cid: int) -> Correction:
        return _correction(self._query("SELECT * FROM corrections WHERE id = ?", (cid,))[0])


# ---- migrations ---------------------------------------------------------------------------


def current_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                          "name = 'schema_version'").fetchone()
    if exists is None:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, steps: Sequence[schema.Step] = schema.MIGRATIONS) -> int:
    """Bring the database to ``len(steps)``, one transaction per step; return the version.

    A database newer than ``steps`` is refused untouched.
    """
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                 "applied_at TEXT NOT NULL)")
    have = current_version(conn)
    if have > len(steps):
        raise StoreVersionError(
            f"the database is schema version {have}, newer than this companion knows "
            f"({len(steps)}); upgrade companion")
    for version in range(have + 1, len(steps) + 1):
        step = steps[version - 1]
        conn.execute("BEGIN IMMEDIATE")
        try:
            if isinstance(step, str):
                for statement in _statements(step):
                    conn.execute(statement)
            else:
                step(conn)
            conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                         (version, _now()))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return len(steps)


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (executescript would commit on its own).

    Steps are our own SQL: ``--`` starts a comment and ``;`` ends a statement unless it
    sits inside a string literal (sqlite3.complete_statement tells which).
    """
    text = "\n".join(line.split("--", 1)[0] for line in script.splitlines())
    out, buf = [], ""
    for piece in text.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \n;"):
                out.append(buf.strip())
            buf = ""
    return out


# ---- rows -> values -----------------------------------------------------------------------


def _player_id(c: sqlite3.Connection, name: str) -> int:
    text = clean_name(name, "player name")
    row = c.execute("SELECT id FROM players WHERE name_key(name) = name_key(?)",
                    (text,)).fetchone()
    if row is not None:
        return int(row[0])
    cur = c.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", (text, _now()))
    return int(cur.lastrowid or 0)


def _earlier(c: sqlite3.Connection, once: str | None, kind: str) -> int | None:
    """What the request with one-time key ``once`` made, if it was seen (0: made nothing)."""
    if once is None:
        return None
    row = c.execute("SELECT kind, result FROM form_keys WHERE key = ?", (once,)).fetchone()
    if row is None:
        return None
    if row[0] != kind:
        raise StoreError("that form was already sent for something else; open the page again")
    return int(row[1] or 0)


def _keep(c: sqlite3.Connection, once: str | None, kind: str, result: int) -> None:
    if once is not None:
        c.execute("INSERT INTO form_keys (key, kind, result, created_at) VALUES (?, ?, ?, ?)",
                  (once, kind, result, _now()))


def _same_play(c: sqlite3.Connection, play_id: int, game: str, seats: Sequence[SeatInput],
               tiebreak: str | None, detail_json: str) -> bool:
    """Whether the stored play is the one these values would save (seats by name key)."""
    head = c.execute("SELECT game, tiebreak, detail FROM plays WHERE id = ?",
                     (play_id,)).fetchone()
    if head is None or tuple(head) != (game, tiebreak, detail_json):
        return False
    stored = c.execute("SELECT name_key(p.name), pp.score, pp.place, pp.winner FROM "
                       "play_players pp JOIN players p ON p.id = pp.player_id "
                       "WHERE pp.play_id = ? ORDER BY pp.seat", (play_id,)).fetchall()
    wanted = [(name_key(clean_name(s.name, "player name")),
               None if s.score is None else float(s.score), s.place, int(s.winner))
              for s in seats]
    return [tuple(r) for r in stored] == wanted


def photo_key(night_id: int | None, game: str, role: str, data: bytes) -> str:
    """What makes two uploads the same photo: its bytes, for one night, game and role."""
    night = "-" if night_id is None else str(night_id)
    return f"{night}:{game}:{role}:{hashlib.sha256(data).hexdigest()}"


def _kept_keys(c: sqlite3.Connection, keys: Sequence[str]) -> dict[str, int]:
    """The photo kept under each of ``keys`` that has one."""
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    return {str(k): int(p) for k, p in c.execute(
        f"SELECT key, photo_id FROM photo_keys WHERE key IN ({marks})", list(keys))}


def _first_reading(c: sqlite3.Connection, photo_id: int) -> int | None:
    row = c.execute("SELECT id FROM readings WHERE photo_id = ? ORDER BY id LIMIT 1",
                    (photo_id,)).fetchone()
    return None if row is None else int(row[0])


def _scoring_game_night(c: sqlite3.Connection, scoring_id: int | None) -> tuple[str, int | None]:
    """(game, night id) of a scoring; photos kept with no scoring have neither."""
    if scoring_id is None:
        return "", None
    row = c.execute("SELECT game, night_id FROM scorings WHERE id = ?", (scoring_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"no scoring {scoring_id}")
    return str(row[0]), row[1]


def _insert_reading(c: sqlite3.Connection, photo_id: int, kind: str, doc: dict[str, Any]) -> int:
    cur = c.execute("INSERT INTO readings (photo_id, kind, doc, created_at) VALUES (?, ?, ?, ?)",
                    (photo_id, kind, json.dumps(doc, sort_keys=True), _now()))
    return int(cur.lastrowid or 0)


def _night(r: sqlite3.Row) -> Night:
    return Night(int(r["id"]), str(r["name"]), str(r["date"]), r["location"],
                 str(r["created_at"]))


def _photo(r: sqlite3.Row) -> Photo:
    return Photo(int(r["id"]), r["scoring_id"], str(r["role"]), str(r["file"]),
                 str(r["media_type"]), int(r["bytes"]), int(r["width"]), int(r["height"]),
                 str(r["sha256"]), str(r["created_at"]))


def _reading(r: sqlite3.Row) -> Reading:
    return Reading(int(r["id"]), int(r["photo_id"]), str(r["kind"]), r["player_id"],
                   json.loads(r["doc"]), str(r["created_at"]))


def _correction(r: sqlite3.Row) -> Correction:
    return Correction(int(r["id"]), int(r["reading_id"]), str(r["field"]), r["value"],
                      str(r["created_at"]), r["undone_at"])
