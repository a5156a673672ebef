"""``make bench``: run every area's benchmark in turn and print its table.

Each ``tools/bench_<area>.py`` has a ``main()`` printing a Markdown table. They run in
one process, one after another, so figures from one run are comparable side by side.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import time

BENCHES = (
    ("Command start-up", "tools.bench_startup"),
    ("Sheets: building PDFs", "tools.bench_sheets"),
    ("Delicious engine", "tools.bench_delicious_engine"),
    ("Letters: ours vs tesseract", "tools.bench_letters"),
    ("Delicious photo reader", "tools.bench_reader"),
    ("Delicious photos with glare", "tools.bench_glare"),
    ("Diced Veggies: cuts", "tools.bench_dice_cuts"),
    ("Diced Veggies: dice photos", "tools.bench_dice_vision"),
    ("Dulce: score-order and best harvest", "tools.bench_dulce"),
    ("Game night server: upload to score", "tools.bench_serve"),
    ("History and standings", "tools.bench_history"),
    ("Reader speed: warm, one thread, by stage", "tools.bench_speed"),
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
