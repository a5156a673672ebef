"""Benchmark: our letter CNN vs tesseract on the same cell crops, synthetic and real.

Two sets of crops, each read as the field it would sit in (vegetable letters among
B C L M O P, fruit letters among B F G S W; a B is either, at random):

- held-out fonts: tools.synth.handwriting.letter_cell_crop with the font families never
  used in training;
- real held-out writers: every letter of the UNIPEN test writers (tools.synth.real_hands;
  never used to train or to calibrate), each drawn once with a random pen or pencil into a
  cell and put through the same camera simulation. Skipped where the data is absent.

Both are at reader scale with photo-like degradation (2.8-11 px/mm of detail). The review
threshold is the model's own (``review_below`` in assets/letters.json, fitted on the real
calibration writers). The reliability tables bin our top probability and show how often
the letters in each bin were right: honest confidence has accuracy close to confidence.
"Ink that is no one letter" holds pieces of two different letters of the same real writers
side by side (tools/train_letters.outlier_strokes): no answer is right, so the share the
reader trusts is the share it would score silently wrong. "The player's own letters"
regroups the real crops by writer, as one player's sheet, and lets each doubtful letter be
compared with that writer's sure ones (own_letters.py).

    python -m tools.bench_letters [-n 2000] [--no-tesseract] [--own-fit]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np

from companion.vision.sheet import own_letters
from companion.vision.sheet.constants_letters import FIELD_LETTERS, OWN_WEIGHT, REVIEW_BELOW
from companion.vision.sheet.letters import LetterClassifier, Ranked, preprocess
from tools.synth import real_hands
from tools.synth.handwriting import letter_cell_crop

SEED = 4_2026
N_CROPS = 2000
VEGETABLE_LETTERS = FIELD_LETTERS["vegetable"]
FRUIT_LETTERS = FIELD_LETTERS["fruit"]
LETTERS = ("B", "C", "F", "G", "L", "M", "O", "P", "S", "W")
SWEEP = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99)
BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.999, 1.0)
OWN_WEIGHTS = (0.0, 2.0, 4.0, 8.0, 12.0, 16.0)


@dataclass
class Crops:
    """Crops, their true letters, their fields' letters and (real ones) their writers."""

    crops: list[np.ndarray]
    truth: list[str]
    alloweds: list[tuple[str, ...]]
    writers: list[str]


def _field(letter: str, rng: np.random.Generator) -> tuple[str, ...]:
    if letter == "B":
        return VEGETABLE_LETTERS if rng.random() < 0.5 else FRUIT_LETTERS
    return VEGETABLE_LETTERS if letter in VEGETABLE_LETTERS else FRUIT_LETTERS


def make_crops(n: int, seed: int = SEED) -> Crops:
    """n crops of held-out-font letters."""
    out = Crops([], [], [], [])
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        letter = LETTERS[i % len(LETTERS)]
        allowed = _field(letter, rng)
        out.crops.append(letter_cell_crop(letter, rng, fonts="heldout"))
        out.truth.append(letter)
        out.alloweds.append(allowed)
        out.writers.append("")
    return out


def make_real_crops(split: str = real_hands.RealSplit.TEST.value, seed: int = SEED,
                    limit: int | None = None) -> Crops:
    """Every letter of one part of the real writers, each drawn once into a cell."""
    out = Crops([], [], [], [])
    for i, sample in enumerate(real_hands.samples(split)[:limit]):
        rng = np.random.default_rng([seed, 7, i])
        allowed = _field(sample.letter, rng)
        out.crops.append(letter_cell_crop(sample.letter, rng, strokes=sample.strokes))
        out.truth.append(sample.letter)
        out.alloweds.append(allowed)
        out.writers.append(sample.writer)
    return out


N_OUTLIERS = 1000


def make_outlier_crops(split: str = real_hands.RealSplit.TEST.value, n: int = N_OUTLIERS,
                       seed: int = SEED) -> Crops:
    """n crops of ink that is no one letter, from pieces of one part's real letters; half
    read as vegetable cells, half as fruit cells."""
    from tools.train_letters import outlier_strokes

    out = Crops([], [], [], [])
    for i in range(n):
        rng = np.random.default_rng([seed, 31, i])
        strokes = outlier_strokes(rng, split)
        out.crops.append(letter_cell_crop("O", rng, strokes=strokes))
        out.truth.append("")
        out.alloweds.append(VEGETABLE_LETTERS if i % 2 else FRUIT_LETTERS)
        out.writers.append("")
    return out


