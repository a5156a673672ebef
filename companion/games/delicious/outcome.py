"""A read (or scored) Delicious table as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import IllegalMoveError, InputError
from companion.games.outcome import Outcome, Seat
from companion.text import MAX_NAME_CHARS

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
    seated = _fit(order) if not rename else [rename[n] for n in order]
    seats = [Seat(s, by_name[n]["total"], by_name[n]["place"], by_name[n]["place"] == 1)
             for s, n in zip(seated, order, strict=True)]
    firsts = [r for r in ranking if r["place"] == 1]
    tie = TIES.get(str(firsts[0].get("decided_by"))) if len(ranking) > 1 else None
    return Outcome("delicious", seats, tie, dict(doc))


def _fit(names: Sequence[str]) -> list[str]:
    """Names taken from photos, each cut to the store's MAX_NAME_CHARS (a long file name
    does not stop the table being saved) and kept apart from the others (two long names
    alike up to the cut get their number, as alike names do)."""
    cut = [n if len(n) <= MAX_NAME_CHARS else n[:MAX_NAME_CHARS - 1] + "…" for n in names]
    return [n if cut.count(n) == 1 else f"{n[:MAX_NAME_CHARS - 6]}… ({i + 1})"
            for i, n in enumerate(cut)]
