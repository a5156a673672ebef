"""The database schema as forward migrations.

``MIGRATIONS[i]`` takes a store from version ``i`` to ``i + 1``; a later version appends a
step and never edits an earlier one, so every older store upgrades by replaying the tail.
Each step runs inside the same transaction as its ``schema_version`` row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from sqlite3 import Connection

Step = str | Callable[[Connection], None]

_V1 = """
CREATE TABLE nights (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    date        TEXT NOT NULL,            -- ISO date the night started (local time)
    location    TEXT,
    created_at  TEXT NOT NULL             -- ISO timestamp, UTC
);
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at  TEXT NOT NULL
);
CREATE TABLE night_players (
    night_id    INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    seat        INTEGER NOT NULL,
    PRIMARY KEY (night_id, player_id)
);
CREATE TABLE plays (
    id          INTEGER PRIMARY KEY,
    night_id    INTEGER REFERENCES nights(id) ON DELETE SET NULL,
    game        TEXT NOT NULL,            -- delicious, diced-veggies, dulce, ...
    date        TEXT NOT NULL,            -- ISO date of the play
    tiebreak    TEXT,                     -- how a tie for first was broken, in words
    source      TEXT NOT NULL,            -- web, cli, import
    detail      TEXT NOT NULL DEFAULT '{}', -- the engine's JSON result
    duration_min INTEGER,
    created_at  TEXT NOT NULL
);
CREATE INDEX plays_game_date ON plays (game, date);
CREATE INDEX plays_night ON plays (night_id);
CREATE TABLE play_players (
    play_id     INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,         -- 0-based order as entered
    player_id   INTEGER NOT NULL REFERENCES players(id),
    score       REAL,
    place       INTEGER,                  -- 1 = first; shared places repeat
    winner      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (play_id, seat)
);
CREATE INDEX play_players_player ON play_players (player_id);
CREATE TABLE scorings (
    id          INTEGER PRIMARY KEY,      -- photos of one table scored together
    night_id    INTEGER REFERENCES nights(id) ON DELETE SET NULL,
    game        TEXT NOT NULL,
    play_id     INTEGER REFERENCES plays(id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE photos (
    id          INTEGER PRIMARY KEY,
    scoring_id  INTEGER REFERENCES scorings(id) ON DELETE CASCADE,
    role        TEXT NOT NULL DEFAULT '', -- e.g. before / after for a dice check
    file        TEXT NOT NULL UNIQUE,     -- server-chosen name under <data>/photos/
    media_type  TEXT NOT NULL,
    bytes       INTEGER NOT NULL,
    width       INTEGER NOT NULL,
    height      INTEGER NOT NULL,
    sha256      TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE readings (
    id          INTEGER PRIMARY KEY,
    photo_id    INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,            -- delicious-sheet, dice-block
    player_id   INTEGER REFERENCES players(id),
    doc         TEXT NOT NULL,            -- the reader's JSON for this photo
    created_at  TEXT NOT NULL
);
CREATE TABLE corrections (
    id          INTEGER PRIMARY KEY,
    reading_id  INTEGER NOT NULL REFERENCES readings(id) ON DELETE CASCADE,
    field       TEXT NOT NULL,            -- field id, or "row,col" of a die
    value       TEXT,                     -- NULL empties the field
    created_at  TEXT NOT NULL,
    undone_at   TEXT                      -- set by undo; the row is kept as history
);
CREATE INDEX corrections_reading ON corrections (reading_id);
"""



def _v2_history(conn: Connection) -> None:
    """Aliases (one player under two spellings) and stable ids for plays and nights.

    The uids let an export be imported again without doubling plays and give BG Stats
    the same play uuid each time; triggers fill them, so no writer has to. Written to be
    harmless if its objects already exist.
    """
    conn.execute("""
        CREATE TABLE IF NOT EXISTS player_aliases (
            player_id    INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
            canonical_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
            created_at   TEXT NOT NULL,
            CHECK (player_id != canonical_id)
        )""")
    for table in ("plays", "nights"):
        columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        if "uid" not in columns:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN uid TEXT")
        conn.execute(f"UPDATE {table} SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL")
        conn.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS {table}_uid ON {table} (uid)")
        conn.execute(f"""
            CREATE TRIGGER IF NOT EXISTS {table}_uid_fill AFTER INSERT ON {table}
            WHEN NEW.uid IS NULL BEGIN
                UPDATE {table} SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
            END""")
    conn.execute("CREATE INDEX IF NOT EXISTS plays_date ON plays (date, id)")


# Per game and player row of standings_totals, kept by triggers on play_players so that
# standings read a few dozen rows instead of grouping every seat (10,000 plays: ~1 ms
# instead of ~100). A play is deleted seats first, while its row still says the game.
_ADD_SEAT = """
    INSERT INTO standings_totals (game, player_id, plays, wins, score_sum, scores, best,
                                  place_sum, places)
    SELECT game, {r}.player_id, 1, {r}.winner, COALESCE({r}.score, 0), {r}.score IS NOT NULL,
           {r}.score, COALESCE({r}.place, 0), {r}.place IS NOT NULL
    FROM plays WHERE id = {r}.play_id
    ON CONFLICT (game, player_id) DO UPDATE SET
        plays = plays + 1, wins = wins + excluded.wins,
        score_sum = score_sum + excluded.score_sum, scores = scores + excluded.scores,
        best = CASE WHEN best IS NULL THEN excluded.best WHEN excluded.best IS NULL THEN best
                    ELSE MAX(best, excluded.best) END,
        place_sum = place_sum + excluded.place_sum, places = places + excluded.places;"""
_DROP_SEAT = """
    UPDATE standings_totals SET
        plays = plays - 1, wins = wins - {r}.winner,
        score_sum = score_sum - COALESCE({r}.score, 0), scores = scores - ({r}.score IS NOT NULL),
        place_sum = place_sum - COALESCE({r}.place, 0), places = places - ({r}.place IS NOT NULL),
        best = (SELECT MAX(pp.score) FROM play_players pp JOIN plays pl ON pl.id = pp.play_id
                WHERE pp.player_id = {r}.player_id AND pl.game = standings_totals.game)
    WHERE player_id = {r}.player_id AND game = (SELECT game FROM plays WHERE id = {r}.play_id);
    DELETE FROM standings_totals WHERE player_id = {r}.player_id AND plays <= 0;"""


def _v3_standings_totals(conn: Connection) -> None:
    """Standings totals per game and player, filled from the plays already saved."""
    conn.execute("""
        CREATE TABLE IF NOT EXISTS standings_totals (
            game       TEXT NOT NULL,
            player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
            plays      INTEGER NOT NULL,
            wins       INTEGER NOT NULL,
            score_sum  REAL NOT NULL,
            scores     INTEGER NOT NULL,   -- seats with a score
            best       REAL,
            place_sum  INTEGER NOT NULL,
            places     INTEGER NOT NULL,   -- seats with a place
            PRIMARY KEY (game, player_id)
        ) WITHOUT ROWID""")
    conn.execute("DELETE FROM standings_totals")
    conn.execute("""
        INSERT INTO standings_totals
        SELECT pl.game, pp.player_id, COUNT(*), SUM(pp.winner), COALESCE(SUM(pp.score), 0),
               COUNT(pp.score), MAX(pp.score), COALESCE(SUM(pp.place), 0), COUNT(pp.place)
        FROM play_players pp JOIN plays pl ON pl.id = pp.play_id
        GROUP BY pl.game, pp.player_id""")
    triggers = {
        "standings_seat_added": ("AFTER INSERT ON play_players", _ADD_SEAT.format(r="NEW")),
        "standings_seat_dropped": ("AFTER DELETE ON play_players", _DROP_SEAT.format(r="OLD")),
        "standings_seat_changed": ("AFTER UPDATE ON play_players",
                                   _DROP_SEAT.format(r="OLD") + _ADD_SEAT.format(r="NEW")),
        "standings_play_seats_first": ("BEFORE DELETE ON plays",
                                       "DELETE FROM play_players WHERE play_id = OLD.id;"),
    }
    for name, (when, body) in triggers.items():
        conn.execute(f"CREATE TRIGGER IF NOT EXISTS {name} {when} BEGIN {body} END")


# The community supply a night plays with (Play over video): the seed of
# `companion delicious supply`, so a sheet read that night is checked against it.
_V4_NIGHT_SUPPLY = """
CREATE TABLE IF NOT EXISTS night_supply (
    night_id    INTEGER PRIMARY KEY REFERENCES nights(id) ON DELETE CASCADE,
    seed        INTEGER NOT NULL,         -- 0 to 2^53 - 1
    algorithm   TEXT NOT NULL,            -- the deal's name, e.g. companion-supply/1
    created_at  TEXT NOT NULL
);
"""

# A state change a form carries a one-time key for (a pad's save, a new night, a delete)
# is answered once: the key is kept in the change's own transaction with what it made,
# so a second tap, however close, finds it and gets the first answer.
_V5_FORM_KEYS = """
CREATE TABLE IF NOT EXISTS form_keys (
    key         TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,            -- play, night, delete
    result      INTEGER,                  -- the play or night the first request made
    created_at  TEXT NOT NULL
) WITHOUT ROWID;
"""


def _v6_photo_keys(conn: Connection) -> None:
    """One key per photo content kept for a night, game and role, so an upload sent twice
    (a double tap, a retry after a lost answer) is answered with the first photo instead
    of being kept again. Photos already kept get their key, the earliest of equal ones."""
    conn.execute("""
        CREATE TABLE IF NOT EXISTS photo_keys (
            key         TEXT PRIMARY KEY,     -- night:game:role:sha256 (companion.store.db)
            photo_id    INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE
        ) WITHOUT ROWID""")
    conn.execute("CREATE INDEX IF NOT EXISTS photo_keys_photo ON photo_keys (photo_id)")
    conn.execute("""
        INSERT OR IGNORE INTO photo_keys (key, photo_id)
        SELECT COALESCE(sc.night_id, '-') || ':' || sc.game || ':' || ph.role || ':'
               || ph.sha256, ph.id
        FROM photos ph JOIN scorings sc ON sc.id = ph.scoring_id ORDER BY ph.id""")


# The dice colours a night's Diced Veggies game was taught by its first photo of a full
# starting block (the dice colours file of `companion dice read --save-colours`), so every
# later dice photo that night is read against the table's own dice.
_V7_NIGHT_DICE_COLOURS = """
CREATE TABLE IF NOT EXISTS night_dice_colours (
    night_id    INTEGER PRIMARY KEY REFERENCES nights(id) ON DELETE CASCADE,
    doc         TEXT NOT NULL,            -- the dice colours document (docs/formats.md)
    photo_id    INTEGER REFERENCES photos(id) ON DELETE SET NULL,  -- the photo that taught
    created_at  TEXT NOT NULL
);
"""

# A sketching player's named drawings (the drawings file of `companion delicious read
# --save-drawings`), kept with the player when a table of theirs is saved, so their next
# sheets, that night or another, ask only about drawings not named before.
_V8_PLAYER_DRAWINGS = """
CREATE TABLE IF NOT EXISTS player_drawings (
    player_id   INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    doc         TEXT NOT NULL,            -- the drawings document (docs/formats.md)
    updated_at  TEXT NOT NULL
);
"""

MIGRATIONS: Sequence[Step] = (_V1, _v2_history, _v3_standings_totals, _V4_NIGHT_SUPPLY,
                              _V5_FORM_KEYS, _v6_photo_keys,
                              _V7_NIGHT_DICE_COLOURS, _V8_PLAYER_DRAWINGS)

SCHEMA_VERSION = len(MIGRATIONS)
