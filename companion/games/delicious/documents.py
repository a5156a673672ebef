"""The ``delicious read --json`` document, built once for every front end.

The command line and the web API print the same document for the same photos; both build
it here from the pairing and the table's result, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from companion.games.delicious.players import Pairing, PlayerReading, SheetLike
from companion.games.delicious.table import TableResult
from companion.games.delicious.verdicts import Verdict, photo_verdicts


class DocSheet(SheetLike, Protocol):
    """A photo's reading that can print its own per-photo document."""

    def to_json(self) -> dict[str, Any]: ...


D = TypeVar("D", bound=DocSheet)


def player_verdicts(p: PlayerReading[Any]) -> list[Verdict]:
    """Photo-wide reasons, per photo, over the player's readings after corrections."""
    readings = p.readings
    return [v for s in p.sheets
            for v in photo_verdicts(s.photo, {k: readings[k] for k in s.readings})]


def player_doc(p: PlayerReading[Any], name: str, table: TableResult, i: int) -> dict[str, Any]:
    """One whole player's document: the ``i``-th player of ``table``."""
    return {
        "photo": p.photos[0],
        "photos": p.photos,
        "sheet": "+".join(s.sheet for s in p.sheets),
        "variant": p.variant,
        "code": p.code,
        "player": name,
        "fields": p.fields,
        "confidence": p.confidence,
        "review": p.review,
        "questions": p.questions,
        "verdicts": [v.to_json() for v in player_verdicts(p)],
        "violations": [v.to_json() for v in table.violations[i]],
        "score": table.scores[i].to_json(),
        "seconds": round(p.seconds, 3),
        **({} if p.supply_checks is None
           else {"supply": [m.to_json() for m in p.supply_checks]}),
        **({"named_by_drawings": p.named_by_drawings}
           if any(getattr(s, "own_drawings", None) is not None for s in p.sheets) else {}),
        **({"key_plants": p.key_plants, "named_by_key": p.named_by_key}
           if p.key_plants else {}),
        **({"named_by_answers": answered} if (answered := p.named_by_answers) else {}),
    }


def unpaired_doc(p: PlayerReading[D], pairing: Pairing[D]) -> dict[str, Any]:
    """A sheet left out of the table: its photo's document and why it is not scored."""
    problem = pairing.problem_for(p)
    return {**p.sheets[0].to_json(), "questions": p.questions,
            "verdicts": [v.to_json() for v in player_verdicts(p)],
            "not_scored": problem.message if problem else ""}


def read_document(players: Sequence[PlayerReading[D]], names: Sequence[str],
                  table: TableResult, pairing: Pairing[D],
                  errors: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """The whole document: one player's alone when that is all there is, else the table."""
    problems = [pr.to_json() for pr in pairing.problems]
    docs = [player_doc(p, names[i], table, i) for i, p in enumerate(players)]
    if len(docs) == 1 and not pairing.unpaired and not errors:
        return {**docs[0], "pairing": problems, "errors": list(errors)}
    return {"players": docs, "ranking": [s.to_json() for s in table.standings],
            "unpaired": [unpaired_doc(p, pairing) for p in pairing.unpaired],
            "pairing": problems, "errors": list(errors)}
