"""``companion delicious read``: photos in, fields, problems and scores out.

A table hands in its photos together, so each is read on its own: one that cannot be read
is named with its reason and the others are still read, paired, checked and scored.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from companion.cli.delicious_drawings import (
    player_files,
    player_number,
    quoted,
    save_drawings,
    with_drawings,
)
from companion.cli.output import not_stdout
from companion.cli.overlay_path import one_overlay_file, overlay_file
from companion.cli.store_options import save_options
from companion.errors import CompanionError, IllegalMoveError, InputError, UnknownNameError
from companion.fileio import (
    copies_message,
    refuse_replacing,
    same_content,
    same_file,
    write_json,
)
from companion.games.delicious.documents import player_verdicts
from companion.games.delicious.fieldmap import check_value
from companion.games.delicious.garden import garden
from companion.games.delicious.players import Pairing, PlayerReading, field_values
from companion.games.delicious.read_table import Fix, ReadTable, TableSheet, pair_table
from companion.games.delicious.report import ranking_text, score_text
from companion.games.delicious.state import SheetState
from companion.games.delicious.supply import MAX_SEED, supply
from companion.games.delicious.table import TableResult
from companion.games.delicious.verdicts import Verdict
from companion.plural import count
from companion.vision.overlay import write_overlay
from companion.vision.sheet.overlay import draw_overlay
from companion.vision.sheet.reader import Reader, SheetReading, read_photo

Player = PlayerReading[SheetReading]


def _parse_set(spec: str, players: int, option: str = "--set") -> tuple[int, str, str | None]:
    """``[N:]FIELD=VALUE`` -> (player index, field, value or None to empty it)."""
    if "=" not in spec:
        raise InputError(f"{option} {spec!r}: expected FIELD=VALUE (or N:FIELD=VALUE)")
    if players == 0:
        raise InputError(f"{option} {spec!r}: no whole player was read to correct")
    target, value = spec.split("=", 1)
    index = 0
    if ":" in target:
        head, target = target.split(":", 1)
        number = player_number(head, players)
        if number is None:
            raise InputError(f"{option} {quoted(spec)}: player number must be 1..{players}")
        index = number
    elif players > 1:
        raise InputError(f"{option} {spec!r}: with several players write N:FIELD=VALUE")
    return index, target.strip(), (value.strip() or None)


def _player_fixes(players: Sequence[Player], sets: Sequence[str],
                  names: Sequence[str] = ()) -> dict[int, list[Fix]]:
    """Every ``--name`` (the field and every drawing grouped with it), then every
    ``--set`` (one field), by player, each value checked as a field map's is."""
    fixes: dict[int, list[Fix]] = {}
    for spec in names:
        i, fid, value = _parse_set(spec, len(players), "--name")
        if fid not in players[i].readings:
            raise UnknownNameError(
                f"--name {spec!r}: {fid!r} is not a field of {', '.join(players[i].photos)}")
        if value is None:
            raise InputError(f"--name {spec!r}: name a plant (to empty a field use --set)")
        value = check_value(garden(players[i].variant).field_kinds(), fid, value,
                            f"--name {spec!r}", letters=True)
        fixes.setdefault(i, []).extend((f, value) for f in players[i].group_of(fid))
    for spec in sets:
        i, fid, value = _parse_set(spec, len(players))
        if fid not in players[i].readings:
            raise UnknownNameError(
                f"--set {spec!r}: {fid!r} is not a field of {', '.join(players[i].photos)}"
            )
        if value is not None:
            value = check_value(garden(players[i].variant).field_kinds(), fid, value,
                                f"--set {spec!r}", letters=True)
        fixes.setdefault(i, []).append((fid, value))
    return fixes


def _out_path(out: Path, index: int, players: int) -> Path:
    return out if players == 1 else out.with_name(f"{out.stem}-player{index + 1}{out.suffix}")


