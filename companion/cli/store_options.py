"""What the commands that touch the store share: ``--data``, opening the store, and the
``--save [--night NAME]`` options of the scoring commands."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from companion.games.outcome import Outcome
from companion.store.db import Store
from companion.store.models import Play
from companion.store.nights import night_for
from companion.store.paths import DB_NAME

F = TypeVar("F", bound=Callable[..., Any])

data_option = click.option(
    "--data", "data", type=click.Path(file_okay=False), default=None, metavar="DIR",
    help="Data directory [default: $COMPANION_DATA, else the user data dir, as serve uses].")


def save_options(func: F) -> F:
    """``--save``, ``--night NAME`` and ``--data DIR`` (they arrive as ``save``, ``night``,
    ``data``). ``--night`` without ``--save`` is refused: nothing would be kept, silently."""
    inner = func

    @functools.wraps(inner)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("night") is not None and not kwargs.get("save"):
            raise click.UsageError("--night names the night to save to: add --save to keep "
                                   "the play")
        return inner(*args, **kwargs)

    func = cast(F, checked)
    func = data_option(func)
    func = click.option("--night", "night", metavar="NAME", default=None,
                        help="With --save: the night to save to (the latest of that name, "
                             "else a new one) [default: tonight].")(func)
    return click.option("--save", "save", is_flag=True,
                        help="Keep the result as a play in the store that serve uses.")(func)


@contextmanager
def open_store(data: str | None, reading: bool = False) -> Iterator[Store]:
    """The store in ``data`` (``--data``), open for the ``with`` block. ``reading``: the
    command only reads it; a ``--data`` folder with no store yet (a typo, most likely) is
    said on stderr once the command has answered, so its empty answer is not taken for the
    night's plays (the store is made there, as before)."""
    fresh = reading and data is not None and not (Path(data) / DB_NAME).exists()
    with Store.open(data) as store:
        yield store
    if fresh:
        click.echo(f"companion: nothing has been saved in {data} yet (check --data); "
                   "this answer is of an empty store", err=True)


def save_result(result: Outcome, data: str | None, night: str | None,
                attach: Callable[[Store, int], int | None] | None = None) -> Play:
    """Save a finished game's result; ``attach`` may keep photos and return a scoring id.

    Says where it went on stderr, so stdout stays the command's own output.
    """
    with open_store(data) as store:
        where = night_for(store, night)
        scoring_id = attach(store, where.id) if attach else None
        play = store.save_outcome(result, night_id=where.id, source="cli",
                                  scoring_id=scoring_id)
        click.echo(f"saved play {play.id} ({result.game}, won by "
                   f"{' and '.join(play.winners) or 'nobody'}) to {where.name!r} in "
                   f"{store.root}", err=True)
    return play


def save_finished(game: str, doc: dict[str, Any], problems: list[str], data: str | None,
                  night: str | None) -> None:
    """``--save`` of a scoring command: the game's play from its printed document, unless
    the state breaks a rule (said on stderr; the command's exit code says it too)."""
    if problems:
        click.echo("companion: not saved: the state breaks a rule", err=True)
        return
    from companion.games.registry import BY_SLUG

    save_result(BY_SLUG[game].play(doc), data, night)
