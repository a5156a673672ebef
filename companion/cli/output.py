"""What every command group shares: the ``--json`` flag and printing a result."""

from __future__ import annotations

import json
import re
from typing import Any

import click

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")


def echo_json(doc: Any, indent: int | None = 2) -> None:
    """Print one JSON document on stdout (dice commands print theirs on one line)."""
    click.echo(json.dumps(doc, indent=indent))


def emit(doc: dict[str, Any], lines: list[str], as_json: bool) -> None:
    """Print the JSON document or the human lines, never both."""
    if as_json:
        echo_json(doc)
    else:
        click.echo("\n".join(lines))


_DASH = re.compile(r"(\d+:)?-")


def not_stdout(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A click callback for an output that can only be a file or folder: ``-``, which reads
    standard input wherever a JSON file is read, would silently be a file named "-"."""
    for v in value if isinstance(value, tuple) else (value,):
        if v is not None and _DASH.fullmatch(str(v)):
            raise click.BadParameter("'-' is not standard output here: give a path",
                                     ctx, param)
    return value
