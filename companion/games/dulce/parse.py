"""Turn a user's JSON document (already loaded into Python values) into Dulce state.

Every problem raises InputError naming where in the document it is, so the command line
can print one clear line.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.errors import InputError, UnknownNameError
from companion.games.dulce.constants import BOARD_SIZE, CARD_SIZE, CORNER_CELLS
from companion.games.dulce.final import FinalPlayer
from companion.games.dulce.model import (
    Bean,
    Board,
    Cafe,
    Cell,
    Content,
    FieldCard,
    Level,
    PlayerState,
    Space,
    corner_is_covered,
    empty_board,
)
from companion.games.jsondoc import game_document, json_object, whole_number
from companion.text import ascii_number, name_key

LEVEL_NAMES = {"butter": Level.BUTTER, "ground": Level.GROUND, "pure": Level.PURE}


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a JSON list")
    return value


def bean(value: Any, where: str) -> Bean:
    try:
        return Bean(value)
    except ValueError:
        raise UnknownNameError(
            f"{where}: unknown bean {value!r}; use one of {', '.join(Bean)}"
        ) from None


def level(value: Any, where: str) -> Level:
    if isinstance(value, str) and value in LEVEL_NAMES:
        return LEVEL_NAMES[value]
    if isinstance(value, int) and not isinstance(value, bool) and value in (1, 2, 3):
        return Level(value)
    raise InputError(f"{where}: level must be 1, 2, 3 (rings) or butter/ground/pure")


def space(raw: Any, where: str) -> tuple[Space, Content]:
    d = json_object(raw, where)
    sp = Space(bean(d.get("type"), f"{where}.type"), level(d.get("level"), f"{where}.level"))
    held = d.get("holds")
    if held is None:
        return sp, Content.EMPTY
    if held == "egg":
        return sp, Content.EGG
    if held == sp.bean.value:
        return sp, Content.BEAN
    b = sp.bean.value
    raise InputError(f"{where}.holds: a {b} space can hold {b}, egg or null, not {held!r}")


def cafe(raw: Any, where: str, board: Board) -> Cafe:
    d = json_object(raw, where)
    spaces = _list(d.get("spaces"), f"{where}.spaces")
    if not spaces:
        raise InputError(f"{where}.spaces: a café needs at least one space")
    parsed = [space(s, f"{where}.spaces[{i}]") for i, s in enumerate(spaces)]
    corner = d.get("corner")
    if corner is not None and (not isinstance(corner, str) or corner not in CORNER_CELLS):
        raise UnknownNameError(f"{where}.corner: use one of {', '.join(CORNER_CELLS)}")
    card = d.get("card")
    covered = d.get("covered", False)
    if not isinstance(covered, bool):
        raise InputError(f"{where}.covered: expected true or false")
    if corner is not None:
        covered = covered or corner_is_covered(board, corner)
    name = d.get("name") or (f"card {card}" if card is not None else f"café {where}")
    return Cafe(
        name=str(name),
        spaces=tuple(p[0] for p in parsed),
        holds=tuple(p[1] for p in parsed),
        card=None if card is None else whole_number(card, f"{where}.card", 1),
        corner=corner,
        covered=covered,
    )


def cell(raw: Any, where: str) -> Cell:
    if raw is None:
        return Cell()
    if isinstance(raw, str):  # shorthand "cacao" or "cacao:2"
        name, _, count = raw.partition(":")
        if count and not ascii_number(count, 15):
            raise InputError(f'{where}: write a cell as "bean" or "bean:cubes"')
        return Cell(bean(name, where), int(count) if count else 0)
    d = json_object(raw, where)
    field = d.get("field")
    cubes = whole_number(d.get("cubes", 0), f"{where}.cubes")
    if field is None:
        if cubes:
            raise InputError(f"{where}: cubes lie on a field, and this square has none")
        return Cell()
    return Cell(bean(field, f"{where}.field"), cubes)


def board(raw: Any, where: str = "board") -> Board:
    if raw is None:
        return empty_board()
    rows = _list(raw, where)
    if len(rows) != BOARD_SIZE or any(
        not isinstance(r, list) or len(r) != BOARD_SIZE for r in rows
    ):
        raise InputError(f"{where}: expected {BOARD_SIZE} rows of {BOARD_SIZE} squares")
    return tuple(
        tuple(cell(c, f"{where}[{r}][{k}]") for k, c in enumerate(row))
        for r, row in enumerate(rows)
    )


def fields(raw: Any, where: str) -> tuple[tuple[Bean, Bean], tuple[Bean, Bean]]:
    """A 2x2 grid ``[[tl, tr], [bl, br]]`` or a flat list ``[tl, tr, bl, br]``."""
    rows = _list(raw, where)
    if len(rows) == CARD_SIZE * CARD_SIZE and all(isinstance(x, str) for x in rows):
        rows = [rows[:2], rows[2:]]
    if len(rows) != CARD_SIZE or any(not isinstance(r, list) or len(r) != 2 for r in rows):
        raise InputError(f"{where}: expected [[top-left, top-right], [bottom-left, bottom-right]]")
    (a, b), (c, d) = rows
    return (
        (bean(a, f"{where}[0][0]"), bean(b, f"{where}[0][1]")),
        (bean(c, f"{where}[1][0]"), bean(d, f"{where}[1][1]")),
    )


def card(raw: Any, where: str) -> FieldCard:
    d = json_object(raw, where)
    cafe_spaces = tuple(
        space(s, f"{where}.cafe[{i}]")[0] for i, s in enumerate(_list(d.get("cafe", []), where))
    )
    return FieldCard(
        number=whole_number(d.get("number"), f"{where}.number", 1),
        fields=fields(d.get("fields"), f"{where}.fields"),
        name=str(d.get("name", "")),
        cafe=cafe_spaces,
    )


# What each command cannot do without: a missing key is one line and exit 2, never a guess.
NEEDS: dict[str, tuple[str, ...]] = {
    "score-order": ("cafes",),
    "best-harvest": ("board", "cafes", "chicken"),
    "plant": ("board", "cafes"),
}
WHAT = {
    "cafes": "the list of cafés, starting ones included",
    "board": "the 4 x 4 field board",
    "chicken": "steps of the chicken along its track",
    "cards": "the cards entered by number, for --card",
}


def require(d: dict[str, Any], keys: tuple[str, ...], where: str = "") -> None:
    for key in keys:
        if key not in d:
            raise InputError(f"{where}{key}: required ({WHAT.get(key, key)})")


def player_state(
    raw: Any, where: str = "state", needs: tuple[str, ...] = ()
) -> PlayerState:
    """A player's state; ``needs`` names the keys the command cannot do without."""
    d = game_document(raw, "dulce", "Dulce", where=where)
    require(d, needs)
    b = board(d.get("board"))
    cafes = tuple(
        cafe(c, f"cafes[{i}]", b) for i, c in enumerate(_list(d.get("cafes", []), "cafes"))
    )
    cards = tuple(card(c, f"cards[{i}]") for i, c in enumerate(_list(d.get("cards", []), "cards")))
    numbers = [c.number for c in cards]
    if len(set(numbers)) != len(numbers):
        raise InputError("cards: two cards share a number")
    used = frozenset(
        whole_number(n, f"used_cards[{i}]", 1)
        for i, n in enumerate(_list(d.get("used_cards", []), "used"))
    )
    return PlayerState(
        cafes=cafes,
        board=b,
        chicken=whole_number(d.get("chicken", 0), "chicken"),
        points=whole_number(d.get("points", 0), "points"),
        cards=cards,
        used_cards=used,
    )


