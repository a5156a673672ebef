"""``companion delicious read``: photos in, fields, problems and scores out.

A table hands in its photos together, so each is read on its own: one that cannot be read
is named with its reason and the others are still read, paired, checked and scored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from companion.cli.overlay_path import one_overlay_file, overlay_file
from companion.cli.store_options import save_options
from companion.errors import CompanionError, IllegalMoveError, InputError, UnknownNameError
from companion.fileio import write_json
from companion.games.delicious.documents import player_verdicts, read_document
from companion.games.delicious.fieldmap import check_value
from companion.games.delicious.garden import garden
from companion.games.delicious.players import (
    Pairing,
    PlayerReading,
    field_values,
    pair_sheets,
)
from companion.games.delicious.report import ranking_text, score_text
from companion.games.delicious.state import SheetState
from companion.games.delicious.table import TableResult, assess
from companion.games.delicious.verdicts import Verdict
from companion.vision.overlay import write_overlay
from companion.vision.sheet.overlay import draw_overlay
from companion.vision.sheet.reader import Reader, SheetReading, read_photo

Player = PlayerReading[SheetReading]


def _parse_set(spec: str, players: int) -> tuple[int, str, str | None]:
    """``[N:]FIELD=VALUE`` -> (player index, field, value or None to empty it)."""
    if "=" not in spec:
        raise InputError(f"--set {spec!r}: expected FIELD=VALUE (or N:FIELD=VALUE)")
    if players == 0:
        raise InputError(f"--set {spec!r}: no whole player was read to correct")
    target, value = spec.split("=", 1)
    index = 0
    if ":" in target:
        head, target = target.split(":", 1)
        if not head.isdigit() or not 1 <= int(head) <= players:
            raise InputError(f"--set {spec!r}: player number must be 1..{players}")
        index = int(head) - 1
    elif players > 1:
        raise InputError(f"--set {spec!r}: with several players write N:FIELD=VALUE")
    return index, target.strip(), (value.strip() or None)


def _corrections(players: Sequence[Player], sets: Sequence[str]) -> list[Player]:
    """The players with every ``--set`` applied, each value checked as a field map's is."""
    fixes: dict[int, list[tuple[str, str | None]]] = {}
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
    return [p.corrected(fixes.get(i, [])) for i, p in enumerate(players)]


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


def _review_text(photos: str, readings: dict[str, Any], review: list[str],
                 verdicts: Sequence[Verdict], seconds: float) -> list[str]:
    lines = [f"Read {photos} in {seconds:.2f} s; {len(field_values(readings))} fields filled"]
    covered = {f for v in verdicts for f in v.fields}
    lines += [f"! {v.photo}: {v.message}; each field is in --json's review list and "
              f"orange on --overlay" for v in verdicts]
    rest = [fid for fid in review if fid not in covered]
    if rest:
        lines.append(f"Please check {len(rest)} field(s) (least certain first):")
        for fid in rest:
            r = readings[fid]
            note = f"  ({r.note})" if r.note else ""
            lines.append(f"  ? {fid:<34} read {r.value or 'empty'!s:<17} "
                         f"confidence {r.confidence:.2f}{note}")
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
              help="Draw each reading on the flattened sheet: into DIR/<photo>.overlay.png, "
                   "or into OUT.png (.png or .jpg: one photo only).")
@click.option("-o", "--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the reading as a field map to correct and pass to `score`; with "
                   "several players one map each: OUT-player1.json, OUT-player2.json ...")
@click.option("--set", "sets", multiple=True, metavar="[N:]FIELD=VALUE",
              help="Correct a field by hand (a value as in a field map, or a legend letter "
                   "such as C for carrot; empty VALUE empties it); repeatable.")
@click.option("--reader", type=click.Choice([r.value for r in Reader]), default="ours",
              show_default=True, help="Letter reader: our classifier or tesseract.")
