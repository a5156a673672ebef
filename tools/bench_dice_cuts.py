"""Time the Diced Veggies cut engine on full 5x7 blocks (target: all cuts in under 5 ms)."""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

from companion.games.diced_veggies.compare import judge_change
from companion.games.diced_veggies.cutting import CutOptions
from companion.games.diced_veggies.model import FACES, Block, Die, Ingredient

ROWS, COLS = 5, 7
SEEDS = 20
REPEATS = 20
TARGET_MS = 5.0


def full_block(seed: int) -> Block:
    rng = random.Random(seed)
    kinds = [i for i in Ingredient for _ in range(ROWS * COLS // len(Ingredient))]
    rng.shuffle(kinds)
    return Block.of(
        Die(r, c, kinds[r * COLS + c], rng.choice(FACES)) for r in range(ROWS) for c in range(COLS)
    )


def low_block(seed: int) -> Block:
    """A worst case: every die a 2, so many cuts stay under the limit."""
    rng = random.Random(seed)
    return Block.of(
        Die(r, c, rng.choice(list(Ingredient)), 2) for r in range(ROWS) for c in range(COLS)
    )


def timed_ms(fn: Callable[[], object]) -> list[float]:
    samples = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    rows: list[tuple[str, float, float, str]] = []

    def measure(label: str, make: Callable[[int], Callable[[], object]], count: str) -> None:
        samples: list[float] = []
        for seed in range(SEEDS):
            samples += timed_ms(make(seed))
        p95 = statistics.quantiles(samples, n=20)[-1]
        rows.append((label, statistics.median(samples), p95, count))

    blocks = [full_block(s) for s in range(SEEDS)]
    twos = [low_block(s) for s in range(SEEDS)]
    n_cuts = statistics.mean(len(b.legal_cuts()) for b in blocks)
    n_twos = statistics.mean(len(b.legal_cuts()) for b in twos)
    kids = CutOptions(kids=True)
    full_only = CutOptions(full_length_only=True)

    measure("all legal cuts, full 5x7 block", lambda s: blocks[s].legal_cut_checks,
            f"{n_cuts:.1f} cuts")
    measure("all legal cuts, 5x7 block of 2s (worst case)", lambda s: twos[s].legal_cut_checks,
            f"{n_twos:.1f} cuts")
    measure("all legal cuts, kids' three dice", lambda s: lambda: blocks[s].legal_cuts(kids),
            "")
    measure("all legal cuts, full-length only",
            lambda s: lambda: blocks[s].legal_cuts(full_only), "")

    def explain(seed: int) -> Callable[[], object]:
        taken = blocks[seed].legal_cut_checks()[0].taken
        return lambda: blocks[seed].explain(taken)

    def judge(seed: int) -> Callable[[], object]:
        first = blocks[seed].legal_cut_checks()[0]
        after = blocks[seed].without(first.taken).moved(1, 1)
        return lambda: judge_change(blocks[seed], after)

    measure("explain one taken set (cut_for)", explain, "")
    measure("judge before/after (align + explain)", judge, "")

    load = os.getloadavg()[0]
    print(f"Full 5x7 blocks, {SEEDS} seeds x {REPEATS} runs; target for listing: "
          f"< {TARGET_MS:g} ms. Load average at the end: {load:.1f} (p95 grows with it).\n")
    print("| task | median ms | p95 ms | notes |")
    print("|---|---:|---:|---|")
    for label, med, top, note in rows:
        print(f"| {label} | {med:.2f} | {top:.2f} | {note} |")


if __name__ == "__main__":
    main()
