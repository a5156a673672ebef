"""What the store holds, as plain frozen values (rows turned into dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


@dataclass(frozen=True)
class Night:
    id: int
    name: str
    date: str  # ISO date
    location: str | None
    created_at: str


@dataclass(frozen=True)
class Player:
    id: int
    name: str


@dataclass(frozen=True)
class SeatInput:
    """One player's line of a play being saved; the name is matched without case."""

    name: str
    score: float | None = None
    place: int | None = None
    winner: bool = False


@dataclass(frozen=True)
class Seat:
    seat: int
    player: Player
    score: float | None
    place: int | None
    winner: bool


@dataclass(frozen=True)
class Play:
    id: int
    night_id: int | None
    game: str
    date: str
    seats: tuple[Seat, ...]
    tiebreak: str | None
    source: str
    detail: dict[str, Any] = field(hash=False, compare=False)
    duration_min: int | None = None
    created_at: str = ""

    @property
    def winners(self) -> list[str]:
        return [s.player.name for s in self.seats if s.winner]


@dataclass(frozen=True)
class Standing:
    """A player's evening so far: plays, wins and first places across every game."""

    player: Player
    plays: int
    wins: int


@dataclass(frozen=True)
class Scoring:
    """Photos of one table scored together (a Delicious round, a dice block check)."""

    id: int
    night_id: int | None
    game: str
    play_id: int | None
    created_at: str


@dataclass(frozen=True)
class Photo:
    id: int
    scoring_id: int | None
    role: str
    file: str  # server-chosen name under <data>/photos/
    media_type: str
    bytes: int
    width: int
    height: int
    sha256: str
    created_at: str


@dataclass(frozen=True)
class Reading:
    id: int
    photo_id: int
    kind: str
    player_id: int | None
    doc: dict[str, Any] = field(hash=False, compare=False)
    created_at: str = ""


@dataclass(frozen=True)
class Correction:
    id: int
    reading_id: int
    field: str
    value: str | None
    created_at: str
    undone_at: str | None = None


class NewPhoto(NamedTuple):
    """A photo to keep (``Store.add_photos``): checked bytes, their sniffed type, the
    upright size, its role in the scoring and the reading (kind, document) if any."""

    data: bytes
    media_type: str
    width: int
    height: int
    role: str = ""
    reading: tuple[str, dict[str, Any]] | None = None
