"""``companion dice read PHOTO``: the block in a photo, as text or block JSON."""

from __future__ import annotations

import json

import click

from companion.cli.dice_colours import colours_option, load_game_colours
from companion.cli.output import not_stdout
from companion.cli.overlay_path import overlay_file
from companion.errors import InputError
from companion.fileio import refuse_replacing
from companion.vision.dice.doubt_words import doubts_sentence


@click.command(name="read")
@click.argument("photo", metavar="PHOTO")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--overlay", metavar="OUT.png|DIR", callback=not_stdout,
              help="Save the photo with the grid and each die's reading drawn on it: into "
                   "OUT.png (.png or .jpg), or into DIR/<photo>.overlay.png.")
@click.option("--save-colours", "save_colours", type=click.Path(dir_okay=False),
              callback=not_stdout,
              metavar="COLOURS.json",
              help="PHOTO is the game's full starting block (7 dice of each ingredient): "
                   "save its dice colours, to read the game's later photos with --colours.")
@colours_option
def read(photo: str, as_json: bool, overlay: str | None, save_colours: str | None,
         colours: str | None) -> None:
    """Read the dice in PHOTO: each die's cell, ingredient and pips.

    Doubtful dice are listed for review; faces our dice do not carry are flagged; a cell
    beside the block where something stands unread is listed as a gap (shown as ?).
    """
    from companion.vision.dice.reader import read_dice_photo

    refuse_replacing([("--overlay", overlay), ("--save-colours", save_colours)], [photo])
    known = load_game_colours(colours)
    reading = read_dice_photo(photo) if known is None else read_dice_photo(photo, known)
    if save_colours:
        from companion.vision.dice.colours import learn_colours, save_colours_file

        try:
            learnt = learn_colours(reading)
        except InputError as exc:
            raise InputError(f"{photo}: {exc}") from None
        save_colours_file(learnt, save_colours)
        click.echo(f"wrote {save_colours}", err=True)
    if overlay:
        from companion.vision.dice.overlay import draw_reading

        out = str(overlay_file(overlay, photo))
        draw_reading(photo, reading, out)
        click.echo(f"wrote {out}", err=True)
    if as_json:
        click.echo(json.dumps({"photo": photo, **reading.to_json()}))
        return
    rows = 1 + max(d.row for d in reading.dice)
    cols = 1 + max(d.col for d in reading.dice)
    where = "on the mat" if reading.on_mat else "on the table"
    click.echo(f"{photo}: {len(reading.dice)} dice {where}, {rows} rows x {cols} cols, "
               f"{sum(d.value for d in reading.dice)} pips")
    by_cell = {d.cell: d for d in reading.dice}
    gaps = {g.cell for g in reading.gaps}
    for r in range(rows):
        line = []
        for c in range(cols):
            d = by_cell.get((r, c))
            empty = "  ?  " if (r, c) in gaps else "  .  "
            line.append(empty if d is None else
                        f"{d.ingredient.value[:3]}{d.value}{'?' if d.review else ' '}")
        click.echo("  " + " ".join(line))
    for d in sorted(reading.review, key=lambda d: d.confidence):
        why = doubts_sentence(d.flags)  # the flags themselves are in --json
        click.echo(f"  check ({d.row}, {d.col}): read {d.ingredient.value} {d.value} "
                   f"({d.confidence:.2f}: {why})")
    for g in reading.gaps:
        click.echo(f"  check ({g.row}, {g.col}): something stands here that was not read "
                   "as a die (a missed die?)")
