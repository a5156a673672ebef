"""End of game: ranking with the egg-and-field tiebreak, and the solo title table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import InputError
from companion.games.dulce.constants import EGG_COST_STEPS, SOLO_TITLES
from companion.games.dulce.model import DEFAULT_RULES, DulceRules, Tiebreak


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
    keyed = sorted(
        (((p.points, *tiebreak_key(p, rules)), p) for p in players),
        key=lambda kp: kp[0],
        reverse=True,
    )  # stable: fully tied players keep the order they were entered in
    out: list[Standing] = []
    for i, (key, p) in enumerate(keyed):
        tied = out and (out[-1].player.points, *out[-1].tiebreak) == key
        place = out[-1].place if tied else i + 1
        out.append(Standing(place, p, key[1:]))
    return out


def solo_title(score: int) -> str:
    """The solo title for a final score (the rulebook's table, names only)."""
    title = SOLO_TITLES[0][1]
    for lowest, name in SOLO_TITLES:
        if score >= lowest:
            title = name
    return title
