"""Diced Veggies photo reader on synthetic photos: per-die accuracy, missed and phantom
dice, silent errors (wrong and not sent to review), seconds per photo, a per-colour
confusion table, and a corpus of inputs that hold no block.

Three settings of the synthetic camera (tools/synth/dice_style.py): ``narrow`` (the
first tuning set), ``wide`` (lamp 2700-6500 K, other dice batches, glare, tilt to 25
degrees, touching or spaced dice, focus blur: tuned on) and ``held-out`` (the wide ranges
with a second shading model and its own seeds: measured only). Photos are spread over the
mat, wood, cloth and stone, and full, cut and restocked blocks. Beyond those, ``unseen``
(issue #29: wider paints, plastics, pips, lamps and tables with the satin shading and
translucent plastic; measured only, though the pips and satin tuning sets of
tools/dice_errors.py have since taught the reader its pip shapes, shading and plastic) and
``mixed`` (the second unseen column, never tuned on: those looks under two lamps of
different colours across the frame, with marbled paint and a phone's colour noise), each
read alone and with the colours learnt from its game's full block. Photos are rendered one at
a time and only the reading is timed; CPU seconds are shown beside wall seconds (on a shared
machine the wall clock mostly measures the neighbours).
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError, ImageError, InputError
from companion.vision.dice.colours import DiceColours, learn_colours
from companion.vision.dice.reader import DiceReading, read_dice_image
from tools.synth.dice_photo import (
    INGREDIENTS,
    DicePhoto,
    random_block,
    render_dice_photo,
    restocked_block,
)
from tools.synth.dice_style import (
    HELD_OUT,
    MIXED,
    NARROW,
    PIPS,
    SATIN,
    TWO_LAMP,
    UNSEEN,
    WIDE,
    WIDER,
    Style,
    draw_look,
)
from tools.synth.dice_truth import (
    MATCH_RADIUS_PITCH,
    ZERO,
    DiceScore,
    match_dice,
    score_reading,
)

SETTINGS: dict[str, tuple[Style, int]] = {
    "narrow": (NARROW, 10_000),
    "wide": (WIDE, 20_000),
    "held-out": (HELD_OUT, 90_000),
    "wider": (WIDER, 40_000),
    "pips": (PIPS, 85_000),  # tuning only (tools/dice_errors.py): square and drilled pips
    "satin": (SATIN, 89_000),  # tuning only: satin shading and translucent plastic too
    "two-lamp": (TWO_LAMP, 95_000),  # tuning only: two lamps, marbled paint, colour noise
    "unseen": (UNSEEN, 700_000),
    "mixed": (MIXED, 800_000),  # measured only: the second unseen column
}
SURFACES = ("mat", "wood", "cloth", "stone")
WIDER_SURFACES = ("mat", "wood", "paper", "cloth", "stone")
ALL_SURFACES = ("mat", "wood", "paper", "cloth", "stone")
LEARNT = "+colours"  # a setting's name with this: read with its game's learnt colours
BLOCKS = ("full", "cut", "restocked")
# drawn as one Look per game, on every surface
LOOK_STYLES = (WIDER, PIPS, SATIN, TWO_LAMP, UNSEEN, MIXED)
# the first generator's restocked blocks (any mix of 35 dice), for comparing with its figures
BAG_MIX = os.environ.get("COMPANION_BENCH_BAG_MIX") == "1"


@dataclass
class Tally:
    score: DiceScore = ZERO
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    unread: int = 0
    photos: int = 0
    gap_missed: int = 0  # missed dice whose cell the reading lists as a gap
    gap_empty: int = 0  # gaps where no die stands
    untaught: int = 0  # +colours: games whose full block taught no colours (read alone)


def _block(rng: np.random.Generator, kind: str, bag_mix: bool = BAG_MIX) -> dict[str, object]:
    if kind == "cut":
        return random_block(rng, irregular=True)
    if kind == "restocked":
        # the spent and leftover dice rolled back and settled into a corner: at most the
        # box's 7 of each ingredient (until 2026-12-03 any mix of 35, which the game's 35
        # dice, 7 of each, cannot make; ``bag_mix_block`` keeps that for comparison)
        return bag_mix_block(rng) if bag_mix else restocked_block(rng)
    return random_block(rng)


def bag_mix_block(rng: np.random.Generator) -> dict[str, object]:
    """The first generator's "restocked" block: 35 dice of any mix of ingredients."""
    block = random_block(rng)
    for d in block["dice"]:
        d["ingredient"] = INGREDIENTS[int(rng.integers(len(INGREDIENTS)))]
    return block


