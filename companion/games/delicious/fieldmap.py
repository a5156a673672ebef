"""Field maps: one player's finished paper as JSON (CONTRACTS.md), loaded strictly.

Every problem a user can cause is one line naming the file and the field, so a typo in a
hand-written map never turns into a traceback or a silently wrong score.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import InputError, UnknownNameError
from companion.games.delicious.garden import garden

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


def _read(source: str | Path | Mapping[str, Any]) -> tuple[str, Any]:
    """(label for messages, parsed document)."""
    if isinstance(source, Mapping):
        return "field map", source
    text_given = isinstance(source, str) and source.lstrip()[:1] in ("{", "[")
    label = "field map" if text_given else str(source)
    if text_given:
        text = str(source)
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError(f"{label}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{label}: cannot read it ({exc.__class__.__name__})") from None
    try:
        return label, json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{label}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None


def load_field_map(source: str | Path | Mapping[str, Any]) -> FieldMap:
    """Load and check a field map from a path, JSON text or an already parsed mapping."""
    label, doc = _read(source)
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
        kind, allowed = kinds[fid]
        if value not in allowed:
            raise UnknownNameError(
                f"{label}: {fid} is a {kind.value} field; {value!r} is not one of "
                f"{', '.join(allowed)}"
            )
        fields[fid] = value
    return FieldMap(variant, fields, player)
