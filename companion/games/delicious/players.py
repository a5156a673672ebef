"""One player's paper as read from photos: a combo sheet, or a garden and a play sheet.

Readers (``companion.vision.sheet``) read one photo at a time; a player may have handed in
two. Pairing the photos, applying corrections made by hand and merging the fields are
table-level steps that need no image library, so they live here, typed by what they use
of a reading (the protocols below) rather than by the reader's classes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from companion.errors import InputError, UnknownNameError
from companion.games.delicious.supply import Supply
from companion.games.delicious.supply_check import SupplyMismatch, check_against_supply

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


class GroupLike(Protocol):
    """A group of one player's alike drawings, read as one (the reader's)."""

    @property
    def id(self) -> str: ...
    @property
    def fields(self) -> tuple[str, ...]: ...
    @property
    def guess(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def trusted(self) -> bool: ...
    @property
    def choices(self) -> tuple[str, ...]: ...
    @property
    def what(self) -> str: ...  # what its cells hold: "drawing" or "letter"


# Where a group of drawings was named from (GroupLike ``own``): the key of the player's
# sheet (layout version 2), their drawings of an earlier sheet (``read --drawings``), or
# their answers about their other drawings.
OWN_KEY = "key"
OWN_EARLIER = "earlier"
# A group trusted once the plants the player named for their other drawings were ruled out.
OWN_ANSWERS = "answers"


@runtime_checkable
class GroupsDrawings(Protocol):
    """A sheet reading whose reader names a player's alike drawings together."""

    def group_drawings(self, readings: Mapping[str, Any], keys: Sequence[Any] = (),
                       named: Mapping[str, str] | None = None
                       ) -> tuple[dict[str, Any], tuple[Any, ...]]: ...


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


@dataclass(frozen=True)
class DoubtedField:
    """A field the supply check doubts: in review, whatever the reader's confidence; its
    value is untouched (a doubt is a question, never a silent change)."""

    inner: FieldLike
    why: str

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def value(self) -> str | None:
        return self.inner.value

    @property
    def confidence(self) -> float:
        return self.inner.confidence

    @property
    def review(self) -> bool:
        return True

    @property
    def note(self) -> str:
        # a reader's own doubt keeps its note (photo-wide verdicts are built from it)
        return self.inner.note if self.inner.review and self.inner.note else self.why

    def set_by_hand(self, value: str | None) -> FieldLike:
        return self.inner.set_by_hand(value)


