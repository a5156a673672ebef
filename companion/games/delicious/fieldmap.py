"""Field maps: one player's finished paper as JSON (docs/contracts.md), checked strictly.

Every problem a user can cause is one line naming the map and the field, so a typo in a
hand-written map never turns into a traceback or a silently wrong score. Files are read
by companion.fileio, not here: the engine stays free of I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import InputError, UnknownNameError
from companion.games.delicious.garden import garden
from companion.games.delicious.symbols import FRUIT_LETTERS, VEGETABLE_LETTERS
from companion.paper.model import FieldKind

GAME = "delicious"
DEFAULT_VARIANT = "A"


@dataclass(frozen=True)
class FieldMap:
    variant: str
    fields: dict[str, str] = field(default_factory=dict)
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": GAME, "variant": self.variant}
        if self.player is not None:
            out["player"] = self.player
        out["fields"] = dict(sorted(self.fields.items()))
        return out


def _document(source: str | Mapping[str, Any]) -> tuple[str, Any]:
    """(label for messages, parsed document) from a mapping or JSON text, with no I/O."""
    if isinstance(source, Mapping):
        return "field map", source
    try:
        return "field map", json.loads(source)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"field map: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None


def load_field_map(source: str | Mapping[str, Any], *, label: str | None = None) -> FieldMap:
    """Check a field map given as a parsed mapping (or JSON text); ``label`` names it in
    messages, e.g. the file it came from."""
    default_label, doc = _document(source)
    label = label or default_label
    if not isinstance(doc, Mapping):
        raise InputError(f"{label}: a field map is a JSON object, not {type(doc).__name__}")
    game = doc.get("game", GAME)
    if game != GAME:
        raise InputError(f"{label}: this is a field map for {game!r}, not {GAME!r}")
    variant = doc.get("variant", DEFAULT_VARIANT)
    if not isinstance(variant, str):
        raise InputError(f"{label}: \"variant\" must be a string such as \"A\"")
    try:
        kinds = garden(variant).field_kinds()
    except UnknownNameError as exc:
        raise UnknownNameError(f"{label}: {exc}") from None
    player = doc.get("player")
    if player is not None and not isinstance(player, str):
        raise InputError(f"{label}: \"player\" must be a string")
    raw = doc.get("fields")
    if not isinstance(raw, Mapping):
        raise InputError(f"{label}: missing \"fields\" object (field id -> value)")
    fields: dict[str, str] = {}
    for fid, value in raw.items():
        if fid not in kinds:
            raise UnknownNameError(f"{label}: unknown field id {fid!r}")
        if value in (None, ""):
            continue
        fields[fid] = check_value(kinds, fid, value, label)
    return FieldMap(variant, fields, player)


def _legend(kind: FieldKind) -> dict[str, str]:
    if kind is FieldKind.VEGETABLE:
        return {letter: v.value for v, letter in VEGETABLE_LETTERS.items()}
    if kind is FieldKind.FRUIT:
        return {letter: f.value for f, letter in FRUIT_LETTERS.items()}
    return {}


def check_value(kinds: Mapping[str, tuple[FieldKind, tuple[str, ...]]], fid: str, value: Any,
                label: str, *, letters: bool = False) -> str:
    """``value`` if field ``fid`` can hold it, else one line listing what it can hold.

    With ``letters``, a single letter of the play sheet's legend is taken for the one
    plant it names in that kind of field (C is carrot in a garden cell); elsewhere a
    letter is refused like any other wrong value.
    """
    kind, allowed = kinds[fid]
    if value in allowed:
        return str(value)
    if letters and isinstance(value, str) and len(value) == 1:
        named = _legend(kind).get(value.upper())
        if named is not None:
            return named
    legend = _legend(kind)
    hint = ("; or one letter: " + ", ".join(f"{k} {v}" for k, v in sorted(legend.items()))
            if letters and legend else "")
    raise UnknownNameError(
        f"{label}: {fid} is a {kind.value} field; {value!r} is not one of "
        f"{', '.join(allowed)}{hint}"
    )
