"""Benchmark of play over video: 100 remote players send their photographed sheets through
the join link of ``companion serve --public`` within two minutes.

A server runs in a subprocess on 127.0.0.1 with a fresh data directory, as behind the
host's TLS proxy: every request names the public host and carries the player's own
address in X-Forwarded-For, as the proxy would. The photos are 12 MP synthetic photos of
filled combo sheets (``tools/synth`` through the reader benchmark's generator and cache,
``bench-out/reader/``), each with the score its true fields give; player i sends photo
i mod ``--distinct``. Player i
starts at i x (window / N) seconds (a row for two minutes, and one for a rush of ten
seconds); at most ``--concurrency`` are in flight at once. Each
joins under a name of their own, uploads the photo, fetches their own page (the clock
stops: upload to own score), answers every question it asks with what the sheet truly
says, and reads their score again: scored right when it equals the true score. Then the
host reveals the ranking and the big screen's event stream must show the true ranking.
Peak memory: the resident sets of the server and its worker processes, summed, sampled
every 50 ms (``tools.bench_load``).

    python -m tools.bench_remote [--players 100] [--windows 120,10] [--concurrency 16]
                                 [--distinct 100]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tools.bench_load import PeakMemory
from tools.bench_reader import OUT_DIR, _score_total, layout_fingerprint, make_photos, plan
from tools.screens import start_server

PUBLIC = "bench.example.org"


@dataclass(frozen=True)
class Player:
    name: str
    photo: Path
    truth_total: int
    truth_fields: dict[str, str]
    variant: str


@dataclass
class Outcome:
    name: str
    to_score_s: float | None = None  # upload started -> own score on the phone
    done_at: float | None = None  # since the first upload started
    questions: int = 0
    right_at_once: bool = False  # the first score shown was the true one
    total: int | None = None
    right: bool = False
    error: str = ""


def players(n: int, jobs: int, distinct: int) -> list[Player]:
    """``n`` players; player i photographed sheet i mod ``distinct`` (making a 12 MP
    photo takes tens of seconds on a busy machine, so a smaller set may be shared)."""
    k = min(n, distinct)
    specs = [s for s in plan(k * 2, 4000, 0) if s.sheet == "delicious-combo"][:k]
    photos = make_photos(specs, OUT_DIR / layout_fingerprint(), jobs)
    out = []
    for i in range(n):
        spec, photo = specs[i % k], photos[i % k]
        truth = json.loads(photo.with_suffix(".truth.json").read_text())["full_fields"]
        total = _score_total(truth, spec.variant)
        assert total is not None, photo
        out.append(Player(f"player{i + 1:03d}", photo, total, truth, spec.variant))
    return out


class Phone:
    """One remote player's phone behind the proxy: its own address, the join token, the
    name cookie it was given (sent by hand: it is Secure and this is plain http)."""

    def __init__(self, root: str, token: str, address: str) -> None:
        self.client = httpx.Client(base_url=root, timeout=600, headers={
            "Host": PUBLIC, "X-Forwarded-For": address, "X-Forwarded-Proto": "https",
            "Authorization": f"Bearer {token}", "Accept": "application/json"})
        self.cookie = ""

    def post(self, path: str, **kw: Any) -> httpx.Response:
        r = self.client.post(path, headers={"Cookie": self.cookie}, **kw)
        r.raise_for_status()
        return r

    def me(self) -> dict[str, Any]:
        r = self.client.get("/join/me", headers={"Cookie": self.cookie})
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]


def play(root: str, token: str, p: Player, i: int, start: float) -> Outcome:
    out = Outcome(p.name)
    phone = Phone(root, token, f"10.{i // 250}.{i % 250}.{1 + i % 7}")
    try:
        r = phone.client.post("/join/name", data={"name": p.name})
        r.raise_for_status()
        phone.cookie = r.headers["set-cookie"].split(";", 1)[0]
        t0 = time.perf_counter()
        phone.post("/join/upload", files=[("photo", (p.photo.name, p.photo.read_bytes(),
                                                     "image/jpeg"))])
        doc = phone.me()
        out.to_score_s = time.perf_counter() - t0
        out.questions = len(doc["questions"])
        out.right_at_once = doc["total"] == p.truth_total
        for q in doc["questions"]:  # the player looks at their sheet and answers
            phone.post("/join/correct", data={"reading": q["reading"], "field": q["field"],
                                              "value": p.truth_fields.get(q["field"], "")})
        if doc["questions"]:
            doc = phone.me()
        out.total = doc["total"]
        out.right = out.total == p.truth_total
        out.done_at = time.perf_counter() - start
    except (httpx.HTTPError, KeyError, ValueError) as exc:
        out.error = f"{type(exc).__name__}: {exc}"[:200]
    finally:
        phone.client.close()
    return out


def big_screen(root: str, host_token: str) -> dict[str, Any]:
    """The host reveals the ranking; the first event of the big screen's stream."""
    headers = {"Host": PUBLIC, "Authorization": f"Bearer {host_token}",
               "Accept": "application/json"}
    httpx.post(f"{root}/big/reveal", data={"show": "1"}, headers=headers,
               timeout=60).raise_for_status()
    with httpx.stream("GET", f"{root}/big/events", timeout=120,
                      headers={**headers, "Accept": "text/event-stream"}) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[6:])  # type: ignore[no-any-return]
    raise RuntimeError("the big screen's stream ended without an event")


