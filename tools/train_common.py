"""Pieces both classifier trainings share: the network, its training loop, evaluation,
temperature fitting, ONNX check.

PyTorch is imported inside the functions: this module is also imported where only numpy is.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


def harvest_photos(one: Callable[[int], object], n_photos: int, workers: int) -> None:
    """Run ``one(i)`` for photos 0..n_photos-1 in ``workers`` processes (the patch
    harvests: each photo is rendered, read and cached on its own), saying how far it got."""
    from concurrent.futures import ProcessPoolExecutor

    t0 = time.perf_counter()
    with ProcessPoolExecutor(max(1, workers)) as pool:
        for k, _ in enumerate(pool.map(one, range(n_photos))):
            if (k + 1) % 20 == 0:
                print(f"{k + 1}/{n_photos} photos, {time.perf_counter() - t0:.0f} s", flush=True)


# the dice patch harvests' split by photo (never by patch, so one photo's dice never
# straddle two sets): photo i is validation when i % 10 == 0, check when i % 10 == 1
VAL_EVERY, CHECK_EVERY = (10, 0), (10, 1)


def load_patches(cache_dir: Path, n_photos: int, keys: tuple[str, ...], side: int
                 ) -> dict[str, tuple[np.ndarray, ...]]:
    """The arrays ``keys`` of each harvested photo's npz (the first the (n, side, side)
    inputs), joined per split: train, val and check."""
    parts: dict[str, list[Any]] = {"train": [], "val": [], "check": []}
    for i in range(n_photos):
        path = cache_dir / f"{i:05d}.npz"
        if not path.exists():
            continue
        with np.load(path) as z:
            split = ("val" if i % VAL_EVERY[0] == VAL_EVERY[1] else
                     "check" if i % CHECK_EVERY[0] == CHECK_EVERY[1] else "train")
            parts[split].append(tuple(z[k] for k in keys))
    out = {}
    for name, items in parts.items():
        arrays = [np.concatenate([it[j] for it in items]) if items
                  else np.zeros((0, side, side) if j == 0 else 0) for j in range(len(keys))]
        out[name] = (arrays[0].astype(np.float32), *arrays[1:])
    return out


def logits_of(model: Any, x: np.ndarray) -> np.ndarray:
    """The model's logits for (n, H, W) inputs, in batches, in eval mode."""
    import torch

    model.eval()
    with torch.no_grad():
        return np.concatenate([model(torch.from_numpy(x[i:i + 1024, None])).numpy()
                               for i in range(0, len(x), 1024)])


def nll(logits: np.ndarray, y: np.ndarray, temperature: float) -> float:
    """Mean negative log-likelihood of labels ``y`` under softmax(logits / temperature)."""
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean())


def fit_temperature(logits: np.ndarray, y: np.ndarray, lowest: float = 0.3) -> float:
    """Temperature in [lowest, 10] minimising validation NLL (golden-section search on log T)."""
    lo, hi = math.log(lowest), math.log(10.0)
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(60):
        if nll(logits, y, math.exp(a)) < nll(logits, y, math.exp(b)):
            hi = b
        else:
            lo = a
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    return round(math.exp((lo + hi) / 2), 4)


def check_with_cv2(path: Path, x: np.ndarray, expected: np.ndarray) -> None:
    """The exported file must load in cv2.dnn and agree with PyTorch."""
    import cv2

    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(np.ascontiguousarray(x[:, None], np.float32))
    got = np.asarray(net.forward()).reshape(expected.shape)
    err = float(np.abs(got - expected).max())
    if err > 1e-3:
        raise SystemExit(f"cv2.dnn disagrees with PyTorch by {err}")
    print(f"cv2.dnn {cv2.__version__} loads the model; max logit difference {err:.2e}")


def export_onnx(model: Any, out: Path, input_px: int, opset: int, x_check: np.ndarray,
                expected: np.ndarray) -> None:
    """Write the model as ONNX (batch size free) and check cv2.dnn reads it the same."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    dummy = torch.zeros(1, 1, input_px, input_px)
    torch.onnx.export(model, (dummy,), str(out), input_names=["input"],
                      output_names=["logits"], opset_version=opset,
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    check_with_cv2(out, x_check, expected)


def add_feature_output(path: Path) -> None:
    """Expose the flattened convolution features as a second output of an exported model
    (after the logits, so ``net.forward()`` still gives the logits): the reader compares
    a doubtful letter with the player's sure ones in that space."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    flat = [n for n in model.graph.node if n.op_type == "Flatten"]
    if not flat:
        raise SystemExit(f"{path}: no Flatten node to expose")
    name = flat[-1].output[0]
    if name not in [o.name for o in model.graph.output]:
        model.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                                ["n", None]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def one_cycle_adamw(model: Any, lr: float, epochs: int, n_train: int, batch: int
                    ) -> tuple[Any, Any]:
    """AdamW with a one-cycle learning rate over the whole run (one step per batch)."""
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(n_train / batch)
    return opt, torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)


