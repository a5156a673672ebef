"""The five games, each described once: what the command line, the web app, the store
and the layouts loop over.

A descriptor names its sheets by id (``layouts`` draws them) and its functions by
"module:attribute" (imported on first use), so this module imports no engine, no image
or PDF library and no command-line parser: the store and ``companion --version`` load it
for a game's title without paying for any of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.errors import UnknownNameError
from companion.games.outcome import Finished, FinishPad, Outcome, ToPlay


class ColumnKind(StrEnum):
    WHOLE = "int"  # a whole number (the template's value)
    TEXT = "text"  # free text the game parses (Diced Veggies recipes)
    FLAG = "bool"  # a check box


@dataclass(frozen=True)
class PadColumn:
    """One number the web score pad asks of each player."""

    key: str
    label: str
    kind: ColumnKind = ColumnKind.WHOLE
    hint: str = ""


@dataclass(frozen=True)
class SheetInfo:
    """A printable sheet: its id, the code its QR names it by, its title, whether the
    readers read it, and whether it is printed landscape."""

    id: str
    code: str
    title: str
    readable: bool = False
    landscape: bool = False


@dataclass(frozen=True)
class Command:
    """A game's command group: its name, where it lives ("module:attribute") and the
    summary ``companion --help`` lists without importing it."""

    name: str
    target: str
    summary: str


def _load(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class Game:
    """One game: its identity, its sheets, its score pad and its result functions."""

    slug: str  # what plays.game holds, --game takes and the web's URLs use
    title: str
    bgg_id: int | None  # BoardGameGeek id; None until checked (the BG Stats export writes 0)
    command: Command
    sheets: tuple[SheetInfo, ...]
    to_play: str  # "module:function": the ``--json`` document -> a play (ToPlay)
    pad: tuple[PadColumn, ...] = ()  # the web pad's columns; empty: scored from photos
    finish: str | None = None  # "module:function": a pad's state -> the table (FinishPad)
    highest_wins: bool = True
    score_label: str = "points"

    def play(self, doc: Mapping[str, Any], names: Sequence[str] = ()) -> Outcome:
        """The play a finished game's ``--json`` document makes (the same for every
        front end)."""
        fn: ToPlay = _load(self.to_play)
        return fn(doc, names)

    def score_pad(self, state: Mapping[str, Any]) -> Finished:
        """The finished table from the state document a score pad (or a file) holds."""
        if self.finish is None:
            raise UnknownNameError(f"no score pad for {self.slug!r}")
        fn: FinishPad = _load(self.finish)
        return fn(state)




def _pad_sheet(slug: str, code: str, title: str) -> SheetInfo:
    return SheetInfo(f"{slug}-scorepad", code, f"{title} score pad")


GAMES: tuple[Game, ...] = (
    Game(
        "delicious", "Delicious", None,
        Command("delicious", "companion.cli.delicious:delicious",
                "Delicious: garden, simulate, score, read photos."),
        (SheetInfo("delicious-garden", "DG", "Delicious garden sheet", readable=True),
         SheetInfo("delicious-play", "DP", "Delicious play sheet (front and back)",
                   readable=True),
         SheetInfo("delicious-combo", "DC", "Delicious garden + play on one page",
                   readable=True, landscape=True),
         _pad_sheet("delicious", "DS", "Delicious")),
        "companion.games.delicious.outcome:play",
    ),
    Game(
        "diced-veggies", "Diced Veggies", None,
        Command("dice", "companion.cli.dice:dice", "Diced Veggies: read a block photo, list "
                "and check cleaver cuts, final scores."),
        (SheetInfo("diced-veggies-mat", "VM", "Diced Veggies dice mat", readable=True),
         _pad_sheet("diced-veggies", "VS", "Diced Veggies")),
        "companion.games.diced_veggies.outcome:play",
        pad=(PadColumn("recipes", "Recipes", ColumnKind.TEXT,
                       "stars+hype, comma between recipes: 9+6, 8, 7+3+3"),),
        finish="companion.games.diced_veggies.outcome:finish",
    ),
    Game(
        "dulce", "Dulce", None,
        Command("dulce", "companion.cli.dulce:dulce", "Dulce: validate plants, best scoring "
                "order, best harvest, final score."),
        (_pad_sheet("dulce", "US", "Dulce"),),
        "companion.games.dulce.outcome:play",
        pad=(PadColumn("points", "Points"), PadColumn("chicken", "Chicken"),
             PadColumn("field_cubes", "Cubes on fields")),
        finish="companion.games.dulce.outcome:finish",
    ),
    Game(
        "wild-gardens", "Wild Gardens", None,
        Command("wild-gardens", "companion.cli.wild_gardens:wild_gardens",
                "Wild Gardens: final scoring and tiebreaks."),
        (_pad_sheet("wild-gardens", "WS", "Wild Gardens"),),
        "companion.games.wild_gardens.outcome:play",
        pad=(PadColumn("pollinator", "Pollinator VP"), PadColumn("jar", "Jar VP"),
             PadColumn("guests", "Guests served"), PadColumn("guest_vp", "Guest game-end VP"),
             PadColumn("cooked_recipes", "Recipes cooked"),
             PadColumn("ingredients", "Ingredients left"),
             PadColumn("skill_tokens", "Skill tokens"),
             PadColumn("reserved_recipes", "Recipes reserved")),
        finish="companion.games.wild_gardens.outcome:finish",
        score_label="VP",
    ),
    Game(
        "deli-duel", "Deli Duel", None,
        Command("deli-duel", "companion.cli.deli_duel:deli_duel",
                "Deli Duel: order checks and the winning count."),
        (_pad_sheet("deli-duel", "LS", "Deli Duel"),),
        "companion.games.deli_duel.outcome:play",
        pad=(PadColumn("completed_orders", "Orders completed"),
             PadColumn("fairy_bread", "Fairy Bread", ColumnKind.FLAG)),
        finish="companion.games.deli_duel.outcome:finish",
        score_label="orders",
    ),
)

BY_SLUG: Mapping[str, Game] = {g.slug: g for g in GAMES}
SLUGS: tuple[str, ...] = tuple(g.slug for g in GAMES)
TITLES: Mapping[str, str] = {g.slug: g.title for g in GAMES}
SHEETS: tuple[SheetInfo, ...] = tuple(s for g in GAMES for s in g.sheets)
SHEETS_BY_ID: Mapping[str, SheetInfo] = {s.id: s for s in SHEETS}
PAD_GAMES: tuple[str, ...] = tuple(g.slug for g in GAMES if g.pad)


def game(slug: str) -> Game:
    """The game named by its slug or its title; an unknown name is refused with the
    known ones."""
    text = slug.strip().lower()
    for g in GAMES:
        if text in (g.slug, g.title.lower()):
            return g
    raise UnknownNameError(f"unknown game {slug!r}; choose from {', '.join(SLUGS)}")


def title(slug: str) -> str:
    """The game's title, or the slug itself for a game this version does not know."""
    return TITLES.get(slug, slug)


def sheet_game(sheet_id: str) -> Game:
    """The game a sheet belongs to."""
    for g in GAMES:
        if any(s.id == sheet_id for s in g.sheets):
            return g
    raise UnknownNameError(f"unknown sheet {sheet_id!r}")
