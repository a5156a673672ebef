"""Glare on Delicious photos: silent errors with and without the reader's glare check.

Synthetic combo photos (game and camera seeds apart from the reader benchmark's) get one
reflection each, a soft spot added to the photo and clipped to white as a phone's sensor
clips it, at a random place, size and strength. Every photo is read twice: as the reader
stands, and with the glare check switched off. The same photos without the spot show
whether the check ever fires on a clean photo.

    python -m tools.bench_glare [--photos 20] [--seed 1] [--camera any]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import cv2
import numpy as np

import companion.vision.sheet.glare as glare
from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.verdicts import GLARE_NOTE
from companion.vision.sheet.reader import SheetReading, read_photo
from tools.synth.camera import CameraOptions
from tools.synth.sheet_photo import render_sheet_photo

GAME_SEED = 8100
PHOTO_SEED = 8200


def _glared(jpeg: bytes, rng: np.random.Generator) -> np.ndarray:
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).astype(np.float32)
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    rx, ry = rng.uniform(0.06, 0.14) * w, rng.uniform(0.05, 0.11) * h
    strength = rng.uniform(0.7, 1.5)
    yy, xx = np.mgrid[0:h, 0:w]
    spot = np.exp(-((((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2) ** 2)) * strength
    out: np.ndarray = np.clip(img + 255.0 * spot[..., None], 0, 255).astype(np.uint8)
    return out


def _count(path: Path, truth: dict[str, str], check: bool) -> dict[str, int]:
    saved = glare.GLARE_FIELD_SHARE
    if not check:
        glare.GLARE_FIELD_SHARE = 2.0  # no field is ever more than all clipped
    try:
        r = read_photo(str(path))
    finally:
        glare.GLARE_FIELD_SHARE = saved
    return sheet_counts(r, truth, GLARE_NOTE)


def sheet_counts(r: SheetReading, truth: dict[str, str], note: str) -> dict[str, int]:
    """One photo's fields, those read wrong, wrong and not in review (silent), in review,
    and those whose note is ``note`` (the check a bench measures)."""
    wrong = [k for k, f in r.readings.items() if f.value != truth.get(k)]
    return {
        "fields": len(r.readings),
        "wrong": len(wrong),
        "silent": sum(not r.readings[k].review for k in wrong),
        "review": len(r.review),
        "notes": sum(f.note == note for f in r.readings.values()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0, help="offset: 1 gives a held-out set")
    ap.add_argument("--camera", choices=("good-light", "any"), default="good-light")
    args = ap.parse_args()
    base = 1000 * args.seed
    rng = np.random.default_rng(PHOTO_SEED + base)
    camera = (CameraOptions.good_light() if args.camera == "good-light"
              else CameraOptions()).sized(2400)
    totals: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.photos):
            maps = simulate_game(GAME_SEED + base + i, 2, "A").field_maps
            shot = render_sheet_photo("delicious-combo", maps[0], PHOTO_SEED + base + i,
                                      camera=camera)
            clean = Path(tmp) / f"clean{i}.jpg"
            clean.write_bytes(shot.photo.jpeg)
            spot = Path(tmp) / f"glare{i}.jpg"
            cv2.imwrite(str(spot), _glared(shot.photo.jpeg, rng), [cv2.IMWRITE_JPEG_QUALITY, 85])
            truth = dict(shot.truth)
            for name, path, check in (("clean, check on", clean, True),
                                      ("glare, check off", spot, False),
                                      ("glare, check on", spot, True)):
                row = totals.setdefault(name, {})
                for k, v in _count(path, truth, check).items():
                    row[k] = row.get(k, 0) + v
    print(f"{args.photos} synthetic combo photos (camera {args.camera}, seed {args.seed}), "
          "one random reflection each\n")
    print("| photos | fields | wrong | silent errors | sent to review | glare notes |")
    print("|---|---|---|---|---|---|")
    for name, t in totals.items():
        print(f"| {name} | {t['fields']} | {t['wrong']} | {t['silent']} | "
              f"{100 * t['review'] / max(t['fields'], 1):.2f}% | {t['notes']} |")


if __name__ == "__main__":
    main()
