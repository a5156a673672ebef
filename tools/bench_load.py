"""Benchmark of ``companion serve`` under load: 5, 20 and 100 phones uploading at once.

A server runs in a subprocess on 127.0.0.1 with a fresh data directory and its default
read queue; it is warmed by reading each example photo once (the score each photo gets
alone). Then, for each crowd, that many clients post the example Delicious photos
(``examples/delicious/photos/combo-*.jpg``, in turn, each under a name of its own) to
``/api/delicious/read`` at the same moment. An answer is right when it carries its own
name and the score its photo got alone; a 503 is a busy answer (with Retry-After). In the
last row every client answered busy tries again after its Retry-After until it is read.
Peak memory: the resident sets of the server and its worker processes, summed, sampled
every 50 ms.

With ``--base REF`` the crowds are also sent to a server of commit REF (its files taken
with ``git archive``, run from there), each crowd to this commit's server and then to the
base's, so both are measured in one run on the same machine and load.

    python -m tools.bench_load [--crowds 5,20,100] [--base REF]
    BENCH_BASE=REF python -m tools.bench load      # the same, its tables onto the page
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.screens import start_server

PHOTOS = sorted((Path(__file__).resolve().parents[1] / "examples" / "delicious" / "photos")
                .glob("combo-*.jpg"))


@dataclass(frozen=True)
class Result:
    status: int
    seconds: float
    right: bool
    tries: int


def _post(root: str, photo: Path, label: str) -> tuple[int, dict[str, object], float]:
    boundary = "----bench" + label
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
            f"filename=\"{label}\"\r\nContent-Type: image/jpeg\r\n\r\n").encode()
    body += photo.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(f"{root}/api/delicious/read", data=body, headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(req, timeout=600) as resp:
            return resp.status, json.loads(resp.read()), 0.0
    except urllib.error.HTTPError as exc:
        retry = float(exc.headers.get("Retry-After") or 0)
        try:
            doc = json.loads(exc.read())
        except ValueError:
            doc = {}
        return exc.code, doc, retry


def _score(doc: dict[str, object]) -> object:
    score = doc.get("score")
    return score.get("total") if isinstance(score, dict) else None


def crowd(root: str, clients: int, alone: dict[str, object], retry: bool) -> list[Result]:
    """``clients`` uploads started together; with ``retry`` a busy client tries again."""
    start = threading.Barrier(clients)
    out: list[Result | None] = [None] * clients

    def client(i: int) -> None:
        photo = PHOTOS[i % len(PHOTOS)]
        label = f"phone{i:03d}-{photo.name}"
        start.wait()
        t0, tries = time.perf_counter(), 0
        while True:
            tries += 1
            status, doc, wait = _post(root, photo, label)
            if status != 503 or not retry:
                break
            time.sleep(wait)
        right = status == 200 and doc.get("photo") == label and _score(doc) == alone[photo.name]
        out[i] = Result(status, time.perf_counter() - t0, right, tries)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [r for r in out if r is not None]


def _family(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    family, grew = {pid}, True
    while grew:
        more = {p for p, pp in parents.items() if pp in family} - family
        family |= more
        grew = bool(more)
    return sorted(family)


def _rss_mb(pids: Sequence[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


class PeakMemory:
    """The largest summed resident set of a process tree while it is watched."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak = pid, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, _rss_mb(_family(self.pid)))
            self._stop.wait(0.05)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _get(url: str, data: bytes | None = None) -> tuple[int, float, int]:
    """(status, seconds, bytes) of one request."""
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if data else {}
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers),
                                    timeout=600) as resp:
            status, size = resp.status, len(resp.read())
    except urllib.error.HTTPError as exc:
        status, size = exc.code, len(exc.read())
    return status, time.perf_counter() - t0, size


def _big_kitchen() -> bytes:
    """The example best-harvest state with 14 two-space cafés more (about 8 s alone)."""
    from urllib.parse import urlencode

    root = Path(__file__).resolve().parents[1]
    doc = json.loads((root / "examples" / "dulce" / "best-harvest.json").read_text())
    beans = ("coffee", "vanilla", "cacao", "peanut")
    more = [{"name": f"Extra {i}", "spaces": [{"type": beans[i % 4], "level": 1 + i % 3},
                                              {"type": beans[(i + 1) % 4],
                                               "level": 1 + (i + 1) % 3}]}
            for i in range(14)]
    state = json.dumps({**doc, "cafes": doc["cafes"] + more})
    return urlencode({"action": "best-harvest", "state": state, "rows": "2"}).encode()


def _meanwhile(root: str, other: str, seconds: float) -> tuple[float, float]:
    """The slowest static file and the slowest ``other`` page over ``seconds``."""
    static, page = 0.0, 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        static = max(static, _get(f"{root}/static/app.css")[1])
        page = max(page, _get(f"{root}{other}")[1])
        time.sleep(0.2)
    return static, page


