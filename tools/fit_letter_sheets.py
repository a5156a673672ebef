"""Fit the sheet reader's letter review threshold on the real calibration writers' sheets.

The letter model's own threshold (``review_below`` in assets/letters.json) is fitted on
single cell crops, many of them with far less detail than a sheet photo holds; the
letters the reader cuts from sheet photos are another population, so the threshold the
reader uses is fitted on those (on the shipped ensemble, with the letter-pairs rule below:
0.95, above the ensemble's crop-fitted 0.93, its floor, and 0.997 for a doubted pair; see the
README's Real handwriting section). Here combo and
garden/play papers are filled by the real ``calibrate`` writers (tools.synth.real_hands:
never used to train the weights, never used to measure), photographed as the reader bench
photographs them, and read; the threshold is the lowest letter probability at which no
more than CALIB_SILENT_PER_FIELD of the fields (none) would be silent letter errors. With
``--write`` it is stored in letters.json as ``sheet_review_below`` (the reader prefers it to
``review_below``); the test writers stay for ``python -m tools.bench reader``.

The letter-pairs rule (companion/vision/sheet/letter_pairs.py) is fitted with it: a letter
read between the same two letters as a doubtful letter of its sheet needs
``sheet_pair_review_below``. Both thresholds are chosen together, the fewest fields in review
with no silent letter error, and the letter threshold no lower than the model's crop-fitted
``review_below`` (the ensemble's, tools/fit_letter_ensemble.py, where it has one): the
sheets repeat each calibration writer's one shape of a letter, the crops hold several shapes
per writer, so where the sheets have no sure wrong letter left to go by the crops still set
how low the threshold may go.

    python -m tools.fit_letter_sheets [--photos 300] [--jobs 2] [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tools.bench_reader import (
    OUT_DIR,
    LetterRecord,
    layout_fingerprint,
    letter_records,
    make_photos,
    pair_doubted,
    plan,
    reader_function,
    reliability_table,
    tally,
)

# Silent letter errors allowed on the calibration sheets, per field read (all kinds): none.
# A calibration writer wrote each letter about once, and their papers repeat that one shape
# in every cell it fills, so the sheets hold about 200 letter shapes, not 2,700 letters: one
# trusted wrong field there is a shape the model is sure of and wrong about, which on other
# writers recurs in every cell of theirs that letter fills. (Half the target, 1 in 4,000
# fields, was the budget before; with the width-1.5 model it allowed 0.9 on one wrong
# shape, and the test writers then had 5 silent errors in 3,861 fields.)
CALIB_SILENT_PER_FIELD = 0.0
# Thresholds tried, lowest first.
GRID = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, 0.985, 0.99,
        0.993, 0.995, 0.9955, 0.996, 0.997, 0.998, 0.999)
CALIB_SEED = 0
# Photos of the calibration writers' papers: 300 (240 papers, about 12 a writer) draw each
# writer's other samples of a letter more often; for the networks shown ink that is no one
# letter they hold a sure wrong shape 100 photos miss (a G read as W at 0.946).
PHOTOS = 300
# Pair thresholds tried (letters read between the same two letters as a doubtful letter of
# the same sheet, companion/vision/sheet/letter_pairs.py); 1.0 sends them all to review.
PAIR_GRID = (0.95, 0.98, 0.99, 0.993, 0.995, 0.997, 0.998, 0.999, 1.0)


@dataclass(frozen=True)
class Sweep:
    threshold: float
    reviewed: int  # letter fields in review
    silent: int  # wrong letters trusted


def sweep(records: Sequence[LetterRecord], grid: Sequence[float] = GRID) -> list[Sweep]:
    out = []
    for t in grid:
        reviewed = sum(r.other_review or r.q < t for r in records)
        silent = sum(not r.right and not r.other_review and r.q >= t for r in records)
        out.append(Sweep(t, reviewed, silent))
    return out


def choose(rows: Sequence[Sweep], n_fields: int,
           per_field: float = CALIB_SILENT_PER_FIELD) -> Sweep:
    """The lowest threshold within the silent budget (the highest tried when none is); where
    stricter thresholds send no more fields to review (letters that unsure are in review
    anyway, below the reader's own field floor), the strictest of those, which costs
    nothing and keeps a letter threshold that means something."""
    budget = per_field * n_fields
    best = next((r for r in rows if r.silent <= budget), rows[-1])
    same = [r for r in rows if r.threshold >= best.threshold and r.reviewed == best.reviewed]
    return max(same, key=lambda r: r.threshold)


@dataclass(frozen=True)
class PairSweep:
    threshold: float
    pair_threshold: float  # for letters read between the pair a doubtful one of the sheet
    reviewed: int
    silent: int

    @property
    def pairs_on(self) -> bool:
        return self.pair_threshold > self.threshold


def sweep_pairs(records: Sequence[LetterRecord], grid: Sequence[float] = GRID,
                pair_grid: Sequence[float] = PAIR_GRID) -> list[PairSweep]:
    """Every letter threshold with every pair threshold at or above it (equal: no pair
    rule)."""
    out = []
    for t in grid:
        doubted = pair_doubted(records, t)
        for tp in sorted({t, *(x for x in pair_grid if x > t)}):
            held = [r.other_review or r.q < t or (d and r.q < tp)
                    for r, d in zip(records, doubted, strict=True)]
            out.append(PairSweep(t, tp, sum(held),
                                 sum(not r.right and not h
                                     for r, h in zip(records, held, strict=True))))
    return out


def choose_pairs(rows: Sequence[PairSweep], n_fields: int, floor: float = 0.0,
                 per_field: float = CALIB_SILENT_PER_FIELD) -> PairSweep:
    """The fewest fields in review within the silent budget, the letter threshold no lower
    than ``floor``; among equals the strictest (letter threshold, then pair threshold).
    The most reviewing row when none is within the budget."""
    budget = per_field * n_fields
    ok = [r for r in rows if r.silent <= budget and r.threshold >= floor]
    if not ok:
        return max(rows, key=lambda r: (r.reviewed, r.threshold, r.pair_threshold))
    return min(ok, key=lambda r: (r.reviewed, -r.threshold, -r.pair_threshold))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="fit_letter_sheets", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=PHOTOS,
                    help=f"photos of calibration writers' papers (default {PHOTOS})")
    ap.add_argument("--jobs", type=int, default=1, help="processes making photos")
    ap.add_argument("--size", type=int, default=4000, help="photo long side, px")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="photo cache directory")
    ap.add_argument("--records", type=Path, default=None,
                    help="write one JSON line per field read as a letter (for digging in)")
    ap.add_argument("--write", action="store_true",
                    help="store the threshold in the shipped letters.json")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)

    from tools.synth import real_hands

    if not real_hands.available():
        print(f"real handwriting not found at {real_hands.data_path()}", file=sys.stderr)
        raise SystemExit(2)
    specs = plan(args.photos, args.size, CALIB_SEED, real=True, split="calibrate")
    out = args.out / layout_fingerprint()
    paths = dict(zip((s.name for s in specs), make_photos(specs, out, args.jobs), strict=True))
    truths = {n: json.loads(p.with_suffix(".truth.json").read_text()) for n, p in paths.items()}

    import cv2

    cv2.setNumThreads(1)
    read = reader_function("ours")
    results = {s.name: read(paths[s.name]) for s in specs}
    t = tally(specs, truths, results)
    records = letter_records(specs, truths, results)
    if args.records is not None:
        with args.records.open("w") as f:
            for r in records:
                f.write(json.dumps(asdict(r)) + "\n")
    rows = sweep(records)
    best = choose(rows, t.fields)
    n_writers = len({s.writer for s in specs})
    n_papers = len({s.paper_id for s in specs})
    print(f"{len(specs)} photos of {n_papers} players, {n_writers} calibration writers: "
          f"{len(records)} fields read as letters, {sum(not r.right for r in records)} wrong; "
          f"{t.fields} fields in all (silent budget {CALIB_SILENT_PER_FIELD * t.fields:.2f})\n")
    print("| letter threshold | letter fields in review | share of all fields | "
          "silent letter errors |\n|---|---|---|---|")
    for r in rows:
        mark = " (lowest)" if r is best else ""
        print(f"| {r.threshold:g}{mark} | {r.reviewed} | {100 * r.reviewed / t.fields:.2f}% | "
              f"{r.silent} |")

    from companion.vision.sheet.constants_letters import META_PATH

    meta = json.loads(META_PATH.read_text())
    ensemble = meta.get("ensemble")  # the reader's letters are the ensemble's: its floor
    floor = float(ensemble["review_below"] if isinstance(ensemble, dict)
                  and "review_below" in ensemble else meta.get("review_below", 0.0))
    pair_rows = sweep_pairs(records)
    pick = choose_pairs(pair_rows, t.fields, floor)
    print(f"\nWith the letter pairs rule (a letter read between the same two letters as a "
          f"doubtful letter of its sheet needs the pair threshold; the letter threshold no "
          f"lower than the model's crop-fitted {floor:g}): fields in review, silent letter "
          f"errors\n")
    shown = [x for x in PAIR_GRID if x >= 0.98]
    print("| letter threshold | no pair rule | " + " | ".join(f"pair {x:g}" for x in shown)
          + " |\n" + "|---" * (len(shown) + 2) + "|")
    for th in GRID:
        if th < 0.9:
            continue
        cells = {r.pair_threshold if r.pairs_on else None: r for r in pair_rows
                 if r.threshold == th}
        line = [f"{th:g}"]
        for key in (None, *shown):
            r = cells.get(key)
            text = "" if r is None else f"{100 * r.reviewed / t.fields:.2f}% / {r.silent}"
            line.append(f"**{text}**" if r is pick else text)
        print("| " + " | ".join(line) + " |")
    print(f"\nchosen: letter threshold {pick.threshold:g}, "
          + (f"pair threshold {pick.pair_threshold:g}" if pick.pairs_on else "no pair rule")
          + f": {pick.reviewed} fields in review ({100 * pick.reviewed / t.fields:.2f}%), "
          f"{pick.silent} silent")
    print("\nLetter reliability on the calibration sheets, at the chosen thresholds:\n")
    print(reliability_table(records, pick.threshold,
                            pick.pair_threshold if pick.pairs_on else 0.0))
    if args.write:
        meta["sheet_review_below"] = pick.threshold
        if pick.pairs_on:
            meta["sheet_pair_review_below"] = pick.pair_threshold
        else:
            meta.pop("sheet_pair_review_below", None)
        meta["sheet_calibrated_on"] = (f"{n_papers} papers of {n_writers} real-calib writers, "
                                       f"{len(specs)} photos")
        meta["sheet_calib_letters"] = len(records)
        meta["sheet_calib_wrong"] = sum(not r.right for r in records)
        meta["sheet_calib_silent"] = pick.silent
        meta["sheet_calib_review_share"] = round(pick.reviewed / t.fields, 4)
        meta["sheet_calib_review_share_no_pairs"] = round(best.reviewed / t.fields, 4)
        META_PATH.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"\nwrote sheet_review_below {pick.threshold:g}"
              + (f", sheet_pair_review_below {pick.pair_threshold:g}" if pick.pairs_on else "")
              + f" to {META_PATH}")


if __name__ == "__main__":
    main()
