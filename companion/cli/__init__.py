"""The ``companion`` command: a thin click group per game plus ``sheets``.

Each subgroup lives in its own module; this module only wires them together and turns
the project's own exceptions into one line on stderr and an exit code.
"""

from __future__ import annotations

import sys

import click

from companion import __version__
from companion.cli.deli_duel import deli_duel
from companion.cli.delicious import delicious
from companion.cli.delicious_read import read_cmd as delicious_read
from companion.cli.dice import dice
from companion.cli.dice_read import read as dice_read
from companion.cli.dulce import dulce
from companion.cli.sheets import sheets
from companion.cli.wild_gardens import wild_gardens
from companion.errors import CompanionError


class _Group(click.Group):
    """Root group that reports project errors as one line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except CompanionError as exc:
            click.echo(f"companion: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="companion")
def main() -> None:
    """Printable sheets, photo readers and score-assist for Delicious, Diced Veggies,
    Dulce, Wild Gardens and Deli Duel."""


delicious.add_command(delicious_read)
dice.add_command(dice_read)

main.add_command(sheets)
main.add_command(delicious)
main.add_command(dice)
main.add_command(dulce)
main.add_command(wild_gardens)
main.add_command(deli_duel)
