"""Deli Duel inputs: orders written as ``a+b+c``, card lists, and the table state JSON."""

from __future__ import annotations

from typing import Any

from companion.errors import InputError
from companion.games.deli_duel.cards import Crook, Ingredient, card, ingredient
from companion.games.deli_duel.game import Seat
from companion.games.deli_duel.orders import FAIRY_BREAD_ORDER, Order
from companion.games.jsondoc import game_document, json_object, players_list


def _names(raw: Any, separator: str) -> list[str] | None:
    """Card names typed on a command line (one string) or listed in JSON; None if neither."""
    if isinstance(raw, str):
        return raw.split(separator)
    if isinstance(raw, list) and all(isinstance(n, str) for n in raw):
        return raw
    return None


def order(raw: Any, where: str = "order") -> Order:
    """``"white-bread+cheese+ham"``, ``"fairy-bread"`` or a JSON list of names."""
    if isinstance(raw, str) and raw.strip().lower() in ("fairy-bread", "fairy bread"):
        return FAIRY_BREAD_ORDER
    names = _names(raw, "+")
    if names is None:
        raise InputError(f"{where}: write an order as a+b+c or a list of ingredient names")
    if any(not n.strip() for n in names):
        raise InputError(f"{where}: empty ingredient name in {raw!r}")
    return Order(tuple(ingredient(n) for n in names))


def cards(raw: Any, where: str = "play") -> tuple[Ingredient | Crook, ...]:
    """Comma-separated names or a JSON list; ingredients and crook cards alike."""
    names = _names(raw, ",")
    if names is None:
        raise InputError(f"{where}: list the cards as names")
    return tuple(card(n) for n in names if n.strip())


def seats(raw: Any) -> tuple[Seat, ...]:
    doc = game_document(raw, "deli-duel", "Deli Duel", 'a JSON object with "players"')
    ps = players_list(doc, "list the players at the table")
    out = []
    for i, entry in enumerate(ps):
        w = f"players[{i}]"
        p = json_object(entry, w)
        done = p.get("completed_orders", 0)
        if isinstance(done, list):
            for k, o in enumerate(done):
                order(o, f"{w}.completed_orders[{k}]")
            count = len(done)
        elif isinstance(done, int) and not isinstance(done, bool) and done >= 0:
            count = done
        else:
            raise InputError(f"{w}.completed_orders: a number or a list of orders")
        fairy = p.get("fairy_bread", False)
        if not isinstance(fairy, bool):
            raise InputError(f"{w}.fairy_bread: expected true or false")
        out.append(Seat(str(p.get("name", f"player {i + 1}")), count, fairy))
    return tuple(out)
