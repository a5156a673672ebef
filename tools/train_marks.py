"""Train the check-or-cross CNN and ship it as assets/marks.onnx + marks.json.

Two steps, two interpreters. Harvesting runs the project's own reader, so it runs in the
project's .venv; training needs PyTorch, so it runs in the training virtualenv:

    .venv/bin/python -m tools.train_marks --harvest [--photos 600]
    PYTHONPATH=. /work/trainenv/bin/python -m tools.train_marks [--quick]

Data are mark patches exactly as the sheet reader sees them: synthetic phone photos of
simulated games (seeds from HARVEST_SEED, far from the benchmark's) are registered and read
by the reader, and for every First Potter field and every check- or cross-marked choice field
the relative-lightness patch the shape is judged on and the reader's ink test are kept
(cached under bench-out/marks/, gitignored). Photos, not patches, are split into train,
validation and held-out sets, so near-identical patches of one sheet never straddle a split.
The softmax temperature is fitted on the validation photos. Everything is seeded.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.sheet.constants_marks import INPUT_PX, MARK_CLASSES, META_PATH, MODEL_PATH
from companion.vision.sheet.mark_shape import preprocess
from tools.train_common import (
    export_onnx,
    fit_temperature,
    harvest_photos,
    logits_of,
    nll,
    one_cycle_adamw,
)

SEED = 20261130
HARVEST_SEED = 7_000_000  # photo and game seeds; the benchmark uses 0-199, 100000+, 50M+
CACHE_DIR = Path("bench-out/marks/patches")
N_PHOTOS = 600
SMALL_EVERY = 5  # every 5th photo: the sheet covers less of the frame (the bench stress set)
SHEETS = ("delicious-combo", "delicious-combo", "delicious-garden", "delicious-play")
VAL_EVERY, HELD_EVERY = (10, 0), (10, 1)  # photo i is validation when i % 10 == 0, ...
N_DRAWN = 3000  # clean marks drawn straight into a patch, added to the training photos' ones
EPOCHS = 30
BATCH = 128
LR = 3e-3
OPSET = 13
WORKERS = 2

Patch = tuple[np.ndarray, int, str, float, float]  # rel, label, field kind, below, px/mm
# The fitted temperature never goes below 1: a validation set the model gets all right would
# otherwise sharpen it without bound, and a few hundred patches cannot vouch for certainty
# beyond what training gave.
TEMPERATURE_FLOOR = 1.0


# ---- harvesting (project .venv) ----------------------------------------------------------


def _harvest_one(i: int) -> str:
    """Make photo i, read it with the reader and cache its mark patches (worker process)."""
    import cv2

    cv2.setNumThreads(1)
    from companion.games.delicious.simulate import simulate_game
    from companion.paper.model import FieldKind
    from companion.vision.sheet import reader as sheet_reader
    from companion.vision.sheet.constants import MARK_INK_BELOW, SHAPE_GROW
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo

    path = CACHE_DIR / f"{HARVEST_SEED + i}.pkl"
    if path.exists():
        return str(path)
    game_seed, player = HARVEST_SEED + i // 3, i % 3
    variant = "AB"[(i // 3) % 2]
    record = simulate_game(game_seed, 3, variant)
    field_map = dict(record.field_maps[player])
    small = i % SMALL_EVERY == SMALL_EVERY - 1
    camera = CameraOptions(sheet_area=(0.08, 1.0 / 3.0)) if small else CameraOptions()
    made = render_sheet_photo(SHEETS[i % len(SHEETS)], field_map, HARVEST_SEED + i,
                              variant=variant, fonts="train" if i % 2 else "heldout",
                              camera=camera.sized(4000), code=f"{(i * 37) % 10000:04d}")
    styles = made.truth_json()["synthetic"]["marks"]  # type: ignore[index]
    wanted = {fid: style for fid, style in styles.items() if style in MARK_CLASSES}
    got: dict[str, tuple[np.ndarray, str, float, float]] = {}
    original = sheet_reader._mark

    def spy(page: Any, spec: Any, shift: Any, below: float = MARK_INK_BELOW) -> float:
        if (spec.id in wanted and spec.id not in got
                and spec.kind in (FieldKind.FIRST_POTTER, FieldKind.CHOICE)):
            rel = sheet_reader._rel_patch(page, spec, sheet_reader._grow_mm(spec, SHAPE_GROW),
                                          shift)
            got[spec.id] = (rel, spec.kind.value, float(below), float(page.px_per_mm))
        return original(page, spec, shift, below)

    sheet_reader._mark = spy  # type: ignore[assignment]
    try:
        sheet_reader.read_image(made.image())
    except Exception as exc:  # an unregistrable photo gives no patches
        print(f"photo {i}: {exc}")
    finally:
        sheet_reader._mark = original  # type: ignore[assignment]
    patches: list[Patch] = [(rel, MARK_CLASSES.index(wanted[fid]), kind, below, ppm)
                            for fid, (rel, kind, below, ppm) in sorted(got.items())]
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(pickle.dumps(patches))
    tmp.rename(path)
    return str(path)


def harvest(n_photos: int, workers: int) -> None:
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    harvest_photos(_harvest_one, n_photos, workers)


def load_patches(n_photos: int) -> dict[str, list[Patch]]:
    """Cached patches split by photo into train / val / held-out."""
    out: dict[str, list[Patch]] = {"train": [], "val": [], "held": []}
    for i in range(n_photos):
        path = CACHE_DIR / f"{HARVEST_SEED + i}.pkl"
        if not path.exists():
            continue
        split = ("val" if i % VAL_EVERY[0] == VAL_EVERY[1] else
                 "held" if i % HELD_EVERY[0] == HELD_EVERY[1] else "train")
        out[split] += pickle.loads(path.read_bytes())
    return out



def drawn_patches(n: int) -> list[Patch]:
    """Marks drawn by the synth's pen into bare patches: more hands and sizes than the
    photos hold, pen to faint pencil, sharp to blurred (training only)."""
    import cv2

    from tools.synth.handwriting import draw_mark

    out: list[Patch] = []
    for i in range(n):
        rng = np.random.default_rng([SEED, 7, i])
        side = int(rng.integers(30, 90))
        label = i % 2
        img = np.full((side, side), 255, np.uint8)
        m = int(round(side * rng.uniform(0.05, 0.16)))
        draw_mark(img, (m, m, side - 2 * m, side - 2 * m), MARK_CLASSES[label], rng)
        dark = 1.0 - img.astype(np.float32) / 255.0
        dark /= max(float(dark.max()), 1e-6)
        blur = float(rng.uniform(0.0, 0.03)) * side
        if blur > 0.4:
            dark = cv2.GaussianBlur(dark, (0, 0), blur)
        ink = float(rng.uniform(0.05, 0.8))
        rel = 1.0 - (1.0 - ink) * dark + rng.normal(0, 0.02, dark.shape)
        out.append((np.clip(rel, 0, 1.5).astype(np.float32), label, "drawn", 0.9, 0.0))
    return out


# ---- training (PyTorch virtualenv) -------------------------------------------------------


def arrays(patches: list[Patch]) -> tuple[np.ndarray, np.ndarray]:
    x = np.stack([preprocess(p[0]) for p in patches]).astype(np.float32)
    y = np.array([p[1] for p in patches], np.int64)
    return x, y


def build_model() -> Any:
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True), nn.MaxPool2d(2)]

    return nn.Sequential(
        *block(1, 16),   # 16 x 16
        *block(16, 32),  # 8 x 8
        *block(32, 48),  # 4 x 4
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(48 * 4 * 4, len(MARK_CLASSES)),
    )


def augment(x: Any, gen: Any) -> Any:
    """Small rotation, scale and shift; some blur (a softer photo); some fading (pencil)."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * math.radians(24)
    s = 1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.3
    t = (torch.rand(n, 2, generator=gen) - 0.5) * 0.16
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = s * torch.cos(ang)
    theta[:, 0, 1] = -s * torch.sin(ang)
    theta[:, 1, 0] = s * torch.sin(ang)
    theta[:, 1, 1] = s * torch.cos(ang)
    theta[:, :, 2] = t
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    k = torch.tensor([0.25, 0.5, 0.25])
    blur = F.conv2d(x, (k[:, None] * k[None, :])[None, None], padding=1)
    soft = (torch.rand(n, 1, 1, 1, generator=gen) < 0.3).float()
    x = soft * blur + (1 - soft) * x
    fade = torch.where(torch.rand(n, 1, 1, 1, generator=gen) < 0.3,
                       0.5 + 0.5 * torch.rand(n, 1, 1, 1, generator=gen), torch.ones(n, 1, 1, 1))
    return (x * fade).clamp(0, 1)


