"""``companion players``: who has played, and one player's other spellings."""

from __future__ import annotations

from typing import Any

import click

from companion.cli.output import echo_json, json_option, not_stdout
from companion.cli.store_options import data_option, open_store
from companion.plural import count
from companion.store import aliases as al


@click.group(name="players")
def players() -> None:
    """Players in the store and their aliases (one player under two spellings)."""


@players.command("list")
@json_option
@data_option
def list_cmd(as_json: bool, data: str | None) -> None:
    """Every player, with the spellings counted as them."""
    with open_store(data, reading=True) as store:
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


@players.command("drawings")
@click.argument("name")
@click.option("--forget", is_flag=True, help="Forget the player's drawings.")
@click.option("-o", "--out", "out_path", type=click.Path(dir_okay=False), metavar="FILE",
              callback=not_stdout,
              help="Write them as a drawings file (for delicious read --drawings).")
@click.option("--from", "from_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Keep the drawings of FILE (saved by delicious read --save-drawings) as "
                   "the player's, replacing any kept.")
@json_option
@data_option
def drawings_cmd(name: str, forget: bool, out_path: str | None, from_path: str | None,
                 as_json: bool, data: str | None) -> None:
    """The sketched plants kept for NAME (named at saved tables): how many of each plant;
    a sheet given to NAME on the phone is read with them."""
    from companion.errors import InputError
    from companion.store.player_drawings import (
        forget_player_drawings,
        keep_player_drawings,
        player_drawings,
    )
    from companion.vision.sheet.own_drawings import (
        OwnDrawings,
        load_drawings,
        save_drawings_file,
    )

    if sum((forget, out_path is not None, from_path is not None)) > 1:
        raise InputError("give one of --forget, -o and --from")
    with open_store(data) as store:
        player = store.player(name)
        if forget:
            gone = forget_player_drawings(store, player.id)
            click.echo(f"forgot {player.name}'s drawings" if gone
                       else f"no drawings were kept for {player.name}")
            return
        if from_path is not None:
            loaded = load_drawings(from_path)
            keep_player_drawings(store, player.id, loaded.to_json())
            from companion.vision.sheet.sketch_model import model_fingerprint

            if loaded.model != model_fingerprint():
                click.echo(f"companion: warning: {from_path} was saved by another version of "
                           "the sketch reader: kept, but not used to read sheets", err=True)
        doc = player_drawings(store, player.id)
    own = OwnDrawings.from_json(doc) if doc is not None else None
    if out_path is not None:
        if own is None:
            raise InputError(f"no drawings are kept for {player.name}")
        save_drawings_file(own, out_path)
        click.echo(f"wrote {out_path}", err=True)
        return
    counts = {p: len(own.looks[p]) for p in own.plants()} if own else {}
    if as_json:
        echo_json({"player": player.name, "plants": counts})
        return
    if not counts:
        click.echo(f"No drawings kept for {player.name}.")
        return
    click.echo(f"{player.name}: {count(sum(counts.values()), 'drawing')} of "
               f"{count(len(counts), 'plant')} "
               f"({', '.join(f'{p} {n}' for p, n in counts.items())})")
