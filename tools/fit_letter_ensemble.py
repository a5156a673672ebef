"""Fit the letter ensemble (companion/vision/sheet/letter_ensemble.py) on the real
calibration writers' single crops, and store it in assets/letters.json.

The shipped letter model and each member (trained by ``tools.train_letters --seed N --out
assets/letters-N.onnx``, each with its own temperature) read the same 2,500 crops of the
``real-calib`` writers the training calibrates on (train_letters' own crops, same seed): the
ensemble's temperature is the one minimising their log-loss on the members' mean
probabilities, and its crop-fitted review threshold (``review_below``, the floor of the
sheet thresholds tools/fit_letter_sheets.py fits next) is the training's rule applied to
the letters as the reader now reads them: the first model's where it is sure
(``DOUBT_BELOW`` and above), the ensemble's elsewhere. Runs in the project's venv (the
networks through cv2.dnn).

    python -m tools.fit_letter_ensemble --member letters-d.onnx [--mean log] [--cache DIR]
        [--write]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.vision.sheet.constants_letters import META_PATH, MODEL_PATH
from companion.vision.sheet.letter_ensemble import (
    EnsembleMean,
    EnsembleSettings,
    ensemble_scores,
    log_softmax,
    mean_scores,
    top_allowed,
)
from companion.vision.sheet.letters import LetterClassifier, LetterMember
from tools.synth import real_hands
from tools.train_common import fit_temperature, nll
from tools.train_letters import (
    N_CALIB,
    SEED,
    WORKERS,
    field_choices,
    field_probabilities,
    make_set,
    review_threshold,
)

# The first model's letter probability below which the other members are asked. 1.0: every
# letter (since 2026-12-06; 0.995 before, a third of the calibration writers' sheet
# letters). A sure letter of a hand the first model has never seen can be a shape only it
# mistakes: on the real calibration writers' sheets, asking every member put fewer fields
# in review, with the sheet thresholds refitted, and cost about 0.02 s CPU a photo.
DOUBT_BELOW = 1.0


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="fit_letter_ensemble",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--member", action="append", required=True,
                    help="an ensemble member's ONNX file name in assets/ (repeatable)")
    ap.add_argument("--doubt-below", type=float, default=DOUBT_BELOW)
    ap.add_argument("--mean", choices=[m.value for m in EnsembleMean],
                    default=EnsembleMean.PROBABILITY.value,
                    help="pool the members' probabilities (default) or their logs")
    ap.add_argument("--cache", type=Path, default=None, help="train_letters' data cache")
    ap.add_argument("--workers", type=int, default=WORKERS)
    ap.add_argument("--write", action="store_true", help="store it in assets/letters.json")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if not real_hands.available():
        print(f"real handwriting not found at {real_hands.data_path()}", file=sys.stderr)
        raise SystemExit(2)

    first = LetterClassifier.load(members=False)
    folder = MODEL_PATH.parent
    members = [LetterClassifier.load(folder / name, members=False) for name in args.member]
    x, y = make_set(SEED + 3, N_CALIB, real_hands.RealSplit.CALIB.value, None, 0.0,
                    args.workers, cache=args.cache)
    alloweds = field_choices(y, SEED)
    logits = [first.logits(x), *(m.logits(x) for m in members)]
    temps = [first.temperature, *(m.temperature for m in members)]
    pool = EnsembleMean(args.mean)
    mean_logp = mean_scores(logits, temps, 1.0, pool)
    temperature = fit_temperature(mean_logp, y, lowest=0.3)
    settings = EnsembleSettings(args.doubt_below, temperature, pool)
    others = [LetterMember(m.net, m.temperature).logits for m in members]
    scores = ensemble_scores(x, alloweds, logits[0], temps, others, settings)
    doubtful = int((top_allowed(log_softmax(logits[0], temps[0]), alloweds)
                    < args.doubt_below).sum())

    rows = []
    for name, lg, t in [("first", logits[0], temps[0]),
                        *((n, lg, t) for n, lg, t in zip(args.member, logits[1:], temps[1:],
                                                          strict=True)),
                        ("mean, everywhere", mean_logp, temperature),
                        (f"ensemble below {args.doubt_below:g}", scores, 1.0)]:
        conf, ok = field_probabilities(lg, y, t, SEED)
        th = review_threshold(conf, ok)
        rows.append((name, float((lg.argmax(1) == y).mean()), nll(lg, y, t), float(ok.mean()),
                     th, float((conf < th).mean()), int(((conf >= th) & ~ok).sum()),
                     int(((conf >= 0.99) & ~ok).sum())))
    print(f"{len(y)} crops of the real calibration writers; ensemble temperature "
          f"{temperature}; {doubtful} crops ({100 * doubtful / len(y):.1f}%) below "
          f"{args.doubt_below:g} for the first model\n")
    print("| model | accuracy | log-loss | field accuracy | review below | in review | "
          "silent | trusted wrong at 0.99 |\n|---|---|---|---|---|---|---|---|")
    for name, acc, loss, facc, th, share, silent, sure in rows:
        print(f"| {name} | {100 * acc:.2f}% | {loss:.4f} | {100 * facc:.2f}% | {th:g} | "
              f"{100 * share:.1f}% | {silent} | {sure} |")
    if args.write:
        _, acc, loss, facc, th, share, silent, _ = rows[-1]
        meta = json.loads(META_PATH.read_text())
        meta["ensemble"] = {
            "members": list(args.member), "doubt_below": args.doubt_below,
            "temperature": temperature, "mean": pool.value, "review_below": th,
            "calib_accuracy": round(acc, 4), "calib_nll": round(loss, 4),
            "calib_field_accuracy": round(facc, 4), "calib_review_share": round(share, 4),
            "calib_silent": silent, "calib_doubtful_share": round(doubtful / len(y), 4),
        }
        META_PATH.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"\nwrote the ensemble to {META_PATH}")


if __name__ == "__main__":
    main()
