"""Benchmark: building the full set of sheet PDFs (every sheet x paper x variant, colour
and black-and-white), plus geometry and 150 dpi image rendering."""

from __future__ import annotations

import io
import itertools
import time

import layouts

PAPERS = ("letter", "a4")
VARIANTS = ("A", "B")
REPEATS = 3


def _best(fn: object, repeats: int = REPEATS) -> float:
    assert callable(fn)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    print("| what | runs | best time | size |")
    print("|---|---:|---:|---:|")
    total_t = 0.0
    total_bytes = 0
    for paper, variant, bw in itertools.product(PAPERS, VARIANTS, (False, True)):
        buf = io.BytesIO()

        def build(buf: io.BytesIO = buf, paper: str = paper, variant: str = variant,
                  bw: bool = bw) -> None:
            buf.seek(0)
            buf.truncate()
            layouts.render_pdf(layouts.SHEET_NAMES, buf, paper=paper, variant=variant, bw=bw,
                               code="BNCH")

        t = _best(build)
        total_t += t
        total_bytes += len(buf.getvalue())
        mode = "bw" if bw else "colour"
        print(f"| all 9 sheets, {paper}, side {variant}, {mode} | {REPEATS} | {t * 1000:.0f} ms "
              f"| {len(buf.getvalue()) / 1024:.0f} KiB |")
    print(f"| **full set: 8 PDFs, 80 pages** | | **{total_t:.2f} s** | "
          f"{total_bytes / 1024:.0f} KiB |")
    t = _best(lambda: [layouts.geometry(n, p, v) for n in layouts.SHEET_NAMES for p in PAPERS
                       for v in VARIANTS])
    print(f"| geometry of all 36 sheet/paper/variant | {REPEATS} | {t * 1000:.0f} ms | |")
    t = _best(lambda: layouts.render_image("delicious-combo", dpi=150))
    print(f"| delicious-combo to 150 dpi image | {REPEATS} | {t * 1000:.0f} ms | |")


if __name__ == "__main__":
    main()
