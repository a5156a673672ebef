"""Train the handwritten-letter CNN and ship it as assets/letters.onnx + letters.json.

Runs in a separate virtualenv with PyTorch (never the project's .venv):

    python3 -m venv /work/trainenv
    /work/trainenv/bin/pip install torch==2.13.0 onnx numpy opencv-python-headless pillow
    /work/trainenv/bin/python -m tools.train_letters [--quick]

Data are reader-like cell crops (tools.synth.handwriting.letter_cell_crop): real
people's pen trajectories of the ``real-train`` writers (tools.synth.real_hands) drawn
with varied pens and pencils, the train font families and our stroke letters, all through
the same camera simulation and the reader's own preprocessing; with ``--outliers`` (the
shipped recipe) also ink that is no one letter, pieces of two real train letters side by side,
trained towards even odds, so that a cell the network cannot read as one letter does not
read as a sure one (outlier exposure). Model selection, the softmax
temperature and the review threshold are fitted on the ``real-calib`` writers, whom the
weights never saw: confidence must hold on hands the model has not met, not on ours. Two
train font families are kept apart to report the font validation figures. Where the real
data is absent, training falls back to fonts and strokes (and says so). Everything is
seeded; sample i depends only on (seed, i).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.sheet.constants_letters import (
    FIELD_LETTERS,
    INPUT_PX,
    LETTER_CLASSES,
    META_PATH,
    MODEL_PATH,
)
from companion.vision.sheet.letters import preprocess
from tools.synth import real_hands
from tools.synth.fonts import FontSplit, font_families
from tools.synth.hand_variety import vary_strokes
from tools.synth.handwriting import letter_cell_crop
from tools.train_common import (
    add_feature_output,
    check_with_cv2,
    export_onnx,
    fit_temperature,
    logits_of,
    nll,
    small_cnn,
    train_keep_best,
)

SEED = 20261129
VAL_FAMILIES = ("because-we-organize", "breip")  # train-split families kept for validation
STROKE_SHARE = 0.12  # share of training samples drawn from our stroke letters
REAL_SHARE = 0.5  # share drawn from the real-train writers (when the data is there)
ELASTIC = 0.03  # elastic warp of the letter (displacement sd / box side), 70% of train crops
# Real trajectories are bent (letter heights, sd) by an amount drawn from this range, in the
# same 70% of crops, after tools.synth.hand_variety has re-drawn them as another hand.
REAL_TRAIN_WARP = (0.015, 0.06)
VARIETY_VERSION = "hand_variety-1"  # part of the data cache key: bump when it changes
# With --cursive (not the shipped model's recipe): hand_variety's cursive loops, and this
# share of the G crops drawn from fonts showing a small g (a G written like a 9); training
# set only, its own cache key.
CURSIVE_VERSION = "hand_variety-3"
G_LOWER_SHARE = 0.3
LABEL_SMOOTHING = 0.05  # keeps the logits from racing to certainty on 76 writers
# With --outliers SHARE (outlier exposure): that many more crops, as a share of the letter
# crops, hold ink that is no one letter (pieces of two real train letters side by side, as a
# stroke filed as one letter with the next letter's stroke, or a cell written over its
# neighbour's edge), trained towards even odds on every class with this loss weight.
OUTLIER_VERSION = "outliers-1"
OUTLIER_WEIGHT = 1.0
OUTLIER_PIECE = (0.45, 0.8)  # share of a one-stroke letter's points a piece keeps
OUTLIER_SQUEEZE = (0.45, 0.8)  # each piece's width against its height
OUTLIER_GAP = (0.15, 0.35)  # between the pieces, letter heights (clearly apart)
N_TRAIN = 42_000
N_VAL = 1_000  # font validation families (reported only)
N_HELDOUT = 1_000  # held-out font families (reported only)
N_CALIB = 2_500  # crops of the real-calib writers: selection, temperature, threshold
EPOCHS = 6
WIDTH = 1.5  # channel multiplier of build_model
# The review threshold: the lowest letter probability (among the field's letters) at which
# no more than this share of the calibration writers' trusted letters is wrong.
CALIB_SILENT_SHARE = 0.001
THRESHOLD_GRID = (0.8, 0.85, 0.9, 0.93, 0.95, 0.96, 0.97, 0.98, 0.985, 0.99, 0.995)
BATCH = 128
LR = 3e-3
OPSET = 13
WORKERS = 2


Job = tuple[int, int, str, tuple[str, ...] | None, float, float, float, bool, bool]


def _sample(job: Job) -> tuple[np.ndarray, int]:
    seed, i, fonts, families, stroke_share, elastic_amount, real_share, variety, cursive = job
    rng = np.random.default_rng([seed, i])
    label = i % len(LETTER_CLASSES)
    letter = LETTER_CLASSES[label]
    use = fonts
    r = rng.random()
    if r < real_share:
        use = real_hands.RealSplit.TRAIN.value
    elif fonts != "heldout" and r < real_share + stroke_share:
        use = "strokes"
    warp = elastic_amount if rng.random() < 0.7 else 0.0
    strokes = None
    if use.startswith("real-") and use != fonts:
        warp = rng.uniform(*REAL_TRAIN_WARP) if warp > 0 else 0.0
        if variety:
            strokes = vary_strokes(real_hands.pick(letter, rng, use).strokes, letter, rng,
                                   loops=cursive)
    elif cursive and letter == "G" and not use.startswith("real-") and use != "strokes" \
            and rng.random() < G_LOWER_SHARE:
        letter = "g"
    crop = letter_cell_crop(letter, rng, fonts=use, families=families, warp=warp,
                            strokes=strokes)
    return preprocess(crop), label


def _piece(strokes: tuple[np.ndarray, ...], rng: np.random.Generator) -> list[np.ndarray]:
    """Part of a letter, never all of it: some of its strokes (not every one), or a run of a
    one-stroke letter's points."""
    if len(strokes) > 1:
        keep = rng.random(len(strokes)) < 0.5
        keep[int(rng.integers(len(strokes)))] = True
        if keep.all():  # one stroke goes, another stays (the one just kept may go again)
            keep[int(rng.integers(len(strokes)))] = False
        return [st for st, k in zip(strokes, keep, strict=True) if k]
    st = strokes[0]
    n = max(3, int(round(len(st) * rng.uniform(*OUTLIER_PIECE))))
    start = int(rng.integers(0, max(1, len(st) - n + 1)))
    return [st[start:start + n]]


