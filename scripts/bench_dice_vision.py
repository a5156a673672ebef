"""Diced Veggies photo reader on synthetic photos: per-die accuracy, missed and phantom
dice, silent errors (wrong and not sent to review) and seconds per photo.

Half the photos show the block on the printed mat, half on a table; half the blocks are
full 5 x 7 blocks, half irregular (dice taken from the rim, sometimes a hole). Photos are
rendered one at a time and only the reading is timed. CPU seconds are reported beside
wall seconds: on a shared machine the wall clock mostly measures the neighbours.

    python -m scripts.bench_dice_vision [PHOTOS] [FIRST_SEED]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from companion.errors import ImageError
from companion.synth.dice_photo import DicePhoto, random_block, render_dice_photo
from companion.synth.dice_truth import ZERO, DiceScore, score_reading
from companion.vision.dice.reader import read_dice_image

PHOTOS = 200
FIRST_SEED = 10_000


def _photo(seed: int) -> DicePhoto:
    rng = np.random.default_rng(seed)
    irregular = seed % 2 == 1
    on_mat = (seed // 2) % 2 == 0
    return render_dice_photo(random_block(rng, irregular=irregular), rng, on_mat=on_mat)


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.2f}%" if d else "-"


def main() -> None:
    args = sys.argv[1:]
    count = int(args[0]) if args else PHOTOS
    first = int(args[1]) if len(args) > 1 else FIRST_SEED
    totals = {"mat": ZERO, "table": ZERO}
    seconds: dict[str, list[float]] = {"mat": [], "table": []}
    cpu: dict[str, list[float]] = {"mat": [], "table": []}
    failed = {"mat": 0, "table": 0}
    for seed in range(first, first + count):
        photo = _photo(seed)  # rendered here, outside the timed read, one photo in memory
        kind = "mat" if photo.on_mat else "table"
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            reading = read_dice_image(photo.image)
        except ImageError:
            failed[kind] += 1
            n = len(photo.block["dice"])
            totals[kind] = totals[kind] + DiceScore(n, 0, 0, 0, n, 0, n, 0)
            continue
        seconds[kind].append(time.perf_counter() - start)
        cpu[kind].append(time.process_time() - start_cpu)
        totals[kind] = totals[kind] + score_reading(photo, reading.dice)
    both = totals["mat"] + totals["table"]
    print("| photos | dice | ingredient | pips | fully right | missed | phantom | "
          "silent errors | sent to review | unread photos | median s/photo | "
          "median CPU s/photo |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for label, t, secs, cpus, fails in (
        ("on the mat", totals["mat"], seconds["mat"], cpu["mat"], failed["mat"]),
        ("on a table", totals["table"], seconds["table"], cpu["table"], failed["table"]),
        ("all", both, seconds["mat"] + seconds["table"], cpu["mat"] + cpu["table"],
         failed["mat"] + failed["table"]),
    ):
        n = len(secs) + fails
        med = f"{statistics.median(secs):.3f}" if secs else "-"
        med_cpu = f"{statistics.median(cpus):.3f}" if cpus else "-"
        print(f"| {label} ({n}) | {t.dice} | {_pct(t.ingredient_ok, t.dice)} | "
              f"{_pct(t.value_ok, t.dice)} | {_pct(t.all_ok, t.dice)} | {t.missed} | "
              f"{t.phantom} | {t.silent} | {_pct(t.review, t.dice)} | {fails} | {med} | "
              f"{med_cpu} |")


if __name__ == "__main__":
    main()
