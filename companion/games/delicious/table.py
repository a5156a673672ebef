"""Checks across the final sheets of one table (docs/rules-readings.md "End of round").

Round-end marks are shared facts: when anyone first completes a container, every
other player crosses its First Potter icon that same round, and the honey goes to
whoever first fills an area. So a set of sheets can contradict itself even when each
sheet alone is fine. ``table_check`` returns, per player, what their sheet cannot be;
``score_table`` scores and ranks field maps, ``assess`` the players' photo readings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.delicious.garden import HONEY_FIELD
from companion.games.delicious.players import PLAY_SHEET, PlayerReading
from companion.games.delicious.scoring import Score, Standing, rank, score
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import Area, Mark
from companion.games.delicious.validate import SheetCode, check
from companion.games.problems import Problem, ProblemCode


class TableCode(ProblemCode):
    """What only the whole table's sheets together can show to be wrong."""

    FIRST_POTTER_NOT_CROSSED = "table-first-potter-not-crossed"
    FIRST_POTTER_UNCLAIMED = "table-first-potter-unclaimed"
    FIRST_POTTER_CROSS_UNEXPLAINED = "table-first-potter-cross-unexplained"
    HONEY_UNCLAIMED = "table-honey-unclaimed"
    MIXED_VARIANTS = "table-mixed-variants"


TABLE_CODES = tuple(TableCode)


def table_check(
    sheets: Sequence[SheetState], names: Sequence[str] | None = None
) -> list[list[Problem]]:
    """Per player, the violations only the whole table reveals (one list per sheet)."""
    names = list(names) if names is not None else [f"player{i + 1}" for i in range(len(sheets))]
    out: list[list[Problem]] = [[] for _ in sheets]
    if len(sheets) < 2:
        return out
    variants = sorted({s.variant for s in sheets})
    if len(variants) > 1:
        for i in range(len(sheets)):
            out[i].append(
                Problem(
                    TableCode.MIXED_VARIANTS,
                    (),
                    f"this table mixes gardens {', '.join(variants)}; "
                    "the cross-sheet checks compare containers by name only",
                )
            )
    for c in sheets[0].garden.containers:
        checked = [i for i, s in enumerate(sheets) if s.get(c.first_potter) == Mark.CHECK]
        who = ", ".join(names[i] for i in checked)
        for i, s in enumerate(sheets):
            cont = s.garden.container(c.id)
            mark = s.get(cont.first_potter)
            if checked and mark is None:
                full = " although the container is full" if s.is_full(cont) else ""
                out[i].append(
                    Problem(
                        TableCode.FIRST_POTTER_NOT_CROSSED,
                        (cont.first_potter,),
                        f"{who} checked First Potter on the {c.id}, so {names[i]} should "
                        f"have crossed theirs out{full}",
                    )
                )
            if not checked and s.is_full(cont):
                out[i].append(
                    Problem(
                        TableCode.FIRST_POTTER_UNCLAIMED,
                        (cont.first_potter,),
                        f"{names[i]} filled the {c.id} but nobody at the table checked its "
                        "First Potter; the first to fill it checks it",
                    )
                )
            if not checked and mark == Mark.CROSS:
                out[i].append(
                    Problem(
                        TableCode.FIRST_POTTER_CROSS_UNEXPLAINED,
                        (cont.first_potter,),
                        f"{names[i]} crossed First Potter on the {c.id} but nobody checked it",
                    )
                )
    if not any(s.honey for s in sheets):
        for i, s in enumerate(sheets):
            areas = [a for a in Area if s.area_full(a)]
            if areas:
                out[i].append(
                    Problem(
                        TableCode.HONEY_UNCLAIMED,
                        (HONEY_FIELD,),
                        f"{names[i]} filled the whole {areas[0]} area but nobody circled the "
                        "Jar of Honey; the first to fill an area claims it",
                    )
                )
    return out


@dataclass(frozen=True)
class TableResult:
    """Everything a game night needs from the final sheets of one table."""

    names: list[str]
    scores: list[Score]
    violations: list[list[Problem]]  # per player: sheet checks, then table checks
    standings: list[Standing]

    @property
    def legal(self) -> bool:
        return not any(self.violations)


def score_table(sheets: Sequence[SheetState], names: Sequence[str] | None = None) -> TableResult:
    """Score, check and rank the sheets of one table together."""
    names = list(names) if names is not None else [f"player{i + 1}" for i in range(len(sheets))]
    scores = [score(s) for s in sheets]
    cross = table_check(sheets, names)
    violations = [check(s) + cross[i] for i, s in enumerate(sheets)]
    return TableResult(names, scores, violations, rank(scores, names))


def assess(
    players: Sequence[PlayerReading[Any]],
    names: Sequence[str],
    unpaired: Sequence[PlayerReading[Any]] = (),
) -> TableResult:
    """Check and score the players' readings together, as one table.

    A garden photographed without its play sheet cannot show the twelve choice marks, so
    that one check is left out for it rather than reported as a problem. Gardens left
    out of the table (``unpaired``: their play sheet is missing) are not scored, but the
    First Potter and honey marks they show still take part in the table's checks.
    """
    states = [SheetState.from_field_map(p.fields, p.variant) for p in players]
    gardens = [p for p in unpaired if any(s.sheet != PLAY_SHEET for s in p.sheets)]
    extra = [SheetState.from_field_map(p.fields, p.variant) for p in gardens]
    extra_names = [f"the player of {p.photos[0]}" for p in gardens]
    scores = [score(s) for s in states]
    cross = table_check([*states, *extra], [*names, *extra_names])
    violations = [
        [v for v in check(s) if p.has_play or v.code != SheetCode.CHOICE_COUNT] + cross[i]
        for i, (p, s) in enumerate(zip(players, states, strict=True))
    ]
    return TableResult(list(names), scores, violations, rank(scores, list(names)))
