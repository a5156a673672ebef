"""Wild Gardens player states from a loaded JSON document; problems raise InputError."""

from __future__ import annotations

from typing import Any

from companion.errors import InputError
from companion.games.jsondoc import game_document, json_object, players_list, whole_number
from companion.games.wild_gardens.scoring import Player, final_score

# Keys every player needs: they make the score. A missing one is one line and exit 2.
SCORE_KEYS = ("pollinator", "jar", "guests", "ingredients")
# Tiebreak steps that are not part of the score: needed only by players tied on VP.
CHAIN_KEYS = ("cooked_recipes", "skill_tokens", "reserved_recipes")


def _int(d: dict[str, Any], key: str, where: str, default: int | None = 0) -> int:
    value = d.get(key, default)
    if value is None:
        raise InputError(f"{where}.{key}: required")
    return whole_number(value, f"{where}.{key}")


def _wraps(d: dict[str, Any], token: str, where: str) -> int:
    """``<token>_wraps`` (a count) or ``<token>_flipped`` (true counts as one wrap)."""
    flipped = d.get(f"{token}_flipped")
    if flipped is not None:
        if not isinstance(flipped, bool):
            raise InputError(f"{where}.{token}_flipped: expected true or false")
        if f"{token}_wraps" in d:
            raise InputError(f"{where}: give {token}_wraps or {token}_flipped, not both")
        return int(flipped)
    return _int(d, f"{token}_wraps", where)


def guests(raw: dict[str, Any], where: str) -> tuple[int, int]:
    """(served guests, their game-end VP): a list of guests, or a count plus ``guest_vp``."""
    value = raw.get("guests", [])
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value, _int(raw, "guest_vp", where)
    if not isinstance(value, list):
        raise InputError(f"{where}.guests: a list of guests or a number of guests")
    if "guest_vp" in raw:
        raise InputError(f"{where}: with a guest list, put game_end_vp on each guest")
    vp = 0
    for i, g in enumerate(value):
        w = f"{where}.guests[{i}]"
        if isinstance(g, str):
            continue
        if not isinstance(g, dict):
            raise InputError(f'{w}: a guest is a name or {{"name": ..., "game_end_vp": N}}')
        vp += _int(g, "game_end_vp", w)
    return len(value), vp


def player(raw: Any, where: str) -> Player:
    raw = json_object(raw, where)
    for key in SCORE_KEYS:
        if key not in raw:
            raise InputError(f"{where}.{key}: required")
    name = raw.get("name", where)
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{where}.name: expected a non-empty name")
    count, vp = guests(raw, where)
    return Player(
        name=name,
        pollinator=_int(raw, "pollinator", where, None),
        jar=_int(raw, "jar", where, 0),
        pollinator_wraps=_wraps(raw, "pollinator", where),
        jar_wraps=_wraps(raw, "jar", where),
        guests=count,
        guest_vp=vp,
        cooked_recipes=_int(raw, "cooked_recipes", where),
        ingredients=_int(raw, "ingredients", where),
        skill_tokens=_int(raw, "skill_tokens", where),
        reserved_recipes=_int(raw, "reserved_recipes", where),
        reserved_guests=_int(raw, "reserved_guests", where),
    )


def players(raw: Any) -> tuple[Player, ...]:
    doc = game_document(raw, "wild-gardens", "Wild Gardens", 'a JSON object with "players"')
    ps = players_list(doc, "list at least one player")
    out = tuple(player(p, f"players[{i}]") for i, p in enumerate(ps))
    totals = [final_score(p).total for p in out]
    for i, p in enumerate(out):
        if totals.count(totals[i]) > 1:
            for key in CHAIN_KEYS:
                if key not in ps[i]:
                    raise InputError(
                        f"players[{i}].{key}: required: {p.name} is tied on VP and the "
                        "tiebreak chain compares it"
                    )
    return out
