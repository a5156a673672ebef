"""Benchmark of ``companion serve``: how long a phone waits, and five phones at once.

Photos: 12 MP synthetic phone photos of Delicious combo sheets (the reader benchmark's
generator and cache, ``bench-out/reader/``). A server runs in a subprocess on a fresh data
directory and is warmed by one upload. Then:

* Upload to score: headless chromium at phone size picks each photo in the page's file
  input; the clock starts when the browser has finished sending the photo and stops when
  the score is on the next page (and, second column, when the overlay picture is in).
  Median and 90th percentile of 20 uploads.
* Five clients at once: five threads post five different photos to /api/delicious/read
  together; each answer must carry its own photo's name and the score that photo gets
  when read alone.

    python -m tools.bench_serve [--uploads 20] [--clients 5] [--size 4000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tools.bench_reader import OUT_DIR, layout_fingerprint, make_photos, plan
from tools.screens import CHOOSE, CHROMIUM_ARGS, start_server

# Marks the moment the browser has sent the whole upload (XMLHttpRequest upload load).
UPLOAD_HOOK = """
(() => {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    this.upload.addEventListener("load", () => sessionStorage.setItem("sent", Date.now()));
    return send.call(this, body);
  };
})();
"""
SCORE_SHOWN = "document.querySelector('[data-testid=total]') !== null"
IMAGES_IN = "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"


def _combo_photos(n: int, size: int, jobs: int) -> list[Path]:
    specs = [s for s in plan(n * 2, size, seed_base()) if s.sheet == "delicious-combo"][:n]
    return make_photos(specs, OUT_DIR / layout_fingerprint(), jobs)


def seed_base() -> int:
    return 0


def _post(root: str, photo: Path) -> dict[str, Any]:
    import httpx

    with photo.open("rb") as fh:
        r = httpx.post(f"{root}/api/delicious/read", timeout=300,
                       files=[("photo", (photo.name, fh.read(), "image/jpeg"))])
    r.raise_for_status()
    return r.json()  # type: ignore[no-any-return]


def browser_uploads(url: str, photos: Sequence[Path]) -> tuple[list[float], list[float]]:
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium")
    if exe is None:
        raise SystemExit("bench_serve: chromium is not installed (apt-get install chromium)")
    to_score, to_overlay = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.add_init_script(UPLOAD_HOOK)
        root = url.split("?")[0].rstrip("/")
        for photo in photos:
            page.goto(root + "/delicious")
            page.locator(CHOOSE).set_input_files(photo)
            page.wait_for_function(SCORE_SHOWN, timeout=300_000, polling=10)
            shown = page.evaluate("Date.now()")
            page.wait_for_function(IMAGES_IN, timeout=300_000, polling=10)
            pictured = page.evaluate("Date.now()")
            sent = float(page.evaluate("Number(sessionStorage.getItem('sent'))"))
            to_score.append((shown - sent) / 1000)
            to_overlay.append((pictured - sent) / 1000)
        browser.close()
    return to_score, to_overlay


def reader_seconds(data: Path) -> list[float]:
    """The reader's own time for each stored reading, in upload order."""
    import json
    import sqlite3

    from companion.store.paths import DB_NAME

    with sqlite3.connect(data / DB_NAME) as conn:
        rows = conn.execute("SELECT doc FROM readings ORDER BY id").fetchall()
    return [float(json.loads(doc)["seconds"]) for (doc,) in rows]


def concurrent_clients(root: str, photos: Sequence[Path]) -> tuple[int, float, list[str]]:
    alone = {p.name: _post(root, p)["score"]["total"] for p in photos}
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(photos)) as pool:
        docs = list(pool.map(lambda p: _post(root, p), photos))
    wall = time.perf_counter() - start
    right, wrong = 0, []
    for p, doc in zip(photos, docs, strict=True):
        if doc.get("photo") == p.name and doc["score"]["total"] == alone[p.name]:
            right += 1
        else:
            wrong.append(f"{p.name}: got {doc.get('photo')} {doc['score']['total']}")
    return right, wall, wrong


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uploads", type=int, default=20)
    ap.add_argument("--clients", type=int, default=5)
    ap.add_argument("--size", type=int, default=4000, help="photo long side, px (12 MP: 4000)")
    ap.add_argument("--jobs", type=int, default=2, help="processes making photos")
    args = ap.parse_args(argv)
    photos = _combo_photos(max(args.uploads, args.clients) + 1, args.size, args.jobs)
    mb = statistics.mean(p.stat().st_size for p in photos) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp))
        root = url.rstrip("/")
        try:
            _post(root, photos[-1])  # warm: models loaded, caches filled
            to_score, to_overlay = browser_uploads(url, photos[:args.uploads])
            reading = reader_seconds(Path(tmp))[-len(to_score):]
            right, wall, wrong = concurrent_clients(root, photos[:args.clients])
        finally:
            proc.terminate()
            proc.wait(10)
    q = statistics.quantiles
    print(f"{len(to_score)} uploads of {args.size} px ({args.size * args.size * 3 // 4 / 1e6:.0f}"
          f" MP) JPEGs, {mb:.1f} MB each on average; warm server on 127.0.0.1, headless "
          "chromium at 390 x 844.\n")
    print("| measure | median | p90 | max |")
    print("| --- | ---: | ---: | ---: |")
    for name, xs in (("upload sent -> score shown (s)", to_score),
                     ("upload sent -> overlay shown (s)", to_overlay),
                     ("of which the reader (s)", reading),
                     ("of which the server and page (s)",
                      [a - b for a, b in zip(to_score, reading, strict=True)])):
        p90 = q(xs, n=10, method="inclusive")[-1] if len(xs) > 1 else xs[0]
        print(f"| {name} | {statistics.median(xs):.2f} | {p90:.2f} | {max(xs):.2f} |")
    print(f"\n{args.clients} clients at once: {right}/{args.clients} got their own photo's "
          f"score (the score it gets alone); all answered in {wall:.1f} s.")
    for w in wrong:
        print(f"  wrong: {w}")
    if right != args.clients:
        sys.exit(1)


if __name__ == "__main__":
    main()
