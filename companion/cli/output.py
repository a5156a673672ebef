"""What several command groups share: the ``--json`` flag and printing a result."""

from __future__ import annotations

import json
from typing import Any

import click

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")


def emit(doc: dict[str, Any], lines: list[str], as_json: bool) -> None:
    """Print the JSON document (indented) or the human lines, never both."""
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo("\n".join(lines))
