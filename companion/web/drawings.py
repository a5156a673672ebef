"""A sketching player's named drawings on the Delicious page: a sheet given to a player is
read with the drawings they named on earlier sheets, and saving a table keeps each
player's named drawings for their next (``delicious read --drawings`` /
``--save-drawings`` with the player instead of a file). The vision modules are imported
when first needed, as the page's readers are, so the server starts without them."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.errors import InputError
from companion.store import Store
from companion.store.player_drawings import (
    drawings_stamp,
    player_drawings,
    update_player_drawings,
)

if TYPE_CHECKING:
    from companion.vision.sheet.own_drawings import OwnDrawings
    from companion.vision.sheet.reader import SheetReading


class KeptDrawings:
    """Players' kept drawings, parsed once per version kept: a page of a table reads every
    player's sheets, and parsing one player's drawings takes 20-110 ms, so a page view asks
    the store only when they were last kept. Bounded; a player who fell out is parsed
    again."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._items: OrderedDict[int, tuple[str, OwnDrawings | None]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, store: Store, player_id: int | None) -> OwnDrawings | None:
        """The player's kept drawings, when they were saved by today's sketch network."""
        stamp = None if player_id is None else drawings_stamp(store, player_id)
        if player_id is None or stamp is None:
            return None
        with self._lock:
            hit = self._items.get(player_id)
        if hit is not None and hit[0] == stamp:
            own = hit[1]
        else:  # a version kept meanwhile is cached under the older stamp: read again then
            own = _usable(player_drawings(store, player_id))
        with self._lock:
            self._items[player_id] = (stamp, own)
            self._items.move_to_end(player_id)
            while len(self._items) > self._entries:
                self._items.popitem(last=False)
        return own

    def read_with(self, store: Store, reading: SheetReading, player_id: int | None
                  ) -> SheetReading:
        """``reading`` with the drawings of the player it was given to, if any are kept."""
        own = self.of(store, player_id)
        return reading if own is None else dataclasses.replace(reading, own_drawings=own)


def _usable(doc: dict[str, Any] | None) -> OwnDrawings | None:
    from companion.vision.sheet.own_drawings import OwnDrawings
    from companion.vision.sheet.sketch_model import model_fingerprint

    if doc is None:
        return None
    try:
        own = OwnDrawings.from_json(doc)
    except InputError:
        return None  # not ours to refuse at the table: the sheet is read without them
    return own if own.model == model_fingerprint() else None


def keep_table_drawings(store: Store, read: Any, player_of: Mapping[int, int | None]) -> int:
    """Keep the named drawings of every whole player of ``read`` (a ``ReadTable``) whose
    sheets were all given to one player (``player_of``: sheet key -> player id), with
    those kept before; how many players' drawings were kept."""
    from companion.vision.sheet.own_drawings import named_drawings
    from companion.vision.sheet.sketch_model import model_fingerprint

    kept = 0
    for p, owners in zip(read.players, read.owners, strict=True):
        ids = {player_of.get(it.key) for it in owners}
        if len(ids) != 1 or None in ids:
            continue
        pid = ids.pop()
        assert pid is not None
        named = named_drawings(p, model_fingerprint())
        if not named.count:
            continue

        def merged(doc: dict[str, Any] | None, named: Any = named) -> dict[str, Any]:
            before = _usable(doc)
            return (before.with_newer(named) if before else named).to_json()

        update_player_drawings(store, pid, merged)
        kept += 1
    return kept
