"""Benchmark of the Delicious photo reader on synthetic phone photos.

Photos come from simulated games, filled in with handwriting fonts never used to train
the letter classifier, and are photographed by the virtual camera at 12 MP. Most are
combo sheets (garden and play on one page); the rest are a player's garden and play
sheets photographed separately, their readings merged per player. Each sheet covers a
third of the frame's area or more, as the reader promises; a small stress set of sheets
covering less is read and reported in its own column. Our reader reads every photo; the
slow tesseract baseline reads the first few, and the table compares both on those same
photos. Honey is circled on some papers although random play never earns it,
so the honey reading is measured too. A column of its own reads papers filled by real
people's letters: the held-out test writers of the UNIPEN capitals (never used to train or
calibrate; tools.synth.real_hands), one writer per player, drawn with the sheet's pen;
under it, a reliability table of those letters (letter probability bins against how often
they were right). ``--real-split calibrate`` fills that column with the calibration writers
instead (what tools/fit_letter_sheets.py fits the letter review threshold on).

Photos are cached in ``bench-out/reader/<layout hash>/`` (gitignored): a second run only
reads, and new sheet artwork gets fresh photos.

    python -m tools.bench_reader [--photos 200] [--small 40] [--tesseract-photos 30]
        [--real 200] [--real-split test|calibrate] [--jobs 2] [--size 4000] [--seed 0]
        [--details FILE.jsonl] [--findings FILE.md]
    python -m tools.bench_reader --examples   # remake examples/delicious/photos
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from tools.synth.constants import SHEET_AREA_FRACTION

# Bump when the photo generator changes, so stale cached photos are not reused.
GENERATOR_VERSION = 4
OUT_DIR = Path("bench-out/reader")
PLAYERS_PER_GAME = 3
PAIR_EVERY = 4  # every 4th player paper is photographed as garden + play sheets
HONEY_EVERY = 5  # every 5th player paper gets its honey circled
LETTER_KINDS = ("vegetable", "fruit")


@dataclass(frozen=True)
class PhotoSpec:
    """One photo to make: which player's paper, which sheet, how."""

    name: str
    sheet: str
    paper_id: str  # the player paper it belongs to (a pair shares it)
    game_seed: int
    player: int
    variant: str
    seed: int
    code: str
    size_px: int
    honey: bool = False  # circle the honey "3" (random play never earns it)
    small: bool = False  # stress set: the sheet covers less of the frame than promised
    hand: str = "heldout"  # handwriting: held-out fonts, or a part of the real writers
    writer: str = ""  # the real writer filling this paper's letters


# Photos of the real column: 200 (160 players, every test writer about four times), so that
# one writer's odd shape, repeated in every cell it fills, weighs a quarter of what it does
# in 50 photos (40 players, the fewest the targets allow).
REAL_PHOTOS = 200
# The real-writer photo sets: --real-split name -> (writers' part, photo name prefix, seed
# offset of their games).
REAL_SPLITS: dict[str, tuple[str, str, int]] = {
    "test": ("real-test", "real", 700),
    "calibrate": ("real-calib", "calib", 900),
}
# The stress set's share of the frame area: below the promised third.
SMALL_SHEET_AREA = (0.05, 1.0 / 3.0)
AREA_LOW, AREA_HIGH = SHEET_AREA_FRACTION
AREA_SPLIT = 0.4  # letters are also counted apart for sheets covering less of the frame


