"""``companion export``, ``import`` and ``backup``: the store's plays out and back in."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import click

from companion.cli.output import not_stdout
from companion.cli.store_options import data_option, open_store
from companion.errors import InputError
from companion.fileio import write_atomic

FORMATS = ("json", "csv", "bgstats")


def _write(path: str, text: str) -> None:
    """Write atomically (a file beside the target renamed over it); '-' is stdout."""
    if path == "-":
        click.echo(text, nl=False)
        return
    target = Path(path)
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror}") from None


@click.command(name="export")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", show_default=True,
              help="json (ours, for `companion import`), csv (a row a player in a play) or "
                   "bgstats (a play file the BG Stats app imports).")
@click.option("-o", "--out", "out", required=True, metavar="FILE", help="Where to write ('-' "
              "for stdout).")
@click.option("--me", metavar="NAME", help="bgstats: the app owner's player name.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@data_option
def export_cmd(fmt: str, out: str, me: str | None, force: bool, data: str | None) -> None:
    """Write every saved play as JSON, CSV or a BG Stats play file."""
    from companion.store import export
    from companion.store.backup import writable_target

    with open_store(data, reading=True) as store:
        if out != "-":
            writable_target(store, out, force)
        if fmt == "json":
            text = json.dumps(export.export_json(store), indent=1, sort_keys=True) + "\n"
        elif fmt == "csv":
            text = export.export_csv(store)
        else:
            text = json.dumps(export.export_bgstats(store, me), indent=1) + "\n"
        plays = len(store.plays())
    _write(out, text)
    if out != "-":
        click.echo(f"wrote {plays} play{'s' if plays != 1 else ''} to {out}", err=True)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@data_option
def import_cmd(file: str, data: str | None) -> None:
    """Add the plays of a `companion export` JSON file that the store lacks."""
    from companion.store import importing

    doc = importing.load(file)
    with open_store(data) as store:
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        r = importing.import_doc(store, doc, now)
    click.echo(f"imported {r.plays} play(s), {r.nights} night(s), {r.players} new player(s); "
               f"{r.skipped} play(s) already there")


@click.command(name="backup")
@click.argument("file", callback=not_stdout, type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@data_option
def backup_cmd(file: str, force: bool, data: str | None) -> None:
    """Copy the database to FILE with SQLite's online backup (safe while serve runs)."""
    from companion.store.backup import backup

    with open_store(data, reading=True) as store:
        r = backup(store, file, overwrite=force)
        photos = store.photo_dir
    click.echo(f"backed up {r.plays} play(s), schema version {r.version}, to {r.path} "
               f"({r.bytes / 1024:.0f} KB); the photos stay in {photos}")
