"""History and standings over a big store: 10,000 plays in 2,000 nights by 12 players.

The store is built once in a temporary directory (one bulk transaction through the store's
own schema, three spellings aliased), then each query runs warm, 21 times; the table gives
the median and the slowest tenth. Target: standings of every game under 50 ms.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from companion.store import SeatInput, Store
from companion.store import aliases as al
from companion.store.export import export_bgstats, export_json
from companion.store.history import history
from companion.store.standings import score_series, standings

PLAYS = 10_000
NIGHTS = 2_000
PEOPLE = ("Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu",
          "ann b.", "Bo.", "Cy W.")  # the last three become aliases
GAMES = ("delicious", "diced-veggies", "dulce", "wild-gardens", "deli-duel")
ROUNDS = 21
TARGET_MS = 50.0


def build(store: Store, seed: int = 10_000) -> None:
    rng = random.Random(seed)
    now = "2026-01-01T00:00:00+00:00"
    start = dt.date(2018, 1, 5)
    with store.transaction() as c:
        c.executemany("INSERT INTO players (name, created_at) VALUES (?, ?)",
                      [(p, now) for p in PEOPLE])
        c.executemany("INSERT INTO nights (name, date, created_at) VALUES (?, ?, ?)",
                      [(f"Night {n + 1}", (start + dt.timedelta(days=n)).isoformat(), now)
                       for n in range(NIGHTS)])
        seats = []
        for i in range(PLAYS):
            night = i * NIGHTS // PLAYS + 1
            day = (start + dt.timedelta(days=night - 1)).isoformat()
            c.execute("INSERT INTO plays (night_id, game, date, source, detail, created_at) "
                      "VALUES (?, ?, ?, 'bench', '{}', ?)", (night, rng.choice(GAMES), day, now))
            who = rng.sample(range(1, len(PEOPLE) + 1), rng.randint(2, 5))
            scores = {p: rng.randint(5, 90) for p in who}
            for seat, p in enumerate(who):
                place = 1 + sum(scores[q] > scores[p] for q in who)
                seats.append((i + 1, seat, p, scores[p], place, int(place == 1)))
        c.executemany("INSERT INTO play_players (play_id, seat, player_id, score, place, "
                      "winner) VALUES (?, ?, ?, ?, ?, ?)", seats)
    for alias, name in (("ann b.", "Ann"), ("Bo.", "Bo"), ("Cy W.", "Cy")):
        al.set_alias(store, name, alias)


def _time(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    fn()  # warm
    runs, out = [], None
    for _ in range(ROUNDS):
        t = time.perf_counter()
        out = fn()
        runs.append((time.perf_counter() - t) * 1000)
    runs.sort()
    return statistics.median(runs), runs[int(0.9 * (len(runs) - 1))], out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, Store.open(tmp) as store:
        t = time.perf_counter()
        build(store)
        built = time.perf_counter() - t
        seats = store._query("SELECT COUNT(*) AS n FROM play_players")[0]["n"]
        cases: list[tuple[str, Callable[[], Any], float | None]] = [
            ("standings, every game and overall", lambda: standings(store), TARGET_MS),
            ("standings --game dulce", lambda: standings(store, "dulce"), TARGET_MS),
            ("chart series (dulce, latest 60 nights)", lambda: score_series(store, "dulce"),
             None),
            ("history page (latest 100 plays)", lambda: history(store, latest=100), None),
            ("history, all 10,000 plays", lambda: history(store), None),
            ("export --format json", lambda: json.dumps(export_json(store)), None),
            ("export --format bgstats", lambda: json.dumps(export_bgstats(store)), None),
        ]
        save = [SeatInput("Ann", 40, 1, True), SeatInput("Bo", 30, 2), SeatInput("Kim", 20, 3)]
        cases.append(("save one play of 3 (fsynced, totals kept)",
                      lambda: store.save_play("dulce", save, night_id=NIGHTS), None))
        cli = [sys.executable, "-m", "companion", "standings", "--data", tmp]
        cases.append(("`companion standings` (a fresh process)",
                      lambda: subprocess.run(cli, capture_output=True, check=True), None))
        print(f"Store: {PLAYS:,} plays, {seats:,} seats, {NIGHTS:,} nights, "
              f"{len(PEOPLE)} spellings of 12 players; built in {built:.1f} s.\n")
        print(f"| query ({ROUNDS} warm runs) | median ms | p90 ms | target ms | ok |")
        print("|---|---|---|---|---|")
        for name, fn, target in cases:
            med, p90, _ = _time(fn)
            ok = "" if target is None else ("yes" if p90 < target else "NO")
            print(f"| {name} | {med:.1f} | {p90:.1f} | {target or ''} | {ok} |")


if __name__ == "__main__":
    main()
