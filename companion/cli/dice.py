"""``companion dice``: list and check cleaver cuts, final scoring.

``dice read`` lives in ``dice_read.py``. Photos go through
``companion.vision.dice.reader`` (imported only when a photo is given).
"""

from __future__ import annotations

from typing import Any

import click

from companion.cli.dice_colours import colours_option, load_game_colours
from companion.cli.lazy import LazyCommand, LazyGroup
from companion.cli.output import echo_json, json_option, not_stdout
from companion.cli.overlay_path import overlay_file
from companion.cli.store_options import save_finished, save_options
from companion.errors import InputError
from companion.fileio import STDIN, errors_naming, read_json_object, refuse_replacing
from companion.games.diced_veggies.compare import judge_change
from companion.games.diced_veggies.cut import SPEC_HELP, Cut
from companion.games.diced_veggies.cutting import CutOptions
from companion.games.diced_veggies.documents import cuts_document
from companion.games.diced_veggies.grid import fmt_cells
from companion.games.diced_veggies.model import Block
from companion.games.diced_veggies.outcome import finish


@click.group(name="dice", cls=LazyGroup, lazy={
    "read": LazyCommand("companion.cli.dice_read:read",
                        "Read the dice in PHOTO: each die's cell, ingredient and pips."),
})
def dice() -> None:
    """Diced Veggies: read a block photo, list and check cleaver cuts, final scores."""


def _is_json(source: str) -> bool:
    return source == STDIN or source.lower().endswith(".json")


def _load(
    source: str, *, require_connected: bool = True, colours: Any = None
) -> tuple[Block, Any]:
    """The block in a block .json file or a photo, and the photo reading (None for JSON);
    ``colours``: the game's dice colours to read a photo with."""
    if _is_json(source):
        doc = read_json_object(source, 'a block: an object with a "dice" list')
        with errors_naming(source):
            return Block.from_json(doc, require_connected=require_connected), None
    try:
        from companion.vision.dice.reader import read_dice_photo
    except ModuleNotFoundError as exc:
        raise InputError(
            f"{source}: reading dice photos is not available here ({exc}); pass a block .json"
        ) from None
    reading = read_dice_photo(source) if colours is None else read_dice_photo(source, colours)
    with errors_naming(source):
        return Block.from_json(reading.block_json(), require_connected=require_connected), reading


def _colours(source: str, path: str | None) -> Any:
    """The game's dice colours from ``--colours`` (None without it, or for a block .json,
    which has no photo to read)."""
    if path is None or _is_json(source):
        return None
    return load_game_colours(path)


def _warn(block: Block, source: str, reading: Any = None) -> None:
    for note in block.oddities():
        click.echo(f"companion: warning: {source}: {note}", err=True)
    doubtful = getattr(reading, "review", None) or []
    if doubtful:
        click.echo(
            f"companion: warning: {source}: {len(doubtful)} dice read with low confidence; "
            "check them (companion dice read)",
            err=True,
        )
    gaps = getattr(reading, "gaps", None) or ()
    if gaps:
        cells = ", ".join(f"({g.row}, {g.col})" for g in gaps)
        click.echo(
            f"companion: warning: {source}: something stands unread at {cells}; a die may "
            "be missing from the block (companion dice read)",
            err=True,
        )


def _options(full_only: bool, kids: bool) -> CutOptions:
    return CutOptions(full_length_only=full_only, kids=kids)


_full_only = click.option(
    "--full-only", is_flag=True, help="Only full-length cuts (the blade runs the whole seam)."
)
_kids = click.option(
    "--kids", is_flag=True, help="Kids' variant: any three dice instead of the 10-pip limit."
)


@dice.command()
@click.argument("source", metavar="PHOTO|BLOCK.json")
@json_option
@click.option("--overlay", metavar="OUT.png|DIR", callback=not_stdout,
              help="Draw the legal cuts on the photo: into OUT.png (.png or .jpg), or into "
                   "DIR/<photo>.overlay.png.")
