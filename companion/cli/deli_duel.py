"""``companion deli-duel``: thin commands over companion.games.deli_duel."""

from __future__ import annotations

import sys
from typing import Any

import click

from companion.cli.output import emit, json_option
from companion.cli.store_options import save_finished, save_options
from companion.errors import InputError
from companion.fileio import read_json_object
from companion.games.deli_duel import (
    check_play,
    crook_counts,
    deck_size,
    open_orders,
    order_problems,
    orders_to_win,
    parse,
)
from companion.games.deli_duel.cards import INGREDIENT_COUNTS, LIST_NAMES, ORDER_CARDS
from companion.games.deli_duel.orders import on_display
from companion.games.deli_duel.outcome import finish


@click.group(name="deli-duel")
def deli_duel() -> None:
    """Deli Duel: order checks and the winning count."""


@deli_duel.command("check")
@click.argument("orders", nargs=-1)
@click.option("--play", multiple=True,  # taken many times only to refuse it in one line
              help="Cards laid down, comma-separated (e.g. wild,cheese,rye-bread).")
@click.option("--file", "path", help='Or a JSON file: {"orders": [...], "play": [...]}.')
@json_option
def check(orders: tuple[str, ...], play: tuple[str, ...], path: str | None,
          as_json: bool) -> None:
    """Check ORDER cards (a+b+c or fairy-bread), and whether --play completes them.

    Fairy Bread is on display in every game, so a play is also checked against it when
    it is not listed. Exit 1 if an order breaks the rules (a crook card in it, no bread,
    not three ingredients) or the play completes none of them.
    """
    if len(play) > 1:
        raise click.UsageError("--play is one play: give it once, its cards comma-separated "
                               f"(--play {','.join(play)})")
    raw_orders: list[Any] = list(orders)
    raw_play: Any = play[0] if play else None
    if path is not None:
        doc = read_json_object(path, 'an object like {"orders": [...], "play": [...]}')
        listed_orders = doc.get("orders", [])
        if not isinstance(listed_orders, list):
            raise InputError(f"{path}: orders: expected a list of orders")
        raw_orders += listed_orders
        raw_play = doc.get("play", raw_play)
    if not raw_orders:
        raise InputError("name at least one order, e.g. white-bread+cheese+ham")
    parsed = [parse.order(o, f"order {i + 1}") for i, o in enumerate(raw_orders)]
    cards = parse.cards(raw_play) if raw_play is not None else None
    listed = len(parsed)
    if cards is not None:
        # Fairy Bread is always out: shown when this play completes it, listed or not.
        parsed += [o for o in on_display(parsed)[listed:] if check_play(o, cards).legal]
    results = []
    ok = True
    for k, o in enumerate(parsed):
        entry: dict[str, Any] = {
            "order": list(o.names),
            "listed": k < listed,
            "fairy_bread": o.is_fairy_bread,
            "valid": not order_problems(o),
            "problems": order_problems(o),
        }
        ok = ok and entry["valid"]
        if cards is not None:
            pc = check_play(o, cards)
            entry["play"] = {
                "legal": pc.legal,
                "reasons": list(pc.reasons),
                "wins_game": pc.wins_game,
            }
        results.append(entry)
    completed = [r for r in results if r.get("play", {}).get("legal")]
    if cards is not None and not completed:
        ok = False
    doc_out: dict[str, Any] = {"orders": results}
    if cards is not None:
        doc_out["play"] = [c.value for c in cards]
        doc_out["completes"] = ["+".join(r["order"]) for r in completed]
        doc_out["wins_game"] = any(r["play"]["wins_game"] for r in completed)
    lines = []
    for r in results:
        name = "+".join(r["order"])
        shown = "valid order" if r["valid"] else "; ".join(r["problems"])
        if not r["listed"]:
            shown += " (Fairy Bread is on display in every game)"
        lines.append(f"{name}: {shown}")
        if "play" in r:
            p = r["play"]
            verdict = "completed" if p["legal"] else "not completed: " + "; ".join(p["reasons"])
            lines.append(f"  play {','.join(doc_out['play'])}: {verdict}")
            if p["wins_game"]:
                lines.append("  Fairy Bread: that wins the game at once!")
    emit(doc_out, lines, as_json)
    if not ok:
        sys.exit(1)


@deli_duel.command("winner")
@click.argument("state")
@json_option
@save_options
def winner_cmd(state: str, as_json: bool, save: bool, night: str | None,
               data: str | None) -> None:
    """Who has won (Fairy Bread or enough orders for the table size).

    Exit 1 if the table is impossible: a size outside 2-6, a completed order no card
    shows, two wins at once, more orders than exist.
    """
    finished = finish(read_json_object(state))
    emit(finished.doc, finished.lines, as_json)
    if save:
        save_finished("deli-duel", finished.doc, finished.problems, data, night)
    if finished.problems:
        sys.exit(1)


@deli_duel.command("setup")
@click.option("--players", type=int, required=True, help="Players at the table (2-6).")
@json_option
def setup(players: int, as_json: bool) -> None:
    """Orders on display and orders needed to win for a table size."""
    doc = {
        "players": players,
        "orders_to_win": orders_to_win(players),
        "open_orders": open_orders(players),
        "fairy_bread_on_display": True,
    }
    lines = [
        f"{players} players: display {doc['open_orders']} orders plus Fairy Bread;"
        f" first to {doc['orders_to_win']} completed orders wins (Fairy Bread wins at once)."
    ]
    emit(doc, lines, as_json)


@deli_duel.command("deck")
@click.option("--demo-pack", is_flag=True, help="Keep the demo pack's second Health Inspector.")
@json_option
def deck(demo_pack: bool, as_json: bool) -> None:
    """The card counts, with the crook cards under one name each (see docs/formats.md)."""
    crooks = crook_counts(demo_pack)
    ingredients = {i.value: n for i, n in INGREDIENT_COUNTS.items()}
    doc: dict[str, Any] = {
        "ingredients": ingredients,
        "crooks": {c.value: n for c, n in crooks.items()},
        "crook_list_names": {c.value: LIST_NAMES[c] for c in crooks},
        "draw_deck": deck_size(demo_pack),
        "order_cards": ORDER_CARDS,
    }
    lines = ["Ingredients: " + ", ".join(f"{n} {i}" for i, n in ingredients.items())]
    lines.append(
        "Crooks: " + ", ".join(f"{n} {c} (listed as {LIST_NAMES[c]!s})" for c, n in crooks.items())
    )
    lines.append(
        f"Draw deck: {doc['draw_deck']} cards; order cards: {ORDER_CARDS} (one is Fairy Bread)."
    )
    emit(doc, lines, as_json)
