"""The remote table: players on a video call send their own sheets through the join link.

Every remote sheet of a night goes into one Delicious scoring (its photos marked
``remote``), each reading given to the player who sent it. A player is scored from their
own sheets alone, paired among themselves (two remote players may well have printed the
same player code), their latest combo, or latest garden and play sheet, counting; the
ranking ranks those scores with the rulebook's tiebreaks. The big screen
(``companion.web.bigscreen``) and the join pages (``companion.web.join``) both read it here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.errors import CompanionError
from companion.games.delicious.players import COMBO_SHEET, GARDEN_SHEET, PLAY_SHEET
from companion.games.delicious.read_table import TableSheet
from companion.games.delicious.scoring import Score, rank
from companion.store import NotFoundError, Photo, Player, Reading
from companion.text import ascii_number
from companion.web.delicious import TableScore, score_table
from companion.web.readers import SHEET
from companion.web.render import WebState
from companion.web.supply import night_supply

if TYPE_CHECKING:
    from companion.vision.sheet.reader import SheetReading

REMOTE = "remote"  # photos.role of a sheet sent through the join link
PLAYER_COOKIE = "companion_player"
_EMPTY = np.zeros((0, 0), dtype=np.uint8)
_EMPTY.flags.writeable = False


def remote_table(st: WebState, night_id: int, create: bool = False) -> int | None:
    """The night's remote scoring (made on the first remote sheet when ``create``)."""
    known = st.remote.tables.get(night_id)
    if known is not None:
        return known
    for sc in st.store.scorings(night_id, "delicious"):
        photos = st.store.photos(sc.id)
        if photos and photos[0].role == REMOTE:
            st.remote.tables[night_id] = sc.id
            return sc.id
    return None


def light(reading: SheetReading) -> SheetReading:
    """The reading without its picture: the fields and registration scoring needs."""
    return dataclasses.replace(reading, rectified=_EMPTY)


def light_sheet(st: WebState, photo: Photo, label: str) -> SheetReading:
    def load() -> SheetReading:
        full = st.cache.get(SHEET, photo.id, lambda: st.readers.sheet(
            st.store.photo_path(photo), label))
        return light(full)

    return st.remote.light.get(SHEET, photo.id, load)


def current(readings: Sequence[Reading]) -> list[Reading]:
    """A player's sheets that count: the latest combo, unless a garden or play sheet came
    after it; then the latest garden and the latest play sheet (sending again replaces)."""
    latest: dict[str, Reading] = {}
    for r in readings:  # upload order
        latest[str(r.doc.get("sheet", ""))] = r
    combo = latest.get(COMBO_SHEET)
    halves = [latest[s] for s in (GARDEN_SHEET, PLAY_SHEET) if s in latest]
    if combo is not None and all(h.id < combo.id for h in halves):
        return [combo]
    return [h for h in halves if combo is None or h.id > combo.id]


def own_readings(st: WebState, sid: int, pid: int) -> list[Reading]:
    return current([r for r in st.store.readings(sid) if r.kind == SHEET and r.player_id == pid])


def own_items(st: WebState, readings: Sequence[Reading],
              name: str) -> list[TableSheet[SheetReading]]:
    items = []
    for r in readings:
        photo = st.store.photo(r.photo_id)
        fixes = tuple((c.field, c.value) for c in st.store.corrections(r.id))
        # with the player's drawings named at earlier tables
        sheet = st.drawings.read_with(st.store, light_sheet(st, photo, str(r.doc["photo"])),
                                      r.player_id)
        items.append(TableSheet(r.id, sheet, fixes, name))
    return items


def own_table(st: WebState, sid: int, player: Player, night_id: int) -> TableScore | None:
    """The player's own sheets scored on their own (None: nothing sent yet)."""
    readings = own_readings(st, sid, player.id)
    if not readings:
        return None
    return score_table(own_items(st, readings, player.name), night_supply(st.store, night_id))


def owns(st: WebState, player: Player, reading_id: int) -> Reading:
    """The reading, if it is one of this player's remote sheets; NotFoundError otherwise
    (the same answer for another player's sheet as for none, so ids tell nothing)."""
    reading = st.store.reading(reading_id)
    photo = st.store.photo(reading.photo_id)
    night = st.store.current_night()
    if (reading.player_id != player.id or reading.kind != SHEET
            or photo.scoring_id != remote_table(st, night.id)):
        raise NotFoundError(f"no sheet {reading_id} of yours")
    return reading


