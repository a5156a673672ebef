"""Command start-up: wall seconds of short commands against a bare ``import click``.

Each command is a fresh process, as a user's shell starts it; the runs are interleaved
round by round so that the machine's noise falls on every row alike. The target is
``companion --version`` at most 1.5 times ``python -c "import click"``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROUNDS = 21
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# The console script a user's shell runs; ``python -m companion`` where it is not installed.
_SCRIPT = Path(sys.executable).with_name("companion")
_COMPANION = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "companion"]

COMMANDS: tuple[tuple[str, list[str]], ...] = (
    ('python -c "import click"', [sys.executable, "-c", "import click"]),
    ("companion --version", [*_COMPANION, "--version"]),
    ("companion --help", [*_COMPANION, "--help"]),
    ("companion dulce score-order", [*_COMPANION, "dulce", "score-order",
                                     str(EXAMPLES / "dulce" / "score-order.json")]),
    ("companion dice cuts BLOCK.json", [*_COMPANION, "dice", "cuts",
                                        str(EXAMPLES / "dice" / "block-full.json")]),
    ("companion delicious score", [*_COMPANION, "delicious", "score",
                                   str(EXAMPLES / "delicious" / "seed7-player1.json")]),
)


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    times: dict[str, list[float]] = {name: [] for name, _ in COMMANDS}
    for _ in range(ROUNDS):
        for name, argv in COMMANDS:
            times[name].append(_wall(argv))
    base = statistics.median(times[COMMANDS[0][0]])
    print(f"| command ({ROUNDS} runs each, interleaved) | median s | p90 s | x import click |")
    print("|---|---|---|---|")
    for name, _ in COMMANDS:
        runs = sorted(times[name])
        med = statistics.median(runs)
        p90 = runs[int(0.9 * (len(runs) - 1))]
        print(f"| {name} | {med:.3f} | {p90:.3f} | {med / base:.2f} |")


if __name__ == "__main__":
    main()