@dataclass(frozen=True, eq=False)
class PlayerReading(FieldSummary, Generic[S]):
    """One player's paper: a combo photo, or a garden and a play photo sharing a code."""

    sheets: tuple[S, ...]
    corrections: tuple[tuple[str, str | None], ...] = ()
    # What the night's supply cannot explain (None: not checked against a supply).
    supply_checks: tuple[SupplyMismatch, ...] | None = None

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

    @cached_property
    def _grouped(self) -> tuple[dict[str, FieldLike], tuple[GroupLike, ...]]:
        """The sheets' readings merged, drawings named by their groups (garden and play
        sheets together), and the groups; the plants set by hand are given too, since a
        plant the player named for some drawings is unlikely for their others."""
        merged: dict[str, FieldLike] = {}
        for s in self.sheets:
            merged.update(s.readings)
        first = self.sheets[0] if self.sheets else None
        if isinstance(first, GroupsDrawings):
            named = {fid: v for fid, v in self.corrections if v is not None}
            return first.group_drawings(
                merged, [getattr(s, "key_drawings", None) for s in self.sheets], named)
        return merged, ()

    @property
    def grouped_readings(self) -> dict[str, FieldLike]:
        """The sheets' readings merged and named by their groups (the plants set by hand
        ruled out for the other groups), before the corrections are applied."""
        return dict(self._grouped[0])

    @property
    def named_by_drawings(self) -> list[str]:
        """The fields named like the player's drawings of earlier sheets (``read
        --drawings``): the groups the reader marks ``own`` "earlier"."""
        return self._named_by(OWN_EARLIER)

    @property
    def named_by_key(self) -> list[str]:
        """The fields named like the player's drawings in their sheet's key (layout
        version 2): the groups the reader marks ``own`` "key"."""
        return self._named_by(OWN_KEY)

    @property
    def key_plants(self) -> list[str]:
        """The plants the player drew in their sheet's key and the reader took (empty: no
        key, or nothing drawn in it)."""
        plants: list[str] = []
        for s in self.sheets:
            key = getattr(s, "key_drawings", None)
            if key is not None:
                plants += [p for p in key.plants() if p not in plants]
        return plants

    @property
    def key_hint(self) -> bool:
        """Whether to suggest the key: a drawing is asked about and the player's sheets have
        a key (layout version 2) from which nothing was taken."""
        has_key = any(getattr(s, "key_drawings", None) is not None for s in self.sheets)
        return (has_key and not self.key_plants
                and any(q["what"] == "drawing" for q in self.questions))

    @property
    def named_by_answers(self) -> list[str]:
        """The fields of groups trusted once the plants the player named for their other
        drawings were ruled out (the groups the reader marks ``own`` "answers")."""
        return self._named_by(OWN_ANSWERS)

    def _named_by(self, source: str) -> list[str]:
        return sorted(f for g in self.groups if getattr(g, "own", "") == source
                      for f in g.fields)

    @property
    def groups(self) -> tuple[GroupLike, ...]:
        """Every group of alike drawings, trusted or not."""
        return self._grouped[1]

    @property
    def questions(self) -> list[dict[str, Any]]:
        """One question per group not trusted, without the fields already set by hand
        (``read --json``'s ``questions``), the least sure guess first: an answer rules its
        plant out for the player's other drawings, and a doubtful group's answer settles
        the most (calib sketch papers answered one at a time: a mean 4.3 answers against
        5.0 in field order and 5.7 surest first, of 7.3 questions)."""
        hand = {fid for fid, _ in self.corrections}
        out = []
        for g in sorted(self.groups, key=lambda g: g.confidence):
            left = [f for f in g.fields if f not in hand]
            if not g.trusted and left:
                out.append({"id": g.id, "fields": left, "guess": g.guess,
                            "choices": list(g.choices), "what": g.what})
        return out

    def group_of(self, fid: str) -> tuple[str, ...]:
        """The fields grouped with ``fid`` (``fid`` alone when it is in no group)."""
        for g in self.groups:
            if fid in g.fields:
                return g.fields
        return (fid,)

    @property
    def readings(self) -> dict[str, FieldLike]:
        merged = dict(self._grouped[0])
        for fid, value in self.corrections:
            merged[fid] = merged[fid].set_by_hand(value)
        for m in self.supply_checks or ():
            for fid in m.fields:
                if fid in merged:
                    merged[fid] = DoubtedField(merged[fid], m.message)
        return merged

    def checked(self, supply: Supply) -> PlayerReading[S]:
        """The same reading checked against the night's supply: whatever the supply
        cannot explain goes to review (fields set by hand are trusted)."""
        hand = {fid for fid, _ in self.corrections}
        found = check_against_supply(self.fields, self.variant, supply, trusted=hand)
        return PlayerReading(self.sheets, self.corrections, tuple(found))

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


class PairingCode(StrEnum):
    """Why photos could not be made into a player (each a reason not to score them)."""

    MISSING_PLAY = "missing-play-sheet"
    MISSING_GARDEN = "missing-garden-sheet"
    NO_CODE = "no-player-code"
    SAME_CODE = "same-code-twice"
    MIXED_SIDES = "code-on-both-sides"


@dataclass(frozen=True)
class PairingProblem:
    """Photos left out of the table, the player code they carry and why, in words."""

    code: PairingCode
    player_code: str
    photos: tuple[str, ...]
    missing: str | None  # the sheet not photographed, for the two missing-sheet codes
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "player_code": self.player_code,
                "photos": list(self.photos), "missing": self.missing, "message": self.message}


@dataclass(frozen=True)
class Pairing(Generic[S]):
    """Photos grouped into players: whole ones to score, halves and refused sheets apart."""

    players: list[PlayerReading[S]]  # a combo sheet, or a garden and a play sheet
    unpaired: list[PlayerReading[S]]  # sheets that make no whole player, in photo order
    problems: list[PairingProblem]  # why, one per player code

    def problem_for(self, player: PlayerReading[S]) -> PairingProblem | None:
        """The problem that left this unpaired sheet out."""
        photos = set(player.photos)
        return next((p for p in self.problems if photos & set(p.photos)), None)


_SHEET_WORD = {GARDEN_SHEET: "garden", PLAY_SHEET: "play"}
_PRINT_HINT = ("print each player's sheets with their own code "
               "(companion sheets print ... --players N)")


