"""Exhaustive, memoised search for the best scoring phase, on bitmasks.

Beans only ever move to a strictly lower level, so every step lowers the total level
of what is held and the search always ends. Point ceilings (``bound``) let it skip
branches that cannot reach what is already known, without losing exactness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from companion.games.dulce.constants import BOUND_CACHE, POINTS_PER_CAFE, SEARCH_BUDGET
from companion.games.dulce.kitchen import Fill, Kitchen, Slot, Value
from companion.games.dulce.model import DEFAULT_RULES, Bean, Content, DulceRules, Level


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
