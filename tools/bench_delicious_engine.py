"""Delicious engine speed: simulate, check, score, table checks, move generation."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

from companion.games.delicious.moves import legal_moves
from companion.games.delicious.scoring import score
from companion.games.delicious.simulate import random_move, simulate_game
from companion.games.delicious.state import SheetState
from companion.games.delicious.supply import deal
from companion.games.delicious.table import table_check
from companion.games.delicious.validate import check

GAMES = 20
PLAYERS = 3


def _time(fn: Callable[[], object], repeat: int) -> float:
    """Mean seconds per call."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    records = [simulate_game(seed, PLAYERS, "AB"[seed % 2]) for seed in range(GAMES)]
    sheets = [s for r in records for s in r.sheets]
    rnd = deal(random.Random(1))[0]
    empty = SheetState.empty("A")
    rng = random.Random(2)
    rows = [
        (f"simulate_game ({PLAYERS} players, 12 rounds)",
         _time(lambda: simulate_game(99, PLAYERS), GAMES)),
        ("random_move (empty sheet)", _time(lambda: random_move(empty, rnd, rng), 200)),
        ("check (final sheet)", _time(lambda: [check(s) for s in sheets], 5) / len(sheets)),
        ("score (final sheet)", _time(lambda: [score(s) for s in sheets], 5) / len(sheets)),
        (f"table_check ({PLAYERS} sheets)",
         _time(lambda: [table_check(r.sheets) for r in records], 5) / len(records)),
        ("legal_moves: first 1000 (empty sheet)",
         _time(lambda: list(itertools.islice(legal_moves(empty, rnd), 1000)), 3)),
    ]
    print("| operation | mean time |")
    print("|---|---:|")
    for name, seconds in rows:
        shown = f"{seconds * 1000:.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} µs"
        print(f"| {name} | {shown} |")


if __name__ == "__main__":
    main()
