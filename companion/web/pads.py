"""The score-pad forms: which numbers each game's pad asks for, and the state document
the engine reads, built from what was typed."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from companion.errors import InputError
from companion.games.registry import GAMES, ColumnKind, PadColumn

PADS: Mapping[str, tuple[PadColumn, ...]] = MappingProxyType(
    {g.slug: g.pad for g in GAMES if g.pad})

MAX_PAD_PLAYERS = 8


def _whole(text: str, where: str) -> int:
    t = text.strip()
    if not t:
        return 0
    if not t.isdigit():
        raise InputError(f"{where}: a whole number, not {text!r}")
    return int(t)


def _recipes(text: str, where: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, part in enumerate(p for p in text.replace(";", ",").split(",") if p.strip()):
        nums = [x.strip() for x in part.split("+")]
        if not all(n.isdigit() for n in nums):
            raise InputError(f"{where} recipe {i + 1}: write stars+hype like 7+3, not {part!r}")
        recipe: dict[str, Any] = {"stars": int(nums[0])}
        if len(nums) == 2:
            recipe["hype"] = int(nums[1])
        elif len(nums) > 2:
            recipe["hype"] = [int(n) for n in nums[1:]]
        out.append(recipe)
    return out


def state_from_form(game: str, form: Mapping[str, str]) -> dict[str, Any]:
    """The engine's state document from the pad's rows (rows without a name are skipped)."""
    columns = PADS.get(game)
    if columns is None:
        raise InputError(f"no score pad for {game!r}")
    players = []
    for i in range(MAX_PAD_PLAYERS):
        name = " ".join(str(form.get(f"name{i}", "")).split())
        if not name:
            continue
        row: dict[str, Any] = {"name": name}
        for col in columns:
            raw = str(form.get(f"{col.key}{i}", ""))
            if col.kind is ColumnKind.FLAG:
                row[col.key] = raw in ("on", "true", "1")
            elif col.kind is ColumnKind.TEXT:
                row[col.key] = _recipes(raw, name)
            else:
                row[col.key] = _whole(raw, f"{name}, {col.label}")
        players.append(row)
    if not players:
        raise InputError("write at least one player's name")
    return {"game": game, "players": players}