def _reason(photo: str, exc: Exception) -> str:
    """The error's message without the photo's name in front (it is given beside it)."""
    text = str(exc)
    return text[len(photo) + 2:] if text.startswith(f"{photo}: ") else text


def _read_all(photos: Sequence[str], reader: Reader
              ) -> tuple[list[SheetReading], list[dict[str, str]]]:
    sheets: list[SheetReading] = []
    errors: list[dict[str, str]] = []
    for photo in photos:
        try:
            sheets.append(read_photo(photo, reader))
        except CompanionError as exc:
            errors.append({"photo": photo, "error": _reason(photo, exc)})
    return sheets, errors


def _where(p: Player, fid: str) -> str:
    """The field in words (``field_words``) from the geometry of the sheet holding it."""
    from companion.games.delicious.field_words import field_words

    for sheet in p.sheets:
        if fid in sheet.readings:
            return field_words(sheet.geometry, fid)
    return fid


def _review_text(photos: str, readings: dict[str, Any], review: list[str],
                 verdicts: Sequence[Verdict], seconds: float,
                 where: Callable[[str], str] = str, by_hand: int = 0) -> list[str]:
    lines = [f"Read {photos} in {seconds:.2f} s; {len(field_values(readings))} fields filled"]
    covered = {f for v in verdicts for f in v.fields}
    lines += [f"! {v.photo}: {v.message}; each field is in --json's review list and "
              f"orange on --overlay" for v in verdicts]
    rest = [fid for fid in review if fid not in covered]
    if rest:
        lines.append(f"Please check {len(rest)} field{'s' if len(rest) != 1 else ''} "
                     "(least certain first):")
        for fid in rest:
            r = readings[fid]
            note = f"  ({r.note})" if r.note else ""
            lines.append(f"  ? {fid:<34} read {r.value or 'empty'!s:<17} "
                         f"confidence {r.confidence:.2f}{note}")
            if where(fid) != fid:
                lines.append(f"      ({where(fid)})")
    elif not verdicts and by_hand:
        lines.append(f"Nothing left to check ({by_hand} field{'s' if by_hand != 1 else ''} "
                     "set by hand).")
    elif not verdicts:
        lines.append("Every field was read with confidence.")
    return lines


def _sheets_label(p: Player) -> str:
    return ", ".join(f"{s.photo} ({s.sheet}, garden {s.variant})" for s in p.sheets)


@click.command(name="read")
@click.argument("photos", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--overlay", "overlay_dir", type=click.Path(path_type=Path), metavar="DIR|OUT.png",
              callback=not_stdout,
              help="Draw each reading on the flattened sheet: into DIR/<photo>.overlay.png, "
                   "or into OUT.png (.png or .jpg: one photo only).")
@click.option("-o", "--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              callback=not_stdout,
              help="Write the reading as a field map to correct and pass to `score`; with "
                   "several players one map each: OUT-player1.json, OUT-player2.json ...")
@click.option("--set", "sets", multiple=True, metavar="[N:]FIELD=VALUE",
              help="Correct a field by hand (a value as in a field map, or a legend letter "
                   "such as C for carrot; empty VALUE empties it); repeatable.")
@click.option("--name", "plant_names", multiple=True, metavar="[N:]FIELD=PLANT",
              help="Name the drawing in FIELD and every drawing grouped with it (answers "
                   "one question of --json's questions); repeatable.")
@click.option("--reader", type=click.Choice([r.value for r in Reader]), default="ours",
              show_default=True, help="Letter reader: our classifier or tesseract.")
@click.option("--player", "player_names", multiple=True, metavar="NAME",
              help="With --save: the players' names, in the order of the photos.")
@click.option("--supply-seed", type=click.IntRange(0, MAX_SEED), metavar="S",
              help="Also check each sheet against the community supply of seed S "
                   "(`delicious supply --seed S`): what it cannot explain goes to review.")
@click.option("--drawings", "drawings_in", multiple=True, metavar="[N:]FILE",
              help="Name drawings like the player's own named drawings of earlier sheets "
                   "(saved with --save-drawings); with several players N:FILE.")
