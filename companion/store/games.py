"""The five games as the store and the exports name them.

``bgg_id`` is the game's BoardGameGeek id for the BG Stats export. An id is filled only
when it was checked against BoardGameGeek; ``None`` means not verified yet, and the
export then writes 0 (BG Stats keeps the play and lets the user link the game by hand).
See docs/history.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import UnknownNameError


@dataclass(frozen=True)
class GameInfo:
    slug: str  # what plays.game holds and --game takes
    title: str
    bgg_id: int | None
    highest_wins: bool = True
    score_label: str = "points"


GAMES: tuple[GameInfo, ...] = (
    GameInfo("delicious", "Delicious", None),
    GameInfo("diced-veggies", "Diced Veggies", None),
    GameInfo("dulce", "Dulce", None),
    GameInfo("wild-gardens", "Wild Gardens", None, score_label="VP"),
    GameInfo("deli-duel", "Deli Duel", None, score_label="orders"),
)

BY_SLUG = {g.slug: g for g in GAMES}


def game_info(slug: str) -> GameInfo:
    """The game named by its slug; an unknown name is refused with the known ones."""
    text = slug.strip().lower()
    info = BY_SLUG.get(text)
    if info is None:
        for g in GAMES:  # the title works too: "Wild Gardens"
            if g.title.lower() == text:
                return g
        raise UnknownNameError(f"unknown game {slug!r}; choose from "
                               f"{', '.join(g.slug for g in GAMES)}")
    return info


def title(slug: str) -> str:
    """The game's title, or the slug itself for a game this version does not know."""
    info = BY_SLUG.get(slug)
    return info.title if info else slug
