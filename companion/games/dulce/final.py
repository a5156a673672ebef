"""End of game: ranking with the egg-and-field tiebreak, and the solo title table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import InputError
from companion.games.dulce.constants import EGG_COST_STEPS, SOLO_TITLES
from companion.games.dulce.model import DEFAULT_RULES, DulceRules, Tiebreak
from companion.games.ranking import ranked


@dataclass(frozen=True)
class FinalPlayer:
    name: str
    points: int
    chicken: int  # steps along the chicken track at the end
    field_cubes: int  # resource cubes still on the player's board


@dataclass(frozen=True)
class Standing:
    place: int  # 1 is the winner; tied players share a place
    player: FinalPlayer
    tiebreak: tuple[int, ...]  # what broke ties on points, as compared
    # What put this player below the one above: "points", "tiebreak", or None (first, or
    # tied on everything and sharing the place).
    decided_by: str | None = None

    @property
    def eggs(self) -> int:
        return self.player.chicken // EGG_COST_STEPS


def tiebreak_key(player: FinalPlayer, rules: DulceRules = DEFAULT_RULES) -> tuple[int, ...]:
    """Tied players turn every 3 chicken steps into an egg; then eggs and field cubes count."""
    eggs = player.chicken // EGG_COST_STEPS
    if rules.tiebreak is Tiebreak.SUM:
        return (eggs + player.field_cubes,)
    return (eggs, player.field_cubes)


def rank(players: Sequence[FinalPlayer], rules: DulceRules = DEFAULT_RULES) -> list[Standing]:
    if not players:
        raise InputError("no players to rank")
    standings = ranked(players, key=lambda p: (p.points, *tiebreak_key(p, rules)))
    out: list[Standing] = []
    for place, p in standings:
        decided: str | None = None
        if out and out[-1].place != place:
            decided = "points" if out[-1].player.points != p.points else "tiebreak"
        out.append(Standing(place, p, tiebreak_key(p, rules), decided))
    return out


def solo_title(score: int) -> str:
    """The solo title for a final score (the rulebook's table, names only)."""
    title = SOLO_TITLES[0][1]
    for lowest, name in SOLO_TITLES:
        if score >= lowest:
            title = name
    return title
