"""Benchmark of sketched Delicious sheets: plants drawn, not written, grouped and named.

Papers come from simulated games. Each player sketches most plants and writes the rest as
letters, and draws each plant the same way all game (tools/synth/sketches.py). Two
columns: **real** players redraw, jittered with our pencil model, one real Quick, Draw!
sketch per plant (../shared/data/sketches, measuring only: carrot, broccoli, mushroom,
onion, strawberry, watermelon, blueberry and blackberry for golden raspberry); lettuce,
pepper and fig have no real sketch, so those three come from our generator's held-out
setting and are counted apart. **synthetic** players come wholly from the held-out
setting, which training and calibration never used. Every fourth paper is a garden and a
play sheet photographed apart, so one player's drawings are grouped across two photos.
A third, small column reads the same games written in letters only, for the time. Then
the first ``--second`` players of each sketch column play a second game (the same hand
and sketches, another field map, other photos), read with the drawings named on their
first sheet (every question answered as below, plus the groups trusted): ``--drawings``;
and the same second game again with every drawing made anew from memory (bent, turned and
stretched a little, LATER_DRIFT), since a real player's drawings move between game nights
and the bench's second sheets otherwise redraw the very same sketch.
And the first ``--key`` papers of each sketch column are photographed again with the
player's key drawn (layout version 2: each plant they sketch drawn once more in its box
of the legend), the same papers and photos otherwise.

Columns: fields right with no answer given; silent errors (wrong and not in review);
questions per paper; fields right after every question is answered (each with the plant
most of its fields truly hold, as one tap does) and every other field in review checked;
seconds per photo. Then the taps: the questions answered one at a time, first shown first,
the reading rescored after each (an answer rules its plant out for the player's other
drawings), until none is left; what is then wrong and in no review.

    python -m tools.bench_sketch [--papers 200] [--letters 20] [--second 100] [--key 200]
                                 [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from layouts.constants import LAYOUT_VERSION  # so do they the sheets' layout
from tools.synth.sketches import GENERATOR_VERSION  # the cached photos follow it

OUT_DIR = Path("bench-out/sketch")
PAIR_EVERY = 4
SIZE_PX = 4000
PLANT_KINDS = ("vegetable", "fruit")
SKETCH_SHARE = (0.6, 1.0)  # share of the eleven plants a player sketches
NOT_REAL = ("lettuce", "pepper", "fig")
# A second sitting's game and photo seeds are this far from the first's (other games,
# other photos; the player's hand comes from Paper.seed and stays).
SITTING_GAMES = 500_000
SITTING_SHOTS = 10_000_019
# A second sitting's drawings made again from memory (sketches.redrawn): a bend of 0.06 of the
# drawing's box (a player's whole-shape bend in the train setting is 0 to 0.05), turns up to
# 12 degrees, aspect up to 15%. A judgment, not a measurement: how far real players' drawings
# of a plant move from one game night to the next is not known here.
LATER_DRIFT = 0.06


@dataclass(frozen=True)
class Paper:
    name: str
    game_seed: int
    player: int
    variant: str
    seed: int
    column: str  # real, synthetic, letters (or calib, for tools/fit_sketches.py)
    paired: bool
    # 0: the player's first sheet; 1: the same player (same hand, same plants drawn) in
    # another game, read with the drawings named on the first (--drawings)
    sitting: int = 0
    # the player also draws each plant they sketch once in the sheet's key
    key: bool = False
    # how far the player's drawings moved since the first sitting (sketches.redrawn)
    drift: float = 0.0


def plan(n: int, column: str, base: int = 0, sitting: int = 0, key: bool = False,
         drift: float = 0.0) -> list[Paper]:
    offset = {"real": 0, "synthetic": 5000, "letters": 0, "calib": 9000}[column] + base
    tag = ((f"-s{sitting}" if sitting else "") + ("-k" if key else "")
           + (f"-d{drift:g}" if drift else ""))  # the amount too: photos are cached by name
    return [Paper(f"{column}-{k:03d}{tag}", 70_000 + offset + k // 3 + SITTING_GAMES * sitting,
                  k % 3, "AB"[(k // 3) % 2], offset * 10 + k, column,
                  k % PAIR_EVERY == PAIR_EVERY - 1, sitting, key, drift)
            for k in range(n)]


def _player(paper: Paper) -> Any:
    import numpy as np

    from tools.synth import sketches as S

    rng = np.random.default_rng([paper.seed, 1])
    if paper.column == "letters":
        return None
    share = rng.uniform(*SKETCH_SHARE)
    plants = [p for p in S.PLANTS if rng.random() < share]
    setting = S.Setting.CALIB if paper.column == "calib" else S.Setting.HELDOUT
    real = None
    if paper.column == "real":
        found = S.quickdraw() or {}
        real = {p: found[p][int(rng.integers(len(found[p])))][1] for p in plants if p in found}
    player = S.make_player(rng, setting, plants, real=real)
    return S.redrawn(player, np.random.default_rng([paper.seed, 2]), paper.drift)


def _make(job: tuple[Paper, str]) -> list[str]:
    """Photograph one paper (one combo sheet, or a garden and a play sheet)."""
    paper, out = job
    import cv2

    cv2.setNumThreads(1)
    from companion.games.delicious.simulate import simulate_game
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo

    sheets = ("delicious-garden", "delicious-play") if paper.paired else ("delicious-combo",)
    paths = [Path(out) / f"{paper.name}-{s.split('-')[1]}.jpg" for s in sheets]
    if all(p.exists() and p.with_suffix(".truth.json").exists() for p in paths):
        return [str(p) for p in paths]
    field_map = dict(simulate_game(paper.game_seed, 3, paper.variant).field_maps[paper.player])
    player = _player(paper)
    code = f"{paper.seed % 10000:04d}"
    for k, (sheet, path) in enumerate(zip(sheets, paths, strict=True)):
        shot = paper.seed * 2 + k + SITTING_SHOTS * paper.sitting
        made = render_sheet_photo(sheet, field_map, shot, variant=paper.variant,
                                  camera=CameraOptions().sized(SIZE_PX), code=code,
                                  sketcher=player, key=paper.key)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(made.photo.jpeg)
        truth = made.truth_json()
        truth["paper"] = asdict(paper)
        truth["sources"] = dict(player.sources) if player is not None else {}
        path.with_suffix(".truth.json").write_text(json.dumps(truth, indent=1))
    return [str(p) for p in paths]


@dataclass
class PaperResult:
    column: str
    fields: int = 0
    right: int = 0
    silent: list[str] = field(default_factory=list)
    questions: int = 0
    right_after: int = 0
    seconds: list[float] = field(default_factory=list)
    error: str = ""
    # per kind of cell: drawn from a real sketch, from the generator, written as a letter
    cells: Counter[str] = field(default_factory=Counter)
    cells_right: Counter[str] = field(default_factory=Counter)
    cells_silent: Counter[str] = field(default_factory=Counter)
    group_sizes: list[int] = field(default_factory=list)
    mixed_groups: int = 0
    own_named: int = 0  # groups named by the player's drawings of their first sheet
    key_named: int = 0  # groups named by the player's drawings in their sheet's key
    key_drawn: int = 0  # plants drawn in the key, and taken by the reader
    key_read: int = 0
    # the questions answered one at a time, first shown first, the reading rescored after
    # each (an answer rules its plant out for the player's other drawings): taps until none
    # is left, the fields then wrong and in no review, and right with the rest checked
    taps: int = 0
    taps_silent: list[str] = field(default_factory=list)
    right_after_taps: int = 0
    # the drawings this paper's player has named after it (for their next sheet)
    own: dict[str, Any] | None = None


def _as_dict(res: PaperResult) -> dict[str, Any]:
    """The result as JSON-ready data (asdict would turn a Counter into counts of pairs)."""
    return {**vars(res),
            **{k: dict(v) for k, v in vars(res).items() if isinstance(v, Counter)}}


def _read(job: tuple[Sequence[str], dict[str, Any] | None, bool]) -> dict[str, Any]:
    """Read one paper's photos (with the drawings its player named on an earlier sheet,
    if given) and judge them; ``keep``: also return the drawings named after every
    question is answered (runs in a worker process)."""
    import cv2

    cv2.setNumThreads(1)
    from dataclasses import replace

    from companion.games.delicious.read_table import TableSheet, pair_table
    from companion.vision.sheet.own_drawings import OwnDrawings, named_drawings
    from companion.vision.sheet.reader import read_photo
    from companion.vision.sheet.sketch_model import model_fingerprint

    paths, own_doc, keep = job
    own = OwnDrawings.from_json(own_doc) if own_doc else None

    truths = [json.loads(Path(p).with_suffix(".truth.json").read_text()) for p in paths]
    paper = truths[0]["paper"]
    res = PaperResult(paper["column"])
    try:
        sheets = []
        for photo in paths:
            start = time.process_time()
            sheets.append(replace(read_photo(photo), own_drawings=own))
            res.seconds.append(time.process_time() - start)
    except Exception as exc:  # noqa: BLE001 - a failed photo is a result to report
        res.error = f"{type(exc).__name__}: {exc}"
        return _as_dict(res)
    read = pair_table([TableSheet(i, s) for i, s in enumerate(sheets)]).score()
    if not read.players:
        res.error = "not paired"
        return _as_dict(res)
    p = read.players[0]
    truth: dict[str, str | None] = {}
    kinds: dict[str, str] = {}
    sketched: set[str] = set()
    for t, s in zip(truths, sheets, strict=True):
        for fid in s.readings:
            truth[fid] = t["fields"].get(fid)
        sketched |= set(t["synthetic"].get("sketched", []))
        kinds.update({fid: r.kind.value for fid, r in s.readings.items()})
    sources = truths[0]["sources"]
    readings = p.readings
    review = set(p.review)

    def cell_kind(fid: str) -> str:
        if fid in sketched:
            v = truth[fid] or ""
            return "drawn, generator" if sources.get(v) != "real" else "drawn, real"
        return "letter" if truth[fid] else "empty"

    for fid, want in truth.items():
        got = readings[fid].value
        res.fields += 1
        ok = got == want
        res.right += ok
        if kinds[fid] in PLANT_KINDS:
            ck = cell_kind(fid)
            res.cells[ck] += 1
            res.cells_right[ck] += ok
            if not ok and fid not in review:
                res.cells_silent[ck] += 1
        if not ok and fid not in review:
            res.silent.append(f"{fid}: {want} read {got} ({readings[fid].confidence:.3f})")
    questions = p.questions
    res.questions = len(questions)
    answered: dict[str, str | None] = {}
    for q in questions:
        votes = Counter(truth[f] for f in q["fields"])
        answer = votes.most_common(1)[0][0]
        res.mixed_groups += len(votes) > 1
        answered.update({f: answer for f in q["fields"]})
    for g in p.groups:
        res.group_sizes.append(len(g.fields))
        res.own_named += getattr(g, "own", "") == "earlier"
        res.key_named += getattr(g, "own", "") == "key"
    res.key_drawn = sum(len(t["synthetic"].get("key_drawn", [])) for t in truths)
    res.key_read = len(p.key_plants)
    if keep:
        named = named_drawings(p.corrected(list(answered.items())), model_fingerprint())
        res.own = (own.with_newer(named) if own else named).to_json()
    for fid, want in truth.items():
        if fid in answered:
            got = answered[fid]
        elif fid in review:
            got = want  # every other field in review is checked by hand
        else:
            got = readings[fid].value
        res.right_after += got == want
    _tap_through(res, p, truth)
    return _as_dict(res)


def _tap_through(res: PaperResult, player: Any, truth: dict[str, str | None],
                 most: int = 60) -> None:
    """Answer ``player``'s questions one at a time (the first shown, with the plant most of
    its fields hold), rescoring after each, and note the taps and what is then wrong."""
    while (qs := player.questions) and res.taps < most:
        fields = qs[0]["fields"]
        answer = Counter(truth[f] for f in fields).most_common(1)[0][0]
        player = player.corrected([(f, answer) for f in fields])
        res.taps += 1
    hand = {fid for fid, _ in player.corrections}
    readings, review = player.readings, set(player.review)
    for fid, want in truth.items():
        got = readings[fid].value
        if got != want and fid not in review and fid not in hand:
            res.taps_silent.append(f"{fid}: {want} read {got} "
                                   f"({readings[fid].confidence:.3f})")
        res.right_after_taps += (want if fid in review and fid not in hand else got) == want


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def run(papers: Sequence[Paper], out: Path, jobs: int,
        owns: Sequence[dict[str, Any] | None] | None = None, keep: bool = False
        ) -> list[dict[str, Any]]:
    """Photograph and read ``papers`` (``owns``: each one's player's earlier drawings;
    ``keep``: return the drawings each player named, for a second sitting)."""
    work = [(p, str(out)) for p in papers]
    given = list(owns) if owns is not None else [None] * len(papers)
    if jobs <= 1:
        photos = [_make(w) for w in work]
        return [_read((ph, o, keep)) for ph, o in zip(photos, given, strict=True)]
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        photos = list(pool.map(_make, work, chunksize=1))
        return list(pool.map(_read, [(ph, o, keep) for ph, o in zip(photos, given, strict=True)],
                             chunksize=1))


def column_row(name: str, results: Sequence[dict[str, Any]]) -> list[str]:
    ok = [r for r in results if not r["error"]]
    fields = sum(r["fields"] for r in ok)
    qs = [r["questions"] for r in ok]
    secs = [s for r in ok for s in r["seconds"]]
    return [name, str(len(results)), str(len(results) - len(ok)),
            _pct(sum(r["right"] for r in ok), fields),
            str(sum(len(r["silent"]) for r in ok)),
            f"{statistics.median(qs):g} / {max(qs)}" if qs else "-",
            _pct(sum(r["right_after"] for r in ok), fields),
            f"{statistics.median(secs):.2f}" if secs else "-"]


def taps_row(name: str, results: Sequence[dict[str, Any]]) -> list[str]:
    """Questions asked at first against taps when answered one at a time."""
    ok = [r for r in results if not r["error"]]
    fields = sum(r["fields"] for r in ok)
    qs = [r["questions"] for r in ok]
    taps = [r.get("taps", 0) for r in ok]
    return [name, f"{statistics.median(qs):g} / {max(qs)}" if qs else "-",
            f"{statistics.median(taps):g} / {max(taps)}" if taps else "-",
            f"{statistics.mean(taps):.2f}" if taps else "-",
            str(sum(len(r.get("taps_silent", [])) for r in ok)),
            _pct(sum(r.get("right_after_taps", 0) for r in ok), fields)]


def cell_rows(name: str, results: Sequence[dict[str, Any]]) -> list[list[str]]:
    cells: Counter[str] = Counter()
    right: Counter[str] = Counter()
    silent: Counter[str] = Counter()
    for r in results:
        cells.update(r["cells"])
        right.update(r["cells_right"])
        silent.update(r["cells_silent"])
    return [[name, k, str(cells[k]), _pct(right[k], cells[k]), str(silent[k])]
            for k in ("drawn, real", "drawn, generator", "letter", "empty") if cells[k]]


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=200, help="papers per sketch column")
    ap.add_argument("--letters", type=int, default=20, help="letter-only papers (time)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--details", type=Path, help="write every paper's result here (JSONL)")
    ap.add_argument("--second", type=int, default=100,
                    help="players of each sketch column read again on a second sheet, with "
                         "the drawings named on their first (0: none)")
    ap.add_argument("--key", type=int, default=200,
                    help="papers of each sketch column photographed again with the "
                         "player's key drawn (0: none)")
    ap.add_argument("--calib", type=int, default=0,
                    help="read this many papers of the calib setting (the one the thresholds "
                         "are fitted on, photos shared with tools/sketch_evidence.py) and "
                         "nothing else: the setting to choose on")
    args = ap.parse_args(argv)
    from tools.synth import sketches as S

    out = OUT_DIR / f"v{GENERATOR_VERSION}-layout{LAYOUT_VERSION}"
    if args.calib:
        got = run(plan(args.calib, "calib"), OUT_DIR / f"v{GENERATOR_VERSION}", args.jobs)
        if args.details:
            write_details(args.details, [got])
        print_tables([("calib", "calib setting (fits the thresholds)")], {"calib": got})
        return
    columns: list[tuple[str, str]] = []
    if S.quickdraw() is not None:
        columns.append(("real", "real sketches (+ lettuce, pepper, fig from the generator)"))
    else:
        print("(real sketches not found: the real column is left out)")
    columns.append(("synthetic", "synthetic sketches, held-out setting"))
    columns.append(("letters", "the same games in letters only"))
    results: dict[str, list[dict[str, Any]]] = {}
    for col, _ in columns:
        n = args.letters if col == "letters" else args.papers
        results[col] = run(plan(n, col), out, args.jobs, keep=col != "letters")
    second = min(args.second, args.papers)
    for col, _ in [c for c in columns if c[0] != "letters" and second > 0]:
        owns = [r["own"] for r in results[col][:second]]
        results[f"{col}, first"] = results[col][:second]
        results[f"{col}, second"] = run(plan(second, col, sitting=1), out, args.jobs, owns)
        results[f"{col}, later"] = run(plan(second, col, sitting=1, drift=LATER_DRIFT), out,
                                       args.jobs, owns)
        columns += [(f"{col}, first", f"{col}: the {second} players' first sheets"),
                    (f"{col}, second", f"{col}: the same players' second sheets, with the "
                                       "drawings named on their first"),
                    (f"{col}, later", f"{col}: the same second sheets, every drawing made "
                                      "again from memory (bent, turned, stretched)")]
    keyed = min(args.key, args.papers)
    for col, _ in [c for c in columns if c[0] in ("real", "synthetic") and keyed > 0]:
        results[f"{col}, key"] = run(plan(keyed, col, key=True), out, args.jobs)
        columns.append((f"{col}, key", f"{col}: the first {keyed} papers again, with the "
                                       "player's key drawn"))
    if args.details:
        write_details(args.details, results.values())
    print_tables(columns, results)


def write_details(path: Path, columns: Iterable[list[dict[str, Any]]]) -> None:
    """Every paper's result, one JSON line each (the players' named drawings left out)."""
    with path.open("w") as f:
        for rs in columns:
            for r in rs:
                f.write(json.dumps({k: v for k, v in r.items() if k != "own"}) + "\n")


def print_tables(columns: Sequence[tuple[str, str]],
                 results: dict[str, list[dict[str, Any]]]) -> None:
    tables = (
        (["fields right, no answer", "silent errors", "questions per paper, median / max",
          "right after every answer", "CPU s per photo"], column_row),
        (["questions at first, median / max", "taps answering one at a time, median / max",
          "taps, mean", "silent errors then", "right then, the rest checked"], taps_row))
    for head, make_row in tables:
        heads = ["papers", *(["n", "failed"] if make_row is column_row else []), *head]
        print("| " + " | ".join(heads) + " |")
        print("|" + "---|" * len(heads))
        for col, title in columns:
            print("| " + " | ".join(make_row(title, results[col])) + " |")
        print()
    print("| papers | plant cells | n | right, no answer | silent errors |")
    print("|---|---|---|---|---|")
    for col, _ in columns:
        for row in cell_rows(col, results[col]):
            print("| " + " | ".join(row) + " |")
    for col, _ in columns:
        sizes = [s for r in results[col] for s in r["group_sizes"]]
        mixed = sum(r["mixed_groups"] for r in results[col])
        silent = [s for r in results[col] for s in r["silent"]][:8]
        own = sum(r.get("own_named", 0) for r in results[col])
        key = sum(r.get("key_named", 0) for r in results[col])
        drawn = sum(r.get("key_drawn", 0) for r in results[col])
        taken = sum(r.get("key_read", 0) for r in results[col])
        qs = [r["questions"] for r in results[col] if not r["error"]]
        print(f"\n{col}: questions mean {statistics.mean(qs) if qs else 0:.2f}; "
              f"{len(sizes)} groups (median size "
              f"{statistics.median(sizes) if sizes else 0:g}, {own} named by the player's "
              f"earlier drawings, {key} by their key: {taken} of {drawn} key drawings "
              f"taken), {mixed} questions mixing plants; silent errors e.g. {silent}")


if __name__ == "__main__":
    main()
