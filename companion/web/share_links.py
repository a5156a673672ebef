"""What a finished table offers to share: its picture (for the phone's share sheet or a
download) and the link that opens BG Stats with the play filled in."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.registry import title
from companion.store import Store
from companion.store.errors import NotFoundError
from companion.store.export import bgstats_link
from companion.store.history import HistoryRow, history


@dataclass(frozen=True)
class Share:
    play: int
    image: str  # the PNG's address on this server
    filename: str  # what the picture is called in the chat or the downloads
    text: str  # one line for the share sheet: the game and who won
    bgstats: str


def saved_row(store: Store, play_id: int) -> HistoryRow:
    """The saved play as the history shows it (names through aliases)."""
    found = history(store, ids=[play_id])
    if not found:
        raise NotFoundError(f"no play {play_id}")
    return found[0]


def share_of(store: Store, play_id: int) -> Share:
    row = saved_row(store, play_id)
    won = " and ".join(row.winners) or "nobody"
    return Share(play_id, f"/plays/{play_id}/share.png",
                 f"{row.game}-{row.date}-play{play_id}.png",
                 f"{title(row.game)} on {row.date}: won by {won}",
                 bgstats_link(store, play_id))
