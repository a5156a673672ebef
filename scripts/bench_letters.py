"""Benchmark: our letter CNN vs tesseract on the same held-out-font cell crops.

Crops come from companion.synth.handwriting.letter_cell_crop with the held-out font families
only (never seen in training), at reader scale with photo-like degradation. Each crop is read
as the field it would sit in: vegetable letters among B C L M O P, fruit letters among
B F G S W (a B is either, at random).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from companion.synth.handwriting import letter_cell_crop
from companion.vision.sheet.constants_letters import REVIEW_BELOW
from companion.vision.sheet.letters import LetterClassifier

SEED = 4_2026
N_CROPS = 2000
VEGETABLE_LETTERS = ("B", "C", "L", "M", "O", "P")
FRUIT_LETTERS = ("B", "F", "G", "S", "W")
LETTERS = ("B", "C", "F", "G", "L", "M", "O", "P", "S", "W")
SWEEP = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99)


Crops = tuple[list[np.ndarray], list[str], list[tuple[str, ...]]]


def make_crops(n: int, seed: int = SEED) -> Crops:
    """n crops of held-out-font letters, their true letters and their fields' letters."""
    crops: list[np.ndarray] = []
    truth: list[str] = []
    alloweds: list[tuple[str, ...]] = []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        letter = LETTERS[i % len(LETTERS)]
        if letter == "B":
            allowed = VEGETABLE_LETTERS if rng.random() < 0.5 else FRUIT_LETTERS
        else:
            allowed = VEGETABLE_LETTERS if letter in VEGETABLE_LETTERS else FRUIT_LETTERS
        crops.append(letter_cell_crop(letter, rng, fonts="heldout"))
        truth.append(letter)
        alloweds.append(allowed)
    return crops, truth, alloweds


def run(n: int, with_tesseract: bool) -> str:
    crops, truth, alloweds = make_crops(n)
    clf = LetterClassifier.load()
    clf.classify_many(crops[:8], alloweds[:8])  # warm up
    t0 = time.perf_counter()
    ranked = clf.classify_many(crops, alloweds)
    ours_ms = (time.perf_counter() - t0) / n * 1000
    t0 = time.perf_counter()
    for c, a in zip(crops[:200], alloweds[:200], strict=True):
        clf.classify(c, a)
    ours_single_ms = (time.perf_counter() - t0) / min(n, 200) * 1000
    pred = np.array([r[0][0] for r in ranked])
    conf = np.array([r[0][1] for r in ranked])
    ok = pred == np.array(truth)

    lines = [f"Letters: {n} held-out-font cell crops (seed {SEED}); "
             f"review below p = {REVIEW_BELOW}", "",
             "| reader | accuracy | empty answers | silent errors | sent to review | ms/letter |",
             "|---|---|---|---|---|---|"]
    trusted = conf >= REVIEW_BELOW
    silent = int((trusted & ~ok).sum())
    lines.append(f"| ours (CNN, cv2.dnn) | {ok.mean():.2%} | 0.00% | {silent} ({silent / n:.3%}) | "
                 f"{(~trusted).mean():.2%} | {ours_ms:.3f} batched, {ours_single_ms:.2f} single |")
    if with_tesseract:
        from companion.vision.sheet.tesseract_letters import read_letter_tesseract

        t0 = time.perf_counter()
        tess = [read_letter_tesseract(c, a) for c, a in zip(crops, alloweds, strict=True)]
        tess_ms = (time.perf_counter() - t0) / n * 1000
        tp = [t[0] for t in tess]
        tok = np.array([p == t for p, t in zip(tp, truth, strict=True)])
        empty = np.array([p is None for p in tp])
        tconf = np.array([t[1] for t in tess])
        tsilent = int(((tconf >= REVIEW_BELOW) & ~tok & ~empty).sum())
        tsent = ((tconf < REVIEW_BELOW) | empty).mean()
        lines.append(f"| tesseract (psm 10, whitelist) | {tok.mean():.2%} | {empty.mean():.2%} | "
                     f"{tsilent} ({tsilent / n:.3%}) | {tsent:.2%} | {tess_ms:.1f} |")
    lines += ["", "Confidence threshold sweep (ours):", "",
              "| review below | sent to review | silent errors | accuracy of trusted |",
              "|---|---|---|---|"]
    for th in SWEEP:
        tr = conf >= th
        s = int((tr & ~ok).sum())
        acc_t = float(ok[tr].mean()) if tr.any() else float("nan")
        lines.append(f"| {th} | {(~tr).mean():.2%} | {s} ({s / n:.3%}) | {acc_t:.3%} |")
    per = ["", "Per letter accuracy (ours): " + ", ".join(
        f"{L} {ok[np.array(truth) == L].mean():.1%}" for L in LETTERS)]
    return "\n".join(lines + per)


def main(argv: list[str] | None = None) -> None:
    """Print the Markdown table; with no arguments, the full benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=N_CROPS)
    ap.add_argument("--no-tesseract", action="store_true")
    args = ap.parse_args(argv if argv is not None else [])
    print(run(args.n, not args.no_tesseract))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
