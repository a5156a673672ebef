"""Write docs/cli.md from the commands' own ``--help``, so the reference cannot drift.

``python -m tools.cli_reference`` rewrites the page; ``--check`` exits 1 when the page on
disk differs from what the commands say now (``make test`` runs it through
tests/test_docs.py). Help is formatted at a fixed width so the page does not depend on
the terminal it was made in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from companion.cli import main as companion_main

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cli.md"
WIDTH = 80

HEADER = """\
# Command-line reference

Every command's own `--help`, as `companion` prints it. This page is written by
`python -m tools.cli_reference` and checked by the test suite, so it is always the
installed commands' word; do not edit it by hand.

Common to every command: `--json` prints one JSON document on stdout; every JSON file
argument also takes `-` for standard input. Exit codes: 0 success; 1 the input is
understood but fails a check (an illegal sheet, cut, plant or order); 2 unreadable input
or a usage error, always as one line on stderr.
"""


def _walk(command: click.Command, ctx: click.Context) -> Iterator[click.Context]:
    """Every command's context, the group before its subcommands, subcommands by name."""
    yield ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            yield from _walk(sub, click.Context(sub, info_name=name, parent=ctx,
                                                 **sub.context_settings))


def _anchor(path: str) -> str:
    return path.replace(" ", "-")


def render(root: click.Command = companion_main, name: str = "companion") -> str:
    """The whole page as Markdown: a list of commands, then each command's help."""
    settings = {**root.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    top = click.Context(root, info_name=name, **settings)
    contexts = list(_walk(root, top))
    lines = [HEADER]
    for ctx in contexts[1:]:
        depth = ctx.command_path.count(" ") - 1
        lines.append(f"{'    ' * depth}- [`{ctx.command_path}`](#{_anchor(ctx.command_path)})")
    for ctx in contexts:
        level = "#" * max(2, min(1 + ctx.command_path.count(" "), 4))
        help_text = ctx.command.get_help(ctx).rstrip()
        lines += ["", f"{level} `{ctx.command_path}`", "",
                  "```text", help_text, "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 if {PAGE.relative_to(ROOT)} is not current")
    args = parser.parse_args(argv)
    text = render()
    current = PAGE.read_text() if PAGE.exists() else ""
    if args.check:
        if current != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python -m tools.cli_reference",
                  file=sys.stderr)
            return 1
        return 0
    if current != text:
        PAGE.write_text(text)
        print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
