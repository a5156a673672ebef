"""``make bench``: run every area's benchmark in turn and print its table.

Each ``scripts/bench_<area>.py`` has a ``main()`` printing a Markdown table. They run in
one process, one after another, so figures from one run are comparable side by side.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time

BENCHES = (
    ("Command start-up", "scripts.bench_startup"),
    ("Sheets: building PDFs", "scripts.bench_sheets"),
    ("Delicious engine", "scripts.bench_delicious_engine"),
    ("Letters: ours vs tesseract", "scripts.bench_letters"),
    ("Delicious photo reader", "scripts.bench_reader"),
    ("Delicious photos with glare", "scripts.bench_glare"),
    ("Diced Veggies: cuts", "scripts.bench_dice_cuts"),
    ("Diced Veggies: dice photos", "scripts.bench_dice_vision"),
    ("Dulce: score-order and best harvest", "scripts.bench_dulce"),
    ("Game night server: upload to score", "scripts.bench_serve"),
    ("History and standings", "scripts.bench_history"),
    ("Store under kill -9", "scripts.bench_durability"),
    ("Reader speed: warm, one thread, by stage", "scripts.bench_speed"),
)


def main(argv: list[str] | None = None) -> None:
    wanted = set(argv if argv is not None else sys.argv[1:])
    for title, module in BENCHES:
        if wanted and not any(w in module for w in wanted):
            continue
        if importlib.util.find_spec(module) is None:
            continue
        mod = importlib.import_module(module)
        print(f"\n## {title}\n", flush=True)
        start = time.perf_counter()
        saved, sys.argv = sys.argv, [module]
        try:
            mod.main()
        finally:
            sys.argv = saved
        print(f"\n({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
