"""``companion players``: who has played, and one player's other spellings."""

from __future__ import annotations

from typing import Any

import click

from companion.cli.output import echo_json, json_option
from companion.cli.store_options import data_option, open_store
from companion.store import aliases as al


@click.group(name="players")
def players() -> None:
    """Players in the store and their aliases (one player under two spellings)."""


@players.command("list")
@json_option
@data_option
def list_cmd(as_json: bool, data: str | None) -> None:
    """Every player, with the spellings counted as them."""
    with open_store(data) as store:
        everyone = store.players()
        links = al.aliases(store)
    spelled: dict[int, list[str]] = {}
    for a in links:
        spelled.setdefault(a.player.id, []).append(a.alias.name)
    aliased = {a.alias.id for a in links}
    rows: list[dict[str, Any]] = [{"name": p.name, "aliases": spelled.get(p.id, [])}
            for p in everyone if p.id not in aliased]
    if as_json:
        echo_json({"players": rows})
        return
    if not rows:
        click.echo("No players yet.")
    for r in rows:
        also = f"  (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        click.echo(f"{r['name']}{also}")


@players.command("alias")
@click.argument("name")
@click.argument("other")
@data_option
def alias_cmd(name: str, other: str, data: str | None) -> None:
    """Count the player OTHER as NAME in history and standings (undo with unalias)."""
    with open_store(data) as store:
        link = al.set_alias(store, name, other)
    click.echo(f"{link.alias.name!r} now counts as {link.player.name!r}")


@players.command("unalias")
@click.argument("other")
@data_option
def unalias_cmd(other: str, data: str | None) -> None:
    """Count OTHER as a player of its own again."""
    with open_store(data) as store:
        link = al.remove_alias(store, other)
    click.echo(f"{link.alias.name!r} no longer counts as {link.player.name!r}")
