"""Fit the sketch reader's thresholds on the ``calib`` setting and write them into
assets/sketches.json: the letter gate, the grouping distance and the group trust.

The calibration players are synthetic (tools/synth/sketches.py, the ``calib`` seeds), never
the benchmark's held-out setting and never the real sketches.

- ``letter_gate``: the "letter" probability a written cell needs to skip the sketch path:
  above every calibration sketch crop's (so no sketch passes as a letter), with a margin.
- ``centres``: each plant's mean look (the network's features) over the calibration
  papers' drawings of it; ``group_on_kind`` and ``group_typical``: floors under which a
  group is not trusted however sure the network is (drawing_groups.GroupRule), a low
  quantile of the rightly read calibration drawings less a margin.
- ``group_distance`` and ``group_trust``: on photographed calibration papers
  (tools/sketch_evidence.py keeps what the reader saw), the pair that leaves no trusted
  drawing wrong and asks the fewest questions, the trust no lower than every wrongly read
  calibration drawing's probability with a margin (``group_trust_floor``).
- ``group_merge``: the widest question join (drawing_groups.GroupRule.merge) that joins
  no two questions about different plants on the calibration papers: a network's looks
  set its own scale of distance.
- ``group_model``: the network these were fitted on; with another network the reader
  trusts no group until this is run again (``--groups-only`` after a retraining).
- ``--no-trust-floor``: the pair is chosen on the groups alone. The floor stands in for
  groups the calibration is too small to show (it was 40 papers); on 800 papers the groups
  show their own errors, while the floor, the single most extreme of 1,379 wrongly read
  drawings plus a margin, would demand 0.999 and ask about five more questions a paper.

    python -m tools.fit_sketches [--papers 40] [--jobs 2] [--cache DIR] [--groups-only]
                                 [--no-trust-floor]

It writes assets/sketches.json (the gate first: the papers are read with it).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

GATE_MARGIN = 0.02
# Questions per paper (median) the chosen setting may ask on the calibration papers: a
# third of the target (3), the rest a margin for players the fit never saw.
QUESTIONS_MEDIAN_BUDGET = 1
DISTANCES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
TRUSTS = (0.9, 0.95, 0.99, 0.995, 0.999, 0.9999)
# Question join distances tried once the distance and trust are chosen (GroupRule.merge)
MERGES = (0.3, 0.35, 0.4, 0.45, 0.5, 0.6)
# Out-of-distribution floors (drawing_groups.GroupRule): the share of the calibration's
# rightly read drawings allowed under a floor, and the margin taken below that quantile
# for drawers the fit never saw.
OOD_QUANTILE = 0.02
OOD_MARGIN = 0.05


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


Row = tuple[float, float, int, int, float, int]


def centres(papers: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Each plant's mean look (unit length) over the calibration drawings of that plant."""
    sums: dict[str, np.ndarray] = {}
    for p in papers:
        for e in p["drawings"].values():
            if e["truth"]:
                f = np.asarray(e["features"], np.float64)
                sums[e["truth"]] = sums.get(e["truth"], 0 * f) + f
    return {k: [round(float(x), 5) for x in v / max(float(np.linalg.norm(v)), 1e-9)]
            for k, v in sorted(sums.items())}


def ood_floors(papers: Sequence[dict[str, Any]], rule: Any) -> tuple[float, float]:
    """``on_kind`` and ``typical`` floors: the OOD_QUANTILE of the calibration drawings
    that would be trusted on their probability alone, less OOD_MARGIN. Drawings the
    network knows pass them; drawings unlike anything it learnt do not."""
    from companion.vision.sheet.drawing_groups import on_kind_mass

    on_kind, typical = [], []
    for p in papers:
        for fid, ev in p["evidence"].items():
            if ev.best == p["drawings"][fid]["truth"]:
                on_kind.append(on_kind_mass(ev))
                typical.append(rule.likeness([ev], ev.best))
    return (round(max(0.0, float(np.quantile(on_kind, OOD_QUANTILE)) - OOD_MARGIN), 3),
            round(float(np.quantile(typical, OOD_QUANTILE)) - OOD_MARGIN, 3))


def trust_floor(papers: Sequence[dict[str, Any]]) -> tuple[float, dict[str, float]]:
    """The least group trust the sweep may choose: above every calibration drawing read
    wrong (its probability of its best plant, the scale a group's probability is on), with
    GATE_MARGIN, as the letter gate is above every calibration sketch. A player's drawings
    of a plant are one drawing made again, so a group is misread as one drawing is; the
    calibration's few groups show too few errors for the trust to be fitted on them alone
    (at trust 0.9 none was wrong, while real players' groups were, at 0.90-0.98)."""
    from companion.vision.sheet.drawing_groups import _read_group

    wrong = [_read_group([ev])[1] for p in papers for fid, ev in p["evidence"].items()
             if ev.best != p["drawings"][fid]["truth"]]
    top = max(wrong, default=0.0)
    return (min(0.999, round(top + GATE_MARGIN, 3)),
            {"max_wrong_drawing": round(top, 4), "wrong_drawings": len(wrong)})


def _judge_rule(papers: Sequence[dict[str, Any]], rule: Any) -> tuple[Any, int]:
    """How ``rule`` groups the papers' drawings (sketch_evidence.judge), and how many are
    left wrong after one answer per question. Without the garden's rules: they split a
    mixed group for players unlike the calibration's, a safety net the fitted values must
    not lean on."""
    from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
    from companion.vision.sheet.drawing_groups import group_drawings
    from tools.sketch_evidence import judge

    choices = {"vegetable": VEGETABLE_PLANTS, "fruit": FRUIT_PLANTS}
    j = judge(papers, lambda ev, _apart: group_drawings(ev, choices, rule))
    return j, j.drawn["all"] - j.right_after["all"] - j.silent["all"]


