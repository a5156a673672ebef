"""Final scoring and the six-step tiebreak chain of Wild Gardens.

Only what sits in the play area counts: reserved guests add neither VP nor jar icons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import InputError
from companion.games.problems import PlayerProblemCode, Problem
from companion.games.ranking import ranked
from companion.games.wild_gardens.constants import (
    GUEST_CARDS,
    INGREDIENTS_PER_VP,
    JAR_LAST_SPACE,
    MAX_PLAYERS,
    MAX_RESERVED_CARDS,
    MAX_UNPRINTED_COUNT,
    MIN_PLAYERS,
    POLLINATOR_LAST_SPACE,
    RECIPE_CARDS,
    SKILL_SLOTS,
    WRAP_VP,
)
from companion.text import name_key

# The tiebreak chain after total VP, in rulebook order; names are used in reports.
TIEBREAKS = (
    "guests",
    "cooked_recipes",
    "ingredients",
    "jar",
    "skill_tokens",
    "reserved_recipes",
)


@dataclass(frozen=True)
class Player:
    name: str
    pollinator: int  # space on the VP track
    jar: int
    pollinator_wraps: int = 0  # times the token went past the end and was flipped
    jar_wraps: int = 0
    guests: int = 0  # served guests in the play area
    guest_vp: int = 0  # VP from their "At Game End" abilities, as the players worked it out
    cooked_recipes: int = 0
    ingredients: int = 0
    skill_tokens: int = 0
    reserved_recipes: int = 0
    reserved_guests: int = 0

    @property
    def pollinator_vp(self) -> int:
        return self.pollinator + WRAP_VP * self.pollinator_wraps

    @property
    def jar_vp(self) -> int:
        return self.jar + WRAP_VP * self.jar_wraps


@dataclass(frozen=True)
class Breakdown:
    pollinator: int
    jar: int
    guests: int
    ingredients: int

    @property
    def total(self) -> int:
        return self.pollinator + self.jar + self.guests + self.ingredients


class StateCode(PlayerProblemCode):
    """What a finished player state cannot show (scored all the same)."""

    POLLINATOR_RANGE = "pollinator-range"
    JAR_RANGE = "jar-range"
    RESERVE_LIMIT = "reserve-limit"
    SKILL_SLOTS = "skill-slots"
    PLAYER_COUNT = "player-count"
    BOX_LIMIT = "box-limit"


@dataclass(frozen=True)
class Standing:
    place: int  # tied players (equal on every step of the chain) share a place
    player: Player
    score: Breakdown
    key: tuple[int, ...]  # total, then the tiebreak chain
    decided_by: str | None  # what separated this player from the one above ("total", ...)


def final_score(p: Player) -> Breakdown:
    return Breakdown(
        pollinator=p.pollinator_vp,
        jar=p.jar_vp,
        guests=p.guest_vp,
        ingredients=p.ingredients // INGREDIENTS_PER_VP,
    )


def rank_key(p: Player) -> tuple[int, ...]:
    """Total VP, then guests, cooked recipes, ingredients, jar, skills, reserved recipes.

    The jar step compares jar positions including wraps, like the score itself.
    """
    return (
        final_score(p).total,
        p.guests,
        p.cooked_recipes,
        p.ingredients,
        p.jar_vp,
        p.skill_tokens,
        p.reserved_recipes,
    )


def check(p: Player) -> list[Problem]:
    """What a finished player state cannot show; scoring still goes ahead."""
    found: list[tuple[StateCode, str]] = []
    if p.pollinator > POLLINATOR_LAST_SPACE:
        found.append((StateCode.POLLINATOR_RANGE,
                      f"the pollinator track ends at {POLLINATOR_LAST_SPACE}; "
                      "past it the token flips: count a wrap instead"))
    if p.jar > JAR_LAST_SPACE:
        found.append((StateCode.JAR_RANGE,
                      f"the jar track ends at {JAR_LAST_SPACE}; count a wrap instead"))
    if p.reserved_recipes + p.reserved_guests > MAX_RESERVED_CARDS:
        found.append((StateCode.RESERVE_LIMIT,
                      f"at most {MAX_RESERVED_CARDS} reserved cards at a time"))
    if p.skill_tokens > SKILL_SLOTS:
        found.append((StateCode.SKILL_SLOTS,
                      f"a player board has only {SKILL_SLOTS} skill token slots"))
    if p.guests > GUEST_CARDS:
        found.append((StateCode.BOX_LIMIT, f"the box has {GUEST_CARDS} guest cards, not "
                                           f"{p.guests} to serve"))
    if p.cooked_recipes > RECIPE_CARDS:
        found.append((StateCode.BOX_LIMIT, f"the box has {RECIPE_CARDS} recipe cards, not "
                                           f"{p.cooked_recipes} to cook"))
    for what, value in (("ingredients left", p.ingredients), ("guest game-end VP", p.guest_vp),
                        ("pollinator wraps", p.pollinator_wraps), ("jar wraps", p.jar_wraps)):
        if value > MAX_UNPRINTED_COUNT:
            found.append((StateCode.BOX_LIMIT, f"{value:,} {what} is past any game "
                                               f"(at most {MAX_UNPRINTED_COUNT})"))
    return [Problem(code, (), message, p.name) for code, message in found]


TABLE = "table"  # the ``player`` of a violation about the whole table


def check_table(players: Sequence[Player]) -> list[Problem]:
    """What the table as a whole cannot show: the box has four player boards."""
    if MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return []
    return [
        Problem(
            StateCode.PLAYER_COUNT,
            (),
            f"Wild Gardens is for {MIN_PLAYERS}-{MAX_PLAYERS} players (one board each); "
            f"this table has {len(players)}",
            TABLE,
        )
    ]


def rank(players: Sequence[Player]) -> list[Standing]:
    """Order for any number of players; the chain applies among tied players only."""
    if not players:
        raise InputError("no players to rank")
    seen: set[str] = set()
    for p in players:
        if name_key(p.name) in seen:
            raise InputError(f"two players share the name {p.name.strip()!r}")
        seen.add(name_key(p.name))
    out: list[Standing] = []
    for place, p in ranked(players, rank_key):
        key = rank_key(p)
        decided: str | None = None
        if out and out[-1].key != key:
            above = out[-1].key
            step = next(k for k in range(len(key)) if key[k] != above[k])
            decided = ("total", *TIEBREAKS)[step]
        out.append(Standing(place, p, final_score(p), key, decided))
    return out
