"""``make bench``: run every area's benchmark in turn, print its tables, and rewrite them
on docs/benchmarks.md.

Each ``bench_<area>.py`` beside this file has a ``main()`` printing Markdown tables. They
run in one process, one after another, so figures from one run are comparable side by
side. The page keeps each area's tables between ``<!-- bench:<area>:start -->`` and
``<!-- bench:<area>:end -->``, and one row per area saying when and on what it last ran,
so it holds the current figures only (their history is in CHANGELOG.md).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib
import importlib.util
import io
import os
import platform
import sys
import time
from pathlib import Path
from typing import TextIO

BENCHES = (
    ("Command start-up", "tools.bench_startup"),
    ("Sheets: building PDFs", "tools.bench_sheets"),
    ("Delicious engine", "tools.bench_delicious_engine"),
    ("Letters: ours vs tesseract", "tools.bench_letters"),
    ("Delicious photo reader", "tools.bench_reader"),
    ("Delicious photos with glare", "tools.bench_glare"),
    ("Delicious photos with something on the sheet", "tools.bench_cover"),
    ("Delicious photos of bent paper", "tools.bench_bent"),
    ("Delicious sketched sheets", "tools.bench_sketch"),
    ("Diced Veggies: cuts", "tools.bench_dice_cuts"),
    ("Diced Veggies: dice photos", "tools.bench_dice_vision"),
    ("Dulce: score-order and best harvest", "tools.bench_dulce"),
    ("Game night server: upload to score", "tools.bench_serve"),
    ("Game night server: phones at once", "tools.bench_load"),
    ("Play over video: 100 remote players", "tools.bench_remote"),
    ("History and standings", "tools.bench_history"),
    ("Store under kill -9", "tools.bench_durability"),
    ("Reader speed: warm, one thread, by stage", "tools.bench_speed"),
)


PAGE = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
MEASURED = "measured"  # the block of the page saying when and where each area last ran


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- bench:{name}:start -->", f"<!-- bench:{name}:end -->"


def replace_between_markers(text: str, name: str, table: str) -> str:
    """``text`` with whatever lies between ``name``'s two markers replaced by ``table``."""
    start, end = _markers(name)
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"the page has no {start} ... {end} block")
    return f"{text[:i + len(start)]}\n{table.strip(chr(10))}\n{text[j:]}"


def between_markers(text: str, name: str) -> str:
    """What lies between ``name``'s markers (ValueError if they are missing)."""
    start, end = _markers(name)
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"the page has no {start} ... {end} block")
    return text[i + len(start):j].strip("\n")


def markdown_tables(output: str) -> str:
    """The Markdown tables in a benchmark's printed output, in order, a blank line apart."""
    tables: list[list[str]] = []
    current: list[str] = []
    for line in [*output.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            current.append(line.strip())
        elif current:
            tables.append(current)
            current = []
    return "\n\n".join("\n".join(t) for t in tables)


def with_measured_row(table: str, area: str, when: str, machine: str) -> str:
    """The when-and-where table with ``area``'s row replaced (or added at the end)."""
    row = f"| {area} | {when} | {machine} |"
    lines = table.splitlines()
    for k, line in enumerate(lines):
        if line.split("|")[1:2] == [f" {area} "]:
            lines[k] = row
            break
    else:
        lines.append(row)
    return "\n".join(lines)


def machine() -> str:
    """CPU model, cores and load, as the page states where figures were measured."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = f", load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return f"{model}, {os.cpu_count()} cores{load}"


def area_of(module: str) -> str:
    return module.rsplit(".", 1)[-1].removeprefix("bench_")


class _Tee(io.TextIOBase):
    """Prints as usual and keeps a copy, so the page gets what the terminal showed."""

    def __init__(self, out: TextIO) -> None:
        self.out, self.copy = out, io.StringIO()

    def write(self, s: str) -> int:
        self.copy.write(s)
        return self.out.write(s)

    def flush(self) -> None:
        self.out.flush()


def write_page(page: Path, area: str, output: str) -> bool:
    """Put one area's printed tables on the page; False if it printed none."""
    tables = markdown_tables(output)
    if not tables:
        return False
    text = replace_between_markers(page.read_text(), area, tables)
    when = datetime.date.today().isoformat()
    measured = with_measured_row(between_markers(text, MEASURED), area, when, machine())
    page.write_text(replace_between_markers(text, MEASURED, measured))
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run the benchmarks and print their tables.")
    parser.add_argument("areas", nargs="*", help="run only these (e.g. reader dulce)")
    parser.add_argument("--no-page", action="store_true",
                        help=f"do not rewrite {PAGE.parent.name}/{PAGE.name}")
    args = parser.parse_args(argv)
    for title, module in BENCHES:
        if args.areas and not any(w in module for w in args.areas):
            continue
        if importlib.util.find_spec(module) is None:
            continue
        mod = importlib.import_module(module)
        print(f"\n## {title}\n", flush=True)
        start = time.perf_counter()
        saved, sys.argv = sys.argv, [module]
        tee = _Tee(sys.stdout)
        try:
            with contextlib.redirect_stdout(tee):
                mod.main()
        finally:
            sys.argv = saved
        print(f"\n({time.perf_counter() - start:.1f} s)", flush=True)
        if not args.no_page and PAGE.exists():
            area, where = area_of(module), f"{PAGE.parent.name}/{PAGE.name}"
            try:
                wrote = write_page(PAGE, area, tee.copy.getvalue())
            except ValueError as exc:
                print(f"({where} not rewritten: {exc})", flush=True)
            else:
                print(f"({'rewrote' if wrote else 'no table for'} {area} on {where})",
                      flush=True)


if __name__ == "__main__":
    main()
