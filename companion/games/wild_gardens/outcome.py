"""A finished Wild Gardens table: scores and the tiebreak chain (what ``wild-gardens
score`` prints and the web pad shows), and that ranking as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.outcome import Finished, Outcome, Seat
from companion.games.wild_gardens import check, check_table, rank
from companion.games.wild_gardens.parse import players
from companion.games.wild_gardens.report import standings_json, standings_text

SHARED = "tied through every tiebreak: shared"


def finish(state: Mapping[str, Any]) -> Finished:
    """The standings; a state the box cannot show is scored all the same, its problems
    listed (they keep it from being saved)."""
    ps = players(dict(state))
    standings = rank(ps)
    violations = check_table(ps) + [v for p in ps for v in check(p)]
    return Finished(standings_json(standings, violations), standings_text(standings, violations),
                    [v.message for v in violations])


def play(doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome:
    """``wild-gardens score --json`` as a play."""
    rows = list(doc["standings"])
    seats = [Seat(str(r["name"]), r["total"], r["place"], r["place"] == 1) for r in rows]
    tie = None
    if len(rows) > 1 and rows[0]["total"] == rows[1]["total"]:
        by = rows[1].get("decided_by")
        tie = f"tie on VP, decided by {str(by).replace('_', ' ')}" if by else SHARED
    return Outcome("wild-gardens", seats, tie, dict(doc))
