"""Fit how alike two of a player's letters must look to be asked once (letter_groups.py).

Papers are filled by the real ``calibrate`` writers and photographed as the reader bench
photographs them (tools.bench_reader; never the test writers, which stay for measuring).
Each player's letters are read with the letter network's features; for each cosine
distance tried this prints, over every pair of one player's letters read as the same plant
in cells of the same kind, how often pairs of one true letter are joined (fewer questions)
and how often pairs of two true letters are (a tap that would name a letter wrongly), and
the questions per player that the letters in review would make.

    python -m tools.fit_letter_groups [--photos 200] [--jobs 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools.bench_reader import OUT_DIR, layout_fingerprint, make_photos, plan

DISTANCES = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


@dataclass(frozen=True)
class Letter:
    """One letter cell of a player as read: kind, read value, truth, review, features."""

    player: str
    field: str
    kind: str
    value: str
    truth: str
    review: bool
    features: np.ndarray


def read_letters(n_photos: int, jobs: int) -> list[Letter]:
    """Every letter cell read as a letter on the calibration writers' papers."""
    import json

    import cv2

    from companion.vision.sheet import reader as sheet_reader

    cv2.setNumThreads(1)
    specs = plan(n_photos, 4000, 0, real=True, split="calibrate")
    paths = make_photos(specs, OUT_DIR / layout_fingerprint(), jobs)
    out: list[Letter] = []
    for spec, path in zip(specs, paths, strict=True):
        truth = json.loads(path.with_suffix(".truth.json").read_text())["fields"]
        try:
            reading = sheet_reader.read_photo(str(path))
        except Exception as exc:  # a photo that fails to read has no letters to group
            print(f"{spec.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        for fid, r in reading.readings.items():
            if r.letter_look is None or r.value is None or r.drawing is not None:
                continue
            out.append(Letter(spec.paper_id, fid, r.kind.value, r.value,
                              truth.get(fid, ""), r.review, r.letter_look))
    return out


def pair_rates(letters: Sequence[Letter]) -> list[tuple[float, int, int, int, int]]:
    """Per distance: (distance, same-truth pairs joined, same-truth pairs, two-truth pairs
    joined, two-truth pairs), over pairs of one player's letters read alike."""
    by: dict[tuple[str, str, str], list[Letter]] = defaultdict(list)
    for lt in letters:
        by[(lt.player, lt.kind, lt.value)].append(lt)
    dists: list[tuple[float, bool]] = []
    for members in by.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                dists.append((1.0 - float(a.features @ b.features), a.truth == b.truth))
    rows = []
    for d in DISTANCES:
        same = [x for x, s in dists if s]
        two = [x for x, s in dists if not s]
        rows.append((d, sum(x < d for x in same), len(same), sum(x < d for x in two), len(two)))
    return rows


def questions(letters: Sequence[Letter], distance: float) -> tuple[list[int], int]:
    """Questions per player from the letters in review, and fields a one-tap answer per
    question (its members' most common truth) leaves wrong."""
    from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
    from companion.vision.sheet.letter_groups import LetterLook, group_letters

    choices = {"vegetable": VEGETABLE_PLANTS, "fruit": FRUIT_PLANTS}
    by: dict[str, list[Letter]] = defaultdict(list)
    for lt in letters:
        by[lt.player].append(lt)
    counts, wrong = [], 0
    for members in by.values():
        looks = {lt.field: LetterLook(lt.kind, lt.value, 0.5, lt.features)
                 for lt in members if lt.review}
        truth = {lt.field: lt.truth for lt in members}
        groups = group_letters(looks, choices, distance=distance)
        counts.append(len(groups))
        for g in groups:
            tally: dict[str, int] = defaultdict(int)
            for f in g.fields:
                tally[truth[f]] += 1
            wrong += len(g.fields) - max(tally.values())
    return counts, wrong


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="fit_letter_groups", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=200, help="calibration photos (default 200)")
    ap.add_argument("--jobs", type=int, default=1, help="processes making photos")
    ap.add_argument("--save", type=Path, default=None, help="pickle the letters read here")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    letters = read_letters(args.photos, args.jobs)
    if args.save is not None:
        import pickle

        args.save.write_bytes(pickle.dumps(letters))
    print(f"{len(letters)} letters of {len({lt.player for lt in letters})} players, "
          f"{sum(lt.review for lt in letters)} in review\n")
    print("| distance | same-letter pairs joined | two-letter pairs joined | questions per "
          "player, median / max | left wrong after one tap each |")
    print("|---|---|---|---|---|")
    for d, sj, sn, tj, tn in pair_rates(letters):
        counts, wrong = questions(letters, d)
        print(f"| {d:g} | {sj} of {sn} | {tj} of {tn} | "
              f"{statistics.median(counts):g} / {max(counts)} | {wrong} |")


if __name__ == "__main__":
    main()
