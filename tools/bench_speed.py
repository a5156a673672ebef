"""Reader speed: warm, one-thread reads of 12 MP sheet photos and of dice photos, by stage.

Sheet photos: the example photos (``examples/delicious/photos``, enlarged to 4000x3000 and
saved as JPEG once, in ``bench-out/speed/``) and bench-style synthetic photos at 4000 px
(the reader bench's own, shared with its cache). Each read is ``read_photo`` on the file,
decoding included, the second of two reads in a row of each photo (the first makes what
the reader keeps per sheet, the blank and its alignment templates, which it keeps for the
last eight sheets: fewer than the kinds of sheet among these photos; the first reads'
times are shown too); the target is a median under 0.4 s. Dice photos:
the held-out set of the dice bench, read from memory as that bench does (target: median
CPU under 0.5 s). OpenCV runs on one thread. Stages are timed by wrapping the readers'
own steps (a step called inside another counts to the outer one); "other" is the rest.
Stages and totals are CPU seconds (on one thread the wall clock of a quiet machine; on a
shared one the wall clock mostly measures the neighbours), the wall median is shown beside.
A cProfile run over the same reads lists where the time goes.

    python -m tools.bench speed [--sheets 12] [--dice 24] [--profile 12]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
OUT_DIR = Path("bench-out/speed")
PHOTO_SIZE = (4000, 3000)  # 12 MP, landscape

SHEET_STAGES: tuple[tuple[str, str, str], ...] = (
    # (stage, module, attribute): the reader's steps as its module calls them
    ("decode", "companion.vision.sheet.reader", "load_grey"),
    ("decode", "companion.vision.sheet.reader", "load_image"),  # before load_grey existed
    ("register", "companion.vision.sheet.reader", "register"),
    ("rectify", "companion.vision.register", "Registration.rectify"),
    ("page + align", "companion.vision.sheet.reader", "_page"),
    ("page + align", "companion.vision.sheet.reader", "_shift"),
    ("page + align", "companion.vision.sheet.reader", "_smooth_shifts"),
    ("fields/letters", "companion.vision.sheet.reader", "_cell"),
    ("fields/letters", "companion.vision.sheet.reader", "_letter_candidates"),
    ("fields/letters", "companion.vision.sheet.reader", "_net_inputs"),
    ("drawings", "companion.vision.sheet.reader", "_drawings"),
    ("drawings", "companion.vision.sheet.reader", "read_key"),
    ("bent paper", "companion.vision.sheet.reader", "_follow_bends"),
    ("cover check", "companion.vision.sheet.reader", "covered_fields"),
    ("marks", "companion.vision.sheet.reader", "_mark"),
    ("marks", "companion.vision.sheet.reader", "_first_potter"),
    ("decide", "companion.vision.sheet.reader", "decide"),
    ("decide", "companion.vision.sheet.reader", "glared_fields"),
    ("decide", "companion.vision.sheet.reader", "_detail_cap"),
)
DICE_STAGES: tuple[tuple[str, str, str], ...] = (
    ("gate", "companion.vision.dice.gate", "check"),
    ("gate", "companion.vision.dice.gate", "confirm"),
    ("grid", "companion.vision.dice.reader", "_locate"),
    ("grid", "companion.vision.dice.reader", "refine"),
    ("grid", "companion.vision.dice.reader", "trim"),
    ("cells", "companion.vision.dice.reader", "_read_cells"),
    ("colour", "companion.vision.dice.reader", "_white_offset"),
    ("colour", "companion.vision.dice.reader", "_decide"),
)


class StageClock:
    """CPU seconds per stage for the current read (one thread, so a loaded machine's
    neighbours do not count); nested steps count to the outermost."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self._depth = 0

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return fn(*args, **kwargs)
            self._depth += 1
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.current[stage] += time.process_time() - start
                self._depth -= 1

        return timed

    def take(self) -> dict[str, float]:
        out, self.current = dict(self.current), defaultdict(float)
        return out


@contextmanager
def staged(stages: Sequence[tuple[str, str, str]]) -> Iterator[StageClock]:
    """Wrap each named step in a stage timer for the duration of the block (a step the
    reader does not have is skipped, so older readers can be timed alike)."""
    import importlib

    clock = StageClock()
    saved: list[tuple[Any, str, Any]] = []
    for stage, module, attr in stages:
        owner: Any = importlib.import_module(module)
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        if not hasattr(owner, name):
            continue
        original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        saved.append((owner, name, original))
        setattr(owner, name, clock.wrap(stage, original))
    try:
        yield clock
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


# ---- photos ---------------------------------------------------------------------------------


def example_photos(out: Path = OUT_DIR) -> list[Path]:
    """The example sheet photos enlarged to 12 MP (4000x3000 or 3000x4000), made once."""
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for src in sorted((EXAMPLES / "delicious" / "photos").glob("*.jpg")):
        dst = out / f"{src.stem}-12mp.jpg"
        if not dst.exists():
            img = cv2.imread(str(src))
            h, w = img.shape[:2]
            size = PHOTO_SIZE if w >= h else PHOTO_SIZE[::-1]
            big = cv2.resize(img, size, interpolation=cv2.INTER_CUBIC)
            cv2.imwrite(str(dst), big, [cv2.IMWRITE_JPEG_QUALITY, 88])
        made.append(dst)
    return made