def sweep(papers: Sequence[dict[str, Any]], base: Any, floor: float = 0.0) -> list[Row]:
    """(distance, trust, silent, left wrong after one answer per question, median questions,
    max questions) for every pair, the OOD floors of ``base`` kept; the trusts at least
    ``floor``, and ``floor`` itself."""
    rows = []
    trusts = sorted({floor, *(t for t in TRUSTS if t >= floor)}) if floor else TRUSTS
    for dist in DISTANCES:
        for trust in trusts:
            j, wrong_after = _judge_rule(papers, replace(base, distance=dist, trust=trust))
            rows.append((dist, trust, j.silent["all"], wrong_after,
                         statistics.median(j.questions), max(j.questions)))
    return rows


def fit_merge(papers: Sequence[dict[str, Any]], rule: Any) -> tuple[float, list[str]]:
    """The widest join in MERGES with no question holding two plants, no silent error and
    nothing wrong after the answers (the rule as chosen; the grouping distance itself, no
    wider join, where none holds), and the lines that show the choice."""
    best, lines = rule.distance, []
    for m in MERGES:
        j, wrong_after = _judge_rule(papers, replace(rule, merge=m))
        lines.append(f"join {m}: {j.mixed} questions mixing plants, {j.silent['all']} silent, "
                     f"{wrong_after} wrong after answers, questions mean "
                     f"{statistics.mean(j.questions):.2f}")
        if j.mixed == 0 and j.silent["all"] == 0 and wrong_after == 0:
            best = max(best, m)
    return best, lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=40)
    ap.add_argument("--crops", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=None,
                    help="the training's crop cache (tools/train_sketches.py --cache)")
    ap.add_argument("--groups-only", action="store_true",
                    help="keep the letter gate; fit only the grouping decision")
    ap.add_argument("--no-trust-floor", action="store_true",
                    help="choose the group trust on the groups alone (a large calibration)")
    args = ap.parse_args(argv)
    from companion.vision.sheet.constants_sketches import SKETCH_META_PATH
    from companion.vision.sheet.drawing_groups import GroupRule
    from companion.vision.sheet.sketch_model import model_fingerprint
    from tools.sketch_evidence import collect, load

    meta = json.loads(SKETCH_META_PATH.read_text())
    facts = meta.get("letter_gate_facts", {})
    if not args.groups_only:
        gate, facts = fit_gate(args.crops, args.jobs, args.cache)
        print(f"letter gate {gate}: {facts}")
        for line in sure_gate_table(args.crops, args.jobs, args.cache, gate):
            print(line)
        meta["letter_gate"] = gate
        SKETCH_META_PATH.write_text(json.dumps(meta, indent=2) + "\n")  # the papers read with it
    papers = load(collect("calib", args.papers, args.jobs))
    drawn = sum(len(p["drawings"]) for p in papers)
    rule = GroupRule(centres=centres(papers))
    on_kind, typical = ood_floors(papers, rule)
    print(f"out-of-distribution floors: on_kind {on_kind}, typical {typical}")
    rule = replace(rule, on_kind=on_kind, typical=typical)
    floor, floor_facts = trust_floor(papers)
    print(f"group trust at least {floor}: {floor_facts}")
    if args.no_trust_floor:
        floor_facts = {**floor_facts, "applied": False}
        print("  (not applied: --no-trust-floor)")
    rows = sweep(papers, rule, 0.0 if args.no_trust_floor else floor)
    for r in rows:
        print(f"distance {r[0]}, trust {r[1]}: {r[2]} silent, {r[3]} wrong after answers, "
              f"questions median {r[4]:g}, max {r[5]}")
    # no silent error and nothing left wrong once every question is answered; then as
    # cautious as the question budget allows (the highest trust; then the fewest questions,
    # and of those the narrowest groups: a wider distance that asks no fewer questions only
    # risks mixing plants for players unlike the calibration's), the fewest questions only
    # where no setting keeps within it
    clean = [r for r in rows if r[2] == 0 and r[3] == 0]
    within = [r for r in clean if r[4] <= QUESTIONS_MEDIAN_BUDGET]
    best = (max(within, key=lambda r: (r[1], -r[4], -r[5], -r[0])) if within
            else min(rows, key=lambda r: (r[2], r[3], r[4], r[5], -r[1])))
    print(f"chosen on {len(papers)} calibration papers ({drawn} drawings): distance "
          f"{best[0]}, trust {best[1]} ({best[2]} silent, {best[3]} wrong after answers, "
          f"questions median {best[4]:g}, max {best[5]})")
    rule = replace(rule, distance=best[0], trust=best[1])
    merge, lines = fit_merge(papers, rule)
    for line in lines:
        print(line)
    print(f"question join {merge}")
    meta.update({"group_distance": best[0], "group_trust": best[1], "group_merge": merge,
                 "group_on_kind": on_kind, "group_typical": typical,
                 "group_model": model_fingerprint(),
                 "centres": rule.centres, "letter_gate_facts": facts,
                 "group_trust_floor": floor_facts,
                 "group_fit": {"papers": len(papers), "drawings": drawn, "silent": best[2],
                               "wrong_after_answers": best[3],
                               "questions_median": best[4], "questions_max": best[5]}})
    SKETCH_META_PATH.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {SKETCH_META_PATH}")


if __name__ == "__main__":
    main()
