"""Every number of Diced Veggies in one place (docs/rules-readings.md "Diced Veggies")."""

from __future__ import annotations

# Pip faces printed on every die (no 1s). Photos may still read 1-6; off-set faces are flagged.
FACES: tuple[int, ...] = (2, 2, 3, 4, 5, 6)
MIN_PIPS = 1  # pips, smallest count a six-sided die can show
MAX_PIPS = 6  # pips
DICE_PER_INGREDIENT = 7  # dice
TOTAL_DICE = 35  # dice in the box: five ingredients x 7
# A block file holding more dice than this is no game's: far past the box (and a reading
# of two boxes at once), short of the minutes a cut search over 100,000 dice would take.
MAX_BLOCK_DICE = 1000

# Cutting.
PIP_LIMIT = 10  # pips: the pushed dice may total at most this; a block this small is taken whole
KIDS_DIE_LIMIT = 3  # dice: the kids' variant replaces the pip limit with a count of dice

# End of a turn: what a player may keep.
MAX_KEPT_DICE = 8  # dice
MAX_KEPT_RECIPES = 2  # recipe cards in hand (cooked recipes do not count)
MAX_KEPT_HYPES = 2  # hype cards in hand

# End of the game: cooking this many recipes triggers the last round.
RECIPES_TO_END = 7  # recipes
KIDS_RECIPES_TO_END: tuple[int, ...] = (6, 5)  # recipes, the kids' shorter games

# What the box holds: no table cooks more recipes or plays more hypes.
RECIPE_CARDS = 44
HYPE_CARDS = 34
# The rules print no card's stars or hype points; the examples run to single digits, and
# this ceiling only stops a typo (an extra digit or ten) from becoming a play.
MAX_CARD_POINTS = 99
