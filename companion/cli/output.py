"""What every command group shares: the ``--json`` flag and printing a result."""

from __future__ import annotations

import json
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