def p_cross(logits: np.ndarray, temperature: float) -> np.ndarray:
    d = (logits[:, 1] - logits[:, 0]) / temperature
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(d, -50, 50))))


def scores(p: np.ndarray, y: np.ndarray, bins: int = 10) -> dict[str, float]:
    """Accuracy, calibration error, and what a 0.9 review threshold does with P(cross)."""
    conf = np.maximum(p, 1 - p)
    right = (p >= 0.5) == (y == 1)
    edges = np.linspace(0.5, 1.0, bins + 1)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            ece += m.mean() * abs(float(right[m].mean()) - float(conf[m].mean()))
    wrong = conf[~right]
    return {"accuracy": round(float(right.mean()), 4), "ece": round(ece, 4),
            "below_0.9": int((conf < 0.9).sum()), "wrong": int((~right).sum()),
            "wrong_at_0.9_or_more": int((wrong >= 0.9).sum()),
            "max_wrong_confidence": round(float(wrong.max()), 3) if len(wrong) else 0.0}


def old_model(patches: list[Patch]) -> np.ndarray:
    from companion.vision.sheet import marks

    return np.array([marks.logistic_cross_probability_rel(p[0], p[3]) for p in patches])


def train(args: argparse.Namespace) -> None:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(SEED)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    t0 = time.perf_counter()
    sets = load_patches(args.photos)
    xtr, ytr = arrays(sets["train"] + drawn_patches(0 if args.quick else N_DRAWN))
    xva, yva = arrays(sets["val"])
    xho, yho = arrays(sets["held"])
    print(f"patches: {len(xtr)} train, {len(xva)} val, {len(xho)} held-out "
          f"(crosses {ytr.mean():.2f} / {yva.mean():.2f} / {yho.mean():.2f})")
    epochs = 2 if args.quick else EPOCHS
    model = build_model()
    params = sum(p.numel() for p in model.parameters())
    opt, sched = one_cycle_adamw(model, LR, epochs, len(xtr), BATCH)
    gen = torch.Generator().manual_seed(SEED)
    xt, yt = torch.from_numpy(xtr[:, None]), torch.from_numpy(ytr)
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(perm), BATCH):
            idx = perm[i:i + BATCH]
            loss = F.cross_entropy(model(augment(xt[idx], gen)), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        lv = logits_of(model, xva)
        v_nll = nll(lv, yva, fit_temperature(lv, yva, lowest=TEMPERATURE_FLOOR))
        acc = float((lv.argmax(1) == yva).mean())
        print(f"epoch {ep + 1}/{epochs}: loss {total / len(xt):.4f}, val acc {acc:.4f}, "
              f"val nll {v_nll:.4f}, {time.perf_counter() - t0:.0f} s", flush=True)
    # The last epoch ships (the one-cycle schedule ends at a tiny rate): validation patches
    # are nearly all right from the first epochs on, too few to choose between epochs.

    lv, lh = logits_of(model, xva), logits_of(model, xho)
    temp = fit_temperature(lv, yva, lowest=TEMPERATURE_FLOOR)
    report = {"val": scores(p_cross(lv, temp), yva), "heldout": scores(p_cross(lh, temp), yho),
              "heldout_t1": scores(p_cross(lh, 1.0), yho),
              "heldout_logistic_model": scores(old_model(sets["held"]), yho)}
    for k, v in report.items():
        print(f"{k}: " + ", ".join(f"{a} {b}" for a, b in v.items()))

    export_onnx(model, args.out, INPUT_PX, OPSET, xho[:256], lh[:256])
    meta = {
        "classes": list(MARK_CLASSES), "input_px": INPUT_PX, "temperature": temp,
        "opset": OPSET, "params": params, "seed": SEED, "harvest_seed": HARVEST_SEED,
        "photos": args.photos, "n_drawn": N_DRAWN, "epochs": epochs, "n_train": len(xtr),
        "n_val": len(xva), "n_heldout": len(xho), "val_nll": round(nll(lv, yva, temp), 4),
        "heldout_nll": round(nll(lh, yho, temp), 4), **report,
        "train_seconds": round(time.perf_counter() - t0, 1), "torch": torch.__version__,
    }
    meta_path = args.out.with_suffix(".json") if args.out != MODEL_PATH else META_PATH
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KB, {params} parameters) "
          f"and {meta_path} in {time.perf_counter() - t0:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--harvest", action="store_true", help="make and cache the patches")
    ap.add_argument("--photos", type=int, default=N_PHOTOS)
    ap.add_argument("--quick", action="store_true", help="two epochs, to check the plumbing")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--workers", type=int, default=WORKERS)
    args = ap.parse_args()
    if args.harvest:
        harvest(args.photos, args.workers)
    else:
        train(args)


if __name__ == "__main__":
    main()
