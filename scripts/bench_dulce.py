"""Dulce best-harvest timing on random kitchens of growing size.

Prints a Markdown table: per number of built cafés (plus the four starting ones), the
median and worst wall time of ``best_harvest``, memoised states, and how many answers
the exhaustive search proved best within its budget.
"""

from __future__ import annotations

import random
import statistics
import time

from companion.games.dulce import Bean, Cafe, Cell, Content, Level, PlayerState, Space
from companion.games.dulce.harvest import best_harvest

SIZES = (2, 4, 6, 8, 10)  # built cafés
SAMPLES = 5
SEED = 1


def random_state(rng: random.Random, built: int) -> PlayerState:
    """Four one-space starting cafés, ``built`` two-space cafés, 30% already holding beans."""
    beans = list(Bean)
    cafes = [
        Cafe(f"start {i}", (Space(rng.choice(beans), Level(rng.randint(1, 3))),), (Content.EMPTY,))
        for i in range(4)
    ]
    for i in range(built):
        spaces = tuple(Space(rng.choice(beans), Level(rng.randint(1, 3))) for _ in range(2))
        holds = tuple(Content.BEAN if rng.random() < 0.3 else Content.EMPTY for _ in spaces)
        cafes.append(Cafe(f"café {i}", spaces, holds))
    board = tuple(
        tuple(Cell(rng.choice(beans), rng.choice((0, 1, 1, 1, 2))) for _ in range(4))
        for _ in range(4)
    )
    return PlayerState(tuple(cafes), board, chicken=rng.randint(0, 9))


def main() -> None:
    rng = random.Random(SEED)
    print("| built cafés | median s | worst s | proven best | mean points |")
    print("|---:|---:|---:|---:|---:|")
    for built in SIZES:
        times: list[float] = []
        proven = 0
        points = 0
        for _ in range(SAMPLES):
            state = random_state(rng, built)
            start = time.perf_counter()
            advice = best_harvest(state)
            times.append(time.perf_counter() - start)
            proven += advice.proven
            points += advice.best.points
        print(
            f"| {built} | {statistics.median(times):.2f} | {max(times):.2f} "
            f"| {proven}/{SAMPLES} | {points / SAMPLES:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
