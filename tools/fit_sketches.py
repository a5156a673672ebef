"""Fit the sketch reader's thresholds on the ``calib`` setting and write them into
assets/sketches.json: the letter gate, the grouping distance and the group trust.

The calibration players are synthetic (tools/synth/sketches.py, the ``calib`` seeds), never
the benchmark's held-out setting and never the real sketches.

- ``letter_gate``: the "letter" probability a written cell needs to skip the sketch path:
  above every calibration sketch crop's (so no sketch passes as a letter), with a margin.
- ``group_distance`` and ``group_trust``: on photographed calibration papers, the pair
  that leaves no trusted drawing wrong and asks the fewest questions.

    python -m tools.fit_sketches [--papers 40] [--jobs 2] [--cache DIR]

It writes assets/sketches.json (the gate first: the papers are read with it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from tools.bench_sketch import GENERATOR_VERSION, OUT_DIR, _make, plan

GATE_MARGIN = 0.02
# Questions per paper (median) the chosen setting may ask on the calibration papers: a
# third of the target (3), the rest a margin for players the fit never saw.
QUESTIONS_MEDIAN_BUDGET = 1
DISTANCES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
TRUSTS = (0.9, 0.95, 0.99, 0.995, 0.999, 0.9999)


def fit_gate(n: int, workers: int, cache: Path | None) -> tuple[float, dict[str, float]]:
    """The gate from calibration crops: every sketch crop below it."""
    from companion.vision.sheet.constants_sketches import LETTER_CLASS, SKETCH_CLASSES
    from companion.vision.sheet.sketch_model import SketchClassifier
    from tools.synth.sketches import Setting
    from tools.train_sketches import SEEDS, make_set

    x, y = make_set(SEEDS[Setting.CALIB], n, Setting.CALIB, workers, cache)
    s = SketchClassifier.load().scores(x)
    li = SKETCH_CLASSES.index(LETTER_CLASS)
    pl = s.probs[:, li]
    sketch = y != li
    top = float(pl[sketch].max())
    gate = min(0.999, round(top + GATE_MARGIN, 3))
    return gate, {"max_sketch_p_letter": round(top, 4),
                  "letters_passing": round(float((pl[~sketch] >= gate).mean()), 4)}


def sure_gate_table(n: int, workers: int, cache: Path | None, gate: float) -> list[str]:
    """How many calibration crops pass the second gate (the sketch network's "letter" at
    least g and the letter reader at least LETTER_SURE_READ sure): the figures behind
    constants_sketches.LETTER_SURE_GATE."""
    from companion.vision.sheet.constants_letters import FIELD_LETTERS
    from companion.vision.sheet.constants_sketches import (
        LETTER_CLASS,
        LETTER_SURE_READ,
        SKETCH_CLASSES,
        VEGETABLE_PLANTS,
    )
    from companion.vision.sheet.letters import LetterClassifier
    from companion.vision.sheet.sketch_model import SketchClassifier
    from tools.synth.sketches import Setting
    from tools.train_sketches import SEEDS, make_set

    li = SKETCH_CLASSES.index(LETTER_CLASS)
    x, y = make_set(SEEDS[Setting.CALIB], n, Setting.CALIB, workers, cache)
    pl = SketchClassifier.load().scores(x).probs[:, li]
    kinds = ["vegetable" if (c != li and SKETCH_CLASSES[c] in VEGETABLE_PLANTS)
             or (c == li and i % 2 == 0) else "fruit" for i, c in enumerate(y)]
    ranked = LetterClassifier.load().rank(x, [list(FIELD_LETTERS[k]) for k in kinds])
    top = np.array([r[0][1] if r else 0.0 for r in ranked])
    sketch = y != li
    out = []
    for g in (0.1, 0.2, 0.3, 0.5, 0.7):
        passing = (pl >= gate) | ((pl >= g) & (top >= LETTER_SURE_READ))
        out.append(f"second gate {g}: {int(passing[sketch].sum())} of {int(sketch.sum())} "
                   f"sketch crops pass, {passing[~sketch].mean():.1%} of letter crops")
    return out


def _evidence(paths: Sequence[str]) -> dict[str, Any]:
    """One calibration paper's drawings (evidence and truth), read with the gate fitted."""
    import cv2

    cv2.setNumThreads(1)
    from companion.vision.sheet.reader import FieldReading, read_photo

    out: dict[str, Any] = {}
    for p in paths:
        truth = json.loads(Path(p).with_suffix(".truth.json").read_text())["fields"]
        for fid, r in read_photo(p).readings.items():
            if isinstance(r, FieldReading) and r.drawing is not None:
                d = r.drawing
                out[fid] = {"kind": d.kind, "plants": d.plants, "p_written": d.p_written,
                            "p_letter": d.p_letter, "features": d.features.tolist(),
                            "truth": truth.get(fid)}
    return out


