"""What a finished game leaves behind, whichever front end finished it.

``Finished`` is a scored table as the command line prints it (the ``--json`` document,
its text lines and any rule problems); ``Outcome`` is that table as a play to keep (seats
with scores and places, the tiebreak in words). Both are plain values, so the engines
stay free of the store and the store free of the engines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

JsonDoc = dict[str, Any]


class Seat(NamedTuple):
    """One player's line of a finished game."""

    name: str
    score: float | None
    place: int | None
    winner: bool


@dataclass(frozen=True)
class Finished:
    """A finished game scored: the ``--json`` document, what the text output says, and the
    rule problems that keep it from being saved."""

    doc: JsonDoc
    lines: list[str]
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """A finished game as a play: the game's slug, its seats, how a tie was broken and the
    document it came from (kept with the play)."""

    game: str
    seats: list[Seat]
    tiebreak: str | None
    detail: JsonDoc


class FinishPad(Protocol):
    """A game's score from the state document its pad (or a state file) holds."""

    def __call__(self, state: Mapping[str, Any]) -> Finished: ...


class ToPlay(Protocol):
    """A game's ``--json`` document as a play; ``names`` replace the players' names in
    their order (Delicious names players after their photos)."""

    def __call__(self, doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome: ...
