"""``companion dulce``: thin commands over companion.games.dulce."""

from __future__ import annotations

import sys

import click

from companion.cli.output import echo_json, emit, json_option
from companion.cli.store_options import save_finished, save_options
from companion.errors import IllegalMoveError, InputError
from companion.fileio import read_json_object
from companion.games.dulce import parse, report
from companion.games.dulce.limits import (
    ImpossibleStateError,
    card_number_problem,
    check_state,
)
from companion.games.dulce.model import Tiebreak
from companion.games.dulce.outcome import Advice, advise, finish
from companion.games.dulce.planting import plant, plant_card


def _pair(text: str, what: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise InputError(f"{what} must be two whole numbers like 1,2, not {text!r}") from None
    return a, b


@click.group(name="dulce")
def dulce() -> None:
    """Dulce: validate plants, best scoring order, best harvest, final score."""


@dulce.command("score-order")
@click.argument("state")
@json_option
def score_order(state: str, as_json: bool) -> None:
    """Best scoring order and byproduct moves for the cafés in STATE (after a harvest)."""
    finished = advise(Advice.SCORE_ORDER, read_json_object(state))
    emit(finished.doc, finished.lines, as_json)


@dulce.command("best-harvest")
@click.argument("state")
@json_option
def best_harvest_cmd(state: str, as_json: bool) -> None:
    """Which row or column to harvest, where each bean and egg goes, and how to score."""
    finished = advise(Advice.BEST_HARVEST, read_json_object(state))
    emit(finished.doc, finished.lines, as_json)


@dulce.command("plant")
@click.argument("state")
@click.option("--card", type=int, help='Number of a card entered in STATE\'s "cards".')
@click.option("--fields", help="Or the card's fields as printed: TL,TR,BL,BR bean names.")
@click.option("--at", "at", required=True, help="Board square ROW,COL of the card's top-left.")
@click.option("--rotate", type=int, default=0, show_default=True, help="Clockwise degrees.")
@json_option
def plant_cmd(
    state: str, card: int | None, fields: str | None, at: str, rotate: int, as_json: bool
) -> None:
    """Check a plant-fields action and show what it does (exit 1 if illegal)."""
    raw = read_json_object(state)
    row, col = _pair(at, "--at")
    if (card is None) == (fields is None):
        raise InputError("give exactly one of --card N or --fields TL,TR,BL,BR")
    needs = parse.NEEDS["plant"] + (("cards",) if card is not None else ())
    st = parse.player_state(raw, needs=needs)
    check_state(st)
    if card is not None and (problem := card_number_problem(card, "--card")):
        raise ImpossibleStateError(problem)
    try:
        if card is not None:
            result = plant_card(st, card, row, col, rotate)
        else:
            assert fields is not None
            grid = parse.fields(fields.split(","), "--fields")
            result = plant(st, grid, row, col, rotate)
    except IllegalMoveError as exc:  # a verdict on the move, not an error: exit 1
        if as_json:
            echo_json({"legal": False, "reasons": [str(exc)]})
        else:
            click.echo(f"illegal: {exc}")
        sys.exit(exc.exit_code)
    emit(report.plant_json(result), report.plant_text(result), as_json)


@dulce.command("final")
@click.argument("state")
@click.option(
    "--tiebreak",
    type=click.Choice([t.value for t in Tiebreak]),
    default=Tiebreak.SUM.value,
    show_default=True,
    help="Reading of the final tiebreak: eggs plus field cubes as one count (sum), or "
    "most eggs first, then cubes (eggs-first).",
)
@json_option
@save_options
def final_cmd(state: str, tiebreak: str, as_json: bool, save: bool, night: str | None,
              data: str | None) -> None:
    """Final ranking with the egg-and-field tiebreak; one player gets the solo title.

    Exit 1 for a table no game has (more than four players).
    """
    finished = finish(read_json_object(state), Tiebreak(tiebreak))
    emit(finished.doc, finished.lines, as_json)
    if save:
        save_finished("dulce", finished.doc, finished.problems, data, night)

__all__ = ["dulce"]
