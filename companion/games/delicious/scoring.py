"""Final scoring of one sheet and the ranking of a table (docs/rules-readings.md "Scoring")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.delicious.constants import (
    DISTINCT_FRUIT_POINTS,
    FRUIT_RUN_POINTS,
    MIN_SCORING_FRUITS,
)
from companion.games.delicious.garden import (
    FIRST_POTTER_POINTS,
    FRUIT_BONUS,
    HONEY_POINTS,
    VEG_BONUS,
    VEG_BONUS_POINTS_PER_CONTAINER,
    PlanterLine,
)
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import Fruit, Mark
from companion.games.ranking import ranked


def line_points(fruits: Sequence[Fruit | None]) -> int:
    """A planter line: the better of its distinct-fruit and unbroken-run scores."""
    planted = [f for f in fruits if f is not None]
    if len(planted) < MIN_SCORING_FRUITS:
        return 0
    distinct = DISTINCT_FRUIT_POINTS.get(len(set(planted)), 0)
    best_run = run = 0
    prev: Fruit | None = None
    for f in fruits:
        run = run + 1 if f is not None and f is prev else (1 if f is not None else 0)
        prev = f
        best_run = max(best_run, run)
    return max(distinct, FRUIT_RUN_POINTS.get(best_run, 0))


def _line(state: SheetState, line: PlanterLine) -> int:
    return line_points([state.fruit(c) for c in line.cells])


@dataclass(frozen=True)
class Score:
    """A sheet's points; ``total`` is always the sum of the breakdown."""

    containers: dict[str, int]  # row points of each container, First Potter excluded
    planter: int
    veg_bonus: int
    fruit_bonus: int
    honey: int
    first_potter: int  # points from checked First Potter icons (1 each)
    planter_lines: dict[str, int] = field(default_factory=dict)
    container_rows: dict[str, int] = field(default_factory=dict)  # full rows bottom-up
    first_potter_checks: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return (
            sum(self.containers.values())
            + self.planter
            + self.veg_bonus
            + self.fruit_bonus
            + self.honey
            + self.first_potter
        )

    def to_json(self) -> dict[str, Any]:
        """Exactly the score object of docs/contracts.md."""
        return {
            "total": self.total,
            "breakdown": {
                "containers": dict(self.containers),
                "planter": self.planter,
                "veg_bonus": self.veg_bonus,
                "fruit_bonus": self.fruit_bonus,
                "honey": self.honey,
                "first_potter": self.first_potter,
            },
        }

    def details_json(self) -> dict[str, Any]:
        """What lies behind the numbers: points per planter line, full rows, checks."""
        return {
            "planter_lines": dict(self.planter_lines),
            "container_rows": dict(self.container_rows),
            "first_potter_checks": list(self.first_potter_checks),
        }


def score(state: SheetState) -> Score:
    """Score a sheet as written; an illegal sheet still gets the points it shows."""
    g = state.garden
    containers: dict[str, int] = {}
    rows: dict[str, int] = {}
    checks: list[str] = []
    for c in g.containers:
        full = state.full_rows(c)
        rows[c.id] = full
        containers[c.id] = c.rows[full - 1].points if full else 0
        if state.first_potter(c) == Mark.CHECK:
            checks.append(c.id)
    lines = {ln.id: _line(state, ln) for ln in g.lines}
    bonus_veg = state.vegetable(VEG_BONUS)
    veg_bonus = 0
    if bonus_veg is not None:
        holding = sum(1 for c in g.containers if bonus_veg in state.container_vegetables(c))
        veg_bonus = VEG_BONUS_POINTS_PER_CONTAINER * holding
    bonus_fruit = state.fruit(FRUIT_BONUS)
    fruit_bonus = 0
    if bonus_fruit is not None:
        fruit_bonus = sum(1 for p in g.planter if state.fruit(p.id) is bonus_fruit)
    return Score(
        containers=containers,
        planter=sum(lines.values()),
        veg_bonus=veg_bonus,
        fruit_bonus=fruit_bonus,
        honey=HONEY_POINTS if state.honey else 0,
        first_potter=FIRST_POTTER_POINTS * len(checks),
        planter_lines=lines,
        container_rows=rows,
        first_potter_checks=tuple(checks),
    )


@dataclass(frozen=True)
class Standing:
    place: int  # 1 is the winner; tied players share a place
    player: str
    total: int
    planter: int
    first_potter_checks: int
    shared: bool  # still tied after both tiebreaks
    decided_by: str  # "points", "planter", "first potter" or "shared"

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "total": self.total,
            "planter": self.planter,
            "first_potter_checks": self.first_potter_checks,
            "shared": self.shared,
            "decided_by": self.decided_by,
        }


def _key(s: Score) -> tuple[int, int, int]:
    return (s.total, s.planter, len(s.first_potter_checks))


def rank(scores: Sequence[Score], names: Sequence[str] | None = None) -> list[Standing]:
    """Most points first; ties go to the planter score, then First Potter checks."""
    names = list(names) if names is not None else [f"player{i + 1}" for i in range(len(scores))]
    order = ranked(range(len(scores)), key=lambda i: _key(scores[i]))
    out: list[Standing] = []
    for place, i in order:
        s = scores[i]
        out.append(
            Standing(
                place=place,
                player=names[i],
                total=s.total,
                planter=s.planter,
                first_potter_checks=len(s.first_potter_checks),
                shared=sum(_key(o) == _key(s) for o in scores) > 1,
                decided_by=_decided_by(s, [scores[j] for _, j in order if j != i]),
            )
        )
    return out


def _decided_by(s: Score, others: Sequence[Score]) -> str:
    """Which comparison separated this player from the nearest tied-on-points rival."""
    rivals = [o for o in others if o.total == s.total]
    if not rivals:
        return "points"
    if all(o.planter != s.planter for o in rivals):
        return "planter"
    rivals = [o for o in rivals if o.planter == s.planter]
    if all(len(o.first_potter_checks) != len(s.first_potter_checks) for o in rivals):
        return "first potter"
    return "shared"
