"""``companion history`` and ``companion standings``: the saved plays, read back."""

from __future__ import annotations

import click

from companion.cli.output import echo_json, json_option
from companion.cli.store_options import data_option, open_store
from companion.store.history import history, history_text
from companion.store.standings import standings, standings_text


@click.command(name="history")
@click.option("--game", "game", metavar="GAME", help="Only this game (e.g. dulce).")
@click.option("--player", "player", metavar="NAME", help="Only plays with this player "
              "(any spelling set with `players alias`).")
@click.option("--since", "since", metavar="YYYY-MM-DD", help="Only plays on or after this date.")
@json_option
@data_option
def history_cmd(game: str | None, player: str | None, since: str | None, as_json: bool,
                data: str | None) -> None:
    """Every saved play, oldest first: date, night, game, players with scores and places,
    winner and how a tie was broken."""
    with open_store(data, reading=True) as store:
        items = history(store, game=game, player=player, since=since)
    if as_json:
        echo_json({"plays": [h.to_json() for h in items]})
    else:
        click.echo("\n".join(history_text(items)))


@click.command(name="standings")
@click.option("--game", "game", metavar="GAME", help="Only this game's table.")
@json_option
@data_option
def standings_cmd(game: str | None, as_json: bool, data: str | None) -> None:
    """Plays, wins, win rate, average and best score for each player, per game and overall."""
    with open_store(data, reading=True) as store:
        tables = standings(store, game)
    if as_json:
        echo_json({"standings": [t.to_json() for t in tables]})
    else:
        click.echo("\n".join(standings_text(tables)))