def _names(photos: Sequence[str]) -> str:
    return ", ".join(photos[:-1]) + f" and {photos[-1]}" if len(photos) > 1 else photos[0]


def _half_problem(sheet: SheetLike) -> PairingProblem:
    word, partner = _SHEET_WORD[sheet.sheet], PARTNER_SHEET[sheet.sheet]
    other = _SHEET_WORD[partner]
    if not sheet.code:
        return PairingProblem(
            PairingCode.NO_CODE, "", (sheet.photo,), partner,
            f"{sheet.photo} is a {word} sheet without a player code, so its {other} sheet "
            f"cannot be found; it is not scored",
        )
    code = PairingCode.MISSING_PLAY if partner == PLAY_SHEET else PairingCode.MISSING_GARDEN
    return PairingProblem(
        code, sheet.code, (sheet.photo,), partner,
        f"player code {sheet.code}: the {other} sheet is missing ({sheet.photo} is the {word} "
        f"sheet); photograph both sheets to score this player",
    )


def pair_sheets(sheets: Sequence[S]) -> Pairing[S]:
    """Make players of photo readings: a combo sheet alone, a garden and a play sheet by
    their player code, never by the order the photos came in.

    A half without its partner, and a code on two gardens (or two play sheets), are
    problems named with their photos; those sheets are left out rather than guessed.
    """
    halves: dict[str, list[int]] = {}  # player code -> indexes of its half sheets
    whole: dict[int, PlayerReading[S]] = {}  # first photo index -> player
    left: dict[int, PlayerReading[S]] = {}
    problems: dict[int, PairingProblem] = {}
    for i, s in enumerate(sheets):
        if s.sheet not in PARTNER_SHEET:
            whole[i] = PlayerReading((s,))
        elif not s.code:
            left[i], problems[i] = PlayerReading((s,)), _half_problem(s)
        else:
            halves.setdefault(s.code, []).append(i)
    for code, idx in halves.items():
        first = idx[0]
        gardens = [sheets[i] for i in idx if sheets[i].sheet == GARDEN_SHEET]
        plays = [sheets[i] for i in idx if sheets[i].sheet == PLAY_SHEET]
        if len(idx) == 1:
            left[first], problems[first] = PlayerReading((sheets[first],)), _half_problem(
                sheets[first])
            continue
        photos = tuple(sheets[i].photo for i in idx)
        if len(gardens) > 1 or len(plays) > 1:
            twice = gardens if len(gardens) > 1 else plays
            word = _SHEET_WORD[twice[0].sheet]
            problems[first] = PairingProblem(
                PairingCode.SAME_CODE, code, photos, None,
                f"player code {code} is on {len(twice)} {word} sheets "
                f"({_names([t.photo for t in twice])}), so which sheets belong together "
                f"cannot be told; none of {_names(list(photos))} is scored: {_PRINT_HINT}",
            )
        elif gardens[0].variant != plays[0].variant:
            problems[first] = PairingProblem(
                PairingCode.MIXED_SIDES, code, photos, None,
                f"{gardens[0].photo} and {plays[0].photo} share the player code {code} but "
                f"show gardens {gardens[0].variant} and {plays[0].variant}; neither is scored",
            )
        else:
            whole[first] = PlayerReading((gardens[0], plays[0]))
            continue
        for i in idx:
            left[i] = PlayerReading((sheets[i],))
    return Pairing([whole[i] for i in sorted(whole)], [left[i] for i in sorted(left)],
                   [problems[i] for i in sorted(problems)])


def pairing_messages(pairing: Pairing[Any]) -> list[str]:
    """One line per problem, in photo order, for any front end to show."""
    return [p.message for p in pairing.problems]


def group_players(sheets: Sequence[S]) -> list[PlayerReading[S]]:
    """Whole players and lone halves alike, in photo order; a code on two gardens (or two
    play sheets, or on both sides) raises, since pairing those by order would be a guess."""
    pairing = pair_sheets(sheets)
    refused = [p for p in pairing.problems
               if p.code in (PairingCode.SAME_CODE, PairingCode.MIXED_SIDES)]
    if refused:
        raise InputError(refused[0].message)
    order = {id(s): i for i, s in enumerate(sheets)}
    return sorted([*pairing.players, *pairing.unpaired],
                  key=lambda p: min(order[id(s)] for s in p.sheets))
