"""A finished Dulce table: the final ranking from the players' points (what ``dulce
final`` prints and the web pad shows), and that ranking as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from companion.games.dulce import parse, report
from companion.games.dulce.final import rank
from companion.games.dulce.harvest import best_harvest
from companion.games.dulce.limits import ImpossibleStateError, check_state, table_problems
from companion.games.dulce.model import DulceRules, Tiebreak
from companion.games.dulce.scoring import Kitchen, best_scoring
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


class Advice(StrEnum):
    """The advice a player state can ask for (the ``dulce`` command of that name)."""

    SCORE_ORDER = "score-order"
    BEST_HARVEST = "best-harvest"


def advise(kind: Advice, state: Mapping[str, Any]) -> Finished:
    """The best scoring order (after a harvest) or the best harvest for one player's
    state, refused (exit 1) when no game can reach the state."""
    st = parse.player_state(dict(state), needs=parse.NEEDS[kind.value])
    check_state(st)
    if kind is Advice.SCORE_ORDER:
        kitchen = Kitchen.of(st.cafes)
        plan = best_scoring(kitchen, kitchen.fill_of(st.cafes))
        return Finished(report.scoring_json(plan), report.scoring_text(plan))
    advice = best_harvest(st)
    return Finished(report.harvest_json(advice), report.harvest_text(advice))
