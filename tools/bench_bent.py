"""Delicious photos of bent paper: an edge curled or lifted off the table, a curled corner.

The reader bench's games and camera (tools.bench_reader), with every sheet's paper bent by
the virtual camera (tools/synth/page_bend.py) in one of two settings: ``edges`` (a curled
or lifted edge), which the reader's bent-paper checks were tuned on, and ``corners`` (a
curled corner, steeper), held out and only measured. The edges set is also photographed
unbent, the same photos with the paper flat: the flat column. Every photo is read twice,
by the reader as it stands and with its bent-paper checks switched off (the reader before
them), so each pair of columns compares the two on the same photos.

Photos are cached in ``bench-out/bent/<layout hash>/`` (gitignored).

    python -m tools.bench_bent [--photos 40] [--size 3000] [--jobs 2] [--findings FILE.md]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from pathlib import Path

from tools import bench_reader as br

OUT_DIR = Path("bench-out/bent")
# Base seeds of each set's games and photos, apart from the reader bench's (0, 500, 700, 900).
SET_SEEDS = {"edges": 300, "corners": 400}
SETS = (("flat", "edges", ""), ("edges", "edges", "edges"), ("corners", "corners", "corners"))


def _make(job: tuple[br.PhotoSpec, str, str]) -> str:
    """Make one photo and its truth file unless cached (runs in a worker process)."""
    spec, bend, out = job
    import cv2

    cv2.setNumThreads(1)
    from companion.games.delicious.simulate import simulate_game
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo

    path = Path(out) / f"{spec.size_px}px" / f"{spec.name}.jpg"
    truth_path = path.with_suffix(".truth.json")
    if path.exists() and truth_path.exists():
        return str(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = simulate_game(spec.game_seed, br.PLAYERS_PER_GAME, spec.variant)
    field_map = dict(record.field_maps[spec.player])
    if spec.honey:
        field_map["garden.honey"] = "circled"
    camera = CameraOptions().sized(spec.size_px)
    if bend:
        camera = camera.bent(bend)
    made = render_sheet_photo(spec.sheet, field_map, spec.seed, variant=spec.variant,
                              fonts=spec.hand, camera=camera, code=spec.code)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(made.photo.jpeg)
    tmp.rename(path)
    truth = made.truth_json()
    bent = made.photo.shot.bend
    truth["synthetic"] = {**truth["synthetic"],  # type: ignore[dict-item]
                          "bend": None if bent is None else {
                              "kind": bent.kind.value, "where": bent.where,
                              "reach_mm": round(bent.reach_mm, 1),
                              "angle_deg": round(bent.angle_deg, 1)}}
    truth["full_fields"] = dict(sorted(field_map.items()))
    truth["spec"] = asdict(spec)
    truth_path.write_text(json.dumps(truth, indent=1))
    return str(path)


def plan(n_photos: int, size_px: int) -> list[tuple[str, str, br.PhotoSpec]]:
    """(set name, bend setting or "" for flat, photo) for every photo of the bench."""
    out: list[tuple[str, str, br.PhotoSpec]] = []
    for name, games, bend in SETS:
        for s in br.plan(n_photos, size_px, SET_SEEDS[games]):
            out.append((name, bend, replace(s, name=f"{name}-{s.name}",
                                             paper_id=f"{name}-{s.paper_id}")))
    return out


def reader_off() -> Callable[[Path], br.ReaderResult]:
    """The reader with its bent-paper checks switched off: the reader before them."""
    from companion.vision import local_fit

    read = br.reader_function("ours")

    def off(path: Path) -> br.ReaderResult:
        with local_fit.switched_off():
            return read(path)

    return off


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="bench_bent", description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=40, help="photos per set (default 40)")
    ap.add_argument("--size", type=int, default=3000, help="photo long side, px (default 3000)")
    ap.add_argument("--jobs", type=int, default=1, help="processes making photos")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="photo cache directory")
    ap.add_argument("--findings", type=Path, default=None,
                    help="also write the table and silent-error examples to this Markdown file")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    photos = plan(args.photos, args.size)
    out = args.out / br.layout_fingerprint()
    start = time.perf_counter()
    jobs = [(s, bend, str(out)) for _, bend, s in photos]
    if args.jobs <= 1:
        made = [Path(_make(j)) for j in jobs]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            made = [Path(p) for p in pool.map(_make, jobs, chunksize=2)]
    made_s = time.perf_counter() - start
    paths = {s.name: p for (_, _, s), p in zip(photos, made, strict=True)}
    truths = {n: json.loads(p.with_suffix(".truth.json").read_text()) for n, p in paths.items()}

    import cv2

    cv2.setNumThreads(1)
    readers = (("before", reader_off()), ("now", br.reader_function("ours")))
    tallies: dict[str, br.Tally] = {}
    for name, _, _ in SETS:
        specs = [s for set_name, _, s in photos if set_name == name]
        label = {"flat": "flat", "edges": "edges (tuned on)",
                 "corners": "corners (held out)"}[name]
        for when, read in readers:
            results = {s.name: read(paths[s.name]) for s in specs}
            tallies[f"{label}, {when}"] = br.tally(specs, truths, results)
    n = args.photos
    print(f"{n} photos a set ({args.size} px long side, the reader bench's camera and "
          f"held-out fonts, read on one thread; photos ready in {made_s:.0f} s). 'before': "
          "the reader with its bent-paper checks off; 'now': as it reads.\n")
    text = br.table(tallies)
    print(text)
    notes: list[str] = []
    for name, t in tallies.items():
        if t.silent_examples:
            notes += [f"\nSilent errors ({name}), first few:"] + [f"- {x}" for x in
                                                                  t.silent_examples]
        if t.failures:
            notes += [f"\nPhotos that failed ({name}), first few:"] + [f"- {x}" for x in
                                                                       t.failures]
    print("\n".join(notes))
    if args.findings is not None:
        args.findings.write_text("# Bent paper bench findings\n\n" + text + "\n"
                                 + "\n".join(notes) + "\n")


if __name__ == "__main__":
    main()