def expected_ranking(ps: Sequence[Player]) -> list[tuple[int, str, int]]:
    from companion.games.delicious.scoring import rank, score
    from companion.games.delicious.state import SheetState

    scores = [score(SheetState.from_field_map(p.truth_fields, p.variant)) for p in ps]
    return [(s.place, s.player, s.total) for s in rank(scores, [p.name for p in ps])]


def stored(data: Path) -> tuple[int, int]:
    """Remote sheets kept, and how many of them are given to a player."""
    import sqlite3

    from companion.store.paths import DB_NAME

    with sqlite3.connect(data / DB_NAME) as conn:
        rows = conn.execute("SELECT r.player_id FROM readings r JOIN photos ph ON "
                            "ph.id = r.photo_id WHERE ph.role = 'remote'").fetchall()
    return len(rows), sum(1 for (pid,) in rows if pid is not None)


def run(ps: Sequence[Player], window: float, concurrency: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        proc, url = start_server(data, "--public", f"https://{PUBLIC}")
        root, host_token = url.split("?")[0].rstrip("/"), url.split("?t=")[1]
        join_token = (data / "join-token").read_text().strip()
        try:
            warm = Phone(root, join_token, "10.255.0.1")  # models loaded before the clock
            warm.client.get("/join").raise_for_status()
            with PeakMemory(proc.pid) as peak:
                start = time.perf_counter()
                gate = threading.Semaphore(concurrency)

                def one(i: int) -> Outcome:
                    delay = start + i * window / len(ps) - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)
                    with gate:
                        return play(root, join_token, ps[i], i, start)

                with ThreadPoolExecutor(max_workers=len(ps)) as pool:
                    outcomes = list(pool.map(one, range(len(ps))))
                board = big_screen(root, host_token)
            kept, owned = stored(data)
        finally:
            proc.terminate()
            proc.wait(10)
    return table(ps, outcomes, board, kept, owned, peak.peak, window, concurrency)


def table(ps: Sequence[Player], outcomes: Sequence[Outcome], board: dict[str, Any],
          kept: int, owned: int, peak_mb: float, window: float,
          concurrency: int) -> str:
    n = len(ps)
    times = sorted(o.to_score_s for o in outcomes if o.to_score_s is not None)
    right = sum(o.right for o in outcomes)
    errors = [o for o in outcomes if o.error]
    got = [(r["place"], r["player"], r["total"]) for r in board.get("ranking", [])]
    ranking_right = got == expected_ranking(ps)
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) >= 2 else (times or [0])[0]
    last = max((o.done_at for o in outcomes if o.done_at is not None), default=0.0)
    questions = sum(o.questions for o in outcomes)
    at_once = sum(o.right_at_once for o in outcomes)
    for o in errors[:5]:
        print(f"  {o.name}: {o.error}")
    return (f"| {n} ({window:.0f} s, {concurrency}) | {right}/{n} | {at_once} | {questions} | "
            f"{'yes' if ranking_right else 'NO'} ({len(got)} ranked) | {n - min(kept, owned)} | "
            f"{len(errors)} | {statistics.median(times) if times else 0:.2f} "
            f"({p95:.2f}) | {last:.1f} | {peak_mb:.0f} |")


HEADER = ("| remote players (sent within, at most at once) | scored right | right before "
          "any answer | questions answered | ranking right | lost | errors "
          "| upload to own score, median s (p95) | until the last score s "
          "| peak memory, server + workers (MB) |\n|---|---|---|---|---|---|---|---|---|---|")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--windows", default="120,10",
                    help="seconds over which the players start sending, one row each")
    ap.add_argument("--concurrency", type=int, default=16, help="players in flight at once")
    ap.add_argument("--jobs", type=int, default=2, help="processes making photos")
    ap.add_argument("--distinct", type=int, default=100,
                    help="different sheet photos, shared in turn by the players")
    args = ap.parse_args(argv)
    ps = players(args.players, args.jobs, args.distinct)
    print(f"{len({p.photo for p in ps})} different photos, 12 MP")
    rows = [run(ps, float(w), args.concurrency) for w in args.windows.split(",")]
    print("\n".join([HEADER, *rows]))


if __name__ == "__main__":
    main()
