"""Turn rules around the cut: restocking, the Chef token, end-of-turn limits, the end of
the game. Data plus pure functions; nothing here mutates its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from companion.errors import IllegalMoveError, InputError
from companion.games.diced_veggies.constants import (
    FACES,
    KIDS_RECIPES_TO_END,
    MAX_KEPT_DICE,
    MAX_KEPT_HYPES,
    MAX_KEPT_RECIPES,
    RECIPES_TO_END,
    TOTAL_DICE,
)
from companion.games.diced_veggies.cutting import CutOptions
from companion.games.diced_veggies.model import Block, Die, Ingredient


@dataclass(frozen=True)
class GameOptions:
    """A game's rule set. ``kids()`` gives the rulebook's simplifications together."""

    recipes_to_end: int = RECIPES_TO_END
    hype_cards: bool = True
    chef_tokens: bool = True
    cut: CutOptions = field(default_factory=CutOptions)

    def __post_init__(self) -> None:
        if self.recipes_to_end < 1:
            raise InputError(
                f"recipes to end the game must be 1 or more, not {self.recipes_to_end}"
            )

    @classmethod
    def kids(cls, recipes_to_end: int = KIDS_RECIPES_TO_END[0]) -> GameOptions:
        """No hypes, no Chef tokens, three dice instead of ten pips, a shorter game."""
        allowed = (*KIDS_RECIPES_TO_END, RECIPES_TO_END)
        if recipes_to_end not in allowed:
            raise InputError(
                f"the kids' game ends at {', '.join(map(str, allowed))} recipes, "
                f"not {recipes_to_end}"
            )
        return cls(recipes_to_end, hype_cards=False, chef_tokens=False, cut=CutOptions(kids=True))


# ---- restocking ------------------------------------------------------------------------


class Restock(StrEnum):
    REQUIRED = "required"  # the block is empty
    ALLOWED = "allowed"  # at least one ingredient is missing from the block
    NOT_ALLOWED = "not-allowed"


def restock_status(block: Block) -> Restock:
    """Whether the player starting a turn must, may or may not restock."""
    if not block.dice:
        return Restock.REQUIRED
    return Restock.ALLOWED if block.missing_ingredients() else Restock.NOT_ALLOWED


@dataclass(frozen=True)
class Player:
    """What one player holds between turns. ``cooked`` counts finished recipes."""

    name: str
    dice: tuple[Die, ...] = ()
    recipes_in_hand: int = 0
    hypes_in_hand: int = 0
    cooked: int = 0
    chef_token: bool = True


def restock(block: Block, players: Sequence[Player]) -> tuple[int, tuple[Player, ...]]:
    """Restock at the start of a turn: every die not held by a player (spent ones and the
    old block) is rolled into a new block, and every spent Chef token comes back.
    Returns how many dice the new block gets, and the players with their tokens."""
    if restock_status(block) is Restock.NOT_ALLOWED:
        raise IllegalMoveError(
            "restocking is allowed only when an ingredient is missing from the block"
        )
    held = sum(len(p.dice) for p in players)
    if held > TOTAL_DICE:
        raise InputError(f"players hold {held} dice, but the game has {TOTAL_DICE}")
    return TOTAL_DICE - held, tuple(replace(p, chef_token=True) for p in players)


# ---- Chef token ------------------------------------------------------------------------


def use_chef_token(
    player: Player,
    die_index: int,
    *,
    ingredient: Ingredient | None = None,
    value: int | None = None,
    options: GameOptions | None = None,
) -> Player:
    """Spend the Chef token to change either the type or the number of one held die."""
    opts = options if options is not None else GameOptions()
    if not opts.chef_tokens:
        raise IllegalMoveError("this game is played without Chef tokens")
    if not player.chef_token:
        raise IllegalMoveError(f"{player.name} has already spent the Chef token")
    if (ingredient is None) == (value is None):
        raise IllegalMoveError("the Chef token changes either the type or the number, not both")
    if not 0 <= die_index < len(player.dice):
        raise InputError(f"{player.name} holds no die #{die_index}")
    die = player.dice[die_index]
    if value is not None and value not in FACES:
        raise IllegalMoveError(f"{value} is not a face of the dice ({sorted(set(FACES))})")
    new = Die(
        die.row,
        die.col,
        ingredient if ingredient is not None else die.ingredient,
        value if value is not None else die.value,
    )
    dice = player.dice[:die_index] + (new,) + player.dice[die_index + 1 :]
    return replace(player, dice=dice, chef_token=False)


# ---- end of a turn and of the game -----------------------------------------------------


@dataclass(frozen=True)
class TurnLimits:
    dice: int = MAX_KEPT_DICE
    recipes: int = MAX_KEPT_RECIPES  # uncooked recipe cards in hand
    hypes: int = MAX_KEPT_HYPES  # hype cards in hand


def discards_needed(player: Player, limits: TurnLimits | None = None) -> dict[str, int]:
    """How many of each thing the player must discard before passing the cleaver."""
    lim = limits if limits is not None else TurnLimits()
    over = {
        "dice": len(player.dice) - lim.dice,
        "recipes": player.recipes_in_hand - lim.recipes,
        "hypes": player.hypes_in_hand - lim.hypes,
    }
    return {k: v for k, v in over.items() if v > 0}


def end_of_turn_problems(player: Player, limits: TurnLimits | None = None) -> list[str]:
    lim = limits if limits is not None else TurnLimits()
    caps = {"dice": lim.dice, "recipes": lim.recipes, "hypes": lim.hypes}
    return [
        f"{player.name} keeps {caps[k] + n} {k}; the limit is {caps[k]}, discard {n}"
        for k, n in discards_needed(player, lim).items()
    ]


def end_triggered(players: Sequence[Player], options: GameOptions | None = None) -> bool:
    opts = options if options is not None else GameOptions()
    return any(p.cooked >= opts.recipes_to_end for p in players)


def final_turns(n_players: int, trigger: int) -> tuple[int, ...]:
    """After player ``trigger`` cooks the deciding recipe and finishes that turn, each
    other player, clockwise, gets one more turn (then everyone gets a last cook)."""
    if not 0 <= trigger < n_players:
        raise InputError(f"no player #{trigger} among {n_players}")
    return tuple((trigger + k) % n_players for k in range(1, n_players))
