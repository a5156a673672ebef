"""The ``companion`` command: a thin click group per game plus ``sheets``.

Each subgroup lives in its own module; this module only wires them together and turns
the project's own exceptions into one line on stderr and an exit code.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from companion import __version__
from companion.cli.lazy import LazyCommand, LazyGroup
from companion.errors import CompanionError
from companion.games.registry import GAMES

# Each game's commands are imported when they run (see companion/cli/lazy.py); the
# summaries are what `companion --help` lists, and a test keeps them equal to the
# commands' own.
SUBCOMMANDS: dict[str, LazyCommand] = {
    "sheets": LazyCommand("companion.cli.sheets:sheets",
                          "Print sheets and score pads, and export their geometry."),
    **{g.command.name: LazyCommand(g.command.target, g.command.summary) for g in GAMES},
    "serve": LazyCommand("companion.cli.serve:serve", "Serve the game-night pages and the JSON "
                         "API."),
    "history": LazyCommand("companion.cli.history:history_cmd",
                           "Every saved play, oldest first: date, night, game, players with "
                           "scores and places, winner and how a tie was broken."),
    "standings": LazyCommand("companion.cli.history:standings_cmd", "Plays, wins, win rate, "
                             "average and best score for each player, per game and overall."),
    "players": LazyCommand("companion.cli.players:players", "Players in the store and their "
                           "aliases (one player under two spellings)."),
    "export": LazyCommand("companion.cli.transfer:export_cmd",
                          "Write every saved play as JSON, CSV or a BG Stats play file."),
    "import": LazyCommand("companion.cli.transfer:import_cmd",
                          "Add the plays of a `companion export` JSON file that the store lacks."),
    "backup": LazyCommand("companion.cli.transfer:backup_cmd", "Copy the database to FILE with "
                          "SQLite's online backup (safe while serve runs)."),
}


class _Group(LazyGroup):
    """Root group that reports project errors, and click's own usage errors, as one line
    instead of a traceback or click's three-line usage block."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()  # a bare group: its help, as click prints it
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"companion: error: {_usage_line(exc)}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("companion: error: aborted", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except CompanionError as exc:
            click.echo(f"companion: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(1)


def _usage_line(exc: click.ClickException) -> str:
    """click's message on one line, naming the command and where its help is."""
    message = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and ctx is not None:
        where = ctx.command_path.partition(" ")[2]  # the root's name already leads the line
        full = " ".join(("companion", where)).strip()
        return f"{where + ': ' if where else ''}{message} (see {full} --help)"
    return message


@click.group(cls=_Group, lazy=SUBCOMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Printable sheets, photo readers and score-assist for Delicious, Diced Veggies,
    Dulce, Wild Gardens and Deli Duel."""
