"""Wild Gardens: final scoring and the full tiebreak chain (pure rules, no I/O)."""

from companion.games.wild_gardens.scoring import (
    TIEBREAKS,
    Breakdown,
    Player,
    Standing,
    StateCode,
    check,
    check_table,
    final_score,
    rank,
    rank_key,
)

__all__ = [
    "TIEBREAKS",
    "Breakdown",
    "Player",
    "Standing",
    "StateCode",
    "check",
    "check_table",
    "final_score",
    "rank",
    "rank_key",
]
