"""Things lying on a Delicious sheet: silent errors with and without the cover check.

Synthetic combo photos (game and camera seeds apart from the reader benchmark's and the
glare one's) get one thing laid on them each (tools/synth/covers.py): the tuning setting
the check's thresholds were chosen on, and the held-out setting's hands, game cards, mugs
and pencils, never used to choose them. Every photo is read twice, as the reader stands
and with the cover check switched off; the same photos with nothing on them show whether
the check ever fires on a clear photo.

    python -m tools.bench_cover [--photos 60] [--setting tuning|heldout]  (both by default)
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

import cv2
import numpy as np

import companion.vision.sheet.reader as sheet_reader
from companion.games.delicious.simulate import simulate_game
from companion.games.delicious.verdicts import COVER_NOTE
from tools.bench_glare import sheet_counts
from tools.synth.camera import CameraOptions
from tools.synth.covers import CoverSetting, lay_cover
from tools.synth.sheet_photo import render_sheet_photo

GAME_SEED = 8500
PHOTO_SEED = 8600


def _count(img: np.ndarray, truth: dict[str, str], check: bool) -> dict[str, int]:
    real = sheet_reader.covered_fields
    if not check:
        sheet_reader.covered_fields = lambda *a, **k: set()  # type: ignore[assignment]
    try:
        r = sheet_reader.read_image(img)
    finally:
        sheet_reader.covered_fields = real  # type: ignore[assignment]
    return sheet_counts(r, truth, COVER_NOTE)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--photos", type=int, default=60)
    ap.add_argument("--setting", choices=[s.value for s in CoverSetting])
    args = ap.parse_args()
    for setting in ([CoverSetting(args.setting)] if args.setting else list(CoverSetting)):
        bench(setting, args.photos)


def bench(setting: CoverSetting, photos: int) -> None:
    """Print the tables of one setting."""
    offset = 1000 * list(CoverSetting).index(setting)  # each setting its own seeds
    rng = np.random.default_rng(PHOTO_SEED + offset)
    camera = CameraOptions().sized(2400)
    totals: dict[str, Counter[str]] = {}
    kinds: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    for i in range(photos):
        maps = simulate_game(GAME_SEED + offset + i, 2, "A").field_maps
        shot = render_sheet_photo("delicious-combo", maps[0], PHOTO_SEED + offset + i,
                                  camera=camera)
        clean = cv2.imdecode(np.frombuffer(shot.photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert clean is not None, "the renderer's own JPEG decodes"
        kind, covered = lay_cover(clean, setting, rng, shot.photo.corners_px)
        kinds[kind] += 1
        truth = dict(shot.truth)
        rows: list[tuple[str, Any, bool]] = [("nothing on it, check on", clean, True),
                                             ("covered, check off", covered, False),
                                             ("covered, check on", covered, True)]
        for name, img, check in rows:
            try:
                counts = _count(img, truth, check)
            except Exception as exc:  # a refused photo is counted, not a crash of the bench
                counts = {"refused": 1}
                print(f"photo {i} ({kind}), {name}: {exc}")
            totals.setdefault(name, Counter()).update(counts)
            if img is covered:
                by_kind.setdefault(kind, Counter())[f"silent, check {'on' if check else 'off'}"] \
                    += counts.get("silent", 0)
    print(f"{photos} synthetic combo photos (any camera), one thing laid on each, "
          f"{setting.value} setting: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
          + "\n")
    print("| photos | fields | wrong | silent errors | sent to review | cover notes | refused |")
    print("|---|---|---|---|---|---|---|")
    for name, t in totals.items():
        print(f"| {setting.value}: {name} | {t['fields']} | {t['wrong']} | {t['silent']} | "
              f"{100 * t['review'] / max(t['fields'], 1):.2f}% | {t['notes']} | "
              f"{t['refused']} |")
    print(f"\n| thing on the sheet ({setting.value}) | photos | silent errors, check off "
          "| check on |")
    print("|---|---|---|---|")
    for kind, t in sorted(by_kind.items()):
        print(f"| {kind} | {kinds[kind]} | {t['silent, check off']} | {t['silent, check on']} |")


if __name__ == "__main__":
    main()