def _fitted(strokes: list[np.ndarray], x0: float, squeeze: float) -> tuple[list[np.ndarray],
                                                                           float]:
    """Strokes scaled to height 1 and ``squeeze`` as wide, from x = x0; and their right end."""
    allp = np.concatenate(strokes)
    lo = allp.min(axis=0)
    w, h = np.maximum(allp.max(axis=0) - lo, 1e-6)
    sx = squeeze / max(w / h, 1e-6) if w / h > squeeze else 1.0
    out = [np.column_stack([(st[:, 0] - lo[0]) / h * sx + x0, (st[:, 1] - lo[1]) / h])
           for st in strokes]
    return out, x0 + w / h * sx


def outlier_strokes(rng: np.random.Generator, split: str) -> list[np.ndarray]:
    """Ink that is no one letter: pieces of two different real letters side by side."""
    a, b = rng.choice(len(LETTER_CLASSES), 2, replace=False)
    left = _piece(real_hands.pick(LETTER_CLASSES[int(a)], rng, split).strokes, rng)
    right = _piece(real_hands.pick(LETTER_CLASSES[int(b)], rng, split).strokes, rng)
    out, end = _fitted(left, 0.0, rng.uniform(*OUTLIER_SQUEEZE))
    more, _ = _fitted(right, end + rng.uniform(*OUTLIER_GAP), rng.uniform(*OUTLIER_SQUEEZE))
    return out + more


def _outlier(job: tuple[int, int, str]) -> np.ndarray:
    seed, i, split = job
    rng = np.random.default_rng([seed, 31, i])
    strokes = outlier_strokes(rng, split)
    warp = rng.uniform(*REAL_TRAIN_WARP) if rng.random() < 0.7 else 0.0
    return preprocess(letter_cell_crop("O", rng, warp=warp, strokes=strokes))