@click.option("--player", "player_names", multiple=True, metavar="NAME",
              help="With --save: the players' names, in the order of the photos.")
@save_options
@click.pass_context
def read_cmd(ctx: click.Context, photos: tuple[str, ...], as_json: bool,
             overlay_dir: Path | None, out_path: Path | None, sets: tuple[str, ...],
             reader: str, player_names: tuple[str, ...], save: bool, night: str | None,
             data: str | None) -> None:
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
    if overlay_dir is not None:
        one_overlay_file(overlay_dir, len(photos))
    rd = Reader(reader)
    if rd is Reader.TESSERACT:
        from companion.vision.sheet.tesseract_letters import require_tesseract

        require_tesseract()
    sheets, errors = _read_all(photos, rd)
    if len(photos) == 1 and errors:
        raise InputError(f"{errors[0]['photo']}: {errors[0]['error']}")
    pairing = pair_sheets(sheets)
    players = _corrections(pairing.players, sets)
    names = [Path(p.photos[0]).stem for p in players]
    if len(set(names)) < len(names):
        names = [f"player{i + 1}" for i in range(len(players))]
    table = assess(players, names, pairing.unpaired)

    for i, p in enumerate(players):
        if out_path is not None:
            path = _out_path(out_path, i, len(players))
            write_json(path, {"game": "delicious", "variant": p.variant, "player": names[i],
                              "fields": p.fields, "review": p.review})
            click.echo(f"wrote {path} ({names[i]}: {', '.join(p.photos)})", err=True)
        if overlay_dir is not None:
            violating = {f for v in table.violations[i] for f in v.fields}
            _overlays(overlay_dir, p, table.scores[i], violating, player_verdicts(p))
    if out_path is not None and not players:
        click.echo(f"companion: warning: nothing written to {out_path}: no whole player was "
                   "read", err=True)
    for p in pairing.unpaired:
        if overlay_dir is not None:
            problem = pairing.problem_for(p)
            _overlays(overlay_dir, p, None, set(), player_verdicts(p),
                      [f"NOT SCORED: {problem.message}"] if problem else [])

    doc = read_document(players, names, table, pairing, errors)
    if save:
        from companion.cli.delicious_save import save_table

        if errors:
            raise InputError(f"not saved: {errors[0]['photo']} could not be read")
        if pairing.problems:
            raise IllegalMoveError(f"not saved: {pairing.problems[0].message}")
        save_table(doc, players, player_names, table.legal, data, night)
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        _print_text(players, names, table, pairing)
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
                                          player_verdicts(p), p.seconds)))
        state = SheetState.from_field_map(p.fields, p.variant)
        click.echo(score_text(names[i], state, table.scores[i], table.violations[i]))
        click.echo()
    for p in pairing.unpaired:
        click.echo("\n".join(_review_text(_sheets_label(p), p.readings, p.review,
                                          player_verdicts(p), p.seconds)))
        code = f"player code {p.code}" if p.code else "no player code"
        click.echo(f"Not scored ({code}): see below.")
        click.echo()
    if len(players) > 1:
        click.echo(ranking_text(table.standings))
    if pairing.problems:
        click.echo(f"{len(pairing.unpaired)} sheet(s) not scored:")
        for pr in pairing.problems:
            click.echo(f"  ! [{pr.code}] {pr.message}")


def _overlays(out_dir: Path, p: Player, score: Any, violating: set[str],
              verdicts: Sequence[Verdict], notes: Sequence[str] = ()) -> None:
    review = set(p.review)
    readings = p.readings
    for s in p.sheets:
        summary = None if score is None else {"planter": score.planter, "total": score.total}
        points = None if score is None else score.containers
        said = [*notes, *(v.message for v in verdicts if v.photo == s.photo)]
        img = draw_overlay(s, violating, points, summary, review, readings, said)
        path = overlay_file(out_dir, s.photo)
        write_overlay(str(path), img)
        click.echo(f"wrote {path}", err=True)

