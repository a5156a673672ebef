"""Best harvest: which row or column to gather, and where each bean and egg should go.

Every line is tried; within a line every placement of the gathered beans (forced while a
matching space is free) and every affordable set of eggs is scored by the exhaustive,
memoised scoring search, best bound first, stopping once no start can reach the best
points found. The egg sets of one bean placement and egg count are listed only when a
ceiling for all of them still reaches the best points, and then café by café, dropping
every set that begins with eggs whose ceiling falls short; so most are never listed. That
ceiling is first a quick count, then, once it comes up, a matching in which the eggs are one
shared stock and each egg fills one café only (``Evaluator.eggs_ceiling``).
Until a start has been searched, quick lines of play give the points to beat. Eggs
only go into cafés that could still fill up during scoring; an egg in any other café
could only waste chicken steps.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations, count, product

from companion.games.dulce.constants import (
    BOARD_SIZE,
    EGG_COST_STEPS,
    POINTS_PER_CAFE,
    QUICK_PLAYS,
    SEARCH_BUDGET,
    START_BUDGET,
    SUPPLY_EGGS,
)
from companion.games.dulce.kitchen import value_above, value_add, value_sub
from companion.games.dulce.model import (
    DEFAULT_RULES,
    Bean,
    Board,
    Cell,
    Content,
    DulceRules,
    PlayerState,
)
from companion.games.dulce.scoring import (
    Evaluator,
    Fill,
    Kitchen,
    ScoringPlan,
    Value,
    best_scoring,
)
from companion.games.dulce.search import ANY, collector_paused


class LineKind(StrEnum):
    ROW = "row"
    COLUMN = "column"


@dataclass(frozen=True)
class Line:
    kind: LineKind
    index: int  # rows from the top, columns from the left, 0-based

    def cells(self) -> tuple[tuple[int, int], ...]:
        if self.kind is LineKind.ROW:
            return tuple((self.index, c) for c in range(BOARD_SIZE))
        return tuple((r, self.index) for r in range(BOARD_SIZE))

    def __str__(self) -> str:
        return f"{self.kind.value} {self.index}"


ALL_LINES = tuple(Line(k, i) for k in LineKind for i in range(BOARD_SIZE))


@dataclass(frozen=True)
class Placement:
    slot: int
    content: Content  # BEAN (a harvested bean) or EGG


@dataclass(frozen=True)
class HarvestPlan:
    line: Line
    gathered: tuple[tuple[Bean, int], ...]
    placements: tuple[Placement, ...]
    fed: int  # harvested beans with no free space: discarded, one chicken step each
    eggs: int
    scoring: ScoringPlan
    chicken_before: int

    @property
    def points(self) -> int:
        return self.scoring.points

    @property
    def chicken_after(self) -> int:
        return self.chicken_before + self.fed - EGG_COST_STEPS * self.eggs + self.scoring.chicken

    @property
    def value(self) -> Value:
        return (self.points, self.chicken_after, self.scoring.beans_left)


@dataclass(frozen=True)
class LineSummary:
    """How a line compares. Only the best line is worked out in full: for the others the
    search stops as soon as they provably cannot beat it."""

    line: Line
    points_seen: int | None  # best points actually found for this line, if any
    at_most: int  # proven ceiling on this line's points (never above the best line's)


@dataclass(frozen=True)
class HarvestAdvice:
    best: HarvestPlan
    per_line: tuple[LineSummary, ...]  # the eight lines, rows then columns
    board_after: Board
    proven: bool  # False when the search ran out of budget and settled for a good plan


def gather(board: Board, line: Line) -> Counter[Bean]:
    got: Counter[Bean] = Counter()
    for r, c in line.cells():
        cell = board[r][c]
        if cell.field is not None and cell.cubes:
            got[cell.field] += cell.cubes
    return got


def harvested_board(board: Board, line: Line) -> Board:
    on_line = set(line.cells())
    return tuple(
        tuple(Cell(cell.field, 0) if (r, c) in on_line else cell for c, cell in enumerate(row))
        for r, row in enumerate(board)
    )


def _bean_choices(
    kitchen: Kitchen, fill: Fill, gathered: Counter[Bean], rules: DulceRules
) -> Iterator[tuple[tuple[int, ...], int]]:
    """(slots that receive a bean, beans fed to the chicken) for each legal placement."""
    per_type: list[list[tuple[tuple[int, ...], int]]] = []
    for b, n in sorted(gathered.items()):
        free = [i for i, s in enumerate(kitchen.slots) if s.bean is b and fill[i] is Content.EMPTY]
        most = min(n, len(free))
        sizes = [most] if rules.harvest_must_place else range(most + 1)
        per_type.append([(combo, n - k) for k in sizes for combo in combinations(free, k)])
    for choice in product(*per_type):
        yield tuple(i for combo, _ in choice for i in combo), sum(fed for _, fed in choice)


def _egg_sets(
    kitchen: Kitchen,
    fill: Fill,
    count: int,
    hopeless: Callable[[tuple[int, ...], int, frozenset[int]], bool] | None = None,
) -> Iterator[tuple[int, ...]]:
    """Sets of exactly ``count`` empty slots worth an egg.

    An empty space can only be refilled during scoring by a byproduct of its type from a
    higher level, so it needs such a bean somewhere. A café whose empty spaces lack one
    never scores this round and an egg there only costs steps; so a café gets eggs on
    all of its unsourced empty spaces, plus any of its sourced ones, or none.

    ``hopeless(eggs so far, eggs still to place, slots they may go on)`` may rule out
    every set that begins with those eggs; the sets left come in the same order.
    """
    per_cafe: list[list[tuple[int, ...]]] = []
    for ids in kitchen.cafe_slots:
        empty = [i for i in ids if fill[i] is Content.EMPTY]
        if not empty:
            continue
        unsourced = tuple(
            i
            for i in empty
            if not any(
                fill[j] is Content.BEAN
                and t.bean is kitchen.slots[i].bean
                and t.level > kitchen.slots[i].level
                for j, t in enumerate(kitchen.slots)
            )
        )
        sourced = [i for i in empty if i not in unsourced]
        options = [
            unsourced + extra
            for k in range(len(sourced) + 1)
            for extra in combinations(sourced, k)
            if unsourced or extra
        ]
        per_cafe.append([o for o in options if len(o) <= count])

    # The slots the cafés from k on may still take eggs on.
    after: list[frozenset[int]] = [frozenset()] * (len(per_cafe) + 1)
    for k in range(len(per_cafe) - 1, -1, -1):
        after[k] = after[k + 1].union(*per_cafe[k])

    def rec(k: int, left: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if k == len(per_cafe):
            if left == 0:
                yield chosen
            return
        if left and (len(after[k]) < left or hopeless and hopeless(chosen, left, after[k])):
            return
        yield from rec(k + 1, left, chosen)
        for option in per_cafe[k]:
            if len(option) <= left:
                yield from rec(k + 1, left - len(option), chosen + option)

    yield from rec(0, count, ())


@dataclass(frozen=True)
class _Start:
    """One way to begin the scoring phase after harvesting ``line``."""

    line: Line
    fill: Fill
    placements: tuple[Placement, ...]
    fed: int
    eggs: int
    bound: int | None  # the most points it could make; None: not worked out yet


@dataclass(frozen=True)
class _Group:
    """The starts that place this line's beans one way and buy ``eggs`` eggs, not yet
    listed: ``ceiling`` bounds them all (``Evaluator.egg_ceiling``)."""

    line: Line
    base: Fill  # after the beans, before any egg
    bean_slots: tuple[int, ...]
    fed: int
    eggs: int
    ceiling: int
    tight: bool = False  # whether ``ceiling`` is ``Evaluator.eggs_ceiling`` yet


def _groups(
    state: PlayerState, line: Line, rules: DulceRules, value: Evaluator
) -> Iterator[_Group | _Start]:
    """Each distinct placement of this line's beans: as a start without eggs, and as one
    group per affordable number of eggs."""
    kitchen = value.kitchen
    start = kitchen.fill_of(state.cafes)
    gathered = gather(state.board, line)
    held = sum(1 for c in state.cafes for h in c.holds if h is Content.EGG)
    seen: set[tuple[tuple[int, int], int]] = set()
    for bean_slots, fed in _bean_choices(kitchen, start, gathered, rules):
        with_beans = list(start)
        for i in bean_slots:
            with_beans[i] = Content.BEAN
        base = tuple(with_beans)
        key = (value.canonical(base), fed)
        if key in seen:
            continue
        seen.add(key)
        places = tuple(Placement(i, Content.BEAN) for i in bean_slots)
        yield _Start(line, base, places, fed, 0, None)
        budget = state.chicken + (fed if rules.eggs_from_harvest_leftovers else 0)
        most = min(budget // EGG_COST_STEPS, SUPPLY_EGGS - held, base.count(Content.EMPTY))
        if most > 0:
            points, room = value.egg_ceiling(base)
            for n in range(1, most + 1):
                ceiling = points + POINTS_PER_CAFE * min(n, room)
                yield _Group(line, base, bean_slots, fed, n, ceiling)


def _starts(group: _Group, value: Evaluator, floor: int | None = None) -> list[_Start]:
    """Every distinct set of ``group.eggs`` useful eggs on the group's placement that
    might make ``floor`` points, each bounded for now by the group's ceiling (which is
    never below its own bound).

    Eggs are chosen café by café; once some are placed, ``Evaluator.egg_ceiling`` bounds
    every way to place the rest, and a ceiling below ``floor`` drops them all unlisted.
    """
    kitchen = value.kitchen
    base = group.base

    def with_eggs(egg_slots: tuple[int, ...]) -> Fill:
        fill = list(base)
        for i in egg_slots:
            fill[i] = Content.EGG
        return tuple(fill)

    def hopeless(egg_slots: tuple[int, ...], left: int, where: frozenset[int]) -> bool:
        if floor is None:
            return False
        return value.eggs_ceiling(with_eggs(egg_slots), left, where, floor) < floor

    out: dict[tuple[int, int], _Start] = {}
    beans = tuple(Placement(i, Content.BEAN) for i in group.bean_slots)
    for egg_slots in _egg_sets(kitchen, base, group.eggs, hopeless):
        done = with_eggs(egg_slots)
        key = value.canonical(done)
        if key not in out:
            places = beans + tuple(Placement(i, Content.EGG) for i in sorted(egg_slots))
            # Its own bound waits until it is taken from the heap: most never are.
            out[key] = _Start(group.line, done, places, group.fed, group.eggs, None)
    return list(out.values())


def _plan(state: PlayerState, s: _Start, rules: DulceRules, value: Evaluator) -> HarvestPlan:
    return HarvestPlan(
        line=s.line,
        gathered=tuple(sorted(gather(state.board, s.line).items())),
        placements=s.placements,
        fed=s.fed,
        eggs=s.eggs,
        scoring=best_scoring(value.kitchen, s.fill, rules, value),
        chicken_before=state.chicken,
    )


def _search(
    state: PlayerState, lines: Sequence[Line], rules: DulceRules, value: Evaluator
) -> tuple[HarvestPlan, dict[Line, LineSummary]]:
    """Best-first branch and bound over every start of every line.

    The egg sets of a bean placement are listed only once their group's ceiling can
    still reach the best points found, so most are never listed; a listed start waits
    under its group's ceiling until it comes up, and only then is its own bound worked
    out. The floor (points some start is known to make) comes from quick lines of play
    until a start has been searched, then from the best start. Which start is chosen
    among equal values does not depend on the floor: every start that could equal the
    best is still taken up in the same order. Past ``START_BUDGET`` listed starts no
    more egg sets are listed and the answer is reported as not proven.
    """
    order = {line: k for k, line in enumerate(lines)}
    heap: list[tuple[int, int, int, int, _Group | _Start]] = []
    tick = count()
    ceilings: dict[Line, int] = {}

    def push(item: _Group | _Start, ceiling: int, at: int | None = None) -> None:
        ceilings[item.line] = max(ceilings.get(item.line, 0), ceiling)
        at = next(tick) if at is None else at
        heapq.heappush(heap, (-ceiling, item.eggs, order[item.line], at, item))

    first: _Start | None = None  # placing the first line's beans, no eggs
    for line in lines:
        for item in _groups(state, line, rules, value):
            if isinstance(item, _Group):
                push(item, item.ceiling)
            else:
                first = first or item
                push(item, value.bound(item.fill))
    listed = 0
    best: tuple[Value, _Start] | None = None
    found: dict[Line, int] = {}
    # Points some start is known to make (a quick line of play or the best so far):
    # whatever cannot reach them cannot be the best.
    floor = 0
    tries = 0  # quick lines of play tried so far
    while heap:
        ceiling, _, _, at, item = heapq.heappop(heap)
        ceiling = -ceiling
        if ceiling < floor:
            break  # best first: nothing left can reach the best points
        base = item.fill if isinstance(item, _Start) else item.base
        if best is not None:
            # Chicken steps to come are at most one per bean that can still move; a
            # group's eggs are not placed yet, and eggs can bring cafés to life.
            steps = (
                state.chicken
                + item.fed
                - EGG_COST_STEPS * item.eggs
                + value.steps_ceiling(base, isinstance(item, _Group))
            )
            if (ceiling, steps, value.beans(base)) < best[0]:
                continue  # cannot beat the best plan even on a tie in points
        if isinstance(item, _Group) and not item.tight:
            # The quick ceiling brought it here; the dearer one, which sees that each
            # egg fills one café only, may send it back, as a start's own bound does.
            own = value.eggs_ceiling(item.base, item.eggs)
            item = replace(item, ceiling=min(own, ceiling), tight=True)
            if own < ceiling:
                heapq.heappush(heap, (-own, item.eggs, order[item.line], at, item))
                continue
        if isinstance(item, _Start) and item.bound is None:
            # Its group's ceiling brought it here; its own bound may send it back, under
            # its first place in the queue so that ties keep their order.
            own = value.bound(item.fill)
            item = replace(item, bound=own)
            if own < ceiling:
                heapq.heappush(heap, (-own, item.eggs, order[item.line], at, item))
                continue
        quick: Value | None = None
        if best is None and ceiling > floor and tries < QUICK_PLAYS and value.complete:
            tries += 1
            quick = value.rollout(base, item.eggs if isinstance(item, _Group) else 0)
            if quick is not None:
                floor = max(floor, quick[0])
        if isinstance(item, _Group):
            # A start below the floor is never taken up: leave those unlisted.
            batch = _starts(item, value, floor or None)
            if listed + len(batch) > START_BUDGET:
                value.complete = False
                floor = 0 if best is None else best[0][0]  # its start may be unlisted
                continue
            listed += len(batch)
            for s in batch:
                push(s, item.ceiling)
            continue
        s = item
        value.trim()
        # Chicken steps this start holds before scoring: the scoring phase adds its own.
        held = (0, state.chicken + s.fed - EGG_COST_STEPS * s.eggs, 0)
        # Only a better plan, or an equal one from an earlier line, can take its place.
        goal: Value = (floor, ANY[1], ANY[2])
        if best is not None:
            better = best[0] if order[s.line] < order[best[1].line] else value_above(best[0])
            goal = max(goal, better)
        need = value_sub(goal, held)
        if quick is not None and quick > need:
            # This start makes at least its quick line's value: asking for that much
            # still gives its exact value, and the search can drop what falls short.
            need = quick
        got = value.reaching(s.fill, need)
        if got is None:
            continue  # cannot beat the best plan found so far
        v = value_add(got, held)
        found[s.line] = max(found.get(s.line, 0), v[0])
        if best is None or v > best[0] or (v == best[0] and order[s.line] < order[best[1].line]):
            best = (v, s)
            floor = max(floor, v[0])
        if not value.complete:
            break  # out of budget: keep the best found, reported as not proven
    if best is None:  # every start was ruled out by a floor its own start never met
        assert first is not None  # placing the beans without eggs is always a start
        got = value(first.fill)
        best = (value_add(got, (0, state.chicken + first.fed, 0)), first)
    top = best[0][0]
    summary = {}
    for line in lines:
        bound = ceilings.get(line, 0)
        at_most = min(bound, top) if value.complete else bound
        summary[line] = LineSummary(line, found.get(line), at_most)
    return _plan(state, best[1], rules, value), summary


def plan_line(
    state: PlayerState,
    line: Line,
    rules: DulceRules = DEFAULT_RULES,
    kitchen: Kitchen | None = None,
) -> HarvestPlan:
    """The best way to place this line's harvest (and eggs) and then score."""
    value = Evaluator(kitchen or Kitchen.of(state.cafes), rules)
    with collector_paused():
        return _search(state, [line], rules, value)[0]


def best_harvest(
    state: PlayerState, rules: DulceRules = DEFAULT_RULES, budget: int = SEARCH_BUDGET
) -> HarvestAdvice:
    """The line, placements and eggs giving the most points, then the most chicken steps."""
    value = Evaluator(Kitchen.of(state.cafes), rules, budget)
    with collector_paused():
        best, summary = _search(state, ALL_LINES, rules, value)
    return HarvestAdvice(
        best,
        tuple(summary[line] for line in ALL_LINES),
        harvested_board(state.board, best.line),
        value.complete,
    )
