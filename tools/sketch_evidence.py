"""What the sheet reader saw in each drawn cell of the sketch bench's papers, kept as JSON
lines, so the grouping decision (drawing_groups.py) can be fitted and checked in seconds
instead of reading the photos again.

One line per paper (a player's combo photo, or garden and play photos read together):
``{"paper": name, "column": c, "drawings": {field: {"kind", "plants", "p_written",
"p_letter", "features", "network", "truth", "source"}}}``; ``source`` is "real" for a
drawing redrawn from a real sketch, else "generator". The papers are the bench's
(tools/bench_sketch.py plan and photos): the ``calib`` column fits thresholds
(tools/fit_sketches.py), the ``real`` and ``synthetic`` columns only check them.

    python -m tools.sketch_evidence COLUMN [--papers 40] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tools.bench_sketch import GENERATOR_VERSION, OUT_DIR, _make, plan

EVIDENCE_DIR = Path("bench-out/sketch-evidence")


def paper_evidence(paths: Sequence[str]) -> dict[str, Any]:
    """One paper's drawings with their truth (runs in a worker process)."""
    import cv2

    cv2.setNumThreads(1)
    from companion.vision.sheet.reader import FieldReading, read_photo

    drawings: dict[str, Any] = {}
    paper: dict[str, Any] = {}
    for p in paths:
        t = json.loads(Path(p).with_suffix(".truth.json").read_text())
        paper = t["paper"]
        for fid, r in read_photo(p).readings.items():
            if isinstance(r, FieldReading) and r.drawing is not None:
                d = r.drawing
                want = t["fields"].get(fid)
                drawings[fid] = {
                    "kind": d.kind, "plants": d.plants, "p_written": d.p_written,
                    "p_letter": d.p_letter, "features": [round(float(v), 5) for v in d.features],
                    "network": [round(v, 6) for v in d.network], "truth": want,
                    "source": "real" if t["sources"].get(want or "") == "real" else "generator"}
    return {"paper": paper.get("name", ""), "column": paper.get("column", ""),
            "variant": paper.get("variant", "A"), "drawings": drawings}


def collect(column: str, n: int, jobs: int) -> Path:
    """The evidence of the column's first ``n`` papers (read once, then kept)."""
    from companion.vision.sheet.sketch_model import model_fingerprint

    # what the reader saw depends on the photos and on the network that saw them
    path = EVIDENCE_DIR / f"v{GENERATOR_VERSION}-{model_fingerprint()}-{column}-{n}.jsonl"
    if path.exists():
        return path
    out = OUT_DIR / f"v{GENERATOR_VERSION}"
    work = [(p, str(out)) for p in plan(n, column)]
    # spawned, not forked: the caller may have run OpenCV's network (its threads)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        photos = list(pool.map(_make, work, chunksize=1))
        papers = list(pool.map(paper_evidence, photos, chunksize=1))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(p) + "\n" for p in papers))
    return path


def load(path: Path) -> list[dict[str, Any]]:
    """The papers of an evidence file, each drawing's evidence as a DrawingEvidence
    (``"evidence"``) beside its truth and source, and the cells its garden's rules keep
    apart (``"apart"``)."""
    from companion.games.delicious.garden import garden
    from companion.vision.sheet.drawing_groups import DrawingEvidence

    papers = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for p in papers:
        p["apart"] = garden(p.get("variant", "A")).apart()
        p["evidence"] = {
            fid: DrawingEvidence(e["kind"], tuple((c, float(q)) for c, q in e["plants"]),
                                 e["p_written"], e["p_letter"],
                                 np.asarray(e["features"], np.float32),
                                 tuple(e.get("network", ())))
            for fid, e in p["drawings"].items()}
    return papers


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("column", choices=("calib", "real", "synthetic"))
    ap.add_argument("--papers", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    print(collect(args.column, args.papers, args.jobs))



@dataclass
class Judged:
    """How a grouping decision does on drawn cells: all, and those from real sketches."""

    drawn: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    silent: Counter[str] = field(default_factory=Counter)
    right_after: Counter[str] = field(default_factory=Counter)
    questions: list[int] = field(default_factory=list)
    mixed: int = 0

    def row(self, source: str = "all") -> str:
        n = self.drawn[source]
        qs = self.questions
        return (f"{n} drawn, {self.right[source] / max(n, 1):.1%} right with no answer, "
                f"{self.silent[source]} silent, {self.right_after[source] / max(n, 1):.1%} "
                f"right after every answer; questions median "
                f"{statistics.median(qs) if qs else 0:g} / max {max(qs) if qs else 0}, "
                f"{self.mixed} mixing plants")


Grouper = Callable[[Mapping[str, Any], frozenset[frozenset[str]]], Sequence[Any]]


def judge(papers: Sequence[Mapping[str, Any]], grouper: Grouper) -> Judged:
    """Each question answered with the plant most of its fields hold (one tap), as the
    bench does; a trusted group's fields are taken as they are."""
    out = Judged()
    for p in papers:
        raw = p["drawings"]
        groups = grouper(p["evidence"], p.get("apart", frozenset())) if raw else []
        out.questions.append(sum(not g.trusted for g in groups))
        for g in groups:
            truths = [raw[f]["truth"] for f in g.fields]
            answer = Counter(truths).most_common(1)[0][0]
            out.mixed += (not g.trusted) and len(set(truths)) > 1
            for f, want in zip(g.fields, truths, strict=True):
                for src in ("all", raw[f]["source"]):
                    out.drawn[src] += 1
                    ok = g.guess == want
                    out.right[src] += g.trusted and ok
                    out.silent[src] += g.trusted and not ok
                    out.right_after[src] += ok if g.trusted else answer == want
    return out


if __name__ == "__main__":
    main()
