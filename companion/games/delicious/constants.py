"""Numbers and rule decisions of Delicious (docs/rules-readings.md), each named so a different
reading is a one-line change. Points are game points; counts are items."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.delicious.symbols import CHOICE_CIRCLES_PER_OPTION, PlantChoice

# Cards a Plant Choice lets a player use in one round.
CARDS_PER_CHOICE: dict[PlantChoice, int] = {
    PlantChoice.ONE_AS_IS: 1,
    PlantChoice.ONE_REVERSE: 1,
    PlantChoice.TWO_AS_IS: 2,
    PlantChoice.TWO_ANYWHERE: 2,
}
# 12 circles marked over a game -> 3 * (1 + 1 + 2 + 2) = 18 cards used.
CHOICE_MARKS_PER_GAME = CHOICE_CIRCLES_PER_OPTION * len(PlantChoice)
CARDS_USED_PER_GAME = CHOICE_CIRCLES_PER_OPTION * sum(CARDS_PER_CHOICE.values())

# Deck handling at setup: 30 cards, 6 set aside unseen, two face-down decks of 12.
DECK_SIZE_CARDS = 30
CARDS_SET_ASIDE = 6
DECKS = 2

# Planter lines: only lines holding at least this many fruits score.
MIN_SCORING_FRUITS = 3
# Distinct fruit types in a line -> points.
DISTINCT_FRUIT_POINTS: dict[int, int] = {3: 1, 4: 2, 5: 3}
# Longest unbroken run of one fruit in a line -> points.
FRUIT_RUN_POINTS: dict[int, int] = {3: 3, 4: 4, 5: 5}


@dataclass(frozen=True)
class Rules:
    """Readings of the rulebook where it can be read more than one way.

    The defaults are the decisions of docs/rules-readings.md; tests flip each one.
    """

    # A card's vegetable (fruit) may be lost only if it has no legal spot at all.
    must_place_vegetable: bool = True
    must_place_fruit: bool = True
    # A tool is optional: "may be used".
    must_use_tool: bool = False
    # The extra plant of a wild spot may not be sketched in a bonus spot.
    wild_extra_to_bonus: bool = False
    # A tool's vegetable keeps to the area the Plant Choice gives the card.
    tool_obeys_area: bool = True
    # Several players completing a container in one round all check First Potter.
    shared_first_potter: bool = True


DEFAULT_RULES = Rules()