@dataclass
class ReaderResult:
    """One reader's reading of one photo."""

    fields: dict[str, str]
    review: set[str]
    seconds: float
    error: str = ""
    code: str = ""  # the player code the reader found (pairs are merged by it)
    # letter fields read as a letter: (its letter probability among the field's letters,
    # whether the field would go to review even with no letter threshold at all)
    letters: dict[str, tuple[float, bool]] = field(default_factory=dict)
    # the same fields' runner-up value and its probability among the field's letters
    runners_up: dict[str, tuple[str, float]] = field(default_factory=dict)
    # every field's reading (FieldReading), for asking a player's questions across sheets
    readings: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Tally:
    """Counts for one reader over the whole set."""

    by_kind: Counter[str] = field(default_factory=Counter)
    right_by_kind: Counter[str] = field(default_factory=Counter)
    silent_by_kind: Counter[str] = field(default_factory=Counter)
    review_by_kind: Counter[str] = field(default_factory=Counter)
    by_style: Counter[str] = field(default_factory=Counter)  # "choice: fill" etc.
    right_by_style: Counter[str] = field(default_factory=Counter)
    letter_cells: int = 0
    letter_right: int = 0
    fields: int = 0
    silent: int = 0
    reviewed: int = 0
    reviewed_wrong: int = 0
    sheets_all_right: int = 0
    papers: int = 0
    papers_scored_right: int = 0
    papers_scored_right_no_review: int = 0
    pairs: int = 0
    pairs_merged: int = 0
    questions: list[int] = field(default_factory=list)  # per player paper
    wrong_after_answers: int = 0  # fields still wrong once every question is answered
    failed_photos: int = 0
    seconds: list[float] = field(default_factory=list)
    silent_examples: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def plan(n_photos: int, size_px: int, base_seed: int = 0, small: bool = False,
         real: bool = False, split: str = "test") -> list[PhotoSpec]:
    """A fixed list of photos: the same arguments always give the same set.

    ``real``: the papers are filled by real writers of ``split`` (``test``: the held-out
    test writers the figures are measured on; ``calibrate``: the calibration writers the
    reader's letter confidence is fitted on), one writer per player paper in turn (sorted
    by id), in games of their own (calibration and test papers never share a game).
    """
    if real:
        from tools.synth import real_hands

        part, prefix, offset = REAL_SPLITS[split]
        hands = real_hands.writers(part)
        base = plan(n_photos, size_px, base_seed + offset)
        order = list(dict.fromkeys(s.paper_id for s in base))
        return [replace(s, name=f"{prefix}-{s.name}", paper_id=f"{prefix}-{s.paper_id}",
                        hand=part, writer=hands[order.index(s.paper_id) % len(hands)])
                for s in base]
    if small:  # other games, other seeds and other names than the main set
        return [replace(s, name=f"small-{s.name}", paper_id=f"small-{s.paper_id}", small=True)
                for s in plan(n_photos, size_px, base_seed + 500)]
    specs: list[PhotoSpec] = []
    tag = f"s{base_seed}-" if base_seed else ""  # photos are cached by name
    k = 0
    while len(specs) < n_photos:
        game_seed = base_seed + 1000 + k // PLAYERS_PER_GAME
        player = k % PLAYERS_PER_GAME
        variant = "AB"[(k // PLAYERS_PER_GAME) % 2]
        paper_id = f"{tag}g{game_seed}p{player}"
        code = f"{(game_seed * 7 + player) % 10000:04d}"
        honey = k % HONEY_EVERY == 2
        if k % PAIR_EVERY == PAIR_EVERY - 1 and len(specs) + 2 <= n_photos:
            for sheet in ("delicious-garden", "delicious-play"):
                specs.append(PhotoSpec(f"{paper_id}-{sheet.split('-')[1]}", sheet, paper_id,
                                       game_seed, player, variant, base_seed * 100_000 + len(
                                           specs), code, size_px, honey))
        else:
            specs.append(PhotoSpec(f"{paper_id}-combo", "delicious-combo", paper_id, game_seed,
                                   player, variant, base_seed * 100_000 + len(specs), code,
                                   size_px, honey))
        k += 1
    return specs


def layout_fingerprint() -> str:
    """A short hash of how the sheets look now: cached photos of older artwork are stale."""
    import hashlib

    import layouts

    h = hashlib.sha1(str(GENERATOR_VERSION).encode())
    for sheet in ("delicious-garden", "delicious-play", "delicious-combo"):
        for variant in ("A", "B"):
            img = layouts.render_image(sheet, variant=variant, dpi=30, code="0000")
            h.update(img.tobytes())
    return h.hexdigest()[:10]


def _photo_path(out: Path, spec: PhotoSpec) -> Path:
    return out / f"{spec.size_px}px" / f"{spec.name}.jpg"


def _make(job: tuple[PhotoSpec, str]) -> str:
    """Make one photo and its truth file unless cached (runs in a worker process)."""
    spec, out = job
    import cv2

    cv2.setNumThreads(1)
    from companion.games.delicious.simulate import simulate_game
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo

    path = _photo_path(Path(out), spec)
    truth_path = path.with_suffix(".truth.json")
    if path.exists() and truth_path.exists():
        return str(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = simulate_game(spec.game_seed, PLAYERS_PER_GAME, spec.variant)
    field_map = dict(record.field_maps[spec.player])
    if spec.honey:
        field_map["garden.honey"] = "circled"
    camera = CameraOptions(sheet_area=SMALL_SHEET_AREA) if spec.small else CameraOptions()
    made = render_sheet_photo(spec.sheet, field_map, spec.seed, variant=spec.variant,
                              fonts=spec.hand, camera=camera.sized(spec.size_px),
                              code=spec.code, writer=spec.writer or None)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(made.photo.jpeg)
    tmp.rename(path)
    truth = made.truth_json()
    truth["full_fields"] = dict(sorted(field_map.items()))
    truth["spec"] = asdict(spec)
    truth_path.write_text(json.dumps(truth, indent=1))
    return str(path)


def make_photos(specs: Sequence[PhotoSpec], out: Path, jobs: int) -> list[Path]:
    work = [(s, str(out)) for s in specs]
    if jobs <= 1:
        return [Path(_make(w)) for w in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [Path(p) for p in pool.map(_make, work, chunksize=2)]


# ---- the committed example photos -------------------------------------------------------

EXAMPLES_DIR = Path("examples/delicious/photos")
EXAMPLE_SIZE_PX = 2400  # long side; keeps each JPEG under 600 KB
EXAMPLE_GAMES = {"A": (4242, 3), "B": (4243, 2)}  # variant -> (game seed, players)
# One player code per player, as `sheets print --players N` prints them: a player's garden
# and play photos pair by it, and two players' sheets never share one.
EXAMPLE_CODES = {("A", 0): "K7Q2", ("A", 1): "M4TX", ("A", 2): "R8WN", ("B", 0): "H3PD"}


def _example_cameras() -> dict[str, tuple[str, str, int, dict[str, Any]]]:
    """name -> (sheet, variant, player, camera overrides)."""
    gentle = {"sheet_area": None, "tilt_deg": (4.0, 14.0), "fill": (0.7, 0.85),
              "shadow_chance": 0.0, "jpeg_quality": (74, 80), "motion_blur_chance": 0.0}
    return {
        "combo-good-light": ("delicious-combo", "A", 0, {"jpeg_quality": (74, 80)}),
        "combo-tilted-shadow": ("delicious-combo", "A", 1, {
            "sheet_area": None, "tilt_deg": (30.0, 34.0), "fill": (0.65, 0.8), "shadow_chance": 1.0,
            "shadow_depth": (0.45, 0.55), "light_gradient": (0.25, 0.35),
            "jpeg_quality": (72, 78), "motion_blur_chance": 0.0}),
        "garden-player3": ("delicious-garden", "A", 2, {**gentle,
                                                        "rotation_deg": (80.0, 100.0)}),
        "play-player3": ("delicious-play", "A", 2, {**gentle, "rotation_deg": (-10.0, 10.0)}),
        "combo-upside-down-B": ("delicious-combo", "B", 0, {**gentle,
                                                            "rotation_deg": (172.0, 188.0)}),
    }


def write_examples(out: Path = EXAMPLES_DIR, seed: int = 7) -> list[Path]:
    """(Re)make the example photos committed under ``examples/`` with their truth files."""
    from dataclasses import replace

    from companion.games.delicious.simulate import simulate_game
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for i, (name, (sheet, variant, player, overrides)) in enumerate(_example_cameras().items()):
        game_seed, players = EXAMPLE_GAMES[variant]
        maps = simulate_game(game_seed, players, variant).field_maps
        base = CameraOptions.good_light() if name == "combo-good-light" else CameraOptions()
        camera = replace(base, **overrides).sized(EXAMPLE_SIZE_PX)
        made = render_sheet_photo(sheet, maps[player], seed * 100 + i, variant=variant,
                                  fonts="heldout", camera=camera,
                                  code=EXAMPLE_CODES[(variant, player)])
        path = out / f"{name}.jpg"
        path.write_bytes(made.photo.jpeg)
        truth = made.truth_json()
        truth["synthetic"] = {**truth["synthetic"], "game_seed": game_seed,  # type: ignore[dict-item]
                              "player": player}
        path.with_suffix(".truth.json").write_text(json.dumps(truth, indent=1) + "\n")
        written.append(path)
    return written


# ---- readers ----------------------------------------------------------------------------


def letter_facts(readings: dict[str, Any]) -> dict[str, tuple[float, bool]]:
    """Per field read as a letter: the letter's probability among the field's letters (the
    value's share of the written candidates), and whether the field is in review for any
    reason other than the letter threshold (a field held back by that threshold alone
    would be in review by its plain reading when that is below REVIEW_BELOW)."""
    from companion.vision.sheet.constants import REVIEW_BELOW
    from companion.vision.sheet.reader import LETTER_DOUBT_NOTE, LETTER_PAIR_NOTE, LETTER_VALUES

    out: dict[str, tuple[float, bool]] = {}
    for fid, r in readings.items():
        if r.kind not in LETTER_VALUES or r.value is None:
            continue
        q = r.written_share
        if r.note in (LETTER_DOUBT_NOTE, LETTER_PAIR_NOTE):  # capped by a letter threshold:
            # judge the plain reading
            other = max(p for _, p in r.candidates) < REVIEW_BELOW
        else:
            other = bool(r.review)
        out[fid] = (q, other)
    return out


def letter_runners_up(readings: dict[str, Any]) -> dict[str, tuple[str, float]]:
    """Per field read as a letter: the second letter value and its probability among the
    field's letters ("" and 0 when the field allowed no other)."""
    from companion.vision.sheet.reader import LETTER_VALUES

    out: dict[str, tuple[str, float]] = {}
    for fid, r in readings.items():
        if r.kind not in LETTER_VALUES or r.value is None:
            continue
        written = sum(p for v, p in r.candidates if v is not None)
        others = sorted(((p, v) for v, p in r.candidates if v is not None and v != r.value),
                        reverse=True)
        out[fid] = ((others[0][1], others[0][0] / written) if others and written > 0
                    else ("", 0.0))
    return out


def reader_function(name: str, own_letters: bool = False) -> Callable[[Path], ReaderResult]:
    """Read one photo with ``ours`` or ``tesseract``; failures become empty readings."""
    from companion.vision.sheet import reader as sheet_reader

    def read(path: Path) -> ReaderResult:
        start = time.perf_counter()
        try:
            reading = sheet_reader.read_photo(str(path), reader=name, own_letters=own_letters)
        except Exception as exc:  # a failed photo counts against the reader, not the bench
            return ReaderResult({}, set(), time.perf_counter() - start, f"{type(exc).__name__}: "
                                f"{exc}")
        seconds = time.perf_counter() - start
        fields = {k: v for k, v in dict(reading.fields).items() if v}
        return ReaderResult(fields, set(reading.review), seconds, code=reading.code,
                            letters=letter_facts(reading.readings),
                            runners_up=letter_runners_up(reading.readings),
                            readings=dict(reading.readings))

    return read


def _score_total(fields: dict[str, str], variant: str) -> int | None:
    from companion.games.delicious.scoring import score
    from companion.games.delicious.state import SheetState

    try:
        return score(SheetState.from_field_map(fields, variant)).total
    except Exception:
        return None


def _kinds(sheet: str, variant: str) -> dict[str, str]:
    import layouts

    return {f.id: f.kind.value for f in layouts.geometry(sheet, variant=variant).fields}


Settled = tuple[dict[str, Any], tuple[Any, ...]]  # a player's readings named, their groups


def settle_papers(specs: Sequence[PhotoSpec], results: dict[str, ReaderResult]
                  ) -> tuple[dict[str, ReaderResult], dict[str, Settled]]:
    """Each photo's fields and review as ``delicious read`` gives them: its player's sheets'
    readings merged and their drawings named by group (a trusted group's members leave
    review, a question's take its guess), not the photo's cells read alone; and per player
    paper the merged readings so named with their groups (``settle_drawings``), settled
    once for both."""
    from companion.games.delicious.players import field_values
    from companion.vision.sheet.settle import settle_drawings

    papers: dict[str, list[PhotoSpec]] = defaultdict(list)
    for spec in specs:
        papers[spec.paper_id].append(spec)
    out = dict(results)
    by_paper: dict[str, Settled] = {}
    for paper, members in papers.items():
        merged: dict[str, Any] = {}
        for m in members:
            merged.update(results[m.name].readings)
        if not merged:
            continue
        named, groups = by_paper[paper] = settle_drawings(merged, members[0].variant)
        for m in members:
            mine = {fid: named[fid] for fid in results[m.name].readings}
            out[m.name] = replace(results[m.name], fields=field_values(mine),
                                  review={fid for fid, r in mine.items() if r.review})
    return out, by_paper


def tally(
    specs: Sequence[PhotoSpec],
    truths: dict[str, dict[str, Any]],
    results: dict[str, ReaderResult],
) -> Tally:
    t = Tally()
    results, by_paper = settle_papers(specs, results)
    kinds_cache: dict[tuple[str, str], dict[str, str]] = {}
    papers: dict[str, list[PhotoSpec]] = defaultdict(list)
    for spec in specs:
        papers[spec.paper_id].append(spec)
        res = results[spec.name]
        truth: dict[str, str] = truths[spec.name]["fields"]
        synthetic: dict[str, Any] = truths[spec.name].get("synthetic", {})
        styles: dict[str, str] = synthetic.get("marks", {})
        conditions = [
            "pencil" if synthetic.get("pen") == "pencil" else "pen",
            f"sheet < {AREA_SPLIT:.0%} of frame area"
            if synthetic.get("sheet_area", 1.0) < AREA_SPLIT else
            f"sheet >= {AREA_SPLIT:.0%} of frame area",
        ]
        key = (spec.sheet, spec.variant)
        if key not in kinds_cache:
            kinds_cache[key] = _kinds(*key)
        kinds = kinds_cache[key]
        t.seconds.append(res.seconds)
        if res.error:
            t.failed_photos += 1
            if len(t.failures) < 5:
                t.failures.append(f"{spec.name}: {res.error}")
        all_right = not res.error
        for fid, kind in kinds.items():
            want, got = truth.get(fid, ""), res.fields.get(fid, "")
            row = kind if kind not in LETTER_KINDS or want else "empty letter cell"
            t.by_kind[row] += 1
            t.fields += 1
            flagged = fid in res.review or bool(res.error)  # a failed photo is loud
            t.reviewed += flagged
            t.review_by_kind[row] += flagged
            if fid in styles and not res.error:  # diagnostic: only photos that were read
                t.by_style[f"{kind} drawn as {styles[fid]}"] += 1
                t.right_by_style[f"{kind} drawn as {styles[fid]}"] += want == got
            if want == got:
                t.right_by_kind[row] += 1
            else:
                all_right = False
                t.reviewed_wrong += flagged
                if not flagged:
                    t.silent += 1
                    t.silent_by_kind[row] += 1
                    if len(t.silent_examples) < 12:
                        t.silent_examples.append(f"{spec.name}: {fid} true={want or '-'} "
                                                 f"read={got or '-'}")
            if kind in LETTER_KINDS and want:
                t.letter_cells += 1
                t.letter_right += want == got
                if not res.error:
                    for c in conditions:
                        t.by_style[f"letters, {c}"] += 1
                        t.right_by_style[f"letters, {c}"] += want == got
        t.sheets_all_right += all_right
    for members in papers.values():
        truth_fields: dict[str, str] = truths[members[0].name]["full_fields"]
        read: dict[str, str] = {}
        review: set[str] = set()
        for m in members:
            read.update(results[m.name].fields)
            review |= results[m.name].review
        variant = members[0].variant
        t.papers += 1
        right = _score_total(read, variant) == _score_total(truth_fields, variant)
        failed = any(results[m.name].error for m in members)
        if len(members) == 2:  # the reader pairs garden and play only by a shared code
            t.pairs += 1
            codes = {results[m.name].code for m in members}
            merged = len(codes) == 1 and "" not in codes
            t.pairs_merged += merged
            failed = failed or not merged
        right = right and not failed
        t.papers_scored_right += right
        t.papers_scored_right_no_review += right and not review
        asked, left_wrong = answer_questions(members, truths,
                                             by_paper.get(members[0].paper_id))
        t.questions.append(asked)
        t.wrong_after_answers += left_wrong
    return t


def answer_questions(members: Sequence[PhotoSpec], truths: dict[str, dict[str, Any]],
                     settled: Settled | None) -> tuple[int, int]:
    """A player's questions (``settled``: their sheets' readings merged and named, as
    ``delicious read`` asks them; None when nothing was read), and how many fields stay
    wrong when each question is answered with one tap (the value most of its fields truly
    hold) and every other field in review is checked."""
    if settled is None:
        return 0, 0
    named, every = settled
    truth: dict[str, str] = {}
    for m in members:
        truth.update(truths[m.name]["fields"])
    groups = [g for g in every if not g.trusted]
    wrong_silent = sum(1 for fid, r in named.items()
                       if not r.review and (r.value or "") != truth.get(fid, ""))
    minority = 0
    for g in groups:
        wants = Counter(truth.get(f, "") for f in g.fields)
        minority += len(g.fields) - wants.most_common(1)[0][1]
    return len(groups), wrong_silent + minority


def write_details(path: Path, specs: Sequence[PhotoSpec], truths: dict[str, dict[str, Any]],
                  results: dict[str, ReaderResult], paths: dict[str, Path]) -> None:
    """One JSON line per photo, for digging into what a reader gets wrong and when."""
    with path.open("w") as out:
        for spec in specs:
            res, truth = results[spec.name], truths[spec.name]
            want: dict[str, str] = truth["fields"]
            ids = set(_kinds(spec.sheet, spec.variant))
            wrong = [{"id": f, "true": want.get(f, ""), "read": res.fields.get(f, ""),
                      "review": f in res.review}
                     for f in sorted(ids) if want.get(f, "") != res.fields.get(f, "")]
            out.write(json.dumps({"photo": str(paths[spec.name]), "seconds": round(res.seconds, 3),
                                  "error": res.error, "review": len(res.review), "wrong": wrong,
                                  "synthetic": truth.get("synthetic", {})}) + "\n")


# ---- letter confidence --------------------------------------------------------------------

# Reliability bins of the letter probability (lower edges; the last bin ends at 1).
RELIABILITY_EDGES = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999)


@dataclass(frozen=True)
class LetterRecord:
    """One field read as a letter: its letter probability, whether it is in review for
    another reason than the letter threshold, and whether the letter is right."""

    q: float
    other_review: bool
    right: bool
    photo: str = ""
    field: str = ""
    true: str = ""
    read: str = ""
    writer: str = ""
    second: str = ""  # the runner-up value
    q2: float = 0.0  # its probability among the field's letters


def letter_records(specs: Sequence[PhotoSpec], truths: dict[str, dict[str, Any]],
                   results: dict[str, ReaderResult]) -> list[LetterRecord]:
    out: list[LetterRecord] = []
    for spec in specs:
        res = results[spec.name]
        truth: dict[str, str] = truths[spec.name]["fields"]
        for fid, (q, other) in sorted(res.letters.items()):
            want, got = truth.get(fid, ""), res.fields.get(fid, "")
            second, q2 = res.runners_up.get(fid, ("", 0.0))
            out.append(LetterRecord(q, other, want == got, spec.name, fid, want, got,
                                    spec.writer, second, q2))
    return out


def pair_doubted(records: Sequence[LetterRecord], threshold: float) -> list[bool]:
    """Per record: is it read between the same two letters as a doubtful letter (below
    ``threshold``) of the same photo, as the reader's letter-pairs rule judges it."""
    from companion.vision.sheet.letter_pairs import doubted_pairs
    from companion.vision.sheet.reader import LETTER_OF_VALUE

    by_photo: dict[str, dict[int, tuple[str, str, float]]] = {}
    for i, r in enumerate(records):
        if r.read in LETTER_OF_VALUE:
            by_photo.setdefault(r.photo, {})[i] = (LETTER_OF_VALUE[r.read],
                                                   LETTER_OF_VALUE.get(r.second, ""), r.q)
    flagged: set[int] = set()
    for calls in by_photo.values():
        flagged |= doubted_pairs(calls, threshold)
    return [i in flagged for i in range(len(records))]


def reliability_table(records: Sequence[LetterRecord], threshold: float,
                      pair_threshold: float = 0.0) -> str:
    """Letter probability bins against how often the letter is right, and what the reader
    does with each bin (review below ``threshold``, or below ``pair_threshold`` for a letter
    of a pair its sheet doubts)."""
    rows = ["| letter probability | letters | right | mean probability | wrong | "
            "wrong and trusted |", "|---|---|---|---|---|---|"]
    edges = [*RELIABILITY_EDGES, 1.0 + 1e-9]
    doubted = (pair_doubted(records, threshold) if pair_threshold > threshold
               else [False] * len(records))
    held = {id(r) for r, d in zip(records, doubted, strict=True) if d and r.q < pair_threshold}
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        got = [r for r in records if lo <= r.q < hi]
        if not got:
            continue
        wrong = [r for r in got if not r.right]
        trusted = [r for r in wrong if not r.other_review and r.q >= threshold
                   and id(r) not in held]
        label = f"{lo:g}-{min(hi, 1.0):g}"
        rows.append(f"| {label} | {len(got)} | {_pct(len(got) - len(wrong), len(got))} | "
                    f"{statistics.fmean(r.q for r in got):.4f} | {len(wrong)} | "
                    f"{len(trusted)} |")
    return "\n".join(rows)


# ---- report -------------------------------------------------------------------------------


def _pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:.2f}%" if den else "n/a"


def _quantile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def table(tallies: dict[str, Tally]) -> str:
    """One column per (reader, photo set); the header says how many photos each read."""
    names = list(tallies)
    head = "| measure | " + " | ".join(names) + " | target |"
    rule = "|---|" + "---|" * len(names) + "---|"
    rows: list[str] = [head, rule]
    ts = list(tallies.values())

    def row(label: str, values: Iterable[str], target: str = "") -> None:
        rows.append(f"| {label} | " + " | ".join(values) + f" | {target} |")

    def count(num: int, den: int) -> str:
        return f"{_pct(num, den)} ({den - num} wrong of {den})" if den else "n/a"

    kinds = sorted({k for t in ts for k in t.by_kind})
    for k in kinds:
        target = ">= 99%" if k in LETTER_KINDS else ("" if k == "empty letter cell"
                                                     else ">= 99.8%")
        row(f"field accuracy: {k}", (count(t.right_by_kind[k], t.by_kind[k]) for t in ts),
            target)
    for k in sorted({k for t in ts for k in t.by_style}):
        row(f"- {k} (photos read)", (count(t.right_by_style[k], t.by_style[k]) for t in ts))
    row("letters (vegetable + fruit cells)", (count(t.letter_right, t.letter_cells)
                                              for t in ts), ">= 99%")
    row("sheets read entirely right", (count(t.sheets_all_right, len(t.seconds)) for t in ts))
    row("players scored exactly", (count(t.papers_scored_right, t.papers) for t in ts),
        ">= 95%")
    row("garden + play pairs matched by player code",
        (count(t.pairs_merged, t.pairs) for t in ts))
    row("players scored exactly, nothing to review",
        (count(t.papers_scored_right_no_review, t.papers) for t in ts))
    row("fields sent to review", (f"{_pct(t.reviewed, t.fields)} ({t.reviewed})" for t in ts))
    row("questions per player, median / max (mean)",
        (f"{statistics.median(t.questions):g} / {max(t.questions)} "
         f"({statistics.mean(t.questions):.2f})" if t.questions else "n/a"
         for t in ts), "median <= 2")
    row("fields right after every question is answered (one tap each)",
        (count(t.fields - t.wrong_after_answers, t.fields) for t in ts))
    for k in kinds:
        row(f"- sent to review: {k}", (f"{_pct(t.review_by_kind[k], t.by_kind[k])} "
                                        f"({t.review_by_kind[k]})" for t in ts))
    row("reviewed fields that were really wrong",
        (f"{t.reviewed_wrong} of {t.reviewed} ({_pct(t.reviewed_wrong, t.reviewed)})"
         for t in ts))
    row("silent errors (wrong, not in review)",
        (f"{t.silent} of {t.fields} fields (1 in {t.fields // t.silent if t.silent else '∞'})"
         for t in ts), "<= 1 in 2,000")
    for k in kinds:
        if any(t.silent_by_kind[k] for t in ts):
            row(f"silent errors: {k}", (str(t.silent_by_kind[k]) for t in ts))
    row("photos that failed to read", (str(t.failed_photos) for t in ts))
    row("median s / photo", (f"{statistics.median(t.seconds):.2f}" if t.seconds else "n/a"
                             for t in ts), "< 1 s")
    row("p95 s / photo", (f"{_quantile(t.seconds, 0.95):.2f}" for t in ts))
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="bench_reader", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=200, help="number of photos (default 200)")
    ap.add_argument("--tesseract-photos", type=int, default=30,
                    help="how many of them the slow tesseract reader also reads (default 30)")
    ap.add_argument("--small", type=int, default=40,
                    help="extra stress photos whose sheet covers less than a third of the "
                         "frame, reported in their own column (default 40)")
    ap.add_argument("--real", type=int, default=REAL_PHOTOS,
                    help="photos filled by real held-out writers (one per player paper, "
                         "about 4 players per 5 photos), in their own column; skipped where "
                         f"the real handwriting data is absent (default {REAL_PHOTOS}; the "
                         "first 50 are the 40 players of the earlier figures)")
    ap.add_argument("--real-split", choices=sorted(REAL_SPLITS), default="test",
                    help="which real writers fill the real column: the held-out test writers "
                         "(default; the figures to report) or the calibration writers "
                         "(what tools/fit_letter_sheets.py fits the letter threshold on)")
    ap.add_argument("--jobs", type=int, default=1, help="processes making photos")
    ap.add_argument("--size", type=int, default=4000, help="photo long side, px (12 MP: 4000)")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="photo cache directory")
    ap.add_argument("--seed", type=int, default=0, help="base seed of the photo set")
    ap.add_argument("--findings", type=Path, default=None,
                    help="also write the table and silent-error examples to this Markdown file")
    ap.add_argument("--details", type=Path, default=None,
                    help="write one JSON line per photo (our reader): every wrong field, "
                         "whether it was in review, and how the photo was made")
    ap.add_argument("--examples", action="store_true",
                    help=f"only remake the committed example photos in {EXAMPLES_DIR}")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.examples:
        for path in write_examples():
            print(f"{path} ({path.stat().st_size // 1024} KB)")
        return

    specs = plan(args.photos, args.size, args.seed)
    small = plan(args.small, args.size, args.seed, small=True) if args.small else []
    from tools.synth import real_hands

    real: list[PhotoSpec] = []
    if args.real and real_hands.available():
        real = plan(args.real, args.size, args.seed, real=True, split=args.real_split)
    elif args.real:
        print(f"(real handwriting not found at {real_hands.data_path()}: no real-writer "
              "column)\n")
    start = time.perf_counter()
    out = args.out / layout_fingerprint()
    every = specs + small + real
    paths = dict(zip((s.name for s in every), make_photos(every, out, args.jobs), strict=True))
    made_s = time.perf_counter() - start
    truths = {n: json.loads(p.with_suffix(".truth.json").read_text()) for n, p in paths.items()}

    import cv2

    cv2.setNumThreads(1)  # the speed target is for one core
    ours_read = reader_function("ours")
    ours = {s.name: ours_read(paths[s.name]) for s in specs}
    tallies = {f"ours, {len(specs)} photos": tally(specs, truths, ours)}
    if args.details is not None:
        write_details(args.details, specs, truths, ours, paths)
    # Tesseract takes seconds a photo: it reads whole player papers from the start of the set.
    n_tess = min(args.tesseract_photos, len(specs))
    while 0 < n_tess < len(specs) and specs[n_tess].paper_id == specs[n_tess - 1].paper_id:
        n_tess += 1
    if n_tess:
        subset = specs[:n_tess]
        tess_read = reader_function("tesseract")
        tess = {s.name: tess_read(paths[s.name]) for s in subset}
        tallies[f"ours, same {n_tess}"] = tally(subset, truths, ours)
        tallies[f"tesseract, {n_tess}"] = tally(subset, truths, tess)
    if small:
        ours_small = {s.name: ours_read(paths[s.name]) for s in small}
        tallies[f"ours, {len(small)} small sheets (stress)"] = tally(small, truths, ours_small)
    if real:
        ours_real = {s.name: ours_read(paths[s.name]) for s in real}
        n_real = len({s.paper_id for s in real})
        n_hands = len({s.writer for s in real})
        who = "held-out" if args.real_split == "test" else "calibration"
        tallies[f"ours, {len(real)} photos of {n_real} players: real {who} writers "
                f"({n_hands})"] = tally(real, truths, ours_real)
        with_own = reader_function("ours", own_letters=True)
        tallies["the same, with the player's own letters (off by default)"] = tally(
            real, truths, {s.name: with_own(paths[s.name]) for s in real})
        if args.details is not None:
            write_details(args.details.with_suffix(".real.jsonl"), real, truths, ours_real,
                          paths)
    n_papers = len({s.paper_id for s in specs})
    print(f"{len(specs)} photos ({sum(s.sheet == 'delicious-combo' for s in specs)} combo, "
          f"{sum(s.sheet != 'delicious-combo' for s in specs)} garden/play) of {n_papers} "
          f"players, {args.size} px long side, held-out fonts, read on one thread; photos ready "
          f"in {made_s:.0f} s. Each sheet covers {AREA_LOW:.0%}-{AREA_HIGH:.0%} of the frame "
          f"area (less when turned near 45 degrees); the stress photos cover "
          f"{SMALL_SHEET_AREA[0]:.0%}-{SMALL_SHEET_AREA[1]:.0%}, below the promised third.\n")
    text = table(tallies)
    print(text)
    notes: list[str] = []
    for name, t in tallies.items():
        if t.failures:
            notes += [f"\nPhotos that failed ({name}), first few:"] + [f"- {x}" for x in t.failures]
    for name, t in tallies.items():
        if t.silent_examples and not name.startswith("ours, same"):
            notes += [f"\nSilent errors ({name}), first few:"] + [f"- {x}" for x in
                                                                  t.silent_examples]
    if real:
        from companion.vision.sheet.reader import (
            Reader,
            _letter_review_below,
            _pair_review_below,
        )

        threshold = _letter_review_below(Reader.OURS)
        pair = _pair_review_below(Reader.OURS)
        rule = (f", and below {pair:g} a letter read between the two letters a doubtful "
                "letter of its sheet hesitated between" if pair > threshold else "")
        notes += ["", f"Letter reliability, real {who} writers (letters as read on their "
                  f"sheets; the reader reviews a letter below {threshold:g}{rule}):", "",
                  reliability_table(letter_records(real, truths, ours_real), threshold,
                                    pair)]
    print("\n".join(notes))
    if args.findings is not None:
        args.findings.write_text("# Reader bench findings\n\n" + text + "\n" + "\n".join(notes)
                                 + "\n")


if __name__ == "__main__":
    main()