# ---- the board ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One player on the big screen."""

    player: str
    state: str  # waiting, half (one of two sheets), scored, error
    total: int | None = None
    questions: int = 0
    problems: int = 0
    note: str = ""
    score: Score | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "state": self.state, "total": self.total,
                "questions": self.questions, "problems": self.problems, "note": self.note}


def _line(st: WebState, player: Player, readings: list[Reading], night_id: int) -> Line:
    try:
        table = score_table(own_items(st, readings, player.name),
                            night_supply(st.store, night_id))
    except CompanionError as exc:
        return Line(player.name, "error", note=str(exc))
    if not table.players:
        missing = table.unpaired[0].missing if table.unpaired else None
        note = f"waiting for the {missing.replace('delicious-', '')} sheet" if missing else (
            table.unpaired[0].message if table.unpaired else "")
        return Line(player.name, "half", note=note)
    p = table.players[0]
    score = table.read.result.scores[0]
    return Line(player.name, "scored", score.total, len(p.review) + len(p.questions),
                len(p.problems), score=score)


def _sheets_by_player(st: WebState, sid: int | None) -> dict[int, list[Reading]]:
    """The remote table's sheets by player, players in the order they first sent."""
    by_player: dict[int, list[Reading]] = {}
    if sid is not None:
        for r in st.store.readings(sid):
            if r.kind == SHEET and r.player_id is not None:
                by_player.setdefault(r.player_id, []).append(r)
    return by_player


def _seated_then_sent(st: WebState, night_id: int,
                      by_player: dict[int, list[Reading]]) -> list[Player]:
    """Everyone at the night's table: seated (by the host, or by a phone saying who it is),
    then anyone whose remote sheets are kept but who is not seated."""
    players = st.store.night_players(night_id)
    seen = {p.id for p in players}
    return players + [st.store.player(pid) for pid in by_player if pid not in seen]


def table_players(st: WebState, night_id: int) -> list[Player]:
    """Everyone at the night's table (``_seated_then_sent``)."""
    return _seated_then_sent(st, night_id, _sheets_by_player(st, remote_table(st, night_id)))


def board(st: WebState) -> dict[str, Any]:
    """What the big screen shows: every player of the night, who has sent a sheet, and the
    ranking of the scored ones (only once revealed)."""
    night = st.store.current_night()
    sid = remote_table(st, night.id)
    by_player = _sheets_by_player(st, sid)
    players = _seated_then_sent(st, night.id, by_player)
    lines = []
    for p in players:
        mine = current(by_player.get(p.id, []))
        if not mine or sid is None:
            lines.append(Line(p.name, "waiting"))
            continue
        key = (sid, p.id)
        signature = (p.name, tuple((r.id, tuple(c.id for c in st.store.corrections(r.id)))
                                   for r in mine), night_supply(st.store, night.id) is not None)
        kept = st.remote.lines.get(key)
        if kept is not None and kept[0] == signature:
            line = kept[1]
        else:
            line = _line(st, p, mine, night.id)
            st.remote.lines[key] = (signature, line)
        assert isinstance(line, Line)
        lines.append(line)
    scored = [ln for ln in lines if ln.score is not None]
    revealed = night.id in st.remote.revealed
    ranking = [s.to_json() for s in rank([ln.score for ln in scored if ln.score],
                                         [ln.player for ln in scored])] if revealed else []
    return {"night": night.name, "revealed": revealed, "players": [ln.to_json() for ln in lines],
            "sent": sum(ln.state != "waiting" for ln in lines), "scored": len(scored),
            "ranking": ranking}


# ---- who is on this phone -----------------------------------------------------------------


def _sign(secret: str, pid: int) -> str:
    return hmac.new(secret.encode(), f"player:{pid}".encode(), hashlib.sha256).hexdigest()[:32]


def player_cookie(st: WebState, pid: int) -> str:
    return f"{pid}.{_sign(st.secret, pid)}"


def cookie_player(st: WebState, value: str | None) -> Player | None:
    """The player this phone chose (the cookie is signed, so it names no one else)."""
    pid, _, sig = (value or "").partition(".")
    if not ascii_number(pid, 18):
        return None
    if not hmac.compare_digest(sig.encode(), _sign(st.secret, int(pid)).encode()):
        return None
    try:
        return st.store.player(int(pid))
    except NotFoundError:
        return None