def small_cnn(classes: int, width: float = 1.0) -> Any:
    """The classifiers' CNN on 32 x 32 cells; ``width`` scales every layer's channels."""
    import torch.nn as nn

    c1, c2, c3, c4 = (max(4, round(c * width)) for c in (16, 32, 48, 64))

    def block(cin: int, cout: int, k: int = 3, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # A strided 5x5 stem keeps the costly full-resolution layers out: CPU training time.
    return nn.Sequential(
        *block(1, c1, 5, 2),                       # 16 x 16
        *block(c1, c2), nn.MaxPool2d(2),           # 8 x 8
        *block(c2, c3), nn.MaxPool2d(2),           # 4 x 4
        *block(c3, c4),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(c4 * 4 * 4, classes),
    )


def augment(x: Any, gen: Any) -> Any:
    """Cheap batch augmentation on top of the rendered variety: small shift and scale."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    s = 1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    t = (torch.rand(n, 2, generator=gen) - 0.5) * 0.12
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = s
    theta[:, 1, 1] = s
    theta[:, :, 2] = t
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")


def train_keep_best(model: Any, x: np.ndarray, y: np.ndarray, x_check: np.ndarray,
                    y_check: np.ndarray, loss_of: Callable[[Any, Any], Any], *, epochs: int,
                    batch: int, lr: float, seed: int, t0: float) -> float:
    """Train on (x, y) with augmented shuffled batches and a one-cycle AdamW; keep the
    weights of the epoch most accurate on (x_check, y_check), whose accuracy is returned.
    ``loss_of(logits, labels)`` is the batch's mean loss."""
    import torch

    opt, sched = one_cycle_adamw(model, lr, epochs, len(x), batch)
    gen = torch.Generator().manual_seed(seed)
    xt, yt = torch.from_numpy(x[:, None]), torch.from_numpy(y)
    best: tuple[float, dict[str, Any]] = (-1.0, {})
    for ep in range(epochs):
        model.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(perm), batch):
            idx = perm[i:i + batch]
            loss = loss_of(model(augment(xt[idx], gen)), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        acc = float((logits_of(model, x_check).argmax(1) == y_check).mean())
        print(f"epoch {ep + 1}/{epochs}: loss {total / len(xt):.4f}, check accuracy "
              f"{acc:.4f}, {time.perf_counter() - t0:.0f} s")
        if acc >= best[0]:
            best = (acc, {k: v.clone() for k, v in model.state_dict().items()})
    model.load_state_dict(best[1])
    return best[0]


def turned(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every patch in its eight quarter turns and mirror images: a die's face, and whether
    a die is there, do not depend on how the die lies, and the render's shadows and glints
    do."""
    xs = [np.rot90(x, k, axes=(1, 2)) for k in range(4)]
    xs += [np.flip(a, axis=2) for a in xs]
    return np.ascontiguousarray(np.concatenate(xs)), np.concatenate([y] * 8)


@dataclass
class PatchRecipe:
    """How one of the dice's patch networks is trained (pips, cells)."""

    classes: int
    input_px: int
    seed: int
    batch: int
    lr: float
    opset: int
    temperature_floor: float


def train_patch_net(recipe: PatchRecipe, args: Any, train: tuple[np.ndarray, np.ndarray],
                    val: tuple[np.ndarray, np.ndarray], check: tuple[np.ndarray, np.ndarray]
                    ) -> tuple[float, float, float, np.ndarray]:
    """Train the small CNN on ``train`` turned every way (label smoothing 0.02, the epoch
    best on ``val`` kept), fit its temperature on ``val`` and write it as ONNX to
    ``args.out``. Returns the validation accuracy, the temperature, the accuracy on
    ``check`` and the check logits."""
    import torch

    torch.manual_seed(recipe.seed)
    torch.set_num_threads(args.threads)
    xtr, ytr = turned(*train)
    (xv, yv), (xc, yc) = val, check
    model = small_cnn(recipe.classes, args.width)
    t0 = time.perf_counter()
    loss = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    acc = train_keep_best(model, xtr, ytr, xv, yv, loss, epochs=args.epochs,
                          batch=recipe.batch, lr=recipe.lr, seed=recipe.seed, t0=t0)
    temperature = max(recipe.temperature_floor, fit_temperature(logits_of(model, xv), yv))
    lc = logits_of(model, xc)
    net_acc = float(np.mean(lc.argmax(1) == yc)) if len(yc) else 0.0
    export_onnx(model, args.out, recipe.input_px, recipe.opset, xc[:64], lc[:64])
    return acc, temperature, net_acc, lc


def patch_net_main(prog: str, doc: str, n_photos: int, epochs: int, model_out: Path,
                   harvest: Callable[[int, int], None], train: Callable[[Any], None]) -> None:
    """The command line of a patch network's two steps: ``--harvest`` cuts the patches (in
    the project's venv), else the network is trained (in the training venv)."""
    import argparse

    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    ap.add_argument("--harvest", action="store_true", help="cut the patches (project venv)")
    ap.add_argument("--photos", type=int, default=n_photos)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=epochs)
    ap.add_argument("--width", type=float, default=1.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=model_out)
    args = ap.parse_args()
    if args.harvest:
        harvest(args.photos, args.workers)
    else:
        train(args)
