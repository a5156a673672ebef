"""The scoring phase: legal steps, replaying a chosen order, and the best order.

``legal_steps`` works on plain tuples and is the reference for what the rules allow;
the fast search in the ``search`` package must agree with it (the tests check both
against an independent brute force).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from companion.errors import IllegalMoveError
from companion.games.dulce.constants import POINTS_PER_CAFE
from companion.games.dulce.kitchen import Fill, Kitchen, Slot, Value, value_add, value_sub
from companion.games.dulce.model import DEFAULT_RULES, Content, DulceRules
from companion.games.dulce.search import Evaluator, collector_paused

__all__ = [
    "Byproduct",
    "Evaluator",
    "Fill",
    "Kitchen",
    "ScoreStep",
    "ScoringPlan",
    "Slot",
    "Value",
    "apply_step",
    "best_scoring",
    "legal_steps",
    "replay",
]


@dataclass(frozen=True)
class Byproduct:
    source: int  # slot the bean leaves
    target: int | None  # slot it moves to, or None: discarded, the chicken steps up


@dataclass(frozen=True)
class ScoreStep:
    cafe: int
    byproducts: tuple[Byproduct, ...]  # beans from 2- and 3-ring spaces
    discarded: tuple[int, ...]  # eggs and 1-ring beans, back to the supply
    eggs: tuple[int, ...] = ()  # which of the discarded slots held an egg

    @property
    def chicken(self) -> int:
        return sum(1 for b in self.byproducts if b.target is None)


@dataclass(frozen=True)
class ScoringPlan:
    kitchen: Kitchen
    start: Fill
    steps: tuple[ScoreStep, ...]
    end: Fill
    points: int
    chicken: int  # steps gained during the phase
    proven: bool = True  # False if the search hit its budget: good, but maybe not best

    @property
    def beans_left(self) -> int:
        return sum(1 for c in self.end if c is Content.BEAN)


def _assignments(
    kitchen: Kitchen, free: Fill, beans: Sequence[int], scored: int, rules: DulceRules
) -> Iterator[tuple[Byproduct, ...]]:
    """Every way to send the scored café's byproducts to distinct lower empty spaces."""
    cands: list[list[int]] = []
    for b in beans:
        src = kitchen.slots[b]
        cands.append(
            [
                t
                for t, dst in enumerate(kitchen.slots)
                if free[t] is Content.EMPTY
                and dst.bean is src.bean
                and dst.level < src.level
                and (rules.byproduct_into_scored_cafe or dst.cafe != scored)
            ]
        )

    def rec(k: int, used: frozenset[int]) -> Iterator[tuple[Byproduct, ...]]:
        if k == len(beans):
            yield ()
            return
        for t in cands[k]:
            if t not in used:
                for rest in rec(k + 1, used | {t}):
                    yield (Byproduct(beans[k], t), *rest)
        for rest in rec(k + 1, used):
            yield (Byproduct(beans[k], None), *rest)

    for combo in rec(0, frozenset()):
        if not rules.byproducts_may_be_discarded:
            taken = {b.target for b in combo}
            # A bean is only discarded when every space it could take is taken.
            if any(
                b.target is None and any(t not in taken for t in cands[k])
                for k, b in enumerate(combo)
            ):
                continue
        yield combo


def legal_steps(
    kitchen: Kitchen, fill: Fill, rules: DulceRules = DEFAULT_RULES
) -> Iterator[tuple[ScoreStep, Fill]]:
    """Each legal next step and the state after it."""
    for ci in kitchen.full_cafes(fill):
        ids = kitchen.cafe_slots[ci]
        free = list(fill)
        for i in ids:
            free[i] = Content.EMPTY
        vacated = tuple(free)
        beans = [i for i in ids if fill[i] is Content.BEAN and kitchen.slots[i].level > 1]
        gone = tuple(i for i in ids if i not in beans)
        eggs = tuple(i for i in gone if fill[i] is Content.EGG)
        for combo in _assignments(kitchen, vacated, beans, ci, rules):
            after = list(vacated)
            for b in combo:
                if b.target is not None:
                    after[b.target] = Content.BEAN
            yield ScoreStep(ci, combo, gone, eggs), tuple(after)


def apply_step(
    kitchen: Kitchen, fill: Fill, step: ScoreStep, rules: DulceRules = DEFAULT_RULES
) -> Fill:
    """The state after ``step``; raises IllegalMoveError if the rules forbid it."""
    for legal, after in legal_steps(kitchen, fill, rules):
        if legal == step:
            return after
    name = kitchen.cafes[step.cafe].name if 0 <= step.cafe < len(kitchen.cafes) else step.cafe
    raise IllegalMoveError(f"scoring {name} that way is not allowed in this state")


def best_scoring(
    kitchen: Kitchen,
    fill: Fill,
    rules: DulceRules = DEFAULT_RULES,
    value: Callable[[Fill], Value] | None = None,
) -> ScoringPlan:
    """The order and byproduct moves with the most points, then the most chicken steps."""
    with collector_paused():
        return _best_scoring(kitchen, fill, rules, value or Evaluator(kitchen, rules))


def _best_scoring(
    kitchen: Kitchen, fill: Fill, rules: DulceRules, value: Callable[[Fill], Value]
) -> ScoringPlan:
    want = value(fill)
    steps: list[ScoreStep] = []
    state = fill
    while True:
        options = list(legal_steps(kitchen, state, rules))
        if not options:
            break
        chosen: tuple[ScoreStep, Fill, Value] | None = None
        if isinstance(value, Evaluator):
            # No step does better than the best, so the first that reaches it is one;
            # the Evaluator rules the others out without working out their values.
            for step, after in options:
                rest = value_sub(want, (POINTS_PER_CAFE, step.chicken, 0))
                if value.reaching(after, rest) == rest:
                    chosen = (step, after, rest)
                    break
        if chosen is None:  # a search cut short by its budget: follow its values
            want = value(state)
            for step, after in options:
                rest = value(after)
                if value_add((POINTS_PER_CAFE, step.chicken, 0), rest) == want:
                    chosen = (step, after, rest)
                    break
            else:
                step, after = options[0]  # keep the plan legal: a full café must score
                chosen = (step, after, value(after))
        step, state, want = chosen
        steps.append(step)
    proven = value.complete if isinstance(value, Evaluator) else True
    points = POINTS_PER_CAFE * len(steps)  # what the plan shown makes (the target, if exact)
    return ScoringPlan(
        kitchen, fill, tuple(steps), state, points, sum(s.chicken for s in steps), proven
    )


def replay(
    kitchen: Kitchen, fill: Fill, steps: Sequence[ScoreStep], rules: DulceRules = DEFAULT_RULES
) -> ScoringPlan:
    """Check a chosen order step by step, including that it does not stop early."""
    state = fill
    for n, step in enumerate(steps, 1):
        try:
            state = apply_step(kitchen, state, step, rules)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"step {n}: {exc}") from None
    if kitchen.full_cafes(state):
        raise IllegalMoveError("the scoring phase stops while a café is still full")
    return ScoringPlan(
        kitchen,
        fill,
        tuple(steps),
        state,
        POINTS_PER_CAFE * len(steps),
        sum(s.chicken for s in steps),
    )