@click.option("--save-drawings", "drawings_out", multiple=True, metavar="[N:]FILE",
              callback=not_stdout,
              help="Write the player's drawings whose plant is known (trusted, or named "
                   "with --name / --set) to FILE, with those of --drawings, for their next "
                   "sheets; with several players N:FILE.")
@save_options
@click.pass_context
def read_cmd(ctx: click.Context, photos: tuple[str, ...], as_json: bool,
             overlay_dir: Path | None, out_path: Path | None, sets: tuple[str, ...],
             plant_names: tuple[str, ...], reader: str, player_names: tuple[str, ...],
             supply_seed: int | None, drawings_in: tuple[str, ...],
             drawings_out: tuple[str, ...], save: bool,
             night: str | None, data: str | None) -> None:
    """Read photographed Delicious sheets: every field, every rule problem, the score.

    Garden and play sheets photographed separately are paired by their player code; a
    sheet whose partner is missing, or a code on two gardens, is named and not scored.
    Each photo is read on its own: one that cannot be read is named with its reason and
    the rest are still scored. Exit 1 when a sheet breaks a rule or is left unpaired, 2
    when a photo cannot be read.
    """
    repeated = sorted({p for p in photos if photos.count(p) > 1})
    if repeated:
        raise InputError(f"{repeated[0]} is given more than once")
    twice = same_file(photos)
    if twice:
        raise InputError(f"{twice[0]} and {twice[1]} are the same photo; give each once")
    copy = same_content(photos)
    if copy:
        raise InputError(copies_message(*copy))
    if overlay_dir is not None:
        one_overlay_file(overlay_dir, len(photos))
    refuse_replacing([("-o", out_path), ("--overlay", overlay_dir)], photos)
    rd = Reader(reader)
    if rd is Reader.TESSERACT:
        from companion.vision.sheet.tesseract_letters import require_tesseract

        require_tesseract()
    sheets, errors = _read_all(photos, rd)
    if len(photos) == 1 and errors:
        raise InputError(f"{errors[0]['photo']}: {errors[0]['error']}")
    paired = pair_table([TableSheet(i, s) for i, s in enumerate(sheets)])
    save_to = player_files(drawings_out, len(paired.owners), "--save-drawings",  # before work
                           written=True)
    refuse_replacing([("--save-drawings", p) for p in save_to.values()], photos)
    sheets, paired, own = with_drawings(sheets, paired, drawings_in)
    fixes = _player_fixes(paired.players, sets, plant_names)
    kept = None if supply_seed is None else supply(supply_seed)
    read = paired.score(fixes, errors, supply=kept)
    save_drawings(read, save_to, own)
    shown = read  # what the text says: the names given with --player, not the photos'
    if player_names and len(player_names) == len(paired.owners) and not as_json:
        named = {it.key: name for own, name in zip(paired.owners, player_names, strict=True)
                 for it in own}
        shown = pair_table([TableSheet(i, s, name=named.get(i))
                            for i, s in enumerate(sheets)]).score(fixes, errors, supply=kept)
    players, names, table, pairing = read.players, read.names, read.result, read.pairing

    for i, p in enumerate(players):
        if out_path is not None:
            path = _out_path(out_path, i, len(players))
            write_json(path, {"game": "delicious", "variant": p.variant, "player": names[i],
                              "fields": p.fields, "review": p.review})
            click.echo(f"wrote {path} ({names[i]}: {', '.join(p.photos)})", err=True)
        if overlay_dir is not None:
            _overlays(overlay_dir, read, read.owners[i])
    if out_path is not None and not players:
        click.echo(f"companion: warning: nothing written to {out_path}: no whole player was "
                   "read", err=True)
    if overlay_dir is not None:
        _overlays(overlay_dir, read, [sheet for sheet, _ in read.unpaired])

    doc = read.document
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        _print_text(shown.players, shown.names, shown.result, shown.pairing)
    if save:  # after the reading, so a table that cannot be kept still shows what to fix
        from companion.cli.delicious_save import save_table

        if errors:
            raise InputError(f"not saved: {errors[0]['photo']} could not be read")
        if pairing.problems:
            raise IllegalMoveError(f"not saved: {pairing.problems[0].message}")
        save_table(doc, players, player_names, table.legal, data, night)
    for e in errors:
        click.echo(f"companion: error: {e['photo']}: {e['error']}", err=True)
    if errors:
        ctx.exit(2)
    if pairing.problems or not table.legal:
        ctx.exit(1)


