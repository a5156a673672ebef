"""Read sketch networks on single generated crops: the figures a retrained network is chosen on.

- calib crops (the training's calib seeds and count, tools/train_sketches.py) as the
  generator draws them now, split into quick-hand players' crops (``quick_parts``), other
  sketches and letters: the crops to choose on;
- the same calib seeds with ``QUICK_SHARE`` 0, that is the calib crops as generator
  version 2 drew them: to choose on too, so that a network better at quick hands is not
  worse at every other hand unseen;
- the held-out setting's crops: reported only, never chosen on;
- the real Quick, Draw! sketches (../shared/data/sketches, measuring only), each drawn
  three times into a cell by a held-out player (240 crops): the argmax, and the best plant
  of the cell's kind (vegetable or fruit, as a garden cell asks);
- then, per plant, the held-out and the real crops read right (argmax), and what the real
  crops of the plant were most often taken for: a drop on one plant's real sketches tells
  which of the generator's ways of drawing it real hands do not use.

    python -m tools.sketch_crops [NET.onnx ...] [--cache DIR] [--workers 2]

Crops are kept in ``--cache`` (the training's cache holds the first and third sets).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from companion.games.delicious.symbols import Fruit, Vegetable
from companion.vision.sheet.constants_sketches import LETTER_CLASS, SKETCH_CLASSES
from tools.synth import sketches as S

REAL_SEED = 20261206
REAL_DRAWN = 3  # each real sketch drawn into this many cells, by another held-out player
Crops = tuple[np.ndarray, np.ndarray]


@contextlib.contextmanager
def without_quick_hands() -> Iterator[None]:
    """Train and calib players drawn as generator version 2 drew them (share 0: no draw)."""
    old = dict(S.QUICK_SHARE)
    S.QUICK_SHARE.update({S.Setting.TRAIN: 0.0, S.Setting.CALIB: 0.0})
    try:
        yield
    finally:
        S.QUICK_SHARE.update(old)


def quick_mask(seed: int, n: int, setting: S.Setting) -> np.ndarray:
    """Which crops of ``make_set(seed, n, setting)`` a quick-hand player drew (the player
    is made from each crop's generator first, as tools/train_sketches.py's _sample does)."""
    out = np.zeros(n, bool)
    for i in range(n):
        cls = SKETCH_CLASSES[i % len(SKETCH_CLASSES)]
        if cls != LETTER_CLASS:
            player = S.make_player(np.random.default_rng([seed, i]), setting, plants=(cls,))
            out[i] = player.sources[cls].endswith("-quick")
    return out


def _cached(path: Path | None, make: functools.partial[Crops]) -> Crops:
    if path is not None and path.is_file():
        with np.load(path) as f:
            return f["x"], f["y"]
    x, y = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x, y=y)
    return x, y


def real_crops() -> Crops | None:
    """The real sketches drawn into cells (None where ../shared/data has none)."""
    from companion.vision.sheet.letters import preprocess
    from tools.synth.handwriting import letter_cell_crop

    found = S.quickdraw()
    if not found:
        return None
    xs, ys = [], []
    drawings = [(p, strokes) for p in sorted(found) for _, strokes in found[p]]
    for j, (plant, strokes) in enumerate(drawings):
        for k in range(REAL_DRAWN):
            rng = np.random.default_rng([REAL_SEED, j, k])
            player = S.make_player(rng, S.Setting.HELDOUT, plants=(plant,),
                                   real={plant: strokes})
            crop = letter_cell_crop("", rng, sketch=functools.partial(player.alpha, plant))
            xs.append(preprocess(crop))
            ys.append(SKETCH_CLASSES.index(plant))
    return np.stack(xs).astype(np.float32), np.array(ys, np.int64)


def best_of_kind(probs: np.ndarray, y: np.ndarray) -> float:
    """How often the cell's own kind's likeliest plant is its plant."""
    kinds = [[SKETCH_CLASSES.index(p.value) for p in kind] for kind in (Vegetable, Fruit)]
    right = []
    for row, t in zip(probs, y, strict=True):
        kind = next(k for k in kinds if t in k)
        right.append(kind[int(np.argmax(row[kind]))] == t)
    return float(np.mean(right)) if right else 0.0


def _share(hits: np.ndarray) -> str:
    return f"{hits.mean():.1%}" if hits.size else "-"


def per_plant_rows(held: np.ndarray, yh: np.ndarray, real: np.ndarray | None,
                   yr: np.ndarray | None) -> list[str]:
    """Per plant: held-out and real crops right (argmax of ``held``/``real`` probabilities),
    and the real crops' commonest readings."""
    rows = []
    for c, plant in enumerate(SKETCH_CLASSES):
        if plant == LETTER_CLASS:
            continue
        h = yh == c
        row = [plant, _share(held[h].argmax(1) == c)]
        if real is not None and yr is not None and (yr == c).any():
            got = np.bincount(real[yr == c].argmax(1), minlength=len(SKETCH_CLASSES))
            row += [_share(real[yr == c].argmax(1) == c), ", ".join(
                f"{SKETCH_CLASSES[j]} {got[j]}" for j in np.argsort(-got, kind="stable")[:3]
                if got[j])]
        else:
            row += ["-", "-"]
        rows.append("| " + " | ".join(row) + " |")
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    from companion.vision.sheet.constants_sketches import SKETCH_MODEL_PATH
    from companion.vision.sheet.sketch_model import SketchClassifier
    from tools.train_sketches import N_CALIB, N_HELDOUT, SEEDS, make_set

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="*", type=Path, default=[SKETCH_MODEL_PATH])
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    calib, held = SEEDS[S.Setting.CALIB], SEEDS[S.Setting.HELDOUT]
    xc, yc = make_set(calib, N_CALIB, S.Setting.CALIB, args.workers, args.cache)
    quick = quick_mask(calib, N_CALIB, S.Setting.CALIB)
    with without_quick_hands():
        name = f"sketches-noquick-{S.Setting.CALIB.value}-{calib}-{N_CALIB}.npz"
        plain = _cached(args.cache / name if args.cache else None, functools.partial(
            make_set, calib, N_CALIB, S.Setting.CALIB, args.workers, None))
    xh, yh = make_set(held, N_HELDOUT, S.Setting.HELDOUT, args.workers, args.cache)
    real = real_crops()
    letter = yc == SKETCH_CLASSES.index(LETTER_CLASS)
    print(f"calib crops {len(yc)} ({int(quick.sum())} by quick hands), held-out {len(yh)}, "
          f"real {len(real[1]) if real else 0}")
    print("| network | calib | quick hands | other sketches | letters | calib, no quick "
          "hands | held-out | real, argmax | real, best of kind |")
    print("|---|---|---|---|---|---|---|---|---|")
    by_plant: list[str] = []
    for net in args.nets:
        model = SketchClassifier.load(None if net == SKETCH_MODEL_PATH else net)
        right = model.scores(xc).probs.argmax(1) == yc
        held_probs = model.scores(xh).probs
        real_probs = model.scores(real[0]).probs if real is not None else None
        row = [_share(right), _share(right[quick]),
               _share(right[~quick & ~letter]), _share(right[letter]),
               f"{(model.scores(plain[0]).probs.argmax(1) == plain[1]).mean():.1%}",
               f"{(held_probs.argmax(1) == yh).mean():.1%}"]
        if real is not None and real_probs is not None:
            row += [f"{(real_probs.argmax(1) == real[1]).mean():.1%}",
                    f"{best_of_kind(real_probs, real[1]):.1%}"]
        else:
            row += ["-", "-"]
        name = "shipped (assets)" if net == SKETCH_MODEL_PATH else str(net)
        print(f"| {name} | " + " | ".join(row) + " |")
        by_plant += [f"\n{name}, by plant\n",
                     "| plant | held-out | real, argmax | real, read most often as |",
                     "|---|---|---|---|",
                     *per_plant_rows(held_probs, yh, real_probs,
                                     real[1] if real is not None else None)]
    print("\n".join(by_plant))


if __name__ == "__main__":
    main()
