"""Best harvest: which row or column to gather, and where each bean and egg should go.

Every line is tried; within a line every placement of the gathered beans (forced while a
matching space is free) and every affordable set of eggs is scored by the exhaustive,
memoised scoring search. Eggs only go into cafés that could still fill up during
scoring; an egg in any other café could only waste chicken steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, product

from companion.games.dulce.constants import BOARD_SIZE, EGG_COST_STEPS, SEARCH_BUDGET
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
class HarvestAdvice:
    best: HarvestPlan
    per_line: tuple[HarvestPlan, ...]  # the best plan for each of the eight lines
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


def _egg_worthwhile(kitchen: Kitchen, fill: Fill, eggs: Sequence[int]) -> bool:
    """Whether every café given an egg could still fill up during scoring.

    An empty space can only be refilled by a byproduct of the same type from a higher
    level, so it needs such a bean somewhere; otherwise its café never scores this round
    and the egg only costs steps.
    """
    for ci in {kitchen.slots[i].cafe for i in eggs}:
        for i in kitchen.cafe_slots[ci]:
            if fill[i] is not Content.EMPTY:
                continue
            need = kitchen.slots[i]
            if not any(
                fill[j] is Content.BEAN and s.bean is need.bean and s.level > need.level
                for j, s in enumerate(kitchen.slots)
            ):
                return False
    return True


def plan_line(
    state: PlayerState,
    line: Line,
    rules: DulceRules = DEFAULT_RULES,
    kitchen: Kitchen | None = None,
) -> HarvestPlan:
    """The best way to place this line's harvest (and eggs) and then score."""
    kitchen = kitchen or Kitchen.of(state.cafes)
    return _plan_line(state, line, rules, kitchen, Evaluator(kitchen, rules))


def _plan_line(
    state: PlayerState,
    line: Line,
    rules: DulceRules,
    kitchen: Kitchen,
    value: Evaluator,
) -> HarvestPlan:
    start = kitchen.fill_of(state.cafes)
    gathered = gather(state.board, line)
    best: tuple[Value, Fill, tuple[Placement, ...], int, int] | None = None
    seen: set[tuple[Fill, int, int]] = set()
    for bean_slots, fed in _bean_choices(kitchen, start, gathered, rules):
        with_beans = list(start)
        for i in bean_slots:
            with_beans[i] = Content.BEAN
        free = [i for i, c in enumerate(with_beans) if c is Content.EMPTY]
        budget = state.chicken + (fed if rules.eggs_from_harvest_leftovers else 0)
        for n_eggs in range(min(budget // EGG_COST_STEPS, len(free)) + 1):
            for egg_slots in combinations(free, n_eggs):
                fill = list(with_beans)
                for i in egg_slots:
                    fill[i] = Content.EGG
                done = tuple(fill)
                if n_eggs and not _egg_worthwhile(kitchen, done, egg_slots):
                    continue
                key = (kitchen.canonical(done), fed, n_eggs)
                if key in seen:
                    continue
                seen.add(key)
                pts, chick, left = value(done)
                v = (pts, state.chicken + fed - EGG_COST_STEPS * n_eggs + chick, left)
                if best is None or v > best[0]:
                    places = tuple(Placement(i, Content.BEAN) for i in bean_slots) + tuple(
                        Placement(i, Content.EGG) for i in egg_slots
                    )
                    best = (v, done, places, fed, n_eggs)
    assert best is not None  # the empty placement is always legal
    _, done, places, fed, n_eggs = best
    return HarvestPlan(
        line=line,
        gathered=tuple(sorted(gathered.items())),
        placements=places,
        fed=fed,
        eggs=n_eggs,
        scoring=best_scoring(kitchen, done, rules, value),
        chicken_before=state.chicken,
    )


def best_harvest(
    state: PlayerState, rules: DulceRules = DEFAULT_RULES, budget: int = SEARCH_BUDGET
) -> HarvestAdvice:
    """The line, placements and eggs giving the most points, then the most chicken steps."""
    kitchen = Kitchen.of(state.cafes)
    value = Evaluator(kitchen, rules, budget)
    plans = tuple(_plan_line(state, line, rules, kitchen, value) for line in ALL_LINES)
    best = max(plans, key=lambda p: p.value)  # first line wins exact ties
    return HarvestAdvice(best, plans, harvested_board(state.board, best.line), value.complete)
