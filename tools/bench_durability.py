"""Kill -9 under load: is every play the server acknowledged still there, and is the store
whole?

Each run starts ``companion serve`` on 127.0.0.1 over one data directory, saves Deli Duel
pads from two client threads as fast as the server answers, and kills the server with
SIGKILL after a random moment (seeded). The store is then opened by a fresh process:
SQLite's integrity and foreign-key checks, no seat without its play or play without its
seats, and every save the server had answered with its redirect must be there. A save
whose answer never arrived may or may not have landed; neither counts as lost.

``python -m tools.bench_durability [--runs 40] [--seed 1]`` prints one Markdown table.
"""

from __future__ import annotations

import argparse
import http.client
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from companion.store.paths import DB_NAME

CLIENTS = 2  # threads saving at once
KILL_AFTER_S = (0.3, 1.5)  # the kill comes at a random moment in this window, seconds


def _save(root: str, name: str, n: int) -> bool:
    """Save one pad won by ``name`` (unique to this save); True when the server answered
    that it was saved."""
    parts = urlsplit(root)
    body = urlencode({"action": "save", "rows": "2", "name0": name,
                      "completed_orders0": str(n % 5), "name1": "Ben",
                      "completed_orders1": str((n + 1) % 5)}).encode()
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        conn.request("POST", "/pads/deli-duel", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded"})
        status = conn.getresponse().status
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()
    return status in (200, 303)


def _start(data: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli.serve", "--data", str(data),
                             "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline().strip()
    if not first.startswith("serving at "):
        proc.kill()
        raise RuntimeError(f"the server did not start: {first!r}")
    return proc, first.removeprefix("serving at ").split("?", 1)[0].rstrip("/")


def _check(data: Path) -> tuple[bool, set[str]]:
    """(store whole, names seated in its plays), read by a connection of its own."""
    conn = sqlite3.connect(data / DB_NAME)
    try:
        whole = (conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                 and not conn.execute("PRAGMA foreign_key_check").fetchall()
                 and conn.execute("SELECT COUNT(*) FROM play_players WHERE play_id NOT IN "
                                  "(SELECT id FROM plays)").fetchone()[0] == 0
                 and conn.execute("SELECT COUNT(*) FROM plays WHERE id NOT IN "
                                  "(SELECT play_id FROM play_players)").fetchone()[0] == 0)
        seated = {str(r[0]) for r in conn.execute(
            "SELECT DISTINCT p.name FROM play_players pp JOIN players p ON p.id = pp.player_id")}
    finally:
        conn.close()
    return whole, seated


def run(runs: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    acked_total = lost = broken = 0
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        for run_no in range(runs):
            proc, root = _start(data)
            acked: list[str] = []
            stop = threading.Event()

            def client(i: int, root: str = root, acked: list[str] = acked,
                       stop: threading.Event = stop, run_no: int = run_no) -> None:
                n = 0
                while not stop.is_set():
                    n += 1
                    name = f"R{run_no}C{i}S{n}"
                    if _save(root, name, n):
                        acked.append(name)  # list.append is atomic under the GIL

            threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(*KILL_AFTER_S))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            stop.set()
            for t in threads:
                t.join()
            whole, seated = _check(data)
            broken += not whole
            acked_total += len(acked)
            lost += len(set(acked) - seated)
    return {"runs": runs, "acked": acked_total, "lost": lost, "broken": broken}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    r = run(args.runs, args.seed)
    print("| kill -9 runs | saves acknowledged | acknowledged and lost | stores failing "
          "integrity |")
    print("|---|---|---|---|")
    print(f"| {r['runs']} | {r['acked']} | {r['lost']} | {r['broken']} |")


if __name__ == "__main__":
    main()
