"""``delicious read --drawings`` / ``--save-drawings``: a player's named drawings kept
from one sheet to their next (companion.vision.sheet.own_drawings)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import click

from companion.errors import InputError
from companion.games.delicious.read_table import PairedTable, ReadTable, TableSheet, pair_table
from companion.plural import count
from companion.text import ascii_number
from companion.vision.sheet.own_drawings import (
    OwnDrawings,
    load_drawings,
    named_drawings,
    save_drawings_file,
)
from companion.vision.sheet.reader import SheetReading


def quoted(spec: str, most: int = 80) -> str:
    """An option's value as a message quotes it, cut when a paste made it long."""
    return repr(spec if len(spec) <= most else spec[:most] + "...")


def player_number(head: str, players: int) -> int | None:
    """The player index that ``N`` of ``N:...`` names, None when it names none of 1..
    ``players`` ("²" and 5,000 digits, which int() chokes on, included)."""
    if not ascii_number(head, 3):
        return None
    n = int(head)
    return n - 1 if 1 <= n <= players else None


def player_files(specs: Sequence[str], players: int, option: str,
                 written: bool = False) -> dict[int, str]:
    """``[N:]FILE`` per player index (N: needed with several players); ``written``: files
    to write, so one file for two players (the second would replace the first) is refused."""
    out: dict[int, str] = {}
    for spec in specs:
        head, _, rest = spec.partition(":")
        index, path = 0, spec
        if rest and head.isdigit():
            number = player_number(head, players)
            if number is None:
                raise InputError(f"{option} {quoted(spec)}: player number must be "
                                 f"1..{max(players, 1)}")
            index, path = number, rest
        elif players > 1:
            raise InputError(f"{option} {spec!r}: with several players write N:FILE")
        if players == 0:
            raise InputError(f"{option} {spec!r}: no whole player was read")
        if index in out:
            raise InputError(f"{option} is given twice for player {index + 1}")
        if written and path in out.values():
            first = next(i for i, p in out.items() if p == path)
            raise InputError(f"{option}: {path} is given for players {first + 1} and "
                             f"{index + 1}; give each player a file of their own")
        out[index] = path
    return out


def with_drawings(sheets: list[SheetReading], paired: PairedTable[SheetReading],
                  specs: Sequence[str]
                  ) -> tuple[list[SheetReading], PairedTable[SheetReading], dict[int, OwnDrawings]]:
    """The sheets of each player given ``--drawings`` read with that player's drawings,
    re-paired; and the drawings loaded, by player. Drawings saved by another sketch
    network are left out with a warning (their looks do not compare)."""
    if not specs:
        return sheets, paired, {}
    from companion.vision.sheet.sketch_model import model_fingerprint

    loaded = {i: load_drawings(path)
              for i, path in player_files(specs, len(paired.owners), "--drawings").items()}
    for i, own in list(loaded.items()):
        if own.model != model_fingerprint():
            click.echo("companion: warning: the drawings given for player "
                       f"{i + 1} were saved by another version of the sketch reader and are "
                       "not used; answer this sheet's questions and save them again with "
                       "--save-drawings", err=True)
            del loaded[i]
    by_key = {s.key: loaded[i] for i, own in enumerate(paired.owners) if i in loaded
              for s in own}
    sheets = [replace(s, own_drawings=by_key.get(k)) if k in by_key else s
              for k, s in enumerate(sheets)]
    return sheets, pair_table([TableSheet(i, s) for i, s in enumerate(sheets)]), loaded


def save_drawings(read: ReadTable[SheetReading], paths: Mapping[int, str],
                  loaded: dict[int, OwnDrawings]) -> None:
    """Write each player's known drawings (with those they were read with) to their file
    (``paths``: by player index, ``player_files``)."""
    if not paths:
        return
    from companion.vision.sheet.sketch_model import model_fingerprint

    for i, path in paths.items():
        own: Any = named_drawings(read.players[i], model_fingerprint())
        if i in loaded:
            own = loaded[i].with_newer(own)
        save_drawings_file(own, path)
        click.echo(f"wrote {path} ({count(own.count, 'drawing')} of "
                   f"{count(len(own.plants()), 'plant')})", err=True)
