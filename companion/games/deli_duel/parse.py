"""Deli Duel inputs: orders written as ``a+b+c``, card lists, and the table state JSON."""

from __future__ import annotations

from typing import Any

from companion.errors import InputError, UnknownNameError
from companion.games.deli_duel.cards import Crook, Ingredient, card, crook, ingredient
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


def _order_name(name: str, where: str) -> Ingredient | Crook:
    """An ingredient, or a crook card (known, but never part of an order)."""
    try:
        return ingredient(name)
    except UnknownNameError as exc:
        try:
            return crook(name)
        except UnknownNameError:
            raise UnknownNameError(f"{where}: {exc}") from None


def order(raw: Any, where: str = "order") -> Order:
    """``"white-bread+cheese+ham"``, ``"fairy-bread"`` or a JSON list of names."""
    if isinstance(raw, str) and raw.strip().lower() in ("fairy-bread", "fairy bread"):
        return FAIRY_BREAD_ORDER
    names = _names(raw, "+")
    if names is None:
        raise InputError(f"{where}: write an order as a+b+c or a list of ingredient names")
    if any(not n.strip() for n in names):
        raise InputError(f"{where}: empty ingredient name in {raw!r}")
    named = [_order_name(n, where) for n in names]
    # A crook card is a name we know: the order is read, and its check says what is wrong.
    return Order(
        tuple(c for c in named if isinstance(c, Ingredient)),
        tuple(c for c in named if isinstance(c, Crook)),
    )


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
        if "completed_orders" not in p:
            raise InputError(f"{w}.completed_orders: required (a count or the list of orders)")
        done = p["completed_orders"]
        fairy = p.get("fairy_bread", False)
        if not isinstance(fairy, bool):
            raise InputError(f"{w}.fairy_bread: expected true or false")
        name = p.get("name", f"player {i + 1}")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{w}.name: expected a non-empty name")
        if isinstance(done, list):
            listed = [order(o, f"{w}.completed_orders[{k}]") for k, o in enumerate(done)]
            out.append(Seat.listing(name, listed, fairy))
        elif isinstance(done, int) and not isinstance(done, bool) and done >= 0:
            out.append(Seat(name, done, fairy))
        else:
            raise InputError(f"{w}.completed_orders: a number or a list of orders")
    return tuple(out)