def _print_text(players: Sequence[Player], names: Sequence[str], table: TableResult,
                pairing: Pairing[SheetReading]) -> None:
    for i, p in enumerate(players):
        click.echo("\n".join(_review_text(_sheets_label(p), p.readings, p.review,
                                          player_verdicts(p), p.seconds,
                                          functools.partial(_where, p),
                                          len({f for f, _ in p.corrections}))))
        for m in p.supply_checks or ():
            click.echo(f"! supply: {m.message} ({', '.join(m.fields)})")
        if p.key_plants:
            click.echo(f"{count(len(p.named_by_key), 'drawing')} named like the player's "
                       f"drawings in the sheet's key ({', '.join(p.key_plants)})")
        if p.named_by_drawings:
            click.echo(f"{count(len(p.named_by_drawings), 'drawing')} named like the "
                       "player's earlier drawings (--drawings)")
        if p.named_by_answers:
            click.echo(f"{count(len(p.named_by_answers), 'more drawing')} named from the "
                       "answers (--name, --set): a plant already named is ruled out for the "
                       "player's other drawings")
        for q in p.questions:
            held = q["what"]  # "drawing" or "letter"
            what = (f"the {held} in {q['fields'][0]} looks" if len(q["fields"]) == 1 else
                    f"{len(q['fields'])} alike {held}s ({', '.join(q['fields'])}) look")
            click.echo(f"? {q['id']}: {what} like {q['guess'] or 'no plant known'}; name "
                       f"{'it' if len(q['fields']) == 1 else 'them all'} with --name "
                       f"{q['fields'][0]}=PLANT")
        if p.key_hint:
            click.echo("tip: draw each plant once in the sheet's key (\"Your plants\") and "
                       "drawings like them are named with no question")
        state = SheetState.from_field_map(p.fields, p.variant)
        click.echo(score_text(names[i], state, table.scores[i], table.violations[i]))
        click.echo()
    for p in pairing.unpaired:
        click.echo("\n".join(_review_text(_sheets_label(p), p.readings, p.review,
                                          player_verdicts(p), p.seconds,
                                          functools.partial(_where, p))))
        code = f"player code {p.code}" if p.code else "no player code"
        click.echo(f"Not scored ({code}): see below.")
        click.echo()
    if len(players) > 1:
        click.echo(ranking_text(table.standings))
    if pairing.problems:
        click.echo(f"{count(len(pairing.unpaired), 'sheet')} not scored:")
        for pr in pairing.problems:
            click.echo(f"  ! [{pr.code}] {pr.message}")


def _overlays(out_dir: Path, read: ReadTable[SheetReading],
              sheets: Sequence[TableSheet[SheetReading]]) -> None:
    written: set[Path] = set()
    for sheet in sheets:
        _, m = read.marks(sheet.key)
        img = draw_overlay(sheet.reading, m.violating, m.container_points, m.summary,
                           m.review, m.readings, m.notes)
        path = overlay_file(out_dir, sheet.reading.photo)
        n = 1
        while path in written:  # a/IMG_1.jpg and b/IMG_1.jpg: one overlay each
            n += 1
            path = path.with_name(f"{Path(sheet.reading.photo).stem}-{n}.overlay.png")
        written.add(path)
        write_overlay(str(path), img)
        click.echo(f"wrote {path}", err=True)
