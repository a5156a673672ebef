"""The store: nights, players, plays, photos, corrections; migrations; durability."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.store import (
    SCHEMA_VERSION,
    NotFoundError,
    SeatInput,
    Store,
    StoreError,
    StoreVersionError,
    data_dir,
    migrate,
)
from companion.store.paths import DB_NAME


def test_data_dir_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "env"))
    assert data_dir(tmp_path / "opt") == tmp_path / "opt"
    assert data_dir(None) == tmp_path / "env"
    monkeypatch.delenv("COMPANION_DATA")
    assert data_dir(None).name == "companion"


def test_wal_and_version(store: Store) -> None:
    conn = sqlite3.connect(store.db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.version == SCHEMA_VERSION


def test_night_players_plays_standings(store: Store) -> None:
    night = store.new_night("Friday")
    ann = store.add_player(night.id, "  Ann ")
    assert ann.name == "Ann"
    assert store.add_player(night.id, "ann").id == ann.id  # matched without case
    store.add_player(night.id, "Bo")
    store.rename_player(ann.id, "Ann B.")
    with pytest.raises(StoreError, match="already a player"):
        store.rename_player(ann.id, "bo")
    play = store.save_play("dulce", [SeatInput("Ann B.", 41, 1, True), SeatInput("Bo", 37, 2)],
                           night_id=night.id, tiebreak="more chicken", detail={"x": 1})
    assert play.winners == ["Ann B."] and play.date == night.date
    store.save_play("deli-duel", [SeatInput("Bo", 3, 1, True), SeatInput("Cy", 1, 2)],
                    night_id=night.id)
    names = [p.name for p in store.night_players(night.id)]
    assert names == ["Ann B.", "Bo", "Cy"]
    standings = store.night_standings(night.id)
    assert [(s.player.name, s.plays, s.wins) for s in standings] == [
        ("Bo", 2, 1), ("Ann B.", 1, 1), ("Cy", 1, 0)]
    assert [p.game for p in store.plays(player="ann b.")] == ["dulce"]
    assert store.play(play.id).detail == {"x": 1}
    store.delete_play(play.id)
    with pytest.raises(NotFoundError):
        store.play(play.id)


def test_failed_play_leaves_nothing(store: Store) -> None:
    night = store.new_night()
    with pytest.raises(StoreError):
        store.save_play("dulce", [SeatInput("Ann", 3), SeatInput("", 2)], night_id=night.id)
    assert store.plays() == [] and store.players() == []


def test_photo_reading_corrections_undo(store: Store) -> None:
    scoring = store.new_scoring("delicious", store.current_night().id)
    photo, reading = store.add_photo(b"\xff\xd8fake", "image/jpeg", 4, 3,
                                     scoring_id=scoring.id, reading=("delicious-sheet", {"a": 1}))
    assert reading is not None and reading.doc == {"a": 1}
    path = store.photo_path(photo)
    assert path.read_bytes() == b"\xff\xd8fake" and path.parent == store.photo_dir
    assert store.readings(scoring.id) == [reading]
    store.correct(reading.id, "f1", "fig")
    store.correct(reading.id, "f1", None)
    assert [(c.field, c.value) for c in store.corrections(reading.id)] == [
        ("f1", "fig"), ("f1", None)]
    undone = store.undo_correction(reading.id)
    assert undone is not None and undone.value is None
    assert [c.value for c in store.corrections(reading.id)] == ["fig"]
    assert len(store.corrections(reading.id, include_undone=True)) == 2
    store.undo_correction(reading.id)
    assert store.undo_correction(reading.id) is None


def test_newer_store_refused_untouched(tmp_path: Path) -> None:
    Store.open(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("INSERT INTO schema_version VALUES (99, 'later')")
    conn.commit()
    conn.close()
    before = (tmp_path / DB_NAME).read_bytes()
    with pytest.raises(StoreVersionError, match="version 99"):
        Store.open(tmp_path)
    assert (tmp_path / DB_NAME).read_bytes() == before


def test_later_steps_migrate_an_older_store(tmp_path: Path) -> None:
    Store.open(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    steps = [*__import__("companion.store.schema", fromlist=["x"]).MIGRATIONS,
             "ALTER TABLE players ADD COLUMN colour TEXT;",
             lambda c: c.execute("UPDATE players SET colour = 'red'")]
    assert migrate(conn, steps) == SCHEMA_VERSION + 2
    assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == len(steps)
    bad = [*steps, "CREATE TABLE t (x); SELECT nonsense FROM nowhere;"]
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, bad)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "t" not in tables  # the failed step rolled back whole


def test_not_a_database(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a companion database"):
        Store.open(tmp_path)


def test_killed_process_loses_nothing_committed(tmp_path: Path) -> None:
    """A process killed right after save_play returned: the play is there on reopening."""
    script = textwrap.dedent(f"""
        import os
        from companion.store import Store, SeatInput
        s = Store.open({str(tmp_path)!r})
        n = s.current_night()
        s.save_play("dulce", [SeatInput("Ann", 5, 1, True)], night_id=n.id)
        os._exit(9)
    """)
    proc = subprocess.run([sys.executable, "-c", script], check=False)
    assert proc.returncode == 9
    with Store.open(tmp_path) as s:
        assert [p.winners for p in s.plays()] == [["Ann"]]


def _save_many(args: tuple[str, str]) -> int:
    root, who = args
    with Store.open(root) as s:
        night = s.current_night()
        for i in range(20):
            s.save_play("deli-duel", [SeatInput(who, i, 1, True), SeatInput("Both", 0, 2)],
                        night_id=night.id)
    return 20


def test_two_processes_saving_at_once_both_land(tmp_path: Path) -> None:
    import multiprocessing

    Store.open(tmp_path).close()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        assert pool.map(_save_many, [(str(tmp_path), "Ann"), (str(tmp_path), "Bo")]) == [20, 20]
    with Store.open(tmp_path) as s:
        plays = s.plays()
        assert len(plays) == 40
        assert sorted(p.winners[0] for p in plays) == ["Ann"] * 20 + ["Bo"] * 20
        assert len(s.nights()) == 1 and len(s.players()) == 3


def test_backup_is_a_whole_store(store: Store, tmp_path: Path) -> None:
    store.save_play("dulce", [SeatInput("Ann", 3, 1, True)], night_id=store.current_night().id)
    (tmp_path / "copy").mkdir()
    out = store.backup(tmp_path / "copy" / DB_NAME)
    with Store.open(out.parent) as copy:
        assert [p.winners for p in copy.plays()] == [["Ann"]]
