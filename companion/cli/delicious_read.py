"""``companion delicious read``: photos in, fields, problems and scores out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from companion.cli.store_options import save_options
from companion.errors import InputError
from companion.games.delicious.players import PlayerReading, group_players
from companion.games.delicious.report import ranking_text, score_text
from companion.games.delicious.state import SheetState
from companion.games.delicious.table import assess
from companion.vision.overlay import write_overlay
from companion.vision.sheet.overlay import draw_overlay
from companion.vision.sheet.reader import Reader, SheetReading, read_photo


def _parse_set(spec: str, players: int) -> tuple[int, str, str | None]:
    """``[N:]FIELD=VALUE`` -> (player index, field, value or None to empty it)."""
    if "=" not in spec:
        raise InputError(f"--set {spec!r}: expected FIELD=VALUE (or N:FIELD=VALUE)")
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


def _out_path(out: Path, index: int, players: int) -> Path:
    return out if players == 1 else out.with_name(f"{out.stem}-player{index + 1}{out.suffix}")


def _write(path: Path, doc: dict[str, Any]) -> None:
    try:
        path.write_text(json.dumps(doc, indent=2) + "\n")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None


def _reading_text(p: PlayerReading[SheetReading]) -> str:
    sheets = ", ".join(f"{s.photo} ({s.sheet}, garden {s.variant})" for s in p.sheets)
    lines = [f"Read {sheets} in {p.seconds:.2f} s; {len(p.fields)} fields filled"]
    readings = p.readings
    if p.review:
        lines.append(f"Please check {len(p.review)} field(s) (least certain first):")
        for fid in p.review:
            r = readings[fid]
            note = f"  ({r.note})" if r.note else ""
            lines.append(f"  ? {fid:<34} read {r.value or 'empty'!s:<17} "
                         f"confidence {r.confidence:.2f}{note}")
    else:
        lines.append("Every field was read with confidence.")
    return "\n".join(lines)


@click.command(name="read")
@click.argument("photos", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--overlay", "overlay_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write DIR/<photo>.overlay.png: each reading drawn on the flattened sheet.")
@click.option("-o", "--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the reading as a field map to correct and pass to `score`.")
@click.option("--set", "sets", multiple=True, metavar="[N:]FIELD=VALUE",
              help="Correct a field by hand (empty VALUE empties it); repeatable.")
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

    Garden and play sheets photographed separately are paired by their player code.
    Exit 1 when a sheet breaks a rule, 2 when a photo cannot be read.
    """
    players = group_players([read_photo(p, reader) for p in photos])
    fixes: dict[int, list[tuple[str, str | None]]] = {}
    for spec in sets:
        i, fid, value = _parse_set(spec, len(players))
        fixes.setdefault(i, []).append((fid, value))
    players = [p.corrected(fixes.get(i, [])) for i, p in enumerate(players)]
    names = [Path(p.photos[0]).stem for p in players]
    if len(set(names)) < len(names):
        names = [f"player{i + 1}" for i in range(len(players))]
    table = assess(players, names)

    docs = []
    for i, p in enumerate(players):
        score, violations = table.scores[i], table.violations[i]
        docs.append({
            "photo": p.photos[0],
            "photos": p.photos,
            "sheet": "+".join(s.sheet for s in p.sheets),
            "variant": p.variant,
            "code": p.code,
            "player": names[i],
            "fields": p.fields,
            "confidence": p.confidence,
            "review": p.review,
            "violations": [v.to_json() for v in violations],
            "score": score.to_json(),
            "seconds": round(p.seconds, 3),
        })
        if out_path is not None:
            path = _out_path(out_path, i, len(players))
            _write(path, {"game": "delicious", "variant": p.variant, "player": names[i],
                          "fields": p.fields, "review": p.review})
            click.echo(f"wrote {path}", err=True)
        if overlay_dir is not None:
            _overlays(overlay_dir, p, score, {f for v in violations for f in v.fields})

    doc: dict[str, Any] = docs[0] if len(docs) == 1 else {
        "players": docs, "ranking": [s.to_json() for s in table.standings]}
    if save:
        from companion.cli.delicious_save import save_table

        save_table(doc, players, player_names, table.legal, data, night)
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        for i, p in enumerate(players):
            click.echo(_reading_text(p))
            state = SheetState.from_field_map(p.fields, p.variant)
            click.echo(score_text(names[i], state, table.scores[i], table.violations[i]))
            click.echo()
        if len(players) > 1:
            click.echo(ranking_text(table.standings))
    if not table.legal:
        ctx.exit(1)


def _overlays(out_dir: Path, p: PlayerReading[SheetReading], score: Any,
              violating: set[str]) -> None:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {out_dir}: {exc.strerror}") from None
    review = set(p.review)
    readings = p.readings
    for s in p.sheets:
        summary = {"planter": score.planter, "total": score.total}
        img = draw_overlay(s, violating, score.containers, summary, review, readings)
        path = out_dir / f"{Path(s.photo).stem}.overlay.png"
        write_overlay(str(path), img)
        click.echo(f"wrote {path}", err=True)
