"""Train the pip-count CNN and ship it as assets/pips.onnx + pips.json.

Two steps, two interpreters, as for the marks. Harvesting runs the project's own reader,
so it runs in the project's .venv; training needs PyTorch, so it runs in the training
virtualenv:

    .venv/bin/python -m tools.train_pips --harvest [--photos 600] [--workers 1]
    PYTHONPATH=. .trainenv/bin/python -m tools.train_pips

Data are cell patches exactly as the dice reader cuts them: synthetic photos of the
*tuning* camera settings only (narrow, wide and the wider looks, from photo PIPS_FROM on
the pips set's looks: square and drilled pips beside round ones, and from SATIN_FROM on the
satin set's: those with the satin shading and translucent plastic too; on seeds of their
own far from every benchmark's; never the held-out, unseen or mixed settings) are read by
the reader, and every die it finds is kept with its true count (cached under
bench-out/pips/, gitignored). Photos, not patches, are split into train, validation and
check sets, so the dice of one photo never straddle a split. The softmax temperature is
fitted on the validation photos. Everything is seeded.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.dice import constants as C

SEED = 20261203
HARVEST_SEED = 3_000_000  # photo seeds; the benchmarks use 10k-100k, 700k and (seed, 1)
CACHE_DIR = Path("bench-out/pips/patches")
N_PHOTOS = 1200
PIPS_FROM = 600  # photos from here on: the pips looks (the first 600 as harvested before)
SATIN_FROM = 900  # and from here on the satin looks (900 photos until they joined)
EPOCHS = 12  # the shipped model's (assets/pips.json); 8 until the pips looks joined
BATCH = 128
LR = 3e-3
OPSET = 13
MODEL_OUT = Path("assets/pips.onnx")
TEMPERATURE_FLOOR = 1.0  # never sharpen past what training gave (see train_marks)


def _render(i: int) -> Any:
    """Photo ``i`` of the harvest: below PIPS_FROM every third one in each of the tuning
    styles, from there on the pips looks (square, drilled and round pips), from SATIN_FROM
    on the satin looks."""
    from tools.bench_dice_vision import BLOCKS, WIDER_SURFACES, _block
    from tools.synth.dice_photo import render_dice_photo
    from tools.synth.dice_style import PIPS, SATIN, WIDE, WIDER, draw_look

    rng = np.random.default_rng(HARVEST_SEED + i)
    surface = WIDER_SURFACES[i % len(WIDER_SURFACES)]
    kind = BLOCKS[(i // len(WIDER_SURFACES)) % len(BLOCKS)]
    on_mat = surface == "mat"
    table = None if on_mat else surface
    style = i % 3
    # restocked blocks as the shipped model's harvest drew them (35 dice of any mix)
    block = _block(rng, kind, bag_mix=True)
    if i >= PIPS_FROM:
        return render_dice_photo(block, rng, on_mat=on_mat, table=table,
                                 look=draw_look(SATIN if i >= SATIN_FROM else PIPS, rng))
    if style == 0 or surface == "paper":  # narrow has no paper table: the wider looks
        look = draw_look(WIDER, rng)
        return render_dice_photo(block, rng, on_mat=on_mat, table=table, look=look)
    return render_dice_photo(block, rng, on_mat=on_mat, table=table,
                             style=WIDE if style == 1 else None)


def _harvest_one(i: int) -> str:
    import cv2

    from companion.errors import ImageError
    from companion.vision.dice.pip_net import pip_input
    from companion.vision.dice.reader import read_dice_image
    from tools.synth.dice_truth import match_dice

    cv2.setNumThreads(1)
    out = CACHE_DIR / f"{i:05d}.npz"
    if out.exists():
        return f"{i}: cached"
    shot = _render(i)
    try:
        dice = read_dice_image(shot.image).dice
    except ImageError:
        dice = []  # kept as a photo with no patches, so it is not rendered again
    truth = {(d["row"], d["col"]): d for d in shot.block["dice"]}
    xs, ys, read, review = [], [], [], []
    for d, t in match_dice(shot, dice):
        if d.patch is None:
            continue
        xs.append(pip_input(d.patch))
        ys.append(C.PIP_NET_CLASSES.index(str(truth[t]["value"])))
        read.append(d.value)
        review.append(d.review)
    np.savez_compressed(out, x=np.array(xs, np.float32).reshape(-1, C.PIP_NET_INPUT_PX,
                                                                C.PIP_NET_INPUT_PX),
                        y=np.array(ys, np.int64), read=np.array(read, np.int64),
                        review=np.array(review, bool))
    return f"{i}: {len(xs)} dice"


def harvest(n_photos: int, workers: int) -> None:
    from tools.train_common import harvest_photos

    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    harvest_photos(_harvest_one, n_photos, workers)


def load(n_photos: int) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(inputs, labels, the reader's count when harvested) of the train, val and check
    photos. The shipped model's harvest ran before any pip network existed, so there the
    reader's count is the blob counter's alone."""
    from tools.train_common import load_patches

    got = load_patches(CACHE_DIR, n_photos, ("x", "y", "read"), C.PIP_NET_INPUT_PX)
    return {k: (x, y.astype(np.int64), r.astype(np.int64)) for k, (x, y, r) in got.items()}


def train(args: argparse.Namespace) -> None:
    from tools.train_common import PatchRecipe, train_patch_net

    data = load(args.photos)
    xtr, ytr, _ = data["train"]
    xv, yv, _ = data["val"]
    xc, yc, rc = data["check"]
    print(f"patches: train {len(xtr)}, val {len(xv)}, check {len(xc)}")
    t0 = time.perf_counter()
    recipe = PatchRecipe(len(C.PIP_NET_CLASSES), C.PIP_NET_INPUT_PX, SEED, BATCH, LR, OPSET,
                         TEMPERATURE_FLOOR)
    acc, temperature, net_acc, _ = train_patch_net(recipe, args, (xtr, ytr), (xv, yv),
                                                   (xc, yc))
    counter = float(np.mean(rc == yc + 2)) if len(yc) else 0.0
    print(f"val accuracy {acc:.4f}; check photos: network {net_acc:.4f}, the reader as "
          f"harvested {counter:.4f}; temperature {temperature}")
    meta = {"classes": list(C.PIP_NET_CLASSES), "input_px": C.PIP_NET_INPUT_PX,
            "temperature": temperature, "seed": SEED, "photos": args.photos,
            "harvest_seed": HARVEST_SEED, "epochs": args.epochs, "width": args.width,
            "val_accuracy": round(acc, 4), "check_accuracy": round(net_acc, 4),
            "check_counter_accuracy": round(counter, 4)}
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {args.out} ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    from tools.train_common import patch_net_main

    patch_net_main("python -m tools.train_pips", __doc__, N_PHOTOS, EPOCHS, MODEL_OUT,
                   harvest, train)


if __name__ == "__main__":
    main()
