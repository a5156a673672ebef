"""One player's paper as read from photos: a combo sheet, or a garden and a play sheet.

Readers (``companion.vision.sheet``) read one photo at a time; a player may have handed in
two. Pairing the photos, applying corrections made by hand and merging the fields are
table-level steps that need no image library, so they live here, typed by what they use
of a reading (the protocols below) rather than by the reader's classes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from companion.errors import InputError, UnknownNameError

GARDEN_SHEET = "delicious-garden"
PLAY_SHEET = "delicious-play"
COMBO_SHEET = "delicious-combo"
# Each half of a two-sheet player, and the half it waits for.
PARTNER_SHEET = {GARDEN_SHEET: PLAY_SHEET, PLAY_SHEET: GARDEN_SHEET}


class FieldLike(Protocol):
    """What the table needs of one field's reading."""

    @property
    def id(self) -> str: ...
    @property
    def value(self) -> str | None: ...
    @property
    def confidence(self) -> float: ...
    @property
    def review(self) -> bool: ...
    @property
    def note(self) -> str: ...

    def set_by_hand(self, value: str | None) -> FieldLike:
        """The same field holding ``value`` for certain."""
        ...


class SheetLike(Protocol):
    """What the table needs of one photo's reading."""

    @property
    def photo(self) -> str: ...
    @property
    def sheet(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    @property
    def readings(self) -> Mapping[str, FieldLike]: ...


S = TypeVar("S", bound=SheetLike)


def field_values(readings: Mapping[str, FieldLike]) -> dict[str, str]:
    """Non-empty readings, as a field map holds them."""
    return {k: r.value for k, r in sorted(readings.items()) if r.value is not None}


def field_confidences(readings: Mapping[str, FieldLike]) -> dict[str, float]:
    return {k: round(r.confidence, 4) for k, r in sorted(readings.items())}


def fields_to_review(readings: Mapping[str, FieldLike]) -> list[str]:
    """Fields not certain enough to trust, least certain first."""
    doubtful = [r for r in readings.values() if r.review]
    return [r.id for r in sorted(doubtful, key=lambda r: (r.confidence, r.id))]


class _HasReadings(Protocol):
    @property
    def readings(self) -> Mapping[str, FieldLike]: ...


class FieldSummary:
    """The views of a reading every caller wants, for anything that holds ``readings``
    (one photo's reading, or one player's)."""

    @property
    def fields(self: _HasReadings) -> dict[str, str]:
        """Non-empty readings, as a field map holds them."""
        return field_values(self.readings)

    @property
    def confidence(self: _HasReadings) -> dict[str, float]:
        return field_confidences(self.readings)

    @property
    def review(self: _HasReadings) -> list[str]:
        """Fields not certain enough to trust, least certain first."""
        return fields_to_review(self.readings)


@dataclass(frozen=True, eq=False)
class PlayerReading(FieldSummary, Generic[S]):
    """One player's paper: a combo photo, or a garden and a play photo sharing a code."""

    sheets: tuple[S, ...]
    corrections: tuple[tuple[str, str | None], ...] = ()

    @property
    def photos(self) -> list[str]:
        return [s.photo for s in self.sheets]

    @property
    def variant(self) -> str:
        return self.sheets[0].variant

    @property
    def code(self) -> str:
        return self.sheets[0].code

    @property
    def has_play(self) -> bool:
        """Whether the twelve Plant Choice marks were photographed (play or combo sheet)."""
        return any(s.sheet in (PLAY_SHEET, COMBO_SHEET) for s in self.sheets)

    @property
    def readings(self) -> dict[str, FieldLike]:
        merged: dict[str, FieldLike] = {}
        for s in self.sheets:
            merged.update(s.readings)
        for fid, value in self.corrections:
            merged[fid] = merged[fid].set_by_hand(value)
        return merged

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.sheets)

    def corrected(self, values: Sequence[tuple[str, str | None]]) -> PlayerReading[S]:
        """The same reading with fields set by hand (None empties a field)."""
        known = self.readings
        for fid, _ in values:
            if fid not in known:
                raise UnknownNameError(
                    f"--set: {fid!r} is not a field of {', '.join(self.photos)}"
                )
        return PlayerReading(self.sheets, (*self.corrections, *values))


def group_players(sheets: Sequence[S]) -> list[PlayerReading[S]]:
    """Pair garden and play photos that carry the same player code; the rest stand alone."""
    players: list[PlayerReading[S]] = []
    waiting: dict[tuple[str, str], int] = {}  # (code, sheet) -> index of a lone half
    for s in sheets:
        partner = PARTNER_SHEET.get(s.sheet)
        key = (s.code, partner) if partner and s.code else None
        if key is not None and key in waiting:
            k = waiting.pop(key)
            first = players[k].sheets[0]
            if first.variant != s.variant:
                raise InputError(
                    f"{first.photo} and {s.photo} share the player code {s.code} but show "
                    f"gardens {first.variant} and {s.variant}"
                )
            pair = (first, s) if first.sheet == GARDEN_SHEET else (s, first)
            players[k] = PlayerReading(pair)
            continue
        if partner and s.code:
            waiting[(s.code, s.sheet)] = len(players)
        players.append(PlayerReading((s,)))
    return players
