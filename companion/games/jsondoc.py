"""Checks on users' JSON documents (already parsed), shared by the games' parsers.

Users hand us JSON they wrote or another tool made; a file meant for another game, a list
where an object belongs or a negative count should each be one line saying where, worded
the same in every game.
"""

from __future__ import annotations

from typing import Any

from companion.errors import InputError


def json_object(value: Any, where: str, shape: str = "a JSON object") -> dict[str, Any]:
    """``value`` if it is a JSON object; ``shape`` says what it should look like."""
    if not isinstance(value, dict):
        raise InputError(f"{where}: expected {shape}")
    return value


def game_document(raw: Any, game: str, title: str, shape: str = "a JSON object",
                  where: str = "state") -> dict[str, Any]:
    """``raw`` as an object whose ``"game"`` (optional) names ``game``; ``title`` is the
    game's printed name for the message, ``shape`` what the object should look like."""
    doc = json_object(raw, where, shape)
    named = doc.get("game", game)
    if named != game:
        raise InputError(f"{where}: this is a {named!r} file, not a {title} state")
    return doc


def whole_number(value: Any, where: str, low: int = 0) -> int:
    """``value`` as an int of at least ``low`` (JSON true/false are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InputError(f"{where}: expected a whole number >= {low}, got {value!r}")
    return value


def players_list(doc: dict[str, Any], when_missing: str) -> list[Any]:
    """The document's non-empty ``"players"`` list."""
    players = doc.get("players")
    if not isinstance(players, list) or not players:
        raise InputError(f"players: {when_missing}")
    return players
