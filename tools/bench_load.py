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

    python -m tools.bench_load [--crowds 5,20,100]
"""

from __future__ import annotations

import argparse
import json
import statistics
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


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crowds", default="5,20,100", help="clients at once, comma-separated")
    args = ap.parse_args(argv)
    crowds = [int(x) for x in args.crowds.split(",")]
    from companion.web.constants import READ_QUEUE_PHOTOS, READER_PROCESSES

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp))
        root = url.split("?")[0].rstrip("/")
        try:
            alone = {p.name: _score(_post(root, p, f"alone-{p.name}")[1]) for p in PHOTOS}
            runs = [(n, False) for n in crowds] + [(crowds[-1], True)]
            for clients, retry in runs:
                with PeakMemory(proc.pid) as mem:
                    results = crowd(root, clients, alone, retry)
                rows.append((clients, retry, results, mem.peak))
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"The {len(PHOTOS)} example combo photos ({', '.join(p.name for p in PHOTOS)}), "
          f"posted together to a warm server on 127.0.0.1; read queue {READ_QUEUE_PHOTOS} "
          f"photos, {READER_PROCESSES} reader processes.\n")
    print("| clients at once | read | busy (503) | errors | wrong scores | median s | max s "
          "| busy answered in (max s) | peak memory, server + workers (MB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for clients, retry, results, peak in rows:
        read = [r for r in results if r.status == 200]
        busy = [r for r in results if r.status == 503]
        errors = [r for r in results if r.status not in (200, 503)]
        wrong = [r for r in read if not r.right]
        secs = [r.seconds for r in read]
        label = f"{clients}, busy ones retrying after Retry-After" if retry else str(clients)
        busy_text = (f"{sum(r.tries - 1 for r in results)} (retried)" if retry
                     else str(len(busy)))
        print(f"| {label} | {len(read)} | {busy_text} | {len(errors)} | {len(wrong)} | "
              f"{statistics.median(secs):.1f} | {max(secs):.1f} | "
              f"{max((r.seconds for r in busy), default=0.0):.2f} | {peak:.0f} |")


if __name__ == "__main__":
    main()
