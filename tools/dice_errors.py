"""List every die the dice reader gets wrong on the tuning photos (wide and narrow), one
line each: photo, surface, block, lamp, cell, truth, reading, confidence, review, flags;
also every missed die, and every phantom with its reading and whether it is in review.
Saved runs can be compared so a change that puts one wrong die right cannot silently put
another right die wrong (or a phantom out of review).

Photos are rendered once and kept in ``bench-out/dice-errors/photos`` (their JPEG and
truth). Besides the wide and narrow bench photos (any indices, 200 and beyond included)
there are two extra wide-style sets with their own seeds: wood under a warm lamp and
stone; the ``wider`` tuning set (other paints, plastics, pips, lamps and tables); and
``warm-mat``, the wider set's dice on the mat under a warm lamp (its white the paper's);
``pips``, the wider looks with square and drilled pips beside round ones, and
``pips-warm``, those on the mat under a warm lamp; ``satin``, the pips looks with the
satin shading and translucent plastic too; ``two-lamp``, the satin looks under daylight
with a warm lamp across the far side, marbled paint and colour noise; ``--colours`` reads
each wider, pips, satin and two-lamp photo with the colours learnt from its game's full
block.
The held-out settings are for measuring only and are not offered here.

    python -m tools.dice_errors run NAME [--wide 0:200] [--narrow 0:50]
                                           [--warm-wood 0:60] [--stone 0:60]
                                           [--wider 0:100] [--warm-mat 0:90]
                                           [--pips 0:90] [--pips-warm 0:60]
                                           [--satin 0:90] [--two-lamp 0:120]
                                           [--colours]
    python -m tools.dice_errors diff A B
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

OUT_DIR = Path("bench-out/dice-errors")
# extra tuning sets in the wide style, with their own seeds: wood under a warm lamp (where
# orange and red dice come closest) and stone (a dark speckled table); and the wider set's
# dice, paints and cameras on the mat under a warm lamp (the paper's white sure, the lamp
# still warming the dice)
EXTRA_FIRST = {"warm-wood": 50_000, "stone": 60_000, "warm-mat": 80_000,
               "pips-warm": 87_000}
WARM_LAMP_K = (2200.0, 3300.0)
# the sets whose games teach their colours (``--colours``): their photos and full blocks
# are drawn as the bench draws them (tools/bench_dice_vision.py SETTINGS)
TAUGHT = ("wider", "pips", "satin", "two-lamp")


def _span(text: str) -> range:
    a, _, b = text.partition(":")
    return range(int(a), int(b)) if b else range(int(a))


def shots(setting: str, indices: range) -> Iterator[tuple[int, Any, str, str]]:
    """(index, DicePhoto, surface, block kind), rendered once and cached."""
    from tools.synth.dice_photo import DicePhoto

    store = OUT_DIR / "photos"
    store.mkdir(parents=True, exist_ok=True)
    for i in indices:
        path = store / f"{setting}-{i:03d}.pkl"
        if path.exists():
            d = pickle.loads(path.read_bytes())
        else:
            shot, surface, kind = _render(setting, i)
            d = {"jpeg": shot.jpeg, "block": shot.block, "centers": shot.centers_px,
                 "on_mat": shot.on_mat, "pitch": shot.pitch_px, "table": shot.table,
                 "lamp_k": shot.lamp_k, "surface": surface, "kind": kind}
            path.write_bytes(pickle.dumps(d))
        image = np.asarray(cv2.imdecode(np.frombuffer(d["jpeg"], np.uint8), cv2.IMREAD_COLOR))
        shot = DicePhoto(image, d["jpeg"], d["block"], d["centers"], d["on_mat"], d["pitch"],
                         d["table"], d["lamp_k"])
        yield i, shot, d["surface"], d["kind"]


def _render(setting: str, i: int) -> tuple[Any, str, str]:
    from dataclasses import replace

    from tools.bench_dice_vision import BLOCKS, _block, photo
    from tools.synth.dice_photo import render_dice_photo
    from tools.synth.dice_style import PIPS, WIDE, WIDER, draw_look

    if setting not in EXTRA_FIRST:
        return photo(setting, i)
    rng = np.random.default_rng(EXTRA_FIRST[setting] + i)
    kind = BLOCKS[i % len(BLOCKS)]
    if setting in ("warm-mat", "pips-warm"):
        look = draw_look(replace(WIDER if setting == "warm-mat" else PIPS, cct_k=WARM_LAMP_K),
                         rng)
        return render_dice_photo(_block(rng, kind), rng, on_mat=True, look=look), "mat", kind
    if setting == "stone":
        return render_dice_photo(_block(rng, kind), rng, table="stone", style=WIDE), "stone", kind
    style = replace(WIDE, cct_k=(2700.0, 3300.0), wb_correction=(0.35, 0.7))
    return render_dice_photo(_block(rng, kind), rng, table="wood", style=style), "wood", kind


def run(name: str, spans: dict[str, range], colours: bool = False) -> None:
    from companion.errors import ImageError
    from companion.vision.dice.reader import read_dice_image
    from tools.bench_dice_vision import _learnt
    from tools.synth.dice_truth import block_offset, die_right, match_dice, score_reading

    cv2.setNumThreads(1)
    out: dict[str, Any] = {}
    per_set: dict[str, dict[str, int]] = {}
    cpu: list[float] = []
    for setting, indices in spans.items():
        for i, shot, surface, kind in shots(setting, indices):
            mine = per_set.setdefault(setting, _zero())
            key = f"{setting}-{i:03d}"
            info = f"{surface} {kind} {shot.lamp_k:.0f}K"
            taught = colours and setting in TAUGHT
            learnt = _learnt(setting, i) if taught else None
            if taught and learnt is None:
                print(f"{key} {info}: its game's full block taught no colours")
            t0 = time.process_time()
            try:
                reading = read_dice_image(shot.image, learnt)
            except ImageError as exc:
                n = len(shot.block["dice"])
                out[key] = {"info": info, "error": str(exc), "wrong": [], "missed": n}
                mine["dice"] += n
                mine["missed"] += n
                print(f"{key} {info}: UNREAD {exc}")
                continue
            cpu.append(time.process_time() - t0)
            s = score_reading(shot, reading.dice)
            for k, v in (("dice", s.dice), ("ok", s.all_ok), ("silent", s.silent),
                         ("missed", s.missed), ("phantom", s.phantom), ("review", s.review)):
                mine[k] += v
            truth = {(d["row"], d["col"]): d for d in shot.block["dice"]}
            pairs = match_dice(shot, reading.dice)
            offset = block_offset(pairs)
            wrong = []
            for d, t in pairs:
                tr = truth[t]
                if not all(die_right(d, tr, t, offset)):
                    wrong.append({"cell": list(t), "true": f"{tr['ingredient']} {tr['value']}",
                                  "read": f"{d.ingredient.value} {d.value}",
                                  "conf": round(d.confidence, 3), "review": d.review,
                                  "flags": list(d.flags)})
            matched = {t for _, t in pairs}
            missed = sorted(set(truth) - matched)
            paired = {id(d) for d, _ in pairs}
            phantoms = [{"cell": [d.row, d.col], "read": f"{d.ingredient.value} {d.value}",
                         "conf": round(d.confidence, 3), "review": d.review,
                         "flags": list(d.flags)} for d in reading.dice if id(d) not in paired]
            out[key] = {"info": info, "wrong": wrong, "missed": len(missed),
                        "missed_cells": [list(c) for c in missed], "phantom": s.phantom,
                        "phantom_silent": sum(not p["review"] for p in phantoms),
                        "gaps": len(reading.gaps)}
            for w in wrong:
                tag = "review" if w["review"] else "SILENT"
                print(f"{key} {info} {tuple(w['cell'])}: {w['true']} -> {w['read']} "
                      f"conf {w['conf']:.2f} {tag} {','.join(w['flags'])}")
            if missed:
                print(f"{key} {info}: missed {missed}")
            for p in phantoms:
                tag = "review" if p["review"] else "SILENT"
                print(f"{key} {info} {tuple(p['cell'])}: phantom -> {p['read']} "
                      f"conf {p['conf']:.2f} {tag} {','.join(p['flags'])}")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / f"{name}.json").write_text(json.dumps(out, indent=0))
    cpu.sort()
    med = cpu[len(cpu) // 2] if cpu else 0.0
    total = {k: sum(t[k] for t in per_set.values()) for k in _zero()}
    if len(per_set) > 1:
        for setting, t in per_set.items():
            print(f"  {setting}: {_summary(t)}")
    print(f"{name}: {len(out)} photos, {_summary(total)}, median CPU {med:.3f} s")


def _zero() -> dict[str, int]:
    return {"dice": 0, "ok": 0, "silent": 0, "missed": 0, "phantom": 0, "review": 0}


def _summary(t: dict[str, int]) -> str:
    d = max(t["dice"], 1)
    return (f"{t['dice']} dice, fully right {100 * t['ok'] / d:.2f}%, silent {t['silent']}, "
            f"missed {t['missed']}, phantom {t['phantom']}, review {100 * t['review'] / d:.2f}%")


def diff(a: str, b: str) -> int:
    """Dice wrong in B but not in A (newly wrong), and the reverse (put right)."""
    old = json.loads((OUT_DIR / f"{a}.json").read_text())
    new = json.loads((OUT_DIR / f"{b}.json").read_text())
    worse = 0
    for key in sorted(old.keys() & new.keys()):
        x, y = old[key], new[key]

        def cells(r: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
            return {tuple(w["cell"]): w for w in r["wrong"]}

        cx, cy = cells(x), cells(y)
        for c in sorted(cy.keys() - cx.keys()):
            worse += 1
            w = cy[c]
            print(f"NEW WRONG {key} {c}: {w['true']} -> {w['read']} conf {w['conf']} "
                  f"review {w['review']}")
        for c in sorted(cx.keys() - cy.keys()):
            print(f"fixed     {key} {c}: {cx[c]['true']}")
        for c in sorted(cx.keys() & cy.keys()):
            if cx[c]["review"] and not cy[c]["review"]:
                worse += 1
                print(f"NOW SILENT {key} {c}: {cy[c]['true']} -> {cy[c]['read']}")
            elif cx[c]["review"] != cy[c]["review"]:
                print(f"now review {key} {c}")
        if x.get("missed", 0) != y.get("missed", 0):
            worse += y.get("missed", 0) > x.get("missed", 0)
            print(f"missed    {key}: {x.get('missed', 0)} -> {y.get('missed', 0)}")
        if x.get("phantom", 0) != y.get("phantom", 0):
            worse += y.get("phantom", 0) > x.get("phantom", 0)
            print(f"phantom   {key}: {x.get('phantom', 0)} -> {y.get('phantom', 0)}")
        if x.get("phantom_silent", 0) != y.get("phantom_silent", 0):
            worse += y.get("phantom_silent", 0) > x.get("phantom_silent", 0)
            print(f"silent phantom {key}: {x.get('phantom_silent', 0)} -> "
                  f"{y.get('phantom_silent', 0)}")
    print(f"{worse} readings worse")
    return 1 if worse else 0


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.dice_errors",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="read the tuning photos and list every wrong die")
    r.add_argument("name")
    r.add_argument("--wide", default="0:200", help="wide photo indices, as A:B")
    r.add_argument("--narrow", default="0:50", help="narrow photo indices, as A:B")
    r.add_argument("--warm-wood", default="0", help="warm-lamp wood photo indices, as A:B")
    r.add_argument("--stone", default="0", help="stone table photo indices, as A:B")
    r.add_argument("--wider", default="0", help="wider tuning photo indices, as A:B")
    r.add_argument("--warm-mat", default="0", help="warm-lamp mat photo indices, as A:B")
    r.add_argument("--pips", default="0", help="square and drilled pips photo indices, as A:B")
    r.add_argument("--pips-warm", default="0",
                   help="warm-lamp mat photo indices with square and drilled pips, as A:B")
    r.add_argument("--satin", default="0",
                   help="satin shading and translucent plastic photo indices, as A:B")
    r.add_argument("--two-lamp", default="0",
                   help="photos under two lamps with marbled paint and colour noise, as A:B")
    r.add_argument("--colours", action="store_true",
                   help=f"read the {', '.join(TAUGHT)} photos with their game's learnt "
                        "colours")
    d = sub.add_parser("diff", help="compare two saved runs")
    d.add_argument("a")
    d.add_argument("b")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.cmd == "run":
        run(args.name, {"wide": _span(args.wide), "narrow": _span(args.narrow),
                        "warm-wood": _span(args.warm_wood), "stone": _span(args.stone),
                        "wider": _span(args.wider), "warm-mat": _span(args.warm_mat),
                        "pips": _span(args.pips), "pips-warm": _span(args.pips_warm),
                        "satin": _span(args.satin), "two-lamp": _span(args.two_lamp)},
            args.colours)
    else:
        sys.exit(diff(args.a, args.b))


if __name__ == "__main__":
    main()