def make_outliers(seed: int, n: int, workers: int, cache: Path | None = None) -> np.ndarray:
    """n preprocessed crops of :func:`outlier_strokes` (cached like :func:`make_set`)."""
    key = json.dumps([seed, n, OUTLIER_VERSION, OUTLIER_PIECE, OUTLIER_SQUEEZE, OUTLIER_GAP])
    path = _cache_path(cache, "outliers", key)
    if path is not None and path.is_file():
        with np.load(path) as f:
            return np.asarray(f["x"])
    jobs = [(seed, i, real_hands.RealSplit.TRAIN.value) for i in range(n)]
    x = np.stack(_mapped(_outlier, jobs, workers)).astype(np.float32)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x)
    return x


def _cache_path(cache: Path | None, prefix: str, key: str) -> Path | None:
    """Where a data set named by ``key`` (every argument that shapes it) is kept, if at all."""
    import hashlib

    if cache is None:
        return None
    return cache / f"{prefix}-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz"


def _mapped(fn: Any, jobs: list[Any], workers: int) -> list[Any]:
    """``fn`` over ``jobs`` in order, in ``workers`` processes when more than one."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(fn, jobs, chunksize=256))
    return [fn(j) for j in jobs]


def make_set(seed: int, n: int, fonts: str, families: tuple[str, ...] | None,
             stroke_share: float, workers: int, elastic_amount: float = 0.0,
             real_share: float = 0.0, cache: Path | None = None, variety: bool = False,
             cursive: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Preprocessed crops and labels; with ``cache``, kept in a .npz named by every argument
    that shapes the data (the crops take most of a training's time)."""
    key = json.dumps([seed, n, fonts, families, stroke_share, elastic_amount, real_share]
                     + ([CURSIVE_VERSION if cursive else VARIETY_VERSION] if variety else []))
    path = _cache_path(cache, "letters", key)
    if path is not None and path.is_file():
        with np.load(path) as f:
            return f["x"], f["y"]
    x, y = _make_set(seed, n, fonts, families, stroke_share, workers, elastic_amount,
                     real_share, variety, cursive and variety)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x, y=y)
    return x, y


