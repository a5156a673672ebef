"""Standings across nights: plays, wins, win rate, average and best score, per game.

One grouped query over the seats does all the counting (aliases folded in by SQL), so a
store of 10,000 plays is summed in milliseconds. Scores of different games are not on one
scale: the overall table counts plays, wins and places, not points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from companion.store.aliases import ALIAS_JOIN, CANONICAL_ID, rows
from companion.store.db import Store
from companion.store.games import BY_SLUG, game_info, title

OVERALL = "overall"
CHART_NIGHTS = 60  # the chart shows this many latest nights
CHART_PLAYERS = 10  # and the players with the most plays among them


@dataclass(frozen=True)
class PlayerStats:
    player: str
    plays: int
    wins: int
    win_rate: float
    average: float | None  # mean score over plays with a score (None overall)
    best: float | None
    average_place: float | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class GameStandings:
    game: str  # a game's slug, or "overall"
    title: str
    plays: int
    players: tuple[PlayerStats, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "plays": self.plays,
                "players": [p.to_json() for p in self.players]}


def _ordered(stats: list[PlayerStats]) -> tuple[PlayerStats, ...]:
    return tuple(sorted(stats, key=lambda s: (-s.wins, -s.win_rate, -s.plays,
                                              s.player.lower())))


def standings(store: Store, game: str | None = None) -> list[GameStandings]:
    """Each game's table (most played first) then, without ``game``, the overall one."""
    slug = game_info(game).slug if game is not None else None
    where = "WHERE pl.game = ?" if slug else ""
    args = (slug,) if slug else ()
    names = {int(r["id"]): str(r["name"]) for r in rows(store, "SELECT id, name FROM players")}
    per_game: dict[str, list[PlayerStats]] = defaultdict(list)
    totals: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0])
    for r in rows(store, f"""
            SELECT pl.game AS game, {CANONICAL_ID} AS pid, COUNT(*) AS plays,
                   SUM(pp.winner) AS wins, AVG(pp.score) AS average, MAX(pp.score) AS best,
                   SUM(pp.place) AS place_sum, COUNT(pp.place) AS places
            FROM play_players pp JOIN plays pl ON pl.id = pp.play_id {ALIAS_JOIN}
            {where} GROUP BY pl.game, pid""", args):
        plays, wins = int(r["plays"]), int(r["wins"])
        places = int(r["places"])
        per_game[str(r["game"])].append(PlayerStats(
            names[int(r["pid"])], plays, wins, round(wins / plays, 4),
            None if r["average"] is None else round(float(r["average"]), 2), r["best"],
            round(r["place_sum"] / places, 2) if places else None))
        t = totals[int(r["pid"])]
        t[0] += plays
        t[1] += wins
        t[2] += float(r["place_sum"] or 0)
        t[3] += places
    counts = {str(r["game"]): int(r["n"]) for r in rows(
        store, f"SELECT pl.game AS game, COUNT(*) AS n FROM plays pl {where} GROUP BY pl.game",
        args)}
    order = sorted(per_game, key=lambda g: (-counts.get(g, 0), g not in BY_SLUG, g))
    out = [GameStandings(g, title(g), counts.get(g, 0), _ordered(per_game[g])) for g in order]
    if slug is None:
        overall = [PlayerStats(names[pid], int(t[0]), int(t[1]), round(t[1] / t[0], 4), None,
                               None, round(t[2] / t[3], 2) if t[3] else None)
                   for pid, t in totals.items()]
        out.append(GameStandings(OVERALL, "All games", sum(counts.values()), _ordered(overall)))
    elif not out:
        out.append(GameStandings(slug, title(slug), 0, ()))
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


def standings_text(tables: Sequence[GameStandings]) -> list[str]:
    lines: list[str] = []
    for t in tables:
        if lines:
            lines.append("")
        lines.append(f"{t.title}: {t.plays} play{'s' if t.plays != 1 else ''}")
        if not t.players:
            lines.append("  no plays saved yet")
            continue
        width = max(6, *(len(p.player) for p in t.players))
        lines.append(f"  {'player':<{width}}  plays  wins  win rate  average   best  place")
        for p in t.players:
            lines.append(f"  {p.player:<{width}}  {p.plays:>5}  {p.wins:>4}  {_pct(p.win_rate):>8}"
                         f"  {_num(p.average):>7}  {_num(p.best):>5}  {_num(p.average_place):>5}")
    return lines


def score_series(store: Store, game: str, nights: int = CHART_NIGHTS,
                 players: int = CHART_PLAYERS) -> dict[str, Any]:
    """Each player's score night by night for one game (a night's plays averaged).

    Plays saved outside a night are grouped by their date. Returns chart-ready data:
    ``{"labels": [...], "series": [{"player", "scores": [score or None per label]}]}``.
    """
    slug = game_info(game).slug
    found = rows(store, f"""
        SELECT COALESCE('n' || pl.night_id, 'd' || pl.date) AS k, MIN(pl.date) AS date,
               MAX(n.name) AS night, {CANONICAL_ID} AS pid, AVG(pp.score) AS score
        FROM play_players pp JOIN plays pl ON pl.id = pp.play_id {ALIAS_JOIN}
        LEFT JOIN nights n ON n.id = pl.night_id
        WHERE pl.game = ? AND pp.score IS NOT NULL GROUP BY k, pid""", (slug,))
    keys: dict[str, tuple[str, str]] = {}
    for r in found:
        date, night = str(r["date"]), r["night"]
        old = keys.get(r["k"])
        keys[r["k"]] = (min(date, old[0]) if old else date, night or date)
    ordered = sorted(keys, key=lambda k: (keys[k][0], k))[-nights:]
    index = {k: i for i, k in enumerate(ordered)}
    names = {int(r["id"]): str(r["name"]) for r in rows(store, "SELECT id, name FROM players")}
    scores: dict[int, list[float | None]] = {}
    for r in found:
        i = index.get(r["k"])
        if i is None:
            continue
        line = scores.setdefault(int(r["pid"]), [None] * len(ordered))
        line[i] = round(float(r["score"]), 2)
    busiest = sorted(scores, key=lambda p: (-sum(s is not None for s in scores[p]),
                                            names[p].lower()))[:players]
    return {
        "game": slug, "title": title(slug),
        "labels": [keys[k][0] for k in ordered],
        "nights": [keys[k][1] for k in ordered],
        "series": [{"player": names[p], "scores": scores[p]}
                   for p in sorted(busiest, key=lambda p: names[p].lower())],
    }