def final_players(raw: Any) -> tuple[FinalPlayer, ...]:
    """``{"players": [{"name", "points", "chicken", "field_cubes" or "board"}]}``.

    ``points`` is always required; ``chicken`` and the field cubes only for players tied
    on points, where the tiebreak needs them (a guessed 0 could crown the wrong player).
    """
    d = game_document(raw, "dulce", "Dulce", 'a JSON object with "players"')
    players = _list(d.get("players"), "players")
    if not players:
        raise InputError("players: list at least one player")
    rows = [json_object(p, f"players[{i}]") for i, p in enumerate(players)]
    points = []
    for i, pd in enumerate(rows):
        require(pd, ("points",), f"players[{i}].")
        points.append(whole_number(pd["points"], f"players[{i}].points"))
    point_counts = Counter(points)  # a count per player would be quadratic
    out = []
    names: set[str] = set()
    for i, pd in enumerate(rows):
        where = f"players[{i}]"
        name = pd.get("name", f"player {i + 1}")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{where}.name: expected a non-empty name")
        if name_key(name) in names:
            raise InputError(f"{where}: two players share the name {name.strip()!r}")
        names.add(name_key(name))
        tied = point_counts[points[i]] > 1
        if tied and "chicken" not in pd:
            raise InputError(
                f"{where}.chicken: required: {name} is tied on points and the tiebreak "
                "counts eggs from chicken steps"
            )
        if tied and "field_cubes" not in pd and "board" not in pd:
            raise InputError(
                f"{where}.field_cubes: required (or a board): {name} is tied on points and "
                "the tiebreak counts cubes left in the field"
            )
        if "field_cubes" in pd:
            cubes = whole_number(pd["field_cubes"], f"{where}.field_cubes")
        else:
            b = board(pd.get("board"), f"{where}.board")
            cubes = sum(c.cubes for row in b for c in row)
        out.append(
            FinalPlayer(
                name=name,
                points=points[i],
                chicken=whole_number(pd.get("chicken", 0), f"{where}.chicken"),
                field_cubes=cubes,
            )
        )
    return tuple(out)