def _make_set(seed: int, n: int, fonts: str, families: tuple[str, ...] | None,
              stroke_share: float, workers: int, elastic_amount: float,
              real_share: float, variety: bool, cursive: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    jobs = [(seed, i, fonts, families, stroke_share, elastic_amount, real_share, variety,
             cursive) for i in range(n)]
    out = _mapped(_sample, jobs, workers)
    x = np.stack([o[0] for o in out]).astype(np.float32)
    y = np.array([o[1] for o in out], np.int64)
    return x, y


def build_model(width: float = 1.0) -> Any:
    """The letter CNN; ``width`` scales every layer's channels (1.0 is the shipped size)."""
    return small_cnn(len(LETTER_CLASSES), width)


def ece(logits: np.ndarray, y: np.ndarray, temperature: float, bins: int = 15) -> float:
    z = logits / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    conf, pred = p.max(axis=1), p.argmax(axis=1)
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            total += m.mean() * abs(float((pred[m] == y[m]).mean()) - float(conf[m].mean()))
    return total


def field_choices(y: np.ndarray, seed: int) -> list[tuple[str, ...]]:
    """The letters of the field each crop is read as (a B in a vegetable or a fruit cell at
    random): the same for the same labels and seed."""
    rng = np.random.default_rng(seed)
    fields = list(FIELD_LETTERS.values())
    out = []
    for label in y:
        options = [f for f in fields if LETTER_CLASSES[int(label)] in f]
        out.append(options[int(rng.integers(len(options)))])
    return out


def field_probabilities(logits: np.ndarray, y: np.ndarray, temperature: float, seed: int
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Top probability and correctness of each crop read as the field it would sit in
    (a B in a vegetable or a fruit cell at random), as the reader restricts letters."""
    conf, ok = np.zeros(len(y)), np.zeros(len(y), bool)
    for k, (lg, label, allowed) in enumerate(zip(logits, y, field_choices(y, seed),
                                                  strict=True)):
        letter = LETTER_CLASSES[label]
        idx = [LETTER_CLASSES.index(a) for a in allowed]
        z = lg[idx] / temperature
        p = np.exp(z - z.max())
        p /= p.sum()
        conf[k], ok[k] = p.max(), allowed[int(p.argmax())] == letter
    return conf, ok


def review_threshold(conf: np.ndarray, ok: np.ndarray) -> float:
    """The lowest grid threshold whose trusted letters are wrong at most CALIB_SILENT_SHARE
    of the time (counting every crop, as silent errors are counted per field)."""
    for th in THRESHOLD_GRID:
        if ((conf >= th) & ~ok).sum() <= CALIB_SILENT_SHARE * len(ok):
            return th
    return THRESHOLD_GRID[-1]


def main() -> None:
    import torch
    import torch.nn.functional as F

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny run to check the plumbing")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--workers", type=int, default=WORKERS)
    ap.add_argument("--width", type=float, default=WIDTH, help="channel multiplier")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--n-train", type=int, default=N_TRAIN)
    ap.add_argument("--cursive", action="store_true",
                    help="train with cursive loops and small g's too (not the shipped recipe)")
    ap.add_argument("--seed", type=int, default=SEED,
                    help="seed of the training crops, the weights and the batches (another "
                    "seed trains another ensemble member; the validation, held-out and "
                    "calibration crops stay those of SEED)")
    ap.add_argument("--threads", type=int, default=2, help="PyTorch threads")
    ap.add_argument("--outliers", type=float, default=0.0,
                    help="outlier exposure: this share more crops of ink that is no one "
                    "letter, trained towards even odds (make train: 0.06)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep the rendered data sets here and reuse them on a rerun")
    args = ap.parse_args()
    n_train, n_val, n_held, n_calib, epochs = (
        (2000, 500, 500, 500, 2) if args.quick
        else (args.n_train, N_VAL, N_HELDOUT, N_CALIB, args.epochs))
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    t0 = time.perf_counter()

    train_fams = tuple(n for n, _ in font_families(FontSplit.TRAIN) if n not in VAL_FAMILIES)
    val_fams = tuple(n for n, _ in font_families(FontSplit.TRAIN) if n in VAL_FAMILIES)
    held_fams = tuple(n for n, _ in font_families(FontSplit.HELDOUT))
    print(f"train families: {', '.join(train_fams) or '(none: strokes only)'}")
    print(f"validation families: {', '.join(val_fams) or '(none)'}")
    print(f"held-out families: {', '.join(held_fams) or '(none)'}")
    if not train_fams:
        print("warning: no handwriting fonts installed; training on stroke letters only")
    real = real_hands.available()
    if real:
        parts = {p: real_hands.writers(p) for p in real_hands.RealSplit}
        print("real writers: " + ", ".join(f"{len(w)} {p.value}" for p, w in parts.items())
              + f" ({real_hands.data_path()})")
    else:
        print(f"warning: real handwriting not found at {real_hands.data_path()}; training "
              "and calibrating on fonts and strokes only")
    real_share = REAL_SHARE if real else 0.0
    tr_fonts = "train" if train_fams else "strokes"
    xtr, ytr = make_set(args.seed, n_train, tr_fonts, train_fams, STROKE_SHARE, args.workers,
                        ELASTIC, real_share, args.cache, variety=True, cursive=args.cursive)
    xva, yva = make_set(SEED + 1, n_val, "train" if val_fams else "strokes", val_fams,
                        0.2, args.workers, cache=args.cache)
    xho, yho = make_set(SEED + 2, n_held, "heldout" if held_fams else "strokes", None, 0.0,
                        args.workers, cache=args.cache)
    if real:
        xca, yca = make_set(SEED + 3, n_calib, real_hands.RealSplit.CALIB.value, None, 0.0,
                            args.workers, cache=args.cache)
    else:
        xca, yca = xva, yva
    if args.outliers > 0 and real:
        xout = make_outliers(args.seed, int(round(args.outliers * len(xtr))), args.workers,
                             args.cache)
        xtr = np.concatenate([xtr, xout])
        ytr = np.concatenate([ytr, np.full(len(xout), -1, np.int64)])
        print(f"outliers: {len(xout)} crops of ink that is no one letter")
    t_data = time.perf_counter() - t0
    print(f"data: {len(xtr)} train, {len(xva)} val, {len(xho)} held-out, {len(xca)} "
          f"calibration in {t_data:.0f} s")

    model = build_model(args.width)
    params = sum(p.numel() for p in model.parameters())

    def loss_of(out: Any, yb: Any) -> Any:
        letter = yb >= 0
        loss = F.cross_entropy(out[letter], yb[letter], label_smoothing=LABEL_SMOOTHING,
                               reduction="sum")
        if not bool(letter.all()):  # outliers: cross-entropy against even odds
            loss = loss - OUTLIER_WEIGHT * F.log_softmax(out[~letter], 1).mean(1).sum()
        return loss / len(yb)

    train_keep_best(model, xtr, ytr, xca, yca, loss_of, epochs=epochs, batch=BATCH, lr=LR,
                    seed=args.seed, t0=t0)

    lc = logits_of(model, xca)
    temp = fit_temperature(lc, yca)
    conf, ok = field_probabilities(lc, yca, temp, SEED)
    review_below = review_threshold(conf, ok)
    lv = logits_of(model, xva)
    lh = logits_of(model, xho)
    held_acc = float((lh.argmax(1) == yho).mean())
    report = {
        "calib_accuracy": round(float((lc.argmax(1) == yca).mean()), 4),
        "calib_nll_t1": round(nll(lc, yca, 1.0), 4),
        "calib_nll": round(nll(lc, yca, temp), 4),
        "calib_ece_t1": round(ece(lc, yca, 1.0), 4),
        "calib_ece": round(ece(lc, yca, temp), 4),
        "calib_field_accuracy": round(float(ok.mean()), 4),
        "calib_review_share": round(float((conf < review_below).mean()), 4),
        "calib_silent": int(((conf >= review_below) & ~ok).sum()),
        "val_accuracy": round(float((lv.argmax(1) == yva).mean()), 4),
        "val_nll_t1": round(nll(lv, yva, 1.0), 4),
        "val_nll": round(nll(lv, yva, temp), 4),
        "val_ece_t1": round(ece(lv, yva, 1.0), 4),
        "val_ece": round(ece(lv, yva, temp), 4),
        "heldout_accuracy": round(held_acc, 4),
        "heldout_nll": round(nll(lh, yho, temp), 4),
        "heldout_ece": round(ece(lh, yho, temp), 4),
    }
    print(f"temperature {temp}, review below {review_below}; "
          + ", ".join(f"{k} {v}" for k, v in report.items()))

    export_onnx(model, args.out, INPUT_PX, OPSET, xho[:256], lh[:256])
    add_feature_output(args.out)
    check_with_cv2(args.out, xho[:256], lh[:256])
    meta = {
        "classes": list(LETTER_CLASSES), "input_px": INPUT_PX, "temperature": temp,
        "review_below": review_below,
        "calibrated_on": ("real-calib writers" if real else "validation font families"),
        "real_writers": ({p.value: len(w) for p, w in parts.items()} if real else {}),
        "real_share": real_share,
        "opset": OPSET, "params": params, "width": args.width, "seed": args.seed, "epochs": epochs,
        "n_train": len(xtr), "stroke_share": STROKE_SHARE, "elastic": ELASTIC,
        "real_train_warp": list(REAL_TRAIN_WARP),
        "real_variety": CURSIVE_VERSION if args.cursive else VARIETY_VERSION,
        **({"g_lower_share": G_LOWER_SHARE} if args.cursive else {}),
        "label_smoothing": LABEL_SMOOTHING,
        **({"outliers": args.outliers, "outlier_version": OUTLIER_VERSION,
            "outlier_weight": OUTLIER_WEIGHT} if args.outliers > 0 and real else {}),
        "train_families": list(train_fams), "val_families": list(val_fams),
        "heldout_families": list(held_fams), **report,
        "train_seconds": round(time.perf_counter() - t0, 1),
        "torch": torch.__version__,
    }
    meta_path = args.out.with_suffix(".json") if args.out != MODEL_PATH else META_PATH
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    size_kb = args.out.stat().st_size / 1024
    print(f"wrote {args.out} ({size_kb:.0f} KB, {params} parameters) and {meta_path} "
          f"in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
