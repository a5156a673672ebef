"""What the server remembers in memory about the night's remote table: which scoring holds
it, whether its ranking is revealed, a change counter for the big screen, and each
remote sheet's fields without its picture.

A restart forgets the reveal (the ranking is hidden again until the host reveals it) and
the light readings (read again from the kept photos on the first big-screen view).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from companion.web.readers import ReadingCache

# Light readings kept: a remote sheet's fields and registration without its 9 MP picture
# (a few KB each), enough for 100 players sending a garden and a play sheet three times.
LIGHT_ENTRIES = 1000


@dataclass
class RemoteState:
    lock: threading.Lock = field(default_factory=threading.Lock)
    tables: dict[int, int] = field(default_factory=dict)  # night id -> remote scoring id
    revealed: set[int] = field(default_factory=set)  # nights whose ranking is shown
    version: int = 0  # bumped by every remote upload, answer and reveal
    light: ReadingCache = field(default_factory=lambda: ReadingCache(LIGHT_ENTRIES))
    lines: dict[tuple[int, int], tuple[object, object]] = field(default_factory=dict)
    # (scoring, player) -> (what the player's sheets were, their line): the board
    # scores a player again only when their sheets or answers change

    def changed(self) -> None:
        with self.lock:
            self.version += 1
