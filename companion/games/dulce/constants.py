"""Numbers of Dulce in one place (counts are plain integers; there are no physical units)."""

from __future__ import annotations

BOARD_SIZE = 4  # the player board's field grid is 4 x 4 squares
CARD_SIZE = 2  # a field card covers 2 x 2 squares
ROTATIONS_DEG = (0, 90, 180, 270)  # clockwise quarter turns of a field card

CUBES_PER_FIELD = 1  # a newly planted field gains one cube of its type
SAME_TYPE_BONUS_CUBES = 1  # ... plus one more over a field of the same type

EGG_COST_STEPS = 3  # chicken steps paid back for one egg
POINTS_PER_CAFE = 1  # each time a full café is scored
ROUNDS = 20
STARTING_CAFES = 4  # one per board corner, one space each
BUILT_CAFE_SPACES = 2

# Solo titles: (lowest score for the title, title). The highest matching row wins.
SOLO_TITLES: tuple[tuple[int, str], ...] = (
    (0, "Baking Beginner"),
    (35, "Kneading Novice"),
    (45, "Pastry Professional"),
    (55, "Macaron Master"),
)

# Board squares of the four starting cafés, as (row, col) with row 0 at the top.
CORNER_CELLS: dict[str, tuple[int, int]] = {
    "top-left": (0, 0),
    "top-right": (0, BOARD_SIZE - 1),
    "bottom-left": (BOARD_SIZE - 1, 0),
    "bottom-right": (BOARD_SIZE - 1, BOARD_SIZE - 1),
}

# Memoised scoring states one search may hold (about 150 bytes each) before it stops
# branching and reports its plan as not proven best.
SEARCH_BUDGET = 400_000
BOUND_CACHE = 500_000  # point bounds remembered per search (about 120 bytes each)
START_BUDGET = 120_000  # harvest placements (line, beans, eggs) searched before giving up
QUICK_PLAYS = 100  # quick lines of play (about 1-2 ms each) tried per harvest for a floor

# What the box holds: a state beyond these is readable but no game can reach it.
MIN_PLAYERS = 1  # solo is a mode of its own
MAX_PLAYERS = 4  # four player boards
DECK_CARDS = 24  # each player's deck is numbered 1-24
SUPPLY_PER_BEAN = 25  # cubes of each bean type in the box
SUPPLY_EGGS = 15
STARTING_CAFE_SPACES = 1
MAX_BUILT_CAFES = ROUNDS  # at most one café built per round
RETURNED_CARDS = 4  # the lead player returns four cards of the deck unseen at setup

# The most a finished game can show, from the rules. One action a round, so at most one
# planting: a card's four fields gain a cube each, one more over a field of that type.
MAX_CUBES_GAINED = ROUNDS * CARD_SIZE**2 * (CUBES_PER_FIELD + SAME_TYPE_BONUS_CUBES)
# A chicken step up is a discarded cube, and a cube is discarded once.
MAX_CHICKEN_STEPS = MAX_CUBES_GAINED
# A café scores 1 when full, and then each cube in it moves down a level (three rings at
# most) or is discarded, and each egg (three chicken steps) is used up: a point costs a
# cube's level or an egg.
MAX_POINTS = 3 * MAX_CUBES_GAINED + MAX_CHICKEN_STEPS // EGG_COST_STEPS
# A field square holds its planted cube and the same-type bonus; covered cubes go.
MAX_FIELD_CUBES = BOARD_SIZE**2 * (CUBES_PER_FIELD + SAME_TYPE_BONUS_CUBES)