@colours_option
@_full_only
@_kids
def cuts(source: str, as_json: bool, overlay: str | None, colours: str | None,
         full_only: bool, kids: bool) -> None:
    """List every legal cut, one per distinct set of dice taken."""
    if overlay and _is_json(source):
        raise InputError("--overlay needs a photo: a block .json has no picture to draw on")
    refuse_replacing([("--overlay", overlay)], [source])
    block, reading = _load(source, colours=_colours(source, colours))
    _warn(block, source, reading)
    options = _options(full_only, kids)
    checks = block.legal_cut_checks(options)
    doc = cuts_document(block, options, checks)
    if overlay:
        from companion.vision.dice.overlay import draw_cuts

        out = str(overlay_file(overlay, source))
        draw_cuts(source, reading, doc, out)
        click.echo(f"wrote {out}", err=True)
    if as_json:
        echo_json(doc, indent=None)
        return
    click.echo(f"{source}: {len(block)} dice, {block.total} pips")
    if not block.dice:
        click.echo("The block is empty: restock.")
    elif doc["take_all"]:
        limit = "at most 3 dice" if kids else "at most 10 pips"
        click.echo(f"Take the whole block without cutting ({limit}).")
    elif not checks:
        click.echo("No legal cut.")
    else:
        click.echo(f"{len(checks)} legal cut{'s' if len(checks) != 1 else ''}:")
        width = max(len(str(c.cut)) for c in checks)
        for c in checks:
            click.echo(f"  {str(c.cut):<{width}}  {c.sum:>2} pips  takes {fmt_cells(c.taken)}")


@dice.command()
@click.argument("sources", nargs=-1, required=True, metavar="PHOTO|BLOCK.json [AFTER]")
@click.option("--cut", "spec", metavar="SPEC", help=f"The cut to check: {SPEC_HELP}.")
@json_option
@colours_option
@_full_only
@_kids
@click.pass_context
def check(
    ctx: click.Context,
    sources: tuple[str, ...],
    spec: str | None,
    as_json: bool,
    colours: str | None,
    full_only: bool,
    kids: bool,
) -> None:
    """Check one cut (--cut SPEC), or judge the cut between a BEFORE and an AFTER block.

    Exit 1 when the cut is illegal.
    """
    options = _options(full_only, kids)
    if spec is not None:
        if len(sources) != 1:
            raise click.UsageError("--cut checks one block: give exactly one PHOTO|BLOCK.json")
        cut = Cut.parse(spec)
        block, reading = _load(sources[0], colours=_colours(sources[0], colours))
        _warn(block, sources[0], reading)
        verdict = block.check(cut, options)
        doc = verdict.to_json()
        legal, reasons = verdict.legal, verdict.reasons
        what = f"{cut} takes {fmt_cells(verdict.taken) or 'nothing'} ({verdict.sum} pips)"
    else:
        if len(sources) != 2:
            raise click.UsageError("give BEFORE and AFTER blocks, or one block and --cut SPEC")
        known = _colours(sources[0], colours) if not _is_json(sources[0]) else (
            _colours(sources[1], colours))
        before, first = _load(sources[0], colours=known)
        after, second = _load(sources[1], require_connected=False, colours=known)
        _warn(before, sources[0], first)
        _warn(after, sources[1], second)
        change = judge_change(before, after, options)
        doc = change.to_json()
        legal, reasons = change.legal, change.reasons
        how = "taking the whole block" if change.take_all else (
            f"cut {change.cut}" if change.cut else "no single cut")
        what = (f"{fmt_cells(change.taken) or 'nothing'} taken ({change.sum} pips): {how}")
    if as_json:
        echo_json(doc, indent=None)
    else:
        click.echo(f"{'legal' if legal else 'illegal'}: {what}")
        for reason in reasons:
            click.echo(f"  - {reason}")
    if not legal:
        ctx.exit(1)


@dice.command(name="score")
@click.argument("state", metavar="STATE.json", type=click.Path(dir_okay=False))
@json_option
@save_options
@click.pass_context
def score_cmd(ctx: click.Context, state: str, as_json: bool, save: bool, night: str | None,
              data: str | None) -> None:
    """Final scores from entered recipe stars and hype points (see examples/dice/).

    Exit 1 when the state breaks a rule (it is scored all the same).
    """
    doc = read_json_object(state, 'a score state: an object with a "players" list')
    with errors_naming(state):
        finished = finish(doc)
    if as_json:
        echo_json(finished.doc, indent=None)
    else:
        click.echo("\n".join(finished.lines))
    if save:
        save_finished("diced-veggies", finished.doc, finished.problems, data, night)
    if finished.problems:
        ctx.exit(1)
