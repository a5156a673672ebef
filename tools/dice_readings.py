"""Save every reading the dice reader gives on the dice bench's photos, and compare two
saved runs: for changes meant to leave the readings alone (speed work, refactors).

The first photos of the held-out, wide and narrow settings (``tools/bench_dice_vision``)
are rendered once and kept in ``bench-out/dice-readings/photos``; each run saves, per
photo, every die (cell, ingredient, pips, confidence, review, flags, centre) and every
gap, or the error raised. ``compare`` lists every photo whose cells, ingredients, pips,
review or flags or gaps differ, and the largest change of confidence and of centre.

    python -m tools.dice_readings save before [--photos 80]
    python -m tools.dice_readings compare before after
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

OUT_DIR = Path("bench-out/dice-readings")
SETTINGS = ("held-out", "wide", "narrow")


def photos(count: int) -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) of the first ``count`` photos of each setting, rendered once."""
    from tools.bench_dice_vision import photo

    store = OUT_DIR / "photos"
    store.mkdir(parents=True, exist_ok=True)
    for setting in SETTINGS:
        for i in range(count):
            name = f"{setting}-{i:03d}"
            path = store / f"{name}.npy"
            if not path.exists():
                np.save(path, photo(setting, i)[0].image)
            yield name, np.load(path)


def save(run: str, count: int) -> None:
    from companion.errors import ImageError
    from companion.vision.dice.reader import read_dice_image

    cv2.setNumThreads(1)
    out: dict[str, Any] = {}
    cpu = []
    for name, img in photos(count):
        start = time.process_time()
        try:
            r = read_dice_image(img)
        except ImageError as exc:
            out[name] = {"error": str(exc)}
            continue
        finally:
            cpu.append(time.process_time() - start)
        out[name] = {
            "on_mat": r.on_mat,
            "dice": [[d.row, d.col, d.ingredient.value, d.value, d.confidence, d.review,
                      list(d.flags), list(d.center_px)] for d in r.dice],
            "gaps": [[g.row, g.col, list(g.center_px)] for g in r.gaps],
        }
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / f"{run}.json").write_text(json.dumps(out))
    print(f"{run}: {len(out)} photos saved, median CPU {statistics.median(cpu):.3f} s per read")


def _load(run: str) -> dict[str, Any]:
    path = OUT_DIR / f"{run}.json"
    if not path.exists():
        sys.exit(f"no saved run {run!r} in {OUT_DIR} (save it first)")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def compare(a: str, b: str) -> int:
    """Print the differences; 1 when any reading differs, else 0."""
    old, new = _load(a), _load(b)
    differ, conf, moved = 0, 0.0, 0.0
    for name in sorted(old.keys() | new.keys()):
        x, y = old.get(name), new.get(name)
        if x is None or y is None or "error" in x or "error" in y:
            if x != y:
                differ += 1
                print(f"{name}: {x and x.get('error')} -> {y and y.get('error')}")
            continue

        def key(d: list[Any]) -> list[Any]:
            return [*d[:4], d[5], d[6]]  # cell, ingredient, pips, review, flags

        kx, ky = [key(d) for d in x["dice"]], [key(d) for d in y["dice"]]
        gx, gy = [g[:2] for g in x["gaps"]], [g[:2] for g in y["gaps"]]
        if kx != ky or gx != gy or x["on_mat"] != y["on_mat"]:
            differ += 1
            print(f"{name}: dice {len(kx)} -> {len(ky)}, gaps {gx} -> {gy}")
            for u, v in zip(kx, ky, strict=False):
                if u != v:
                    print(f"    {u} -> {v}")
            continue
        for u, v in zip(x["dice"], y["dice"], strict=True):
            conf = max(conf, abs(u[4] - v[4]))
            moved = max(moved, abs(u[7][0] - v[7][0]), abs(u[7][1] - v[7][1]))
    print(f"{len(old)} photos: {differ} with a different reading; largest change of a "
          f"confidence {conf:.6f}, of a die centre {moved:.4f} px")
    return 1 if differ else 0


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.dice_readings",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save", help="read the photos and save every reading as RUN")
    s.add_argument("run")
    s.add_argument("--photos", type=int, default=80, help="photos per setting (default 80)")
    c = sub.add_parser("compare", help="compare two saved runs")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.cmd == "save":
        save(args.run, args.photos)
    else:
        sys.exit(compare(args.a, args.b))


if __name__ == "__main__":
    main()
