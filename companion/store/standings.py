"""Standings across nights: plays, wins, win rate, average and best score, per game.

Triggers keep a total per game and player (schema step 3) and aliases are folded in here,
so a store of 10,000 plays is summed from a few dozen rows. Scores of different games are
not on one scale: the overall table counts plays, wins and places, not points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from companion.games.registry import BY_SLUG, title
from companion.games.registry import game as game_info
from companion.store.aliases import ALIAS_JOIN, CANONICAL_ID, rows
from companion.store.db import Store, name_key

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
    """By wins, then average score (a player with none after those with one), then name:
    the same order in the command line and the web."""
    return tuple(sorted(stats, key=lambda s: (
        -s.wins, s.average is None, -(s.average or 0.0), name_key(s.player))))


@dataclass
class _Sum:
    plays: int = 0
    wins: int = 0
    score_sum: float = 0.0
    scores: int = 0
    best: float | None = None
    place_sum: float = 0.0
    places: int = 0

    def add(self, r: Any) -> None:
        self.plays += int(r["plays"])
        self.wins += int(r["wins"])
        self.score_sum += float(r["score_sum"])
        self.scores += int(r["scores"])
        if r["best"] is not None:
            self.best = r["best"] if self.best is None else max(self.best, r["best"])
        self.place_sum += float(r["place_sum"])
        self.places += int(r["places"])

    def stats(self, name: str, points: bool = True) -> PlayerStats:
        return PlayerStats(
            name, self.plays, self.wins, round(self.wins / self.plays, 4),
            round(self.score_sum / self.scores, 2) if points and self.scores else None,
            self.best if points else None,
            round(self.place_sum / self.places, 2) if self.places else None)


# The same sums straight from the seats: what the maintained table must always equal.
SCAN_SQL = """
    SELECT pl.game AS game, pp.player_id AS player_id, COUNT(*) AS plays,
           SUM(pp.winner) AS wins, COALESCE(SUM(pp.score), 0) AS score_sum,
           COUNT(pp.score) AS scores, MAX(pp.score) AS best,
           COALESCE(SUM(pp.place), 0) AS place_sum, COUNT(pp.place) AS places
    FROM play_players pp JOIN plays pl ON pl.id = pp.play_id {where}
    GROUP BY pl.game, pp.player_id"""


def standings(store: Store, game: str | None = None, scan: bool = False) -> list[GameStandings]:
    """Each game's table (most played first) then, without ``game``, the overall one.

    Reads the per-game totals the triggers keep (``scan`` sums the seats instead).
    """
    slug = game_info(game).slug if game is not None else None
    args = (slug,) if slug else ()
    names = {int(r["id"]): str(r["name"]) for r in rows(store, "SELECT id, name FROM players")}
    canon = {int(r["player_id"]): int(r["canonical_id"])
             for r in rows(store, "SELECT player_id, canonical_id FROM player_aliases")}
    if scan:
        found = rows(store, SCAN_SQL.format(where="WHERE pl.game = ?" if slug else ""), args)
    else:
        found = rows(store, "SELECT * FROM standings_totals"
                     + (" WHERE game = ?" if slug else ""), args)
    per_game: dict[str, dict[int, _Sum]] = defaultdict(lambda: defaultdict(_Sum))
    overall: dict[int, _Sum] = defaultdict(_Sum)
    for r in found:
        pid = canon.get(int(r["player_id"]), int(r["player_id"]))
        per_game[str(r["game"])][pid].add(r)
        overall[pid].add(r)
    counts = {str(r["game"]): int(r["n"]) for r in rows(
        store, "SELECT game, COUNT(*) AS n FROM plays" + (" WHERE game = ?" if slug else "")
        + " GROUP BY game", args)}
    order = sorted(per_game, key=lambda g: (-counts.get(g, 0), g not in BY_SLUG, g))
    out = [GameStandings(g, title(g), counts.get(g, 0),
                         _ordered([s.stats(names[p]) for p, s in per_game[g].items()]))
           for g in order]
    if slug is None:
        out.append(GameStandings(OVERALL, "All games", sum(counts.values()), _ordered(
            [s.stats(names[p], points=False) for p, s in overall.items()])))
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
    # only the plays of the last ``nights`` dates can be on the chart
    cut = rows(store, "SELECT date FROM plays WHERE game = ? GROUP BY date "
                      "ORDER BY date DESC LIMIT 1 OFFSET ?", (slug, nights - 1))
    since = str(cut[0]["date"]) if cut else ""
    found = rows(store, f"""
        SELECT COALESCE('n' || pl.night_id, 'd' || pl.date) AS k, MIN(pl.date) AS date,
               MAX(n.name) AS night, {CANONICAL_ID} AS pid, AVG(pp.score) AS score
        FROM plays pl JOIN play_players pp ON pp.play_id = pl.id {ALIAS_JOIN}
        LEFT JOIN nights n ON n.id = pl.night_id
        WHERE pl.game = ? AND pl.date >= ? AND pp.score IS NOT NULL
        GROUP BY k, pid""", (slug, since))
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