Row = tuple[float, float, int, int, float, int]


def sweep(papers: list[dict[str, Any]]) -> list[Row]:
    """(distance, trust, silent, left wrong after one answer per question, median questions,
    max questions) for every pair."""
    from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
    from companion.vision.sheet.drawing_groups import DrawingEvidence, group_drawings

    choices = {"vegetable": VEGETABLE_PLANTS, "fruit": FRUIT_PLANTS}
    players = [{fid: DrawingEvidence(e["kind"], tuple(tuple(c) for c in e["plants"]),
                                     e["p_written"], e["p_letter"],
                                     np.asarray(e["features"], np.float32))
                for fid, e in ev.items()} for ev in papers]
    rows = []
    for dist in DISTANCES:
        for trust in TRUSTS:
            silent, mixed, qs = 0, 0, []
            for ev, raw in zip(players, papers, strict=True):
                groups = group_drawings(ev, choices, dist, trust) if ev else []
                qs.append(sum(not g.trusted for g in groups))
                silent += sum(raw[f]["truth"] != g.guess for g in groups if g.trusted
                              for f in g.fields)
                for g in groups:
                    if not g.trusted:  # one answer: the plant most of its fields hold
                        votes = Counter(raw[f]["truth"] for f in g.fields)
                        mixed += len(g.fields) - votes.most_common(1)[0][1]
            rows.append((dist, trust, silent, mixed, statistics.median(qs), max(qs)))
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=40)
    ap.add_argument("--crops", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=None,
                    help="the training's crop cache (tools/train_sketches.py --cache)")
    args = ap.parse_args(argv)
    from companion.vision.sheet.constants_sketches import SKETCH_META_PATH

    gate, facts = fit_gate(args.crops, args.jobs, args.cache)
    print(f"letter gate {gate}: {facts}")
    for line in sure_gate_table(args.crops, args.jobs, args.cache, gate):
        print(line)
    meta = json.loads(SKETCH_META_PATH.read_text())
    meta["letter_gate"] = gate
    SKETCH_META_PATH.write_text(json.dumps(meta, indent=2) + "\n")  # the papers read with it
    out = OUT_DIR / f"v{GENERATOR_VERSION}"
    work = [(p, str(out)) for p in plan(args.papers, "calib")]
    # spawned, not forked: this process has run OpenCV's network (its threads)
    with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        photos = list(pool.map(_make, work, chunksize=1))
        papers = list(pool.map(_evidence, photos, chunksize=1))
    drawn = sum(len(p) for p in papers)
    rows = sweep(papers)
    for r in rows:
        print(f"distance {r[0]}, trust {r[1]}: {r[2]} silent, {r[3]} wrong after answers, "
              f"questions median {r[4]:g}, max {r[5]}")
    # no silent error and nothing left wrong once every question is answered; then as
    # cautious as the question budget allows (the highest trust, then the widest groups),
    # the fewest questions only where no setting keeps within it
    clean = [r for r in rows if r[2] == 0 and r[3] == 0]
    within = [r for r in clean if r[4] <= QUESTIONS_MEDIAN_BUDGET]
    best = (max(within, key=lambda r: (r[1], r[0])) if within
            else min(rows, key=lambda r: (r[2], r[3], r[4], r[5], -r[1])))
    print(f"chosen on {len(papers)} calibration papers ({drawn} drawings): distance "
          f"{best[0]}, trust {best[1]} ({best[2]} silent, {best[3]} wrong after answers, "
          f"questions median {best[4]:g}, max {best[5]})")
    meta.update({"group_distance": best[0], "group_trust": best[1],
                 "letter_gate_facts": facts,
                 "group_fit": {"papers": len(papers), "drawings": drawn, "silent": best[2],
                               "wrong_after_answers": best[3],
                               "questions_median": best[4], "questions_max": best[5]}})
    SKETCH_META_PATH.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {SKETCH_META_PATH}")


if __name__ == "__main__":
    main()