def outlier_row(clf: LetterClassifier, c: Crops, threshold: float) -> str:
    """Markdown row: how sure the reader is of crops that hold no one letter."""
    _, conf = _top(clf.classify_many(c.crops, c.alloweds))
    return (f"| {len(c.crops)} | {np.median(conf):.3f} | {(conf >= threshold).mean():.1%} | "
            f"{(conf >= 0.99).mean():.1%} |")


def _ours(clf: LetterClassifier, c: Crops) -> tuple[list[Ranked], np.ndarray]:
    """Our readings, and the features the player's own letters are compared by."""
    inputs = np.stack([preprocess(x) for x in c.crops])
    logits, hidden = clf.logits_and_features(inputs)
    ranked = clf.rank(inputs, c.alloweds, logits)  # the ensemble's where it has one
    return ranked, own_letters.letter_features(inputs, hidden)


def _by_writer(c: Crops, feats: np.ndarray, ranked: list[Ranked], doubt_below: float,
               weight: float = OWN_WEIGHT) -> list[Ranked]:
    """The ranked readings after comparing each writer's doubtful letters with their sure
    ones (each writer's crops taken as one sheet)."""
    out = list(ranked)
    groups: dict[str, list[int]] = {}
    for i, w in enumerate(c.writers):
        groups.setdefault(w, []).append(i)
    for idx in groups.values():
        new = own_letters.compare_own(feats[idx], [ranked[i] for i in idx], doubt_below,
                                      weight)
        for i, r in zip(idx, new, strict=True):
            out[i] = r
    return out


def _row(name: str, pred: list[str | None], conf: np.ndarray, truth: list[str],
         threshold: float, ms: str) -> tuple[str, np.ndarray]:
    n = len(truth)
    ok = np.array([p == t for p, t in zip(pred, truth, strict=True)])
    empty = np.array([p is None for p in pred])
    trusted = (conf >= threshold) & ~empty
    silent = int((trusted & ~ok).sum())
    return (f"| {name} | {ok.mean():.2%} | {empty.mean():.2%} | {silent} ({silent / n:.3%}) | "
            f"{(~trusted).mean():.2%} | {ms} |"), ok


def reliability(conf: np.ndarray, ok: np.ndarray) -> list[str]:
    lines = ["| our confidence | letters | mean confidence | right |", "|---|---|---|---|"]
    for lo, hi in zip(BINS[:-1], BINS[1:], strict=True):
        m = (conf > lo) & (conf <= hi) if lo > 0 else (conf <= hi)
        if m.any():
            lines.append(f"| {lo:g}-{hi:g} | {int(m.sum())} | {conf[m].mean():.3f} | "
                         f"{ok[m].mean():.1%} |")
    return lines


def _top(ranked: list[Ranked]) -> tuple[list[str | None], np.ndarray]:
    return [r[0][0] for r in ranked], np.array([r[0][1] for r in ranked])


