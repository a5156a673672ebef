"""A finished game's printed JSON (what each ``--json`` command prints) turned into the
seats and tiebreak words of a saved play, so ``--save`` stores exactly what was shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InputError
from companion.store.models import SeatInput


@dataclass(frozen=True)
class PlayResult:
    game: str
    seats: list[SeatInput]
    tiebreak: str | None
    detail: dict[str, Any]


DELICIOUS_TIES = {"planter": "tie on points, decided by the planter",
                  "first potter": "tie on points and planter, decided by First Potter checks",
                  "shared": "tied after both tiebreaks: shared"}


def delicious(doc: Mapping[str, Any], names: Sequence[str] = ()) -> PlayResult:
    """``delicious read --json``: one player's document, or players with their ranking.

    ``names`` (in the order of the players) replace the names taken from photo files.
    """
    if "players" in doc:
        ranking = list(doc["ranking"])
        order = [str(p["player"]) for p in doc["players"]]
    else:
        ranking = [{"player": doc["player"], "total": doc["score"]["total"], "place": 1,
                    "decided_by": "points"}]
        order = [str(doc["player"])]
    if names and len(names) != len(order):
        raise InputError(f"--player was given {len(names)} time(s) for {len(order)} player(s)")
    rename = dict(zip(order, names, strict=True)) if names else {}
    by_name = {str(r["player"]): r for r in ranking}
    seats = [SeatInput(rename.get(n, n), by_name[n]["total"], by_name[n]["place"],
                       by_name[n]["place"] == 1) for n in order]
    firsts = [r for r in ranking if r["place"] == 1]
    tie = DELICIOUS_TIES.get(str(firsts[0].get("decided_by"))) if len(ranking) > 1 else None
    return PlayResult("delicious", seats, tie, dict(doc))


def _tied_first(rows: Sequence[Mapping[str, Any]], key: str) -> bool:
    return len(rows) > 1 and rows[0][key] == rows[1][key]


def dulce(doc: Mapping[str, Any]) -> PlayResult:
    """``dulce final --json``."""
    rows = list(doc["standings"])
    winners = set(doc.get("winners") or [])
    seats = [SeatInput(str(r["name"]), r["points"], r["place"], r["name"] in winners)
             for r in rows]
    tie = None
    if _tied_first(rows, "points"):
        tie = ("tied on points, eggs and field cubes: shared" if len(winners) > 1
               else "tie on points, decided by eggs and field cubes")
    return PlayResult("dulce", seats, tie, dict(doc))


def wild_gardens(doc: Mapping[str, Any]) -> PlayResult:
    """``wild-gardens score --json``."""
    rows = list(doc["standings"])
    seats = [SeatInput(str(r["name"]), r["total"], r["place"], r["place"] == 1) for r in rows]
    tie = None
    if _tied_first(rows, "total"):
        by = rows[1].get("decided_by")
        tie = f"tie on VP, decided by {str(by).replace('_', ' ')}" if by else \
            "tied through every tiebreak: shared"
    return PlayResult("wild-gardens", seats, tie, dict(doc))


def deli_duel(doc: Mapping[str, Any]) -> PlayResult:
    """``deli-duel winner --json`` (a game without a winner yet is not a play)."""
    if not doc.get("winner"):
        raise InputError("no winner yet: save the play when someone has won")
    target = int(doc["orders_to_win"])
    done = {str(n): max(0, target - int(k)) for n, k in doc["needed"].items()}
    winner = str(doc["winner"])
    def place(n: str) -> int:
        return 1 if n == winner else 2 + sum(
            done[m] > done[n] for m in done if m != winner)
    seats = [SeatInput(n, float(done[n]), place(n), n == winner) for n in done]
    tie = "won at once with Fairy Bread" if doc.get("reason") == "fairy-bread" else None
    return PlayResult("deli-duel", seats, tie, dict(doc))


def diced_veggies(doc: Mapping[str, Any]) -> PlayResult:
    """``dice score --json``."""
    winners = set(doc.get("winners") or [])
    seats = [SeatInput(str(r["name"]), float(r["total"]), int(r["rank"]), r["name"] in winners)
             for r in doc["ranking"]]
    tie = "shared victory" if len(winners) > 1 else None
    return PlayResult("diced-veggies", seats, tie, dict(doc))
