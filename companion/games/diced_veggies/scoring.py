"""Final scoring: the stars of each cooked recipe plus the points of the hype played with it.

Recipe and hype card texts are not in the rulebook, so players enter what each card
scored. A hype's points may be entered as a list of parts (a hype that pays 3 twice is
``[3, 3]``); they are added. Highest total wins; a tie is a shared victory (no tiebreak).

State document (``companion dice score STATE.json``)::

    {"game": "diced-veggies",
     "kids": false,            # optional: the kids' game has no hype cards
     "recipes_to_end": 7,      # optional: 7, or 6/5 in the kids' game (default 6 there)
     "players": [{"name": "Ana",
                  "recipes": [{"name": "Paella", "stars": 9, "hype": 6},
                              {"name": "Pizza", "stars": 8},
                              {"name": "Fajitas", "stars": 7, "hype": [3, 3]}]}]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InputError
from companion.games.diced_veggies.constants import (
    HYPE_CARDS,
    KIDS_RECIPES_TO_END,
    MAX_CARD_POINTS,
    RECIPE_CARDS,
    RECIPES_TO_END,
)
from companion.games.diced_veggies.turn import GameOptions
from companion.games.problems import PlayerProblemCode, Problem
from companion.games.ranking import ranked
from companion.text import name_key

GAME_NAME = "diced-veggies"


@dataclass(frozen=True)
class CookedRecipe:
    stars: int
    hype: tuple[int, ...] = ()  # parts of the one hype played with it; empty if none
    name: str = ""
    hype_played: bool = False

    @property
    def points(self) -> int:
        return self.stars + sum(self.hype)


@dataclass(frozen=True)
class PlayerTally:
    name: str
    recipes: tuple[CookedRecipe, ...]

    @property
    def stars(self) -> int:
        return sum(r.stars for r in self.recipes)

    @property
    def hype_points(self) -> int:
        return sum(sum(r.hype) for r in self.recipes)

    @property
    def total(self) -> int:
        return self.stars + self.hype_points


class ScoreCode(PlayerProblemCode):
    """What a final tally can show to be wrong (scored all the same)."""

    HYPE_WITHOUT_CARDS = "hype-without-cards"
    GAME_NOT_OVER = "game-not-over"
    BOX_LIMIT = "box-limit"


@dataclass(frozen=True)
class FinalScore:
    players: tuple[PlayerTally, ...]
    ranking: tuple[tuple[int, PlayerTally], ...]  # (rank, player), ties share a rank
    violations: tuple[Problem, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.name for rank, p in self.ranking if rank == 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [
                {
                    "name": p.name,
                    "total": p.total,
                    "stars": p.stars,
                    "hypes": p.hype_points,
                    "recipes": [
                        {"name": r.name, "stars": r.stars, "hype": sum(r.hype)
                         if r.hype_played else None, "points": r.points}
                        for r in p.recipes
                    ],
                }
                for p in self.players
            ],
            "ranking": [{"rank": rank, "name": p.name, "total": p.total}
                        for rank, p in self.ranking],
            "winners": list(self.winners),
            "shared": len(self.winners) > 1,
            "violations": [v.to_json() for v in self.violations],
        }


def score(players: Sequence[PlayerTally], options: GameOptions | None = None) -> FinalScore:
    """Rank the players and list what the final state breaks (scored all the same)."""
    opts = options if options is not None else GameOptions()
    violations: list[Problem] = []
    if not opts.hype_cards:
        for p in players:
            if any(r.hype_played for r in p.recipes):
                violations.append(Problem(
                    ScoreCode.HYPE_WITHOUT_CARDS, (),
                    f"{p.name} scored a hype, but this game is played without hype cards",
                    p.name))
    if players and not any(len(p.recipes) >= opts.recipes_to_end for p in players):
        violations.append(Problem(
            ScoreCode.GAME_NOT_OVER, (),
            f"nobody has cooked {opts.recipes_to_end} recipes, so the game has not ended"))
    violations += _box_problems(players)
    ranking = tuple(ranked(players, key=lambda p: p.total))
    return FinalScore(tuple(players), ranking, tuple(violations))


def _box_problems(players: Sequence[PlayerTally]) -> list[Problem]:
    """What no table can show: more recipes or hypes than the box has, or a card worth
    more than any."""
    out = []
    for p in players:
        for r in p.recipes:
            if r.stars > MAX_CARD_POINTS or any(h > MAX_CARD_POINTS for h in r.hype):
                out.append(Problem(ScoreCode.BOX_LIMIT, (), f"{p.name} has a recipe worth "
                                   f"{r.points:,}; no card is worth more than "
                                   f"{MAX_CARD_POINTS}", p.name))
                break
    recipes = sum(len(p.recipes) for p in players)
    hypes = sum(r.hype_played for p in players for r in p.recipes)
    if recipes > RECIPE_CARDS:
        out.append(Problem(ScoreCode.BOX_LIMIT, (), f"{recipes} recipes cooked; the box has "
                                                    f"{RECIPE_CARDS} recipe cards"))
    if hypes > HYPE_CARDS:
        out.append(Problem(ScoreCode.BOX_LIMIT, (), f"{hypes} hypes played; the box has "
                                                    f"{HYPE_CARDS} hype cards"))
    return out


# ---- the state document ----------------------------------------------------------------


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(f"{where} must be a whole number 0 or more, not {value!r}")
    return value


def _recipe(doc: Any, where: str) -> CookedRecipe:
    if not isinstance(doc, Mapping):
        raise InputError(f"{where}: expected an object with \"stars\" (and \"hype\")")
    if "stars" not in doc:
        raise InputError(f"{where}: missing \"stars\"")
    stars = _int(doc["stars"], f"{where} stars")
    raw = doc.get("hype")
    if raw is None:
        parts: tuple[int, ...] = ()
    elif isinstance(raw, list):
        if not raw:
            raise InputError(f"{where} hype: an empty list; omit \"hype\" or give its points")
        parts = tuple(_int(v, f"{where} hype") for v in raw)
    else:
        parts = (_int(raw, f"{where} hype"),)
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise InputError(f"{where}: name must be text")
    return CookedRecipe(stars, parts, name, raw is not None)


def from_json(doc: Any) -> tuple[list[PlayerTally], GameOptions]:
    """Parse a state document (see the module docstring)."""
    if not isinstance(doc, Mapping):
        raise InputError("a score state must be a JSON object with a \"players\" list")
    game = doc.get("game", GAME_NAME)
    if game != GAME_NAME:
        raise InputError(f"this is a state for {game!r}, not {GAME_NAME!r}")
    kids = doc.get("kids", False)
    if not isinstance(kids, bool):
        raise InputError(f"\"kids\" must be true or false, not {kids!r}")
    default_end = KIDS_RECIPES_TO_END[0] if kids else RECIPES_TO_END
    end = _int(doc.get("recipes_to_end", default_end), "recipes_to_end")
    options = GameOptions.kids(end) if kids else GameOptions(recipes_to_end=end)
    raw_players = doc.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise InputError("a score state needs a non-empty \"players\" list")
    players: list[PlayerTally] = []
    seen: set[str] = set()  # names as the store tells players apart (name_key)
    for i, p in enumerate(raw_players):
        where = f"player #{i + 1}"
        if not isinstance(p, Mapping):
            raise InputError(f"{where}: expected an object with \"name\" and \"recipes\"")
        name = p.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{where}: needs a \"name\"")
        if name_key(name) in seen:
            raise InputError(f"two players are called {name.strip()!r}")
        seen.add(name_key(name))
        recipes = p.get("recipes", [])
        if not isinstance(recipes, list):
            raise InputError(f"{name}: \"recipes\" must be a list")
        players.append(PlayerTally(
            name, tuple(_recipe(r, f"{name} recipe #{j + 1}") for j, r in enumerate(recipes))))
    return players, options