def run(n: int, with_tesseract: bool, own_fit: bool = False) -> str:
    clf = LetterClassifier.load()
    ensemble = clf.meta.get("ensemble")
    meta_th = (ensemble.get("review_below") if isinstance(ensemble, dict)
               else clf.meta.get("review_below"))
    threshold = float(meta_th) if isinstance(meta_th, int | float) else REVIEW_BELOW
    sets = {"held-out fonts": make_crops(n)}
    if real_hands.available():
        sets["real held-out writers"] = make_real_crops()
    out: list[str] = [f"Review below p = {threshold} (the model's own threshold). Crops: "
                      + "; ".join(f"{len(c.crops)} {k}" for k, c in sets.items())
                      + (" (real handwriting absent: no real rows)" if len(sets) == 1 else ""),
                      "", "| crops | reader | accuracy | empty answers | silent errors | "
                      "sent to review | ms/letter |", "|---|---|---|---|---|---|---|"]
    rel: list[str] = []
    extra: list[str] = []
    for name, c in sets.items():
        clf.classify_many(c.crops[:8], c.alloweds[:8])  # warm up
        t0 = time.perf_counter()
        ranked, inputs = _ours(clf, c)
        ms = (time.perf_counter() - t0) / len(c.crops) * 1000
        pred, conf = _top(ranked)
        row, ok = _row("ours (CNN, cv2.dnn)", pred, conf, c.truth, threshold,
                       f"{ms:.3f} batched")
        out.append(f"| {name} " + row)
        if name.startswith("real"):
            own = _by_writer(c, inputs, ranked, threshold)
            opred, oconf = _top(own)
            orow, _ = _row("ours + the player's own letters", opred, oconf, c.truth,
                           threshold, "")
            out.append(f"| {name} " + orow)
            if own_fit:
                extra += _own_fit(clf, threshold)
        if with_tesseract:
            from companion.vision.sheet.tesseract_letters import read_letter_tesseract

            t0 = time.perf_counter()
            tess = [read_letter_tesseract(x, a) for x, a in zip(c.crops, c.alloweds,
                                                                 strict=True)]
            tms = (time.perf_counter() - t0) / len(c.crops) * 1000
            trow, _ = _row("tesseract (psm 10, whitelist)", [t[0] for t in tess],
                           np.array([t[1] for t in tess]), c.truth, threshold, f"{tms:.1f}")
            out.append(f"| {name} " + trow)
        rel += ["", f"Reliability (ours, {name}):", "", *reliability(conf, ok)]
        sweep = ["", f"Confidence threshold sweep (ours, {name}):", "",
                 "| review below | sent to review | silent errors | accuracy of trusted |",
                 "|---|---|---|---|"]
        for th in SWEEP:
            tr = conf >= th
            s = int((tr & ~ok).sum())
            acc_t = float(ok[tr].mean()) if tr.any() else float("nan")
            sweep.append(f"| {th} | {(~tr).mean():.2%} | {s} ({s / len(ok):.3%}) | "
                         f"{acc_t:.3%} |")
        truth = np.array(c.truth)
        per = [f"Per letter accuracy (ours, {name}): " + ", ".join(
            f"{L} {ok[truth == L].mean():.1%}" for L in LETTERS if (truth == L).any())]
        wrong = Counter(f"{t} read as {p}" for t, p in zip(c.truth, pred, strict=True)
                        if t != p)
        if wrong:
            per.append("Most common confusions: " + ", ".join(
                f"{k} ({v})" for k, v in wrong.most_common(8)))
        extra += [*sweep, "", *per]
    if real_hands.available():
        extra += ["", "Ink that is no one letter (pieces of two different letters of the real "
                  "test writers side by side; every trusted one would be a silent error):", "",
                  "| crops | median top probability | trusted (review below "
                  f"{threshold}) | trusted at 0.99 |", "|---|---|---|---|",
                  outlier_row(clf, make_outlier_crops(), threshold)]
    return "\n".join(out + rel + extra)


def _own_fit(clf: LetterClassifier, threshold: float) -> list[str]:
    """Sweep of OWN_WEIGHT on the real calibration writers (the constant is chosen here)."""
    c = make_real_crops(real_hands.RealSplit.CALIB.value, seed=SEED + 1)
    ranked, inputs = _ours(clf, c)
    lines = ["", "The player's own letters, weight sweep on the calibration writers:", "",
             "| OWN_WEIGHT | accuracy | silent errors | sent to review |", "|---|---|---|---|"]
    for w in OWN_WEIGHTS:
        pred, conf = _top(_by_writer(c, inputs, ranked, threshold, w))
        ok = np.array([p == t for p, t in zip(pred, c.truth, strict=True)])
        tr = conf >= threshold
        lines.append(f"| {w:g} | {ok.mean():.2%} | {int((tr & ~ok).sum())} | "
                     f"{(~tr).mean():.2%} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    """Print the Markdown tables; with no arguments, the full benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=N_CROPS, help="held-out-font crops")
    ap.add_argument("--no-tesseract", action="store_true")
    ap.add_argument("--own-fit", action="store_true",
                    help="also sweep the own-letters weight on the calibration writers")
    args = ap.parse_args(argv if argv is not None else [])
    print(run(args.n, not args.no_tesseract, args.own_fit))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
