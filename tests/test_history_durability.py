"""Saving a play survives a kill in the middle, and two processes saving at once both land."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion.store import Store
from companion.store.history import history
from companion.store.paths import DB_NAME

ROOT = Path(__file__).resolve().parents[1]
FINAL = str(ROOT / "examples" / "dulce" / "final.json")

# Saves one play through the CLI; a hook inside the store's transaction (after the play's
# first seat is written) says HOOK and waits to be killed.
_KILLED = """
import sys, time
import companion.store.db as db
from companion.cli import main
real = db._player_id
seen = []
def hooked(c, name):
    seen.append(name)
    if len(seen) == int(sys.argv[2]):
        print("HOOK", flush=True)
        time.sleep(60)
    return real(c, name)
db._player_id = hooked
main(["dulce", "final", sys.argv[3], "--save", "--data", sys.argv[1]], standalone_mode=False)
print("DONE", flush=True)
time.sleep(60)
"""


def _run_until(line: str, *args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _KILLED, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert proc.stdout is not None
    for got in proc.stdout:
        if got.strip() == line:
            return proc
    raise AssertionError(f"the saving process ended before {line}")


def _consistent(root: Path) -> None:
    conn = sqlite3.connect(root / DB_NAME)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    orphans = conn.execute("SELECT COUNT(*) FROM play_players WHERE play_id NOT IN "
                           "(SELECT id FROM plays)").fetchone()[0]
    seatless = conn.execute("SELECT COUNT(*) FROM plays WHERE id NOT IN "
                            "(SELECT play_id FROM play_players)").fetchone()[0]
    conn.close()
    assert (orphans, seatless) == (0, 0)


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_killed_while_saving_leaves_no_part_of_the_play(tmp_path: Path, seat: int) -> None:
    with Store.open(tmp_path) as s:
        s.new_night("Before")
    proc = _run_until("HOOK", str(tmp_path), str(seat), FINAL)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(10) == -signal.SIGKILL
    _consistent(tmp_path)
    with Store.open(tmp_path) as s:
        assert history(s) == []  # the play is wholly absent
        assert [n.name for n in s.nights()][0] == "Before"
    # and the store takes the next save as if nothing happened
    proc = _run_until("DONE", str(tmp_path), "99", FINAL)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    with Store.open(tmp_path) as s:
        (row,) = history(s)
        assert [x.name for x in row.seats] == ["Marco", "Christina", "Ines"]
    _consistent(tmp_path)


def test_killed_right_after_saving_keeps_the_whole_play(tmp_path: Path) -> None:
    proc = _run_until("DONE", str(tmp_path), "99", FINAL)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    with Store.open(tmp_path) as s:
        (row,) = history(s)
        assert len(row.seats) == 3 and row.winners == ["Marco"]


_SAVER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from companion.cli import main
    go = Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.005)
    for i in range(int(sys.argv[3])):
        main(["dulce", "final", sys.argv[4], "--save", "--night", "Shared", "--data",
              sys.argv[1]], standalone_mode=False)
""")


def test_two_processes_saving_at_once_both_land(tmp_path: Path) -> None:
    data, go, each = tmp_path / "data", tmp_path / "go", 15
    with Store.open(data):
        pass
    procs = [subprocess.Popen([sys.executable, "-c", _SAVER, str(data), str(go), str(each),
                               FINAL], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT) for _ in range(2)]
    time.sleep(1.0)  # both interpreters up and waiting
    go.touch()
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert err.count("saved play") == each
    with Store.open(data) as s:
        rows = history(s)
        assert len(rows) == 2 * each and len({r.uid for r in rows}) == 2 * each
        assert [n.name for n in s.nights()] == ["Shared"]
    _consistent(data)
