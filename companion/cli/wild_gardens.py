"""``companion wild-gardens``: thin commands over companion.games.wild_gardens."""

from __future__ import annotations

import sys

import click

from companion.cli.output import emit, json_option
from companion.cli.store_options import save_options, save_result
from companion.fileio import read_json_object
from companion.games.wild_gardens import check, check_table, rank
from companion.games.wild_gardens.parse import players
from companion.games.wild_gardens.report import standings_json, standings_text


@click.group(name="wild-gardens")
def wild_gardens() -> None:
    """Wild Gardens: final scoring and tiebreaks."""


@wild_gardens.command("score")
@click.argument("state")
@json_option
@save_options
def score(state: str, as_json: bool, save: bool, night: str | None, data: str | None) -> None:
    """Final scores and ranking with the full tiebreak chain (exit 1 on an impossible state)."""
    ps = players(read_json_object(state))
    standings = rank(ps)
    violations = check_table(ps) + [v for p in ps for v in check(p)]
    if save and not violations:
        from companion.store import results

        save_result(results.wild_gardens(standings_json(standings, violations)), data, night)
    elif save:
        click.echo("companion: not saved: the state breaks a rule", err=True)
    emit(standings_json(standings, violations), standings_text(standings, violations), as_json)
    if violations:
        sys.exit(1)