def meanwhile_rows(root: str, data: Path) -> list[str]:
    """Static files and pages while a big Dulce question runs, and while another process
    holds the store's write lock."""
    import sqlite3

    from companion.store.paths import DB_NAME

    rows = []
    status, asked, _ = _get(f"{root}/pads/dulce", _big_kitchen())
    static, page = _meanwhile(root, "/pads/wild-gardens", 5)
    rows.append(f"| a Dulce best harvest of 14 more cafés | answered {status} in {asked:.2f} s |"
                f" {static * 1000:.0f} | {page * 1000:.0f} (a score pad) |")
    lock = sqlite3.connect(data / DB_NAME, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    try:
        box: list[tuple[int, float, int]] = []
        t = threading.Thread(target=lambda: box.append(
            _get(f"{root}/players/add", b"name=Someone")))
        t.start()
        static, page = _meanwhile(root, "/", 4)
        t.join()
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    rows.append(f"| another process holding the store's write lock | answered {box[0][0]} in "
                f"{box[0][1]:.2f} s | {static * 1000:.0f} | {page * 1000:.0f} (tonight) |")
    return rows


def many_plays(plays: int) -> str:
    """``/`` and the history page of a store with ``plays`` plays tonight."""
    from companion.store import SeatInput, Store

    with tempfile.TemporaryDirectory() as tmp:
        with Store.open(Path(tmp)) as store:
            store._conn.execute("PRAGMA synchronous=OFF")  # seeding only
            night = store.current_night()
            seats = [SeatInput("Ann", 41.0, 1, True), SeatInput("Bo", 30.0, 2, False)]
            for _ in range(plays):
                store.save_play("dulce", seats, night_id=night.id)
        proc, url = start_server(Path(tmp))
        root = url.split("?")[0].rstrip("/")
        try:
            out = []
            for path in ("/", "/history"):
                _get(root + path)  # warm
                runs = [_get(root + path) for _ in range(5)]
                out.append(f"| `{path}` with {plays:,} plays tonight | "
                           f"{statistics.median(r[1] for r in runs):.2f} | "
                           f"{runs[0][2] / 1000:.0f} |")
        finally:
            proc.terminate()
            proc.wait(10)
    return "\n".join(out)


def base_tree(ref: str, into: Path) -> Path:
    """Commit ``ref``'s files under ``into`` (git archive: no worktree, no checkout)."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(root), "archive", ref], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def start_base(data: Path, tree: Path) -> tuple[subprocess.Popen[str], str]:
    """``companion serve`` from another commit's files (its package first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli.serve", "--data", str(data),
                             "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=tree, env=env)
    assert proc.stdout is not None
    first = proc.stdout.readline().strip()
    if not first.startswith("serving at "):
        proc.kill()
        raise SystemExit(f"the base server did not start: {first!r}")
    return proc, first.removeprefix("serving at ")


def _crowd_row(label: str, results: list[Result], peak: float, retry: bool) -> str:
    read = [r for r in results if r.status == 200]
    busy = [r for r in results if r.status == 503]
    errors = [r for r in results if r.status not in (200, 503)]
    wrong = [r for r in read if not r.right]
    secs = [r.seconds for r in read] or [0.0]
    busy_text = f"{sum(r.tries - 1 for r in results)} (retried)" if retry else str(len(busy))
    return (f"| {label} | {len(read)} | {busy_text} | {len(errors)} | {len(wrong)} | "
            f"{statistics.median(secs):.1f} | {max(secs):.1f} | "
            f"{max((r.seconds for r in busy), default=0.0):.2f} | {peak:.0f} |")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crowds", default="5,20,100", help="clients at once, comma-separated")
    ap.add_argument("--plays", type=int, default=200_000, help="plays in the paging store")
    ap.add_argument("--base", default=os.environ.get("BENCH_BASE") or None, metavar="REF",
                    help="also measure the crowds on a server of this commit, side by side "
                         "[default: $BENCH_BASE, else none]")
    args = ap.parse_args(argv)
    crowds = [int(x) for x in args.crowds.split(",")]
    from companion.web.constants import READ_QUEUE_PHOTOS, READER_PROCESSES

    rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for folder in ("data", "base-data", "base"):
            (Path(tmp) / folder).mkdir()
        servers = [("", *start_server(Path(tmp) / "data"))]
        if args.base:
            tree = base_tree(args.base, Path(tmp) / "base")
            servers.append((f"base {args.base}, ", *start_base(Path(tmp) / "base-data", tree)))
        try:
            roots = [url.split("?")[0].rstrip("/") for _, _, url in servers]
            alone = [{p.name: _score(_post(root, p, f"alone-{p.name}")[1]) for p in PHOTOS}
                     for root in roots]
            runs = [(n, False) for n in crowds] + [(crowds[-1], True)]
            for clients, retry in runs:
                for (name, proc, _), root, scores in zip(servers, roots, alone, strict=True):
                    with PeakMemory(proc.pid) as mem:
                        results = crowd(root, clients, scores, retry)
                    label = (f"{name}{clients}, busy ones retrying after Retry-After" if retry
                             else f"{name}{clients}")
                    rows.append(_crowd_row(label, results, mem.peak, retry))
            meanwhile = meanwhile_rows(roots[0], Path(tmp) / "data")
        finally:
            for _, proc, _ in servers:
                proc.terminate()
                proc.wait(10)
    print(f"The {len(PHOTOS)} example combo photos ({', '.join(p.name for p in PHOTOS)}), "
          f"posted together to a warm server on 127.0.0.1; read queue {READ_QUEUE_PHOTOS} "
          f"photos, {READER_PROCESSES} reader processes.\n")
    print("| clients at once | read | busy (503) | errors | wrong scores | median s | max s "
          "| busy answered in (max s) | peak memory, server + workers (MB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\nMeanwhile: the slowest of the static file and a page fetched every 0.2 s while "
          "one request waits on a long engine run or a locked store.\n")
    print("| while | the request | static file, max ms | a page, max ms |")
    print("|---|---|---|---|")
    print("\n".join(meanwhile))
    print(f"\nA store with {args.plays:,} plays in tonight's night (each page shows 30 or "
          "100, newest first); median of 5 warm requests.\n")
    print("| page | seconds | KB sent |")
    print("|---|---|---|")
    print(many_plays(args.plays))


if __name__ == "__main__":
    main()
