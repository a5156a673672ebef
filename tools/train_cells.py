"""Train the cell network (die or no die, and the count) and ship it as assets/cells.onnx +
cells.json.

The pip network (tools/train_pips.py) was trained on dice alone, so it names a count on
bare table as surely as on a face and the reader can ask it only where dice wall a cell
in. This one also learns the cells of the lattice that hold no die (bare table, a hole, a
cell astride two dice), so the reader can ask it of a cell beside the block that its
blobs and paint did not read as a die (a tan die on paper, a red die on red cloth under a
glint). Two steps, two interpreters, as for the pips:

    .venv/bin/python -m tools.train_cells --harvest [--photos 900] [--workers 2]
    PYTHONPATH=. .trainenv/bin/python -m tools.train_cells --threads 2

Data are the reader's own lattice cells (``reader.read_lattice``) of synthetic photos of
the *tuning* looks only (wide, wider, pips, satin, two-lamp; on seeds of their own, far
from every benchmark's and the pip harvest's; never the held-out, unseen or mixed
settings). A cell whose centre lies within LABEL_DIE_PITCH of a die's true centre is
that die's count; one farther than LABEL_EMPTY_PITCH from every die is "none"; cells in
between (astride a die pushed off the lattice) are left out. Photos, not cells, are split
into train, validation and check sets; the softmax temperature is fitted on validation.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.dice import constants as C

SEED = 20261207
HARVEST_SEED = 3_100_000  # photo seeds: the pips' harvest uses 3,000,000 + i (i < 1200)
CACHE_DIR = Path("bench-out/cells/patches")
N_PHOTOS = 900
LABEL_DIE_PITCH = 0.3  # a cell this near a die's centre (in pitches) shows that die
LABEL_EMPTY_PITCH = 0.6  # and one this far from every die's shows none
EPOCHS = 10
BATCH = 128
LR = 3e-3
OPSET = 13
MODEL_OUT = Path("assets/cells.onnx")
TEMPERATURE_FLOOR = 1.0  # never sharpen past what training gave (see train_marks)


def _render(i: int) -> Any:
    """Photo ``i`` of the harvest: the tuning looks in turn, every table, every block."""
    from tools.bench_dice_vision import BLOCKS, WIDER_SURFACES, _block
    from tools.synth.dice_photo import render_dice_photo
    from tools.synth.dice_style import PIPS, SATIN, TWO_LAMP, WIDE, WIDER, draw_look

    rng = np.random.default_rng(HARVEST_SEED + i)
    surface = WIDER_SURFACES[i % len(WIDER_SURFACES)]
    kind = BLOCKS[(i // len(WIDER_SURFACES)) % len(BLOCKS)]
    on_mat = surface == "mat"
    table = None if on_mat else surface
    block = _block(rng, kind)
    style = (WIDE, WIDER, PIPS, SATIN, TWO_LAMP)[(i // 15) % 5]
    if style is WIDE:
        if surface == "paper":  # the wide looks have no paper table
            table = "wood"
        return render_dice_photo(block, rng, on_mat=on_mat, table=table, style=WIDE)
    return render_dice_photo(block, rng, on_mat=on_mat, table=table,
                             look=draw_look(style, rng))


def label_cells(centres: list[tuple[float, float]], truth: dict[tuple[int, int], int],
                truth_px: dict[tuple[int, int], tuple[float, float]], pitch: float
                ) -> list[int | None]:
    """The class index of each cell centre (photo pixels): a die's count within
    LABEL_DIE_PITCH of its centre, "none" beyond LABEL_EMPTY_PITCH of every die, else None
    (left out)."""
    out: list[int | None] = []
    for x, y in centres:
        near = min(truth_px, key=lambda k: math.dist(truth_px[k], (x, y)), default=None)
        d = math.inf if near is None else math.dist(truth_px[near], (x, y)) / pitch
        if near is not None and d <= LABEL_DIE_PITCH:
            out.append(C.CELL_NET_CLASSES.index(str(truth[near])))
        elif d >= LABEL_EMPTY_PITCH:
            out.append(C.CELL_NET_CLASSES.index(C.CELL_NET_NONE))
        else:
            out.append(None)
    return out


def _harvest_one(i: int) -> str:
    import cv2

    from companion.errors import ImageError
    from companion.vision.dice.cell_net import cell_input
    from companion.vision.dice.reader import read_lattice

    cv2.setNumThreads(1)
    out = CACHE_DIR / f"{i:05d}.npz"
    if out.exists():
        return f"{i}: cached"
    shot = _render(i)
    xs, ys = [], []
    try:
        lat = read_lattice(shot.image)
    except ImageError:
        lat = None  # kept as a photo with no cells, so it is not rendered again
    if lat is not None:
        truth = {(d["row"], d["col"]): int(d["value"]) for d in shot.block["dice"]}
        centres = [lat.grid.center(c.row, c.col) for c in lat.cells]
        photo_xy = [(x / lat.s_read, y / lat.s_read) for x, y in centres]
        labels = label_cells(photo_xy, truth, dict(shot.centers_px), shot.pitch_px)
        for cell, y in zip(lat.cells, labels, strict=True):
            if y is not None:
                xs.append(cell_input(cell.patch))
                ys.append(y)
    n = C.CELL_NET_INPUT_PX
    np.savez_compressed(out, x=np.array(xs, np.float32).reshape(-1, n, n),
                        y=np.array(ys, np.int64))
    return f"{i}: {len(xs)} cells"


def harvest(n_photos: int, workers: int) -> None:
    from tools.train_common import harvest_photos

    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    harvest_photos(_harvest_one, n_photos, workers)


def load(n_photos: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """(inputs, labels) of the train, val and check photos."""
    from tools.train_common import load_patches

    got = load_patches(CACHE_DIR, n_photos, ("x", "y"), C.CELL_NET_INPUT_PX)
    return {k: (x, y.astype(np.int64)) for k, (x, y) in got.items()}


def train(args: argparse.Namespace) -> None:
    from tools.train_common import PatchRecipe, train_patch_net

    data = load(args.photos)
    xtr, ytr = data["train"]
    none = C.CELL_NET_CLASSES.index(C.CELL_NET_NONE)
    print(f"cells: train {len(xtr)} ({int(np.sum(ytr == none))} none), val "
          f"{len(data['val'][0])}, check {len(data['check'][0])}")
    t0 = time.perf_counter()
    recipe = PatchRecipe(len(C.CELL_NET_CLASSES), C.CELL_NET_INPUT_PX, SEED, BATCH, LR, OPSET,
                         TEMPERATURE_FLOOR)
    acc, temperature, net_acc, _ = train_patch_net(recipe, args, data["train"], data["val"],
                                                   data["check"])
    print(f"val accuracy {acc:.4f}; check photos {net_acc:.4f}; temperature {temperature}")
    meta = {"classes": list(C.CELL_NET_CLASSES), "input_px": C.CELL_NET_INPUT_PX,
            "temperature": temperature, "seed": SEED, "photos": args.photos,
            "harvest_seed": HARVEST_SEED, "epochs": args.epochs, "width": args.width,
            "val_accuracy": round(acc, 4), "check_accuracy": round(net_acc, 4)}
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {args.out} ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    from tools.train_common import patch_net_main

    patch_net_main("python -m tools.train_cells", __doc__, N_PHOTOS, EPOCHS, MODEL_OUT,
                   harvest, train)


if __name__ == "__main__":
    main()
