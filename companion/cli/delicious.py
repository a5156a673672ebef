"""``companion delicious``: garden, simulate, score (``read`` lives in its own module)."""

from __future__ import annotations

from pathlib import Path

import click

from companion.cli.lazy import LazyCommand, LazyGroup
from companion.cli.output import echo_json, json_option, not_stdout
from companion.errors import InputError
from companion.fileio import (
    STDIN,
    STDIN_LABEL,
    read_json_object,
    same_file,
    source_label,
    write_json,
)
from companion.games.delicious.fieldmap import load_field_map
from companion.games.delicious.garden import VARIANTS, garden
from companion.games.delicious.report import garden_text, ranking_text, score_text
from companion.games.delicious.scoring import rank
from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.state import SheetState
from companion.games.delicious.table import score_table

_VARIANT = click.option(
    "--variant", default="A", show_default=True, help=f"Garden side: {' or '.join(VARIANTS)}."
)


@click.group(name="delicious", cls=LazyGroup, lazy={
    "read": LazyCommand("companion.cli.delicious_read:read_cmd", "Read photographed Delicious "
                        "sheets: every field, every rule problem, the score."),
    "supply": LazyCommand("companion.cli.delicious_supply:supply_cmd", "Deal the community "
                          "supply: 12 rounds of a top and a bottom card, each with its token."),
})
def delicious() -> None:
    """Delicious: garden, simulate, score, read photos."""


@delicious.command(name="garden")
@_VARIANT
@json_option
def garden_cmd(variant: str, as_json: bool) -> None:
    """Describe the garden sheet: containers, planter, tools, play-sheet fields."""
    g = garden(variant)
    if as_json:
        echo_json(g.to_json())
    else:
        click.echo(garden_text(g))


@delicious.command(name="simulate")
@click.option("--seed", type=int, required=True, help="Random seed; same seed, same game.")
@click.option("--players", type=int, default=2, show_default=True)
@_VARIANT
@json_option
@click.option(
    "-o", "--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
    callback=not_stdout,
    help="Write one field map per player: DIR/player1.json ...",
)
def simulate_cmd(
    seed: int, players: int, variant: str, as_json: bool, out_dir: Path | None
) -> None:
    """Play a whole legal game with random choices and score it."""
    record = simulate_game(seed, players, variant)
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot write to {out_dir}: {exc.strerror}") from None
        for i in range(players):
            path = out_dir / f"player{i + 1}.json"
            write_json(path, record.player_document(i))
            click.echo(f"wrote {path}", err=True)
    if as_json:
        echo_json(record.to_json())
        return
    names = [f"player{i + 1}" for i in range(players)]
    click.echo(f"Simulated Delicious game: seed {seed}, {players} players, garden {variant}")
    click.echo(ranking_text(rank(record.scores, names)))


@delicious.command(name="score")
@click.argument("fieldmaps", nargs=-1, required=True)
@json_option
@click.pass_context
def score_cmd(ctx: click.Context, fieldmaps: tuple[str, ...], as_json: bool) -> None:
    """Score finished field maps; several maps are one table (ranking, cross-checks).

    Exit 1 when any sheet breaks a rule (it is still scored), 2 for unreadable input.
    """
    twice = same_file(fieldmaps)
    if twice:  # one sheet scored as two players, tied with itself
        raise InputError(f"{twice[0]} and {twice[1]} are the same field map; give each once")
    maps = [load_field_map(read_json_object(p), label=source_label(p)) for p in fieldmaps]
    states = [SheetState.from_field_map(m.fields, m.variant) for m in maps]
    names = [m.player or (STDIN_LABEL if p == STDIN else Path(p).stem)
             for m, p in zip(maps, fieldmaps, strict=True)]
    if len(set(names)) < len(names):
        names = [f"{n} ({p})" for n, p in zip(names, fieldmaps, strict=True)]
    result = score_table(states, names)
    docs = [
        {"file": p, "player": n, "variant": s.variant, **sc.to_json(),
         "violations": [v.to_json() for v in vs], "details": sc.details_json()}
        for p, n, s, sc, vs in zip(
            fieldmaps, names, states, result.scores, result.violations, strict=True
        )
    ]
    if as_json:
        if len(docs) == 1:
            echo_json(docs[0])
        else:
            echo_json({"players": docs, "ranking": [s.to_json() for s in result.standings]})
    else:
        for n, s, sc, vs in zip(names, states, result.scores, result.violations, strict=True):
            click.echo(score_text(n, s, sc, vs))
            click.echo()
        if len(states) > 1:
            click.echo(ranking_text(result.standings))
    if not result.legal:
        ctx.exit(1)
