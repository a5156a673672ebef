"""History, standings, aliases, export and import, backup and migrations of the store."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError
from companion.store import MIGRATIONS, SeatInput, Store, StoreError, migrate
from companion.store import aliases as al
from companion.store.backup import backup
from companion.store.export import export_bgstats, export_csv, export_json
from companion.store.history import count_plays, history
from companion.store.importing import import_doc
from companion.store.paths import DB_NAME
from companion.store.standings import OVERALL, score_series, standings
from tests.history_seed import Seeded, seed

NOW = "2026-01-01T00:00:00+00:00"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Seeded]:
    root = tmp_path_factory.mktemp("seeded")
    with Store.open(root) as s:
        made = seed(s)
    return root, made


def test_history_of_fifty_nights(seeded: tuple[Path, Seeded]) -> None:
    root, made = seeded
    with Store.open(root) as s:
        rows = history(s)
        assert len(rows) == len(made.plays) and len({r.night for r in rows}) == 50
        for row, (game, day, seats) in zip(rows, made.plays, strict=True):
            assert (row.game, row.date) == (game, day)
            assert [(x.name, x.score, x.place, x.winner) for x in row.seats] == [
                (x.name, x.score, x.place, x.winner) for x in seats]
        dulce = history(s, game="dulce")
        assert len(dulce) == sum(g == "dulce" for g, _, _ in made.plays) > 0
        ann = history(s, player="ann", since="2025-06-01")
        assert ann and all(r.date >= "2025-06-01" and "Ann" in [x.name for x in r.seats]
                           for r in ann)
        assert len(history(s, latest=5)) == 5
        assert count_plays(s) == len(rows)
        assert count_plays(s, player="ann", since="2025-06-01") == len(ann)
        assert history(s, latest=5)[-1].play_id == rows[-1].play_id


def _expected(plays: list[tuple[str, str, list[SeatInput]]], game: str | None,
              same: dict[str, str] | None = None) -> dict[str, tuple[int, int, float, float]]:
    same = same or {}
    acc: dict[str, list[float]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    for g, _, seats in plays:
        if game is not None and g != game:
            continue
        for x in seats:
            who = same.get(x.name, x.name)
            acc[who].append(float(x.score or 0))
            wins[who] += x.winner
    return {p: (len(v), wins[p], round(sum(v) / len(v), 2), max(v)) for p, v in acc.items()}


def test_standings_of_fifty_nights(seeded: tuple[Path, Seeded]) -> None:
    root, made = seeded
    with Store.open(root) as s:
        tables = standings(s)
        assert tables[-1].game == OVERALL and tables[-1].plays == len(made.plays)
        for t in tables[:-1]:
            want = _expected(made.plays, t.game)
            got = {p.player: (p.plays, p.wins, p.average, p.best) for p in t.players}
            assert got == want, t.game
            assert [p.wins for p in t.players] == sorted((p.wins for p in t.players),
                                                         reverse=True)
        overall = {p.player: (p.plays, p.wins) for p in tables[-1].players}
        assert overall == {k: v[:2] for k, v in _expected(made.plays, None).items()}
        one = standings(s, "Wild Gardens")
        assert [t.game for t in one] == ["wild-gardens"]
        chart = score_series(s, "dulce")
        assert len(chart["labels"]) == len({d for g, d, _ in made.plays if g == "dulce"})
        assert all(len(x["scores"]) == len(chart["labels"]) for x in chart["series"])


def test_alias_merges_and_unmerges(store: Store) -> None:
    n = store.new_night("Fri")
    store.save_play("dulce", [SeatInput("Ann", 30, 1, True), SeatInput("Bo", 20, 2)],
                    night_id=n.id)
    store.save_play("dulce", [SeatInput("ann b.", 10, 2), SeatInput("Bo", 25, 1, True)],
                    night_id=n.id)
    before = {p.player: p.plays for p in standings(store, "dulce")[0].players}
    assert before == {"Ann": 1, "ann b.": 1, "Bo": 2}
    al.set_alias(store, "Ann", "ANN B.")
    after = {p.player: (p.plays, p.wins, p.average) for p in standings(store, "dulce")[0].players}
    assert after == {"Ann": (2, 1, 20.0), "Bo": (2, 1, 22.5)}
    assert [r.seats[0].spelled for r in history(store, player="ann b.")] == ["Ann", "ann b."]
    al.set_alias(store, "Bo", "Ann")  # Ann's other spelling moves along with her
    assert {p.player for p in standings(store, "dulce")[0].players} == {"Bo"}
    with pytest.raises(StoreError, match="already the same"):
        al.set_alias(store, "ann b.", "Bo")
    with pytest.raises(InputError, match="no player 'Zed'"):
        al.set_alias(store, "Zed", "Bo")
    al.remove_alias(store, "Ann")
    al.remove_alias(store, "ann b.")
    assert {p.player: p.plays for p in standings(store, "dulce")[0].players} == before


@pytest.mark.parametrize("other", ["ann", " ANN ", "A\uff4en"])  # the last: a fullwidth n
def test_one_player_in_two_seats_is_refused(store: Store, other: str) -> None:
    """The store keeps "Ann" and "ann" as one player: a play seating both would count her
    twice (two plays of one game, a win and a loss), so it is refused and nothing kept."""
    n = store.new_night("Fri")
    with pytest.raises(StoreError, match="two players share the name 'Ann'"):
        store.save_play("diced-veggies", [SeatInput("Ann", 31, 1, True),
                                          SeatInput(other, 3, 2)], night_id=n.id)
    assert store.plays() == [] and not standings(store, "diced-veggies")[0].players


def test_unknown_game_and_bad_date(store: Store) -> None:
    with pytest.raises(InputError, match="unknown game 'chess'"):
        standings(store, "chess")
    with pytest.raises(InputError, match="YYYY-MM-DD"):
        history(store, since="last week")


def _content(root: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(root / DB_NAME)
    out = {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
           for t in ("players", "nights", "night_players", "plays", "play_players")}
    out["player_aliases"] = sorted(conn.execute(
        "SELECT player_id, canonical_id FROM player_aliases").fetchall())
    conn.close()
    return out


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    return {k: v for k, v in a.items() if k != "exported_at"} == {
        k: v for k, v in b.items() if k != "exported_at"}


def test_export_import_gives_the_same_store(seeded: tuple[Path, Seeded], tmp_path: Path) -> None:
    root, _ = seeded
    with Store.open(root) as s:
        doc = export_json(s)
    first, second = tmp_path / "a", tmp_path / "b"
    with Store.open(first) as a:
        report = import_doc(a, json.loads(json.dumps(doc)), NOW)
        assert (report.plays, report.nights, report.skipped) == (len(doc["plays"]), 50, 0)
        assert _same(export_json(a), doc)
        al.set_alias(a, "Ann", "Bo")
        doc_a = export_json(a)
    assert _content(first)["plays"] == _content(root)["plays"]  # ids and all
    text = json.dumps(doc_a)
    with Store.open(second) as b:
        import_doc(b, json.loads(text), NOW)
        assert _same(export_json(b), doc_a)
        with Store.open(first) as a:
            assert standings(b) == standings(a)
        again = import_doc(b, json.loads(text), NOW)
        assert (again.plays, again.nights, again.skipped) == (0, 0, len(doc["plays"]))
    assert _content(second) == _content(first)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["plays"][3].update(game="chess"), r"plays\[3\]\.game: unknown game"),
    (lambda d: d["plays"][0]["seats"][1].update(score="ten"), r"seats\[1\]\.score: expected"),
    (lambda d: d["plays"][2].update(date="2025-13-40"), r"plays\[2\]\.date"),
    (lambda d: d["nights"][0].update(uid="xyz"), r"nights\[0\]\.uid"),
    (lambda d: d["plays"][5].update(seats=[]), r"at least one player"),
    (lambda d: d["plays"][-1]["seats"][0].update(player=" "), r"seats\[0\]\.player"),
])
def test_malformed_import_changes_nothing(seeded: tuple[Path, Seeded], tmp_path: Path,
                                          mutate: object, message: str) -> None:
    root, _ = seeded
    with Store.open(root) as s:
        doc = export_json(s)
    assert callable(mutate)
    mutate(doc)
    with Store.open(tmp_path) as t:
        t.save_play("dulce", [SeatInput("Zoe", 1, 1, True)])
        before = _content(tmp_path)
        with pytest.raises(InputError, match=message):
            import_doc(t, doc, NOW)
        assert _content(tmp_path) == before


def test_csv_and_bgstats(seeded: tuple[Path, Seeded]) -> None:
    root, made = seeded
    with Store.open(root) as s:
        csv_text = export_csv(s)
        bg = export_bgstats(s, me="Ann")
        bg_again = export_bgstats(s)
    lines = csv_text.splitlines()
    assert lines[0].startswith("play,date,night,location,game,seat,player")
    assert len(lines) - 1 == sum(len(seats) for _, _, seats in made.plays)
    assert len(bg["plays"]) == len(made.plays)
    assert {g["name"] for g in bg["games"]} <= {"Delicious", "Diced Veggies", "Dulce",
                                                "Wild Gardens", "Deli Duel"}
    assert all(isinstance(g["bggId"], int) for g in bg["games"])
    players = {p["id"]: p["name"] for p in bg["players"]}
    assert players[bg["userInfo"]["meRefId"]] == "Ann"
    first = bg["plays"][0]
    game, day, seats = made.plays[0]
    assert first["playDate"].startswith(day) and len(first["playDate"]) == 19
    assert [(players[x["playerRefId"]], x["score"], x["winner"], x["rank"])
            for x in first["playerScores"]] == [
        (x.name, f"{x.score:g}", x.winner, x.place) for x in seats]
    # stable ids: exported twice, BG Stats sees the same plays, players and games
    assert [p["uuid"] for p in bg["plays"]] == [p["uuid"] for p in bg_again["plays"]]
    assert bg["players"][0]["uuid"] == bg_again["players"][0]["uuid"]


def test_backup_is_a_whole_store(seeded: tuple[Path, Seeded], tmp_path: Path) -> None:
    root, made = seeded
    with Store.open(root) as s:
        r = backup(s, tmp_path / "copy.sqlite")
        with pytest.raises(StoreError, match="exists"):
            backup(s, tmp_path / "copy.sqlite")
    assert r.plays == len(made.plays)
    copy = tmp_path / "restored"
    copy.mkdir()
    (tmp_path / "copy.sqlite").rename(copy / DB_NAME)
    with Store.open(copy) as c:
        assert len(c.plays()) == len(made.plays)


@pytest.mark.parametrize("start", range(len(MIGRATIONS)))
def test_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    """A store left at each older version (with plays in it) opens at the latest one."""
    conn = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    assert migrate(conn, MIGRATIONS[:start]) == start
    if start >= 1:
        conn.execute("INSERT INTO nights (name, date, created_at) VALUES ('Old', '2024-05-05', "
                     "'2024-05-05T20:00:00+00:00')")
        conn.execute("INSERT INTO players (name, created_at) VALUES ('Ann', 'x'), ('Bo', 'x')")
        for i in range(3):
            conn.execute("INSERT INTO plays (night_id, game, date, source, created_at) "
                         "VALUES (1, 'dulce', '2024-05-05', 'web', 'x')")
            conn.execute("INSERT INTO play_players VALUES (?, 0, 1, ?, 1, 1)", (i + 1, 30 + i))
            conn.execute("INSERT INTO play_players VALUES (?, 1, 2, 20, 2, 0)", (i + 1,))
    conn.close()
    with Store.open(tmp_path) as s:
        assert s.version == len(MIGRATIONS)
        if start >= 1:
            rows = history(s)
            assert [r.seats[0].score for r in rows] == [30, 31, 32]
            assert len({r.uid for r in rows}) == 3 and all(len(r.uid) == 32 for r in rows)
        assert standings(s) == standings(s, scan=True)  # totals filled from old plays
        new = s.save_play("dulce", [SeatInput("Cy", 5, 1, True)])
        assert len(history(s, ids=[new.id])[0].uid) == 32


_seat = st.tuples(st.sampled_from(["Ann", "Bo", "Cy", "ann b."]),
                  st.one_of(st.none(), st.integers(0, 90)), st.one_of(st.none(),
                                                                     st.integers(1, 4)),
                  st.booleans())
_op = st.one_of(
    st.tuples(st.just("save"), st.sampled_from(["dulce", "deli-duel", "delicious"]),
              st.lists(_seat, min_size=1, max_size=4, unique_by=lambda x: x[0].lower())),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("alias"), st.sampled_from([("Ann", "ann b."), ("Bo", "Cy")])),
)


@settings(max_examples=25, deadline=None)
@given(st.lists(_op, min_size=1, max_size=12))
def test_kept_totals_equal_the_seats(ops: list[tuple[object, ...]]) -> None:
    """Whatever is saved, deleted or aliased, the maintained totals equal a fresh count."""
    with tempfile.TemporaryDirectory() as tmp, Store.open(tmp) as s:
        for op in ops:
            if op[0] == "save":
                _, game, seats = op
                s.save_play(str(game), [SeatInput(n, sc, pl, w)  # type: ignore[misc]
                                        for n, sc, pl, w in seats])  # type: ignore[attr-defined]
            elif op[0] == "delete" and s.plays():
                plays = s.plays()
                s.delete_play(plays[int(op[1]) % len(plays)].id)  # type: ignore[call-overload]
            elif op[0] == "alias":
                name, other = op[1]  # type: ignore[misc]
                try:
                    al.set_alias(s, name, other)
                except InputError:
                    pass  # a name not saved yet
            assert standings(s) == standings(s, scan=True)
        for g in ("dulce", "deli-duel", "delicious"):
            assert standings(s, g) == standings(s, g, scan=True)
