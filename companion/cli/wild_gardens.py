"""``companion wild-gardens``: thin commands over companion.games.wild_gardens."""

from __future__ import annotations

import sys

import click

from companion.cli.output import emit, json_option
from companion.cli.store_options import save_finished, save_options
from companion.fileio import read_json_object
from companion.games.wild_gardens.outcome import finish


@click.group(name="wild-gardens")
def wild_gardens() -> None:
    """Wild Gardens: final scoring and tiebreaks."""


@wild_gardens.command("score")
@click.argument("state")
@json_option
@save_options
def score(state: str, as_json: bool, save: bool, night: str | None, data: str | None) -> None:
    """Final scores and ranking with the full tiebreak chain (exit 1 on an impossible state)."""
    finished = finish(read_json_object(state))
    emit(finished.doc, finished.lines, as_json)
    if save:
        save_finished("wild-gardens", finished.doc, finished.problems, data, night)
    if finished.problems:
        sys.exit(1)
