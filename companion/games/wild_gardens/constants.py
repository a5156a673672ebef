"""Numbers of Wild Gardens' final scoring (all in victory points or token counts)."""

from __future__ import annotations

POLLINATOR_LAST_SPACE = 59  # highest printed space the pollinator can stand on
JAR_LAST_SPACE = 54  # highest jar space on the track
WRAP_VP = 60  # a flipped token (it went past the end) is worth this much more
INGREDIENTS_PER_VP = 4  # 1 VP for every 4 ingredient tokens in the play area
MAX_RESERVED_CARDS = 3  # recipes and guests together
SKILL_SLOTS = 9  # 3 sections x 3 slots on the player board
MIN_PLAYERS = 1  # solo scenarios
MAX_PLAYERS = 4  # four player boards and jars in the box
GUEST_CARDS = 48  # in the box: no player serves more
RECIPE_CARDS = 48  # in the box: no player has cooked more in the play area
# The rules print no limit on ingredients left (multiplier tokens stand in when the 160
# run out), on guests' game-end VP or on wraps; a game of 30 turns comes nowhere near
# this ceiling, which stops a typo (an extra digit or ten) from becoming a play.
MAX_UNPRINTED_COUNT = 999