def synthetic_photos(n: int) -> list[Path]:
    """The first ``n`` photos of the reader bench's set at 4000 px (its cache, shared)."""
    from tools import bench_reader

    specs = bench_reader.plan(n, 4000)
    out = bench_reader.OUT_DIR / bench_reader.layout_fingerprint()
    return bench_reader.make_photos(specs, out, 1)


# ---- tables ---------------------------------------------------------------------------------


def _q(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def stage_table(title: str, totals: list[float], per_stage: list[dict[str, float]],
                names: Sequence[str], target: str) -> None:
    print(f"\n{title}\n")
    print("| stage | median CPU s | p90 | max | share of total |")
    print("|---|---|---|---|---|")
    whole = sum(totals)
    for name in [*dict.fromkeys(names), "other"]:
        if name == "other":
            xs = [t - sum(d.values()) for t, d in zip(totals, per_stage, strict=True)]
        else:
            xs = [d.get(name, 0.0) for d in per_stage]
        print(f"| {name} | {statistics.median(xs):.3f} | {_q(xs, 0.9):.3f} | {max(xs):.3f} | "
              f"{100 * sum(xs) / whole:.0f}% |")
    print(f"| **total** ({target}) | **{statistics.median(totals):.3f}** | "
          f"{_q(totals, 0.9):.3f} | {max(totals):.3f} | 100% |")


def profile_findings(fn: Callable[[], None], top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats("tottime").print_stats(top)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls")), 0)
    print(f"\ncProfile, own time, top {top} (the same reads again, profiler overhead "
          "included):\n")
    print("```")
    for ln in lines[start:]:
        print(ln.replace(str(Path.cwd()) + "/", "").replace(sys.prefix + "/", ""))
    print("```")


# ---- runs -----------------------------------------------------------------------------------


def sheet_speed(paths: Sequence[Path], top: int) -> None:
    from companion.vision.sheet.reader import read_photo

    # Each photo is read twice in a row and the second read timed: the reader keeps what it
    # makes per sheet (the blank, its templates) for the last eight sheets only, and the
    # photos show more kinds of sheet than that (sheet, variant, black and white), so a
    # pass over all of them would make some again on every read. The first reads are
    # reported apart: the read of a sheet not seen lately.
    first = []
    walls, stages, cpus = [], [], []
    with staged(SHEET_STAGES) as clock:
        for p in paths:
            start = time.process_time()
            read_photo(str(p))
            first.append(time.process_time() - start)
            clock.take()
            start, cpu = time.perf_counter(), time.process_time()
            read_photo(str(p))
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            stages.append(clock.take())
    n_ex = sum(p.parent == OUT_DIR for p in paths)
    stage_table(f"Sheet photos, 12 MP JPEG ({n_ex} examples enlarged, {len(paths) - n_ex} "
                f"synthetic), warm, one thread, CPU seconds per read including decoding "
                f"(median wall {statistics.median(walls):.3f} s), each the second of two "
                f"reads in a row (the first reads, some making their sheet's blank and "
                f"templates: median {statistics.median(first):.3f} s, max "
                f"{max(first):.3f} s):",
                cpus, stages, [s for s, _, _ in SHEET_STAGES], "target < 0.4 s median")
    if top:
        profile_findings(lambda: [read_photo(str(p)) for p in paths for _ in range(2)] and None,
                         top)


def dice_speed(n: int, top: int) -> None:
    from companion.errors import ImageError
    from companion.vision.dice.reader import read_dice_image
    from tools.bench_dice_vision import photo

    images = [photo("held-out", i)[0].image for i in range(n)]
    try:
        read_dice_image(images[-1])
    except ImageError:
        pass

    def read(img: np.ndarray) -> None:
        try:
            read_dice_image(img)
        except ImageError:
            pass

    walls, stages, cpus = [], [], []
    with staged(DICE_STAGES) as clock:
        for img in images:
            start, cpu = time.perf_counter(), time.process_time()
            read(img)
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            stages.append(clock.take())
    h, w = images[0].shape[:2]
    stage_table(f"Dice photos, the dice bench's held-out set ({n} photos, {w}x{h}, from "
                f"memory), warm, one thread, CPU seconds per read (median wall "
                f"{statistics.median(walls):.3f} s):",
                cpus, stages, [s for s, _, _ in DICE_STAGES], "target < 0.5 s median")
    if top:
        profile_findings(lambda: [read(img) for img in images] and None, top)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.bench speed",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--sheets", type=int, default=12,
                    help="synthetic 12 MP sheet photos besides the 5 examples (default 12)")
    ap.add_argument("--dice", type=int, default=24, help="held-out dice photos (default 24)")
    ap.add_argument("--profile", type=int, default=12,
                    help="functions listed from cProfile per reader (0: no profile)")
    ap.add_argument("--only", choices=("sheet", "dice"), default=None)
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)
    if args.only != "dice":
        sheet_speed([*example_photos(), *synthetic_photos(args.sheets)], args.profile)
    if args.only != "sheet" and args.dice:
        dice_speed(args.dice, args.profile)


if __name__ == "__main__":
    main()
