"""The ``--colours COLOURS.json`` option of the dice commands that take photos: the game's
dice colours, saved from its full starting block by ``dice read --save-colours``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

colours_option: Callable[[F], F] = click.option(
    "--colours", "colours", type=click.Path(dir_okay=False), metavar="COLOURS.json",
    help="Read photos against this game's dice colours (saved with dice read "
         "--save-colours from the game's full starting block).")


def load_game_colours(path: str | None) -> Any:
    """The colours in ``path`` (a ``DiceColours``), or None without the option."""
    if path is None:
        return None
    from companion.vision.dice.colours import load_colours

    return load_colours(path)
