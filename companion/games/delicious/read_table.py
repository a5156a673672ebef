"""A table's photographed sheets, with the corrections made by hand, to the ``delicious
read --json`` document: the one path the command line and the web app share.

The readers read one photo at a time (``companion.vision.sheet``); everything after that
(pairing garden and play sheets by their code, applying corrections, checking and
scoring the table, naming the players, building the document and saying what each
photo's overlay should show) needs no image library and happens here once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic

from companion.games.delicious.documents import D, player_verdicts, read_document
from companion.games.delicious.players import FieldLike, Pairing, PlayerReading, pair_sheets
from companion.games.delicious.supply import Supply
from companion.games.delicious.table import TableResult, assess

Fix = tuple[str, str | None]  # a field set by hand; None empties it


class SameName(StrEnum):
    """How players whose photos are named alike are told apart."""

    NUMBER = "number"  # player1, player2, ... (the command line)
    SUFFIX = "suffix"  # "image (1)", "image (2)" (phones name every photo alike)


@dataclass(frozen=True)
class TableSheet(Generic[D]):
    """One photo's reading in a table: the caller's key for it (an index, a stored
    reading's id), the corrections made on it, and its player's name when known."""

    key: int
    reading: D
    corrections: tuple[Fix, ...] = ()
    name: str | None = None


@dataclass(frozen=True)
class SheetMarks:
    """What one photo's overlay shows: rule problems, points, doubtful fields and notes."""

    violating: frozenset[str] = frozenset()
    container_points: Mapping[str, int] | None = None
    summary: Mapping[str, int] | None = None
    review: frozenset[str] = frozenset()
    readings: Mapping[str, FieldLike] | None = None
    notes: tuple[str, ...] = ()


def photo_stem(photo: str) -> str:
    """The photo's file name without its folder and extension (``Path.stem``)."""
    base = photo.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[:dot] if 0 < dot < len(base) - 1 else base


@dataclass(frozen=True)
class ReadTable(Generic[D]):
    """The table scored: whole players (corrected), the sheets that make each, their
    names, the checks and scores, and the document every front end prints."""

    pairing: Pairing[D]
    players: list[PlayerReading[D]]
    owners: list[tuple[TableSheet[D], ...]]
    names: list[str]
    result: TableResult
    document: dict[str, Any]
    unpaired: list[tuple[TableSheet[D], PlayerReading[D]]] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.result.legal

    def marks(self, key: int) -> tuple[TableSheet[D], SheetMarks]:
        """What the overlay of the sheet ``key`` shows; a sheet left unpaired says why it
        is not scored."""
        for i, p in enumerate(self.players):
            for sheet in self.owners[i]:
                if sheet.key == key:
                    score = self.result.scores[i]
                    return sheet, SheetMarks(
                        frozenset(f for v in self.result.violations[i] for f in v.fields),
                        score.containers, {"planter": score.planter, "total": score.total},
                        frozenset(p.review), p.readings, self._notes(p, sheet))
        for sheet, p in self.unpaired:
            if sheet.key == key:
                problem = self.pairing.problem_for(p)
                said = (f"NOT SCORED: {problem.message}",) if problem else ()
                return sheet, SheetMarks(review=frozenset(p.review), readings=p.readings,
                                         notes=said + self._notes(p, sheet))
        raise KeyError(key)

    @staticmethod
    def _notes(p: PlayerReading[D], sheet: TableSheet[D]) -> tuple[str, ...]:
        mine = set(sheet.reading.readings)
        return tuple(v.message for v in player_verdicts(p) if v.photo == sheet.reading.photo
                     ) + tuple(f"supply: {m.message}" for m in p.supply_checks or ()
                               if mine & set(m.fields))


@dataclass(frozen=True)
class PairedTable(Generic[D]):
    """The sheets paired into players, each player's own corrections applied; scored by
    ``score`` once the corrections made per player (``--set N:...``) are known."""

    sheets: tuple[TableSheet[D], ...]
    pairing: Pairing[D]
    owners: list[tuple[TableSheet[D], ...]]

    @property
    def players(self) -> list[PlayerReading[D]]:
        """The whole players with the corrections made on their sheets."""
        return [self._fixed(i) for i in range(len(self.owners))]

    def _fixed(self, i: int, more: Sequence[Fix] = ()) -> PlayerReading[D]:
        p = self.pairing.players[i]
        known = p.readings
        fixes = [c for s in self.owners[i] for c in s.corrections if c[0] in known]
        return p.corrected([*fixes, *more])

    def score(self, player_fixes: Mapping[int, Sequence[Fix]] | None = None,
              errors: Sequence[dict[str, str]] = (),
              same_name: SameName = SameName.NUMBER,
              supply: Supply | None = None) -> ReadTable[D]:
        """Check and score the table; ``errors`` are photos that could not be read. With
        the night's ``supply`` each player is also checked against it."""
        fixes = player_fixes or {}
        players = [self._fixed(i, fixes.get(i, ())) for i in range(len(self.owners))]
        if supply is not None:
            players = [p.checked(supply) for p in players]
        names = self._names(players, same_name)
        result = assess(players, names, self.pairing.unpaired)
        by_reading = {id(s.reading): s for s in self.sheets}
        unpaired = [(by_reading[id(p.sheets[0])], p) for p in self.pairing.unpaired]
        return ReadTable(self.pairing, players, self.owners, names, result,
                         read_document(players, names, result, self.pairing, errors), unpaired)

    def _names(self, players: Sequence[PlayerReading[D]], same_name: SameName) -> list[str]:
        names = [next((s.name for s in own if s.name), None) or photo_stem(p.photos[0])
                 for p, own in zip(players, self.owners, strict=True)]
        if len(set(names)) == len(names):
            return names
        if same_name is SameName.NUMBER:
            return [f"player{i + 1}" for i in range(len(names))]
        return [n if names.count(n) == 1 else f"{n} ({i + 1})" for i, n in enumerate(names)]


def pair_table(sheets: Sequence[TableSheet[D]]) -> PairedTable[D]:
    """Pair the table's sheets into players by their printed code."""
    by_reading = {id(s.reading): s for s in sheets}
    pairing = pair_sheets([s.reading for s in sheets])
    owners = [tuple(by_reading[id(r)] for r in p.sheets) for p in pairing.players]
    return PairedTable(tuple(sheets), pairing, owners)
