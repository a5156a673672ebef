"""An independent, deliberately naive model of Dulce's scoring phase and harvest.

It shares no code with the engine: cafés are plain lists, every move is enumerated with
itertools.product, nothing is memoised. Tests elsewhere compare the engine against it
on small states; the tests here pin the brute force itself to the rulebook example.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

# A café is a list of spaces; a space is [bean, level, held] with held None/"bean"/"egg".
Cafes = list[list[list[Any]]]


def copy(cafes: Cafes) -> Cafes:
    return [[list(sp) for sp in cafe] for cafe in cafes]


def moves(cafes: Cafes, into_scored: bool = True, may_discard: bool = False):
    """Yield (café index, discards fed to the chicken, next cafés) for each legal step."""
    for ci, cafe in enumerate(cafes):
        if not cafe or any(sp[2] is None for sp in cafe):
            continue
        base = copy(cafes)
        movers = []
        for sp in base[ci]:
            if sp[2] == "bean" and sp[1] >= 2:
                movers.append((sp[0], sp[1]))
            sp[2] = None
        empties = [
            (cj, sj)
            for cj, other in enumerate(base)
            for sj, sp in enumerate(other)
            if sp[2] is None and (into_scored or cj != ci)
        ]
        options = []
        for bean, level in movers:
            fits = [
                (cj, sj)
                for cj, sj in empties
                if base[cj][sj][0] == bean and base[cj][sj][1] < level
            ]
            options.append(fits + [None])
        seen = set()
        for choice in itertools.product(*options):
            targets = [t for t in choice if t is not None]
            if len(set(targets)) != len(targets):
                continue
            if not may_discard:
                bad = False
                for k, t in enumerate(choice):
                    if t is None and any(f not in targets for f in options[k][:-1]):
                        bad = True
                if bad:
                    continue
            nxt = copy(base)
            for t in targets:
                nxt[t[0]][t[1]][2] = "bean"
            key = repr(nxt)
            if key in seen:
                continue
            seen.add(key)
            yield ci, choice.count(None), nxt


def best(cafes: Cafes, **rules: bool) -> tuple[int, int]:
    """Max (points, chicken steps) over every complete scoring sequence."""
    top = (0, 0)
    for _, fed, nxt in moves(cafes, **rules):
        p, c = best(nxt, **rules)
        top = max(top, (p + 1, c + fed))
    return top


def best_value(cafes: Cafes, **rules: bool) -> tuple[int, int, int]:
    """Max (points, chicken steps, beans left in cafés) over every complete sequence."""
    top = (0, 0, sum(sp[2] == "bean" for cafe in cafes for sp in cafe))
    for _, fed, nxt in moves(cafes, **rules):
        p, c, b = best_value(nxt, **rules)
        top = max(top, (p + 1, c + fed, b))
    return top


def random_play(cafes: Cafes, rng: random.Random) -> tuple[int, int]:
    """Some legal complete sequence, chosen at random."""
    points = chicken = 0
    while True:
        options = list(moves(cafes))
        if not options:
            return points, chicken
        _, fed, cafes = rng.choice(options)
        points += 1
        chicken += fed


def harvest_best(board, cafes: Cafes, chicken: int) -> tuple[int, int]:
    """Max (points, chicken after the round) over every line, placement and egg set."""
    top = None
    lines = [[(r, c) for c in range(4)] for r in range(4)]
    lines += [[(r, c) for r in range(4)] for c in range(4)]
    for line in lines:
        beans = [board[r][c][0] for r, c in line if board[r][c] for _ in range(board[r][c][1])]
        empties = [
            (ci, si) for ci, cafe in enumerate(cafes) for si, sp in enumerate(cafe) if sp[2] is None
        ]
        options = [[e for e in empties if cafes[e[0]][e[1]][0] == b] + [None] for b in beans]
        for choice in itertools.product(*options):
            targets = [t for t in choice if t is not None]
            if len(set(targets)) != len(targets):
                continue
            if any(
                t is None and any(f not in targets for f in options[k][:-1])
                for k, t in enumerate(choice)
            ):
                continue  # a bean was left out while a matching space stayed free
            fed = choice.count(None)
            placed = copy(cafes)
            for ci, si in targets:
                placed[ci][si][2] = "bean"
            free = [
                (ci, si)
                for ci, cafe in enumerate(placed)
                for si, sp in enumerate(cafe)
                if sp[2] is None
            ]
            for n in range((chicken + fed) // 3 + 1):
                for eggs in itertools.combinations(free, n):
                    state = copy(placed)
                    for ci, si in eggs:
                        state[ci][si][2] = "egg"
                    p, c = best(state)
                    v = (p, chicken + fed - 3 * n + c)
                    top = v if top is None or v > top else top
    return top


def fudge_and_brownies() -> Cafes:
    brownies = [["peanut", 3, "bean"], ["cacao", 2, None]]
    fudge = [["cacao", 3, "bean"], ["peanut", 2, "bean"]]
    return [brownies, fudge]


def test_brute_force_scores_the_rulebook_example():
    assert best(fudge_and_brownies()) == (2, 2)


def test_brute_force_counts_the_bean_left_in_the_rulebook_example():
    # Fudge's cacao drops into Brownies, which then scores; Brownies' peanut must drop
    # into Fudge's emptied 2-ring space, where it stays: one bean left.
    assert best_value(fudge_and_brownies()) == (2, 2, 1)


def test_brute_force_only_fudge_can_score_first():
    assert [ci for ci, _, _ in moves(fudge_and_brownies())] == [1]


def test_brute_force_random_play_is_never_better():
    rng = random.Random(3)
    for _ in range(20):
        assert random_play(fudge_and_brownies(), rng) <= best(fudge_and_brownies())
