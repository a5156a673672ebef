"""A table of players through the rounds: moves, then the round-end bonuses.

First Potter and the Jar of Honey depend on every sheet at the table, so they are
settled here, after all players have applied their moves for the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import IllegalMoveError, InputError
from companion.games.delicious.constants import DEFAULT_RULES, Rules
from companion.games.delicious.garden import HONEY_FIELD
from companion.games.delicious.moves import Move, Round, apply
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import ROUNDS, Area, Mark


def end_round(
    before: Sequence[SheetState], after: Sequence[SheetState], rules: Rules = DEFAULT_RULES
) -> list[SheetState]:
    """Check and cross First Potter icons and circle the honey, for the whole table.

    ``before`` are the sheets at the start of the round, ``after`` after every move.
    """
    if len(before) != len(after):
        raise InputError("before and after must hold one sheet per player")
    out = list(after)
    g = after[0].garden if after else None
    if g is None:
        return out
    for c in g.containers:
        if any(s.first_potter(c) for s in before):
            continue  # already claimed at an earlier round end
        finishers = [
            i for i, (b, a) in enumerate(zip(before, after, strict=True))
            if a.is_full(c) and not b.is_full(c)
        ]
        if not finishers:
            continue
        if not rules.shared_first_potter:
            finishers = finishers[:1]
        for i, s in enumerate(out):
            out[i] = s.with_values({c.first_potter: Mark.CHECK if i in finishers else Mark.CROSS})
    if not any(s.honey for s in before):
        for i, s in enumerate(out):
            if any(s.area_full(a) for a in Area):
                out[i] = s.with_values({HONEY_FIELD: Mark.CIRCLED})
    return out


@dataclass(frozen=True)
class Table:
    """Every player's sheet between rounds; ``play`` returns the next table."""

    sheets: tuple[SheetState, ...]
    rounds_played: int = 0
    rules: Rules = DEFAULT_RULES

    @classmethod
    def new(cls, players: int, variant: str = "A", rules: Rules = DEFAULT_RULES) -> Table:
        if players < 1:
            raise InputError("a game needs at least one player")
        return cls(tuple(SheetState.empty(variant) for _ in range(players)), 0, rules)

    @property
    def finished(self) -> bool:
        return self.rounds_played >= ROUNDS

    def play(self, rnd: Round, moves: Sequence[Move]) -> Table:
        """Apply one move per player for ``rnd``, then settle the round end."""
        if self.finished:
            raise IllegalMoveError(f"the game is over after {ROUNDS} rounds")
        if len(moves) != len(self.sheets):
            raise InputError(f"{len(self.sheets)} players need {len(self.sheets)} moves")
        after = []
        for i, (s, m) in enumerate(zip(self.sheets, moves, strict=True)):
            if m.round != rnd:
                raise IllegalMoveError(f"player {i + 1}'s move is for another round")
            try:
                after.append(apply(s, m, self.rules))
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"player {i + 1}: {exc}") from None
        settled = end_round(self.sheets, after, self.rules)
        return Table(tuple(settled), self.rounds_played + 1, self.rules)
