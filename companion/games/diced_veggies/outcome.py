"""A finished Diced Veggies game: final scores from recipe stars and hype (what ``dice
score`` prints and the web pad shows), and that ranking as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.diced_veggies.scoring import from_json, score
from companion.games.outcome import Finished, Outcome, Seat


def finish(state: Mapping[str, Any]) -> Finished:
    """The final scores; a state that breaks a rule is scored all the same, its problems
    listed (they keep it from being saved)."""
    players, options = from_json(dict(state))
    result = score(players, options)
    lines = [f"{rank}. {p.name}: {p.total} ({p.stars} stars + {p.hype_points} hype, "
             f"{len(p.recipes)} recipes)" for rank, p in result.ranking]
    winners = result.winners
    verb = "share the victory" if len(winners) > 1 else "wins"
    lines.append(f"{' and '.join(winners)} {verb}.")
    lines += [f"  - {v.message}" for v in result.violations]
    return Finished(result.to_json(), lines, [v.message for v in result.violations])


def play(doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome:
    """``dice score --json`` as a play."""
    winners = set(doc.get("winners") or [])
    seats = [Seat(str(r["name"]), float(r["total"]), int(r["rank"]), r["name"] in winners)
             for r in doc["ranking"]]
    return Outcome("diced-veggies", seats, "shared victory" if len(winners) > 1 else None,
                   dict(doc))
