"""The scoring phase: legal steps, replaying a chosen order, and the best order.

The kitchen (every uncovered café space) is flattened into slots so a state is a plain
tuple of ``Content`` values, cheap to hash for memoisation. Beans only ever move to a
strictly lower level, so every step lowers the total level of what is held and the
search always ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from companion.errors import IllegalMoveError
from companion.games.dulce.constants import BOUND_CACHE, POINTS_PER_CAFE, SEARCH_BUDGET
from companion.games.dulce.model import DEFAULT_RULES, Bean, Cafe, Content, DulceRules, Level

Fill = tuple[Content, ...]
# (points, chicken steps, beans left in cafés for next round): larger is better in order.
Value = tuple[int, int, int]


@dataclass(frozen=True)
class Slot:
    cafe: int  # index into Kitchen.cafes
    space: int  # index of the space within that café
    bean: Bean
    level: Level


@dataclass(frozen=True)
class Kitchen:
    """The fixed part of a scoring problem: which spaces exist and where."""

    cafes: tuple[Cafe, ...]
    slots: tuple[Slot, ...]
    cafe_slots: tuple[tuple[int, ...], ...]  # slot ids of each café; empty when covered
    twins: tuple[tuple[int, ...], ...]  # groups of interchangeable slots (same café, kind)

    @classmethod
    def of(cls, cafes: Sequence[Cafe]) -> Kitchen:
        slots: list[Slot] = []
        per_cafe: list[tuple[int, ...]] = []
        twins: list[tuple[int, ...]] = []
        for ci, cafe in enumerate(cafes):
            ids: list[int] = []
            if not cafe.covered:
                for si, space in enumerate(cafe.spaces):
                    ids.append(len(slots))
                    slots.append(Slot(ci, si, space.bean, space.level))
            per_cafe.append(tuple(ids))
            groups: dict[tuple[Bean, Level], list[int]] = {}
            for i in ids:
                groups.setdefault((slots[i].bean, slots[i].level), []).append(i)
            twins.extend(tuple(g) for g in groups.values() if len(g) > 1)
        return cls(tuple(cafes), tuple(slots), tuple(per_cafe), tuple(twins))

    def fill_of(self, cafes: Sequence[Cafe]) -> Fill:
        return tuple(cafes[s.cafe].holds[s.space] for s in self.slots)

    def canonical(self, fill: Fill) -> Fill:
        """Identical spaces of one café are interchangeable: sort their contents."""
        if not self.twins:
            return fill
        out = list(fill)
        for group in self.twins:
            for i, v in zip(group, sorted(fill[j] for j in group), strict=True):
                out[i] = v
        return tuple(out)

    def full_cafes(self, fill: Fill) -> list[int]:
        return [
            ci
            for ci, ids in enumerate(self.cafe_slots)
            if ids and all(fill[i] is not Content.EMPTY for i in ids)
        ]

    def describe(self, slot: int) -> str:
        s = self.slots[slot]
        cafe = self.cafes[s.cafe]
        return f"{cafe.name} {s.bean.value} {int(s.level)}-ring"


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


def _add(gain: tuple[int, int], rest: Value) -> Value:
    return (gain[0] + rest[0], gain[1] + rest[1], rest[2])


def _above_of(key: tuple[Bean, Level], slots: Sequence[Slot]) -> int:
    bean, level = key
    return sum(1 << j for j, t in enumerate(slots) if t.bean is bean and t.level > level)


def _masks(fill: Fill) -> tuple[int, int]:
    beans = eggs = 0
    for i, c in enumerate(fill):
        if c is Content.BEAN:
            beans |= 1 << i
        elif c is Content.EGG:
            eggs |= 1 << i
    return beans, eggs


class Evaluator:
    """Best value of any state of one kitchen, memoised across calls.

    Same moves as ``legal_steps`` but on bitmasks (one bit per slot for beans, one for
    eggs), which is what makes exhaustive search affordable. Past ``budget`` memoised
    states the search stops branching and follows the first legal step of each new
    state, so the answer stays a legal plan; ``complete`` then turns False and the
    plan is no longer proven best.
    """

    def __init__(
        self, kitchen: Kitchen, rules: DulceRules = DEFAULT_RULES, budget: int = SEARCH_BUDGET
    ) -> None:
        self.complete = True
        self.kitchen = kitchen
        self._value, self._at_least = self._build(kitchen, rules, budget)

    def __call__(self, fill: Fill) -> Value:
        return self._value(fill)

    def at_least(self, fill: Fill, points: int) -> Value | None:
        """The exact best value if it reaches ``points`` points, else None (faster)."""
        return self._at_least(fill, points)

    def bound(self, fill: Fill) -> int:
        """An upper bound on the points ``fill`` can still make (see ``_make_bound``)."""
        return self._bound(*_masks(fill))

    @property
    def states(self) -> int:
        return len(self._memo)

    def _make_bound(self, kitchen: Kitchen) -> Callable[[int, int], int]:
        """Points still reachable, at most.

        Beans never appear and each visits any level at most once, so the spaces of one
        (bean, level) class can be filled at most as often as they hold something now
        plus the beans of that type sitting higher. Every scoring of a café uses a fill
        of each of its classes: charge it to its highest-level class, and also cap it by
        its scarcest space.
        """
        slots = kitchen.slots
        above = [
            sum(1 << j for j, t in enumerate(slots) if t.bean is s.bean and t.level > s.level)
            for s in slots
        ]
        classes: dict[tuple[Bean, Level], int] = {}
        for i, s in enumerate(slots):
            classes[(s.bean, s.level)] = classes.get((s.bean, s.level), 0) | 1 << i
        charged: dict[tuple[Bean, Level], list[tuple[int, ...]]] = {k: [] for k in classes}
        for ids in kitchen.cafe_slots:
            if ids:
                top = max(ids, key=lambda i: slots[i].level)
                charged[(slots[top].bean, slots[top].level)].append(ids)
        plan = [
            (
                classes[k],
                _above_of(k, slots),
                [tuple((1 << i, above[i]) for i in ids) for ids in ids_list],
            )
            for k, ids_list in charged.items()
            if ids_list
        ]

        cache: dict[tuple[int, int], int] = {}

        def bound(beans: int, eggs: int) -> int:
            hit = cache.get((beans, eggs))
            if hit is not None:
                return hit
            held = beans | eggs
            total = 0
            for cls, up, cafes in plan:
                cap = (held & cls).bit_count() + (beans & up).bit_count()
                per_cafe = 0
                for spaces in cafes:
                    least = cap
                    for bit, higher in spaces:
                        fills = (beans & higher).bit_count() + (1 if held & bit else 0)
                        if fills < least:
                            least = fills
                    per_cafe += least
                    if per_cafe >= cap:
                        break
                total += min(cap, per_cafe)
            if len(cache) < BOUND_CACHE:
                cache[(beans, eggs)] = total * POINTS_PER_CAFE
            return total * POINTS_PER_CAFE

        return bound

    def _build(
        self, kitchen: Kitchen, rules: DulceRules, budget: int
    ) -> tuple[Callable[[Fill], Value], Callable[[Fill, int], Value | None]]:
        slots = kitchen.slots
        bound = self._bound = self._make_bound(kitchen)
        cafe_masks = [sum(1 << i for i in ids) for ids in kitchen.cafe_slots]
        lower: list[list[int]] = []  # per café: per slot, bits it may send a byproduct to
        for ci, ids in enumerate(kitchen.cafe_slots):
            lower.append(
                [
                    sum(
                        1 << t
                        for t, dst in enumerate(slots)
                        if dst.bean is slots[i].bean
                        and dst.level < slots[i].level
                        and (rules.byproduct_into_scored_cafe or dst.cafe != ci)
                    )
                    for i in ids
                ]
            )
        twin_pairs = kitchen.twins
        forced = not rules.byproducts_may_be_discarded
        memo: dict[tuple[int, int], Value] = {}
        self._memo = memo

        def canonical(beans: int, eggs: int) -> tuple[int, int]:
            for group in twin_pairs:
                vals = sorted(((beans >> i) & 1) | (((eggs >> i) & 1) << 1) for i in group)
                for i, v in zip(group, vals, strict=True):
                    bit = 1 << i
                    beans = beans | bit if v == 1 else beans & ~bit
                    eggs = eggs | bit if v == 2 else eggs & ~bit
            return beans, eggs

        def outcomes(cands: list[int], k: int, used: int) -> Iterator[tuple[int, int]]:
            """(bits filled, beans discarded) for every assignment of movers k.. onwards."""
            if k == len(cands):
                yield 0, 0
                return
            free = cands[k] & ~used
            rest = free
            while rest:
                bit = rest & -rest
                rest ^= bit
                for filled, lost in outcomes(cands, k + 1, used | bit):
                    yield filled | bit, lost
            for filled, lost in outcomes(cands, k + 1, used):
                if forced and free & ~filled:
                    continue  # it could still have moved somewhere
                yield filled, lost + 1

        upper: dict[tuple[int, int], int] = {}  # states known to score at most this
        gain = POINTS_PER_CAFE

        def search(beans: int, eggs: int, alpha: int) -> tuple[Value, bool]:
            """(exact value, True) if it makes at least ``alpha`` points; otherwise it
            may answer (upper bound on points, 0, 0), False: alpha-style pruning."""
            key = canonical(beans, eggs) if twin_pairs else (beans, eggs)
            hit = memo.get(key)
            if hit is not None:
                return hit, True
            ub = upper.get(key)
            if ub is not None and ub < alpha:
                return (ub, 0, 0), False
            beans, eggs = key
            held = beans | eggs
            children: list[tuple[int, int, int, int]] = []  # (bound, beans, eggs, lost)
            top: Value | None = None
            ceiling = 0  # upper bound on this state's points, from its children
            terminal = True
            for ci, cm in enumerate(cafe_masks):
                if not cm or cm & ~held:
                    continue
                terminal = False
                left_beans = beans & ~cm
                left_eggs = eggs & ~cm
                occupied = left_beans | left_eggs
                cands = [
                    lower[ci][k] & ~occupied
                    for k, i in enumerate(kitchen.cafe_slots[ci])
                    if slots[i].level > 1 and beans >> i & 1
                ]
                seen: set[int] = set()
                for filled, lost in outcomes(cands, 0, 0):
                    if filled in seen:  # same spaces filled means the same number lost
                        continue
                    seen.add(filled)
                    nb = left_beans | filled
                    known = memo.get(canonical(nb, left_eggs) if twin_pairs else (nb, left_eggs))
                    if known is not None:
                        v = (known[0] + gain, known[1] + lost, known[2])
                        ceiling = max(ceiling, v[0])
                        if top is None or v > top:
                            top = v
                    else:
                        children.append((bound(nb, left_eggs), nb, left_eggs, lost))
            if terminal:
                done = (0, 0, beans.bit_count())
                memo[key] = done
                return done, True
            children.sort(key=lambda ch: -ch[0])
            for limit, nb, ne, lost in children:
                need = max(alpha, top[0] if top is not None else 0) - gain
                if limit < need:
                    ceiling = max(ceiling, limit + gain)  # sorted: the rest are no better
                    break
                (p, c, b), exact = search(nb, ne, need)
                ceiling = max(ceiling, p + gain)
                if exact:
                    v = (p + gain, c + lost, b)
                    if top is None or v > top:
                        top = v
                if len(memo) + len(upper) > budget:
                    self.complete = False
                    break  # over budget: settle for the best line of play found so far
            if top is not None and top[0] >= alpha:
                memo[key] = top
                return top, True
            upper[key] = ceiling
            return (ceiling, 0, 0), False

        def value(fill: Fill) -> Value:
            return search(*_masks(fill), 0)[0]

        def at_least(fill: Fill, alpha: int) -> Value | None:
            v, exact = search(*_masks(fill), alpha)
            return v if exact and v[0] >= alpha else None

        return value, at_least


def best_scoring(
    kitchen: Kitchen,
    fill: Fill,
    rules: DulceRules = DEFAULT_RULES,
    value: Callable[[Fill], Value] | None = None,
) -> ScoringPlan:
    """The order and byproduct moves with the most points, then the most chicken steps."""
    value = value or Evaluator(kitchen, rules)
    target = value(fill)
    steps: list[ScoreStep] = []
    state = fill
    while True:
        want = value(state)
        for step, after in legal_steps(kitchen, state, rules):
            if _add((POINTS_PER_CAFE, step.chicken), value(after)) == want:
                steps.append(step)
                state = after
                break
        else:
            break
    proven = value.complete if isinstance(value, Evaluator) else True
    return ScoringPlan(
        kitchen, fill, tuple(steps), state, target[0], sum(s.chicken for s in steps), proven
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
