"""Dulce score-assist timing on random kitchens, by café count (4 starting + 0-10 built).

Prints a Markdown table: per café count, the median and worst wall time of
``score-order`` (the best scoring phase of a kitchen just after a harvest) and of
``best-harvest`` (every line, placement and egg set, then the best scoring), and the
share of answers proven best, and the worst CPU time of each (on a shared machine the
wall time also counts the waits for a core). Kitchens are drawn the way a game leaves
them: built cafés hold leftovers from earlier rounds (30% of spaces), the board has 0-2
cubes a square; the score-order kitchen then gets one random line harvested into it,
with eggs bought at random from the chicken steps.

``python -m tools.bench_dulce [--samples N] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from companion.games.dulce import ALL_LINES, Bean, Cafe, Cell, Content, Level, PlayerState, Space
from companion.games.dulce.constants import EGG_COST_STEPS, STARTING_CAFES
from companion.games.dulce.harvest import best_harvest, gather
from companion.games.dulce.scoring import Kitchen, best_scoring

BUILT = tuple(range(11))  # built cafés: 4 to 14 cafés in all
SAMPLES = 5
SEED = 1
LEFTOVER = 0.3  # share of built cafés' spaces still holding a bean from earlier rounds


def random_state(rng: random.Random, built: int) -> PlayerState:
    """Four one-space starting cafés, ``built`` two-space cafés, some leftovers, a board."""
    beans = list(Bean)
    cafes = [
        Cafe(f"start {i}", (Space(rng.choice(beans), Level(rng.randint(1, 3))),), (Content.EMPTY,))
        for i in range(STARTING_CAFES)
    ]
    for i in range(built):
        spaces = tuple(Space(rng.choice(beans), Level(rng.randint(1, 3))) for _ in range(2))
        holds = tuple(Content.BEAN if rng.random() < LEFTOVER else Content.EMPTY for _ in spaces)
        cafes.append(Cafe(f"café {i}", spaces, holds))
    board = tuple(
        tuple(Cell(rng.choice(beans), rng.choice((0, 1, 1, 1, 2))) for _ in range(4))
        for _ in range(4)
    )
    return PlayerState(tuple(cafes), board, chicken=rng.randint(0, 9))


def harvested(rng: random.Random, state: PlayerState) -> tuple[Kitchen, tuple[Content, ...]]:
    """The kitchen after harvesting a random line into it, with random affordable eggs."""
    kitchen = Kitchen.of(state.cafes)
    fill = list(kitchen.fill_of(state.cafes))
    got = gather(state.board, rng.choice(ALL_LINES))
    fed = 0
    for bean, n in got.items():
        free = [
            i for i, s in enumerate(kitchen.slots) if s.bean is bean and fill[i] is Content.EMPTY
        ]
        rng.shuffle(free)
        for i in free[:n]:
            fill[i] = Content.BEAN
        fed += max(0, n - len(free))
    empty = [i for i, c in enumerate(fill) if c is Content.EMPTY]
    rng.shuffle(empty)
    for i in empty[: rng.randint(0, (state.chicken + fed) // EGG_COST_STEPS)]:
        fill[i] = Content.EGG
    return kitchen, tuple(fill)


def _row(name: str, times: Sequence[float], cpu: Sequence[float], proven: int) -> str:
    return (
        f"{statistics.median(times):.2f} | {max(times):.2f} | {max(cpu):.2f} "
        f"| {proven}/{len(times)}"
        if times
        else f"{name}: no samples"
    )


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--built", type=int, nargs="*", default=list(BUILT))
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(
        "| cafés | score-order median s | max s | max CPU s | proven best "
        "| best-harvest median s | max s | max CPU s | proven best | mean points |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    totals = [0, 0, 0]
    for built in args.built:
        order_t: list[float] = []
        harvest_t: list[float] = []
        order_cpu: list[float] = []
        harvest_cpu: list[float] = []
        order_ok = harvest_ok = points = 0
        for _ in range(args.samples):
            state = random_state(rng, built)
            kitchen, fill = harvested(rng, state)
            start, cpu = time.perf_counter(), time.process_time()
            plan = best_scoring(kitchen, fill)
            order_t.append(time.perf_counter() - start)
            order_cpu.append(time.process_time() - cpu)
            order_ok += plan.proven
            start, cpu = time.perf_counter(), time.process_time()
            advice = best_harvest(state)
            harvest_t.append(time.perf_counter() - start)
            harvest_cpu.append(time.process_time() - cpu)
            harvest_ok += advice.proven
            points += advice.best.points
        totals[0] += 2 * args.samples
        totals[1] += order_ok + harvest_ok
        print(
            f"| {STARTING_CAFES + built} | {_row('score-order', order_t, order_cpu, order_ok)} "
            f"| {_row('best-harvest', harvest_t, harvest_cpu, harvest_ok)} "
            f"| {points / args.samples:.1f} |",
            flush=True,
        )
    print(f"\nProven best: {totals[1]}/{totals[0]} answers.")


if __name__ == "__main__":
    main()
