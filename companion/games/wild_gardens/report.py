"""Wild Gardens standings as a JSON-ready dict and as short text."""

from __future__ import annotations

from typing import Any

from companion.games.problems import Problem
from companion.games.wild_gardens.scoring import Standing

LABELS = {
    "guests": "served guests",
    "cooked_recipes": "cooked recipes",
    "ingredients": "ingredients",
    "jar": "jar position",
    "skill_tokens": "skill tokens",
    "reserved_recipes": "reserved recipes",
}


def standings_json(standings: list[Standing], violations: list[Problem]) -> dict[str, Any]:
    return {
        "standings": [
            {
                "place": s.place,
                "name": s.player.name,
                "total": s.score.total,
                "breakdown": {
                    "pollinator": s.score.pollinator,
                    "jar": s.score.jar,
                    "guests": s.score.guests,
                    "ingredients": s.score.ingredients,
                },
                "tiebreak": {
                    "guests": s.player.guests,
                    "cooked_recipes": s.player.cooked_recipes,
                    "ingredients": s.player.ingredients,
                    "jar": s.player.jar_vp,
                    "skill_tokens": s.player.skill_tokens,
                    "reserved_recipes": s.player.reserved_recipes,
                },
                "decided_by": s.decided_by,
            }
            for s in standings
        ],
        "winners": [s.player.name for s in standings if s.place == 1],
        "violations": [
            v.to_json() for v in violations
        ],
    }


def standings_text(standings: list[Standing], violations: list[Problem]) -> list[str]:
    lines = []
    for i, s in enumerate(standings):
        b = s.score
        note = ""
        if s.decided_by not in (None, "total"):
            above = standings[i - 1].player.name
            note = f" [tied on VP with {above}, who is ahead on {LABELS[s.decided_by]}]"
        elif i and s.decided_by is None:
            note = " [tied on every tiebreak: shared]"
        lines.append(
            f"{s.place}. {s.player.name}: {b.total} VP (pollinator {b.pollinator} + jar {b.jar}"
            f" + guests {b.guests} + ingredients {b.ingredients}){note}"
        )
    lines.extend(f"problem ({v.player}): {v.message}" for v in violations)
    return lines
