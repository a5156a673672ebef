"""A finished Dulce table: the final ranking from the players' points (what ``dulce
final`` prints and the web pad shows), and that ranking as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.dulce import parse, report
from companion.games.dulce.final import rank
from companion.games.dulce.limits import ImpossibleStateError, table_problems
from companion.games.dulce.model import DulceRules, Tiebreak
from companion.games.outcome import Finished, Outcome, Seat

SHARED = "tied on points, eggs and field cubes: shared"
DECIDED = "tie on points, decided by eggs and field cubes"


def finish(state: Mapping[str, Any], tiebreak: Tiebreak = Tiebreak.SUM) -> Finished:
    """The final standings; a table no game has (more than four players) is refused."""
    players = parse.final_players(dict(state))
    problems = table_problems(players)
    if problems:
        raise ImpossibleStateError(problems[0])
    standings = rank(players, DulceRules(tiebreak=tiebreak))
    return Finished(report.standings_json(standings, tiebreak),
                    report.standings_text(standings, tiebreak))


def play(doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome:
    """``dulce final --json`` as a play."""
    rows = list(doc["standings"])
    winners = set(doc.get("winners") or [])
    seats = [Seat(str(r["name"]), r["points"], r["place"], r["name"] in winners)
             for r in rows]
    tie = None
    if len(rows) > 1 and rows[0]["points"] == rows[1]["points"]:
        tie = SHARED if len(winners) > 1 else DECIDED
    return Outcome("dulce", seats, tie, dict(doc))
