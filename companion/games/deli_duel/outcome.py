"""A finished Deli Duel game: who won (what ``deli-duel winner`` prints and the web pad
shows), and that win as a play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import InputError
from companion.games.deli_duel import parse, winner
from companion.games.outcome import Finished, Outcome, Seat

FAIRY_BREAD = "won at once with Fairy Bread"


def finish(state: Mapping[str, Any]) -> Finished:
    """The winner, if any, and the orders each player still needs; a table the game
    cannot reach is listed with its problems (they keep it from being saved)."""
    out = winner(parse.seats(dict(state)))
    doc = {
        "orders_to_win": out.target,
        "winner": out.winner,
        "reason": out.reason,
        "needed": {name: n for name, n in out.needed},
        "problems": list(out.problems),
    }
    lines = [f"Orders to win at this table: {out.target}." if out.target is not None
             else "This is not a Deli Duel table."]
    if out.problems:
        lines.append("No winner: this table cannot happen in a game.")
    elif out.winner:
        how = "the Fairy Bread combo" if out.reason == "fairy-bread" else f"{out.target} orders"
        lines.append(f"Winner: {out.winner} ({how}).")
    else:
        lines.append("No winner yet. Still needed: "
                     + ", ".join(f"{n} {k}" for n, k in out.needed) + ".")
    lines.extend(f"problem: {p}" for p in out.problems)
    return Finished(doc, lines, list(out.problems))


def play(doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome:
    """``deli-duel winner --json`` as a play: the winner first, the others placed by the
    orders they completed (a game without a winner yet is not a play)."""
    if not doc.get("winner"):
        raise InputError("no winner yet: save the play when someone has won")
    target = int(doc["orders_to_win"])
    done = {str(n): max(0, target - int(k)) for n, k in doc["needed"].items()}
    won = str(doc["winner"])

    def place(n: str) -> int:
        return 1 if n == won else 2 + sum(done[m] > done[n] for m in done if m != won)

    seats = [Seat(n, float(done[n]), place(n), n == won) for n in done]
    tie = FAIRY_BREAD if doc.get("reason") == "fairy-bread" else None
    return Outcome("deli-duel", seats, tie, dict(doc))
