"""A read (or scored) Delicious table as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import IllegalMoveError, InputError
from companion.games.outcome import Outcome, Seat

TIES = {"planter": "tie on points, decided by the planter",
        "first potter": "tie on points and planter, decided by First Potter checks",
        "shared": "tied after both tiebreaks: shared"}


def play(doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome:
    """``delicious read --json`` (one player's document, or the table's) as a play.

    ``names`` (in the order of the players) replace the names taken from the photos. A
    table with a sheet left unpaired is refused: saved without that player it would name
    the wrong winner.
    """
    for problem in doc.get("pairing") or []:
        raise IllegalMoveError(f"not saved: {problem['message']}")
    if "players" in doc:
        ranking = list(doc["ranking"])
        order = [str(p["player"]) for p in doc["players"]]
    else:
        ranking = [{"player": doc["player"], "total": doc["score"]["total"], "place": 1,
                    "decided_by": "points"}]
        order = [str(doc["player"])]
    if not order:
        raise InputError("no whole player to save")
    if names and len(names) != len(order):
        raise InputError(f"--player was given {len(names)} time(s) for {len(order)} player(s)")
    rename = dict(zip(order, names, strict=True)) if names else {}
    by_name = {str(r["player"]): r for r in ranking}
    seats = [Seat(rename.get(n, n), by_name[n]["total"], by_name[n]["place"],
                  by_name[n]["place"] == 1) for n in order]
    firsts = [r for r in ranking if r["place"] == 1]
    tie = TIES.get(str(firsts[0].get("decided_by"))) if len(ranking) > 1 else None
    return Outcome("delicious", seats, tie, dict(doc))
