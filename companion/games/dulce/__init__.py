"""Dulce: plant validation, the best scoring order, the best harvest and final scoring.

Pure rules (no I/O). Card and café contents are whatever the user enters; the rulebook
does not list them.
"""

from companion.games.dulce.final import FinalPlayer, Standing, rank, solo_title
from companion.games.dulce.harvest import ALL_LINES, HarvestAdvice, HarvestPlan, Line, best_harvest
from companion.games.dulce.model import (
    DEFAULT_RULES,
    Bean,
    Cafe,
    Cell,
    Content,
    DulceRules,
    Level,
    PlayerState,
    Space,
    Tiebreak,
)
from companion.games.dulce.planting import PlantResult, plant, plant_card, rotate
from companion.games.dulce.scoring import (
    Kitchen,
    ScoreStep,
    ScoringPlan,
    best_scoring,
    legal_steps,
    replay,
)

__all__ = [
    "ALL_LINES",
    "DEFAULT_RULES",
    "Bean",
    "Cafe",
    "Cell",
    "Content",
    "DulceRules",
    "FinalPlayer",
    "HarvestAdvice",
    "HarvestPlan",
    "Kitchen",
    "Level",
    "Line",
    "PlantResult",
    "PlayerState",
    "ScoreStep",
    "ScoringPlan",
    "Space",
    "Standing",
    "Tiebreak",
    "best_harvest",
    "best_scoring",
    "legal_steps",
    "plant",
    "plant_card",
    "rank",
    "replay",
    "rotate",
    "solo_title",
]