def _surfaces(style: Style) -> tuple[str, ...]:
    return WIDER_SURFACES if style in LOOK_STYLES else SURFACES


def photo(setting: str, i: int, bag_mix: bool = BAG_MIX) -> tuple[DicePhoto, str, str]:
    """Photo ``i`` of a setting (``bag_mix``: a restocked block as the first generator drew
    it, 35 dice of any mix)."""
    style, first = SETTINGS[setting]
    rng = np.random.default_rng(first + i)
    surfaces = _surfaces(style)
    surface = surfaces[i % len(surfaces)]
    kind = BLOCKS[(i // len(surfaces)) % len(BLOCKS)]
    on_mat = surface == "mat"
    table = None if on_mat else surface
    if style in LOOK_STYLES:
        look = draw_look(style, rng)
        shot = render_dice_photo(_block(rng, kind, bag_mix), rng, on_mat=on_mat, table=table,
                                 look=look)
    else:
        shot = render_dice_photo(
            _block(rng, kind, bag_mix), rng, on_mat=on_mat, table=table,
            style=None if style is NARROW else style,
        )
    return shot, surface, kind


def game_start(setting: str, i: int) -> DicePhoto:
    """The full starting block of photo ``i``'s game: the same dice, lamp, camera and kind
    of table, a block of its own (7 of each ingredient) on a seed of its own."""
    style, first = SETTINGS[setting]
    rng = np.random.default_rng(first + i)
    surfaces = _surfaces(style)
    surface = surfaces[i % len(surfaces)]
    look = draw_look(style, rng)
    start = np.random.default_rng((first + i, 1))
    return render_dice_photo(random_block(start), start, on_mat=surface == "mat",
                             table=None if surface == "mat" else surface, look=look)


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.2f}%" if d else "-"


Confusion = Counter[tuple[str, str, bool]]  # (true, read, in review) -> dice


def _learnt(setting: str, i: int) -> DiceColours | None:
    """The colours learnt from photo ``i``'s game start (None when it would not teach:
    no block found, or not read as 7 dice of each ingredient)."""
    start = game_start(setting, i)
    try:
        return learn_colours(read_dice_image(start.image))
    except InputError:
        return None


Results = tuple[dict[str, Tally], Confusion]


def run_setting(setting: str, count: int, first: int = 0) -> Results:
    groups: dict[str, Tally] = {}
    confusion: Confusion = Counter()
    learnt = setting.endswith(LEARNT)
    setting = setting.removesuffix(LEARNT)
    for i in range(first, first + count):
        shot, surface, kind = photo(setting, i)
        colours = _learnt(setting, i) if learnt else None
        if learnt and colours is None:
            for k in ("all", surface, kind):
                groups.setdefault(k, Tally()).untaught += 1
        light = "lamp" if shot.lamp_k < 4000 else "daylight"
        keys = ("all", surface, kind, light)
        for k in keys:
            groups.setdefault(k, Tally()).photos += 1
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            reading = read_dice_image(shot.image, colours)
        except ImageError:
            n = len(shot.block["dice"])
            for k in keys:
                groups[k].unread += 1
                groups[k].score = groups[k].score + DiceScore(n, 0, 0, 0, n, 0, 0, 0)
            continue
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        s = score_reading(shot, reading.dice)
        for k in keys:
            groups[k].score = groups[k].score + s
            groups[k].seconds.append(wall)
            groups[k].cpu.append(cpu)
        truth = {(d["row"], d["col"]): d for d in shot.block["dice"]}
        matched = match_dice(shot, reading.dice)
        found, empty = _gap_hits(shot, reading, {cell for _, cell in matched})
        for k in keys:
            groups[k].gap_missed += found
            groups[k].gap_empty += empty
        for d, cell in matched:
            confusion[(truth[cell]["ingredient"], d.ingredient.value, d.review)] += 1
    return groups, confusion


def _gap_hits(
    shot: DicePhoto, reading: DiceReading, read: set[tuple[int, int]]
) -> tuple[int, int]:
    """Gaps standing on a true die the reading missed (``read``: the true cells its dice
    matched), and gaps with no die under them."""
    radius = MATCH_RADIUS_PITCH * (shot.pitch_px or 50.0)
    found = empty = 0
    for g in reading.gaps:
        near = [c for c, xy in shot.centers_px.items() if math.dist(xy, g.center_px) <= radius]
        if any(c not in read for c in near):
            found += 1
        elif not near:
            empty += 1
    return found, empty


def _row(label: str, t: Tally) -> str:
    s = t.score
    med = f"{statistics.median(t.seconds):.3f}" if t.seconds else "-"
    med_cpu = f"{statistics.median(t.cpu):.3f}" if t.cpu else "-"
    return (f"| {label} ({t.photos}) | {s.dice} | {_pct(s.ingredient_ok, s.dice)} | "
            f"{_pct(s.value_ok, s.dice)} | {_pct(s.all_ok, s.dice)} | {s.missed} | "
            f"{t.gap_missed} | {t.gap_empty} | {s.phantom} | {s.silent} | "
            f"{_pct(s.review, s.dice)} | {t.unread} | {med} | {med_cpu} |")


def merged(parts: list[dict[str, Results]]) -> dict[str, Results]:
    """Results of one bench run in parts (``--first``, ``--save``), added up per setting
    and group, the settings in the order they first appear."""
    out: dict[str, Results] = {}
    for part in parts:
        for name, (groups, confusion) in part.items():
            have, conf = out.setdefault(name, ({}, Counter()))
            conf.update(confusion)
            for key, t in groups.items():
                h = have.setdefault(key, Tally())
                h.score = h.score + t.score
                h.seconds += t.seconds
                h.cpu += t.cpu
                h.unread += t.unread
                h.photos += t.photos
                h.gap_missed += t.gap_missed
                h.gap_empty += t.gap_empty
                h.untaught += t.untaught
    return out


def accuracy_tables(results: dict[str, Results]) -> None:
    names = list(results)
    print("Side by side (dice fully right; silent errors; median CPU s/photo):\n")
    print("| group | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for key in ("all", *ALL_SURFACES, *BLOCKS, "lamp", "daylight"):
        cells = []
        for name in names:
            t = results[name][0].get(key)
            if t is None:
                cells.append("-")
                continue
            med = f"{statistics.median(t.cpu):.2f}" if t.cpu else "-"
            cells.append(f"{_pct(t.score.all_ok, t.score.dice)}; {t.score.silent}; {med}")
        print(f"| {key} | " + " | ".join(cells) + " |")
    for name in names:
        groups, confusion = results[name]
        print(f"\n### {name}\n")
        if name.endswith(LEARNT):
            print(f"Games whose full block taught no colours (those photos read alone): "
                  f"{groups['all'].untaught} of {groups['all'].photos}\n")
        print("| photos | dice | ingredient | pips | fully right | missed | missed at a gap | "
              "gaps with no die | phantom | silent errors | sent to review | unread photos | "
              "median s/photo | median CPU s/photo |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for key in ("all", *ALL_SURFACES, *BLOCKS, "lamp", "daylight"):
            if key in groups:
                print(_row(key, groups[key]))
        print(f"\nColour read for each true colour ({name}; `n (r in review)`):\n")
        print("| true \\ read | " + " | ".join(INGREDIENTS) + " |")
        print("|---|" + "---|" * len(INGREDIENTS))
        for true in INGREDIENTS:
            cells = []
            for read in INGREDIENTS:
                n = confusion[(true, read, False)] + confusion[(true, read, True)]
                r = confusion[(true, read, True)]
                cells.append(f"{n} ({r})" if r else str(n))
            print(f"| {true} | " + " | ".join(cells) + " |")
        pair_table(name, confusion)


def pair_table(name: str, confusion: Confusion) -> None:
    """Each pair of colour families: dice of one read as the other, how many of those
    went to review, and how many were silent (wrong and not in review)."""
    print(f"\nColour pairs ({name}): dice of one family read as the other\n")
    print("| pair | a read as b | b read as a | in review | silent |")
    print("|---|---|---|---|---|")
    for i, a in enumerate(INGREDIENTS):
        for b in INGREDIENTS[i + 1 :]:
            ab = confusion[(a, b, False)] + confusion[(a, b, True)]
            ba = confusion[(b, a, False)] + confusion[(b, a, True)]
            rev = confusion[(a, b, True)] + confusion[(b, a, True)]
            print(f"| {a} / {b} | {ab} | {ba} | {rev} | {ab + ba - rev} |")


# ---- inputs with no block -------------------------------------------------------------------


def _shared_photos() -> list[Path]:
    from tools.synth.shared_data import shared_data

    folder = shared_data("photos", "omrchecker")
    return sorted(folder.glob("*.jpg")) if folder else []


def _white_dice(seed: int, table: str) -> np.ndarray:
    from tools.synth import dice_constants as K

    saved = K.DIE_COLOURS_RGB
    K.DIE_COLOURS_RGB = {k: (238, 236, 230) for k in saved}  # type: ignore[misc]
    try:
        rng = np.random.default_rng(seed)
        return render_dice_photo(random_block(rng, irregular=True), rng, table=table,
                                 dark_pips=True).image
    finally:
        K.DIE_COLOURS_RGB = saved  # type: ignore[misc]


def _hand_over_block(seed: int) -> np.ndarray:
    """A block photo with a skin-coloured hand (palm and fingers) covering half of it."""
    rng = np.random.default_rng(seed)
    shot = render_dice_photo(random_block(rng), rng, table="wood", style=WIDE)
    img = shot.image.copy()
    xs = [x for x, _ in shot.centers_px.values()]
    ys = [y for _, y in shot.centers_px.values()]
    cx, cy = float(np.mean(xs)), float(np.mean(ys))
    w = max(xs) - min(xs)
    hand = np.zeros(img.shape[:2], np.uint8)
    palm = (int(cx - w * 0.25), int(cy))
    cv2.ellipse(hand, palm, (int(w * 0.3), int(w * 0.32)), 0, 0, 360, 1, -1)
    for k in range(4):
        y = int(cy - w * 0.25 + k * w * 0.16)
        cv2.line(hand, (int(cx - w * 0.3), y), (int(cx + w * 0.25), y), 1, int(w * 0.1))
    cv2.rectangle(hand, (0, int(cy - w * 0.2)), (int(cx - w * 0.4), int(cy + w * 0.2)), 1, -1)
    shade = cv2.GaussianBlur(hand.astype(np.float32), (0, 0), w * 0.05)
    skin = np.array([130, 160, 215], np.float32)  # BGR
    tex = skin * (0.85 + 0.25 * shade[..., None])
    m = cv2.GaussianBlur(hand.astype(np.float32), (0, 0), 2.0)[..., None]
    return np.clip(img * (1 - m) + tex * m, 0, 255).astype(np.uint8)


def bad_inputs() -> Iterator[tuple[str, np.ndarray | Path]]:
    rng = np.random.default_rng(3)
    yield "blank white 1600x1200", np.full((1200, 1600, 3), 245, np.uint8)
    yield "blank black 1600x1200", np.full((1200, 1600, 3), 12, np.uint8)
    yield "colour noise 1600x1200", rng.integers(0, 256, (1200, 1600, 3)).astype(np.uint8)
    yield "smooth colour noise", cv2.resize(
        rng.integers(0, 256, (12, 16, 3)).astype(np.uint8), (1600, 1200),
        interpolation=cv2.INTER_CUBIC)
    yield "empty wood table", render_dice_photo({"dice": []}, 4, table="wood").image
    yield "empty mat", render_dice_photo({"dice": []}, 5, on_mat=True).image
    examples = Path(__file__).resolve().parents[1] / "examples"
    for p in sorted((examples / "delicious/photos").glob("*.jpg")):
        yield f"our sheet: {p.name}", p
    combo = cv2.imread(str(examples / "delicious/photos/combo-good-light.jpg"))
    if combo is not None:
        h, w = combo.shape[:2]
        yield "crop of a Delicious sheet", np.ascontiguousarray(
            combo[h // 5 : 4 * h // 5, w // 5 : 4 * w // 5])
    yield "white dice on wood", _white_dice(11, "wood")
    yield "white dice on stone", _white_dice(12, "stone")
    yield "hand over half the block", _hand_over_block(13)
    for p in _shared_photos():
        yield f"document photo: {p.name}", p


def bad_input_table() -> None:
    from companion.vision.dice.reader import read_dice_photo

    print("\nInputs that hold no block (or half of one): the answer and its time.\n")
    print("| input | answer | wall s | CPU s |")
    print("|---|---|---|---|")
    for name, item in bad_inputs():
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            if isinstance(item, Path):
                r = read_dice_photo(item)
            else:
                r = read_dice_image(item)
            answer = f"read {len(r.dice)} dice, {len(r.review)} in review (exit 0)"
        except CompanionError as exc:
            msg = str(exc).split(": ", 1)[-1] if isinstance(item, Path) else str(exc)
            answer = f"{msg} (exit {exc.exit_code})"
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(f"| {name} | {answer} | {wall:.2f} | {cpu:.2f} |")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.bench dice_vision",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--narrow", type=int, default=50, help="photos of the first tuning set")
    ap.add_argument("--wide", type=int, default=50, help="photos of the wide tuning set")
    ap.add_argument("--held-out", type=int, default=200, help="photos of the held-out set")
    ap.add_argument("--wider", type=int, default=0,
                    help="photos of the wider tuning set (single photo and learnt colours)")
    ap.add_argument("--unseen", type=int, default=200,
                    help="photos of the unseen held-out set (single photo and learnt colours)")
    ap.add_argument("--mixed", type=int, default=200,
                    help="photos of the mixed-light held-out set (the second unseen column; "
                         "single photo and learnt colours)")
    ap.add_argument("--single-only", action="store_true",
                    help="leave out the +colours columns")
    ap.add_argument("--learnt-only", action="store_true",
                    help="leave out the single-photo wider, unseen and mixed columns (the +colours "
                         "ones alone, say to run them beside the others on a second core)")
    ap.add_argument("--no-bad", action="store_true", help="skip the no-block corpus")
    ap.add_argument("--first", type=int, default=0,
                    help="first photo index of every setting (a part of a run; with --save)")
    ap.add_argument("--save", type=Path, help="keep this part's results in FILE (pickle)")
    ap.add_argument("--merge", type=Path, nargs="+",
                    help="print the tables of parts saved with --save, added up; runs nothing")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    taught = {"wider": args.wider, "unseen": args.unseen, "mixed": args.mixed}
    counts = {"narrow": args.narrow, "wide": args.wide, "held-out": args.held_out}
    if not args.learnt_only:
        counts |= taught
    if not args.single_only:
        counts |= {f"{k}{LEARNT}": v for k, v in taught.items()}
    if args.merge:
        accuracy_tables(merged([pickle.loads(p.read_bytes()) for p in args.merge]))
        return
    results = {name: run_setting(name, n, args.first) for name, n in counts.items() if n > 0}
    if args.save:
        args.save.write_bytes(pickle.dumps(results))
    accuracy_tables(results)
    if not args.no_bad:
        bad_input_table()


if __name__ == "__main__":
    main()
