"""A click group whose subcommands are imported only when they run.

Every command used to pay for OpenCV, NumPy and ReportLab before it knew what it would do;
importing a subcommand's module on first use keeps ``companion --version`` and the pure
score-assist commands as quick as click itself. Help listings use the one-line summaries
given here, so ``--help`` imports nothing either.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import click


@dataclass(frozen=True)
class LazyCommand:
    """Where a subcommand lives ("package.module:attribute") and its one-line summary."""

    target: str
    summary: str

    def load(self) -> click.Command:
        module_name, _, attr = self.target.partition(":")
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        return command


class LazyGroup(click.Group):
    """A group that also knows subcommands by name and imports each on first use."""

    def __init__(self, *args: Any, lazy: dict[str, LazyCommand] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, LazyCommand] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            command = self.lazy[cmd_name].load()
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows: list[tuple[str, str]] = []
        limit = formatter.width - 6 - max(len(n) for n in self.list_commands(ctx))
        for name in self.list_commands(ctx):
            if name in self.commands:
                command = self.commands[name]
                if command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:
                # click's own shortening, without importing the command
                stand_in = click.Command(name, help=self.lazy[name].summary)
                rows.append((name, stand_in.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
