"""Commands import only what they use: the pure ones never load the vision or print stack."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import click
import pytest

from companion.cli import SUBCOMMANDS, main
from companion.cli.lazy import LazyGroup

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HEAVY = ("cv2", "reportlab", "pypdfium2", "onnx", "onnxruntime", "layouts", "zxingcpp")

# Runs one command in a fresh interpreter and prints the heavy top-level modules it loaded.
_PROBE = """
import sys
from companion.cli import main
try:
    main(sys.argv[2:], standalone_mode=False)
except SystemExit:
    pass
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1].split(",")))
print("LOADED", ",".join(loaded), file=sys.stderr)
"""


def _ex(*parts: str) -> str:
    return str(EXAMPLES.joinpath(*parts))


_PROBE_DATA = str(Path(tempfile.gettempdir()) / "companion-startup-probe")  # a scratch store

LIGHT_COMMANDS = [
    ["--version"],
    ["--help"],
    ["delicious", "--help"],
    ["dice", "--help"],
    ["dulce", "score-order", _ex("dulce", "score-order.json")],
    ["dulce", "best-harvest", _ex("dulce", "best-harvest.json")],
    ["dulce", "plant", _ex("dulce", "plant.json"), "--card", "1", "--at", "0,0"],
    ["dulce", "final", _ex("dulce", "final.json")],
    ["wild-gardens", "score", _ex("wild-gardens", "score.json")],
    ["deli-duel", "winner", _ex("deli-duel", "winner.json")],
    ["deli-duel", "deck"],
    ["deli-duel", "setup", "--players", "3"],
    ["dice", "cuts", _ex("dice", "block-full.json")],
    ["dice", "check", _ex("dice", "before.json"), _ex("dice", "after.json")],
    ["delicious", "score", _ex("delicious", "seed7-player1.json")],
    ["delicious", "garden", "--json"],
    ["serve", "--help"],
    ["history", "--data", _PROBE_DATA],
    ["standings", "--data", _PROBE_DATA],
    ["players", "list", "--data", _PROBE_DATA],
    ["export", "--format", "bgstats", "-o", "-", "--data", _PROBE_DATA],
    ["dulce", "final", _ex("dulce", "final.json"), "--save", "--data", _PROBE_DATA],
]


def _loaded(args: list[str]) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, ",".join(HEAVY), *args],
                          capture_output=True, text=True, timeout=60, check=False)
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("LOADED")]
    assert lines, done.stderr
    return [m for m in lines[-1].removeprefix("LOADED").strip().split(",") if m]


@pytest.mark.parametrize("args", LIGHT_COMMANDS, ids=" ".join)
def test_pure_commands_import_no_vision_or_print_stack(args: list[str]) -> None:
    assert _loaded(args) == []


def test_the_probe_sees_heavy_imports() -> None:
    """The check above could not pass by accident: a photo command does load OpenCV."""
    assert "cv2" in _loaded(["dice", "read", _ex("dice", "photos", "mat-full.jpg")])


def _lazy_groups() -> list[tuple[str, LazyGroup]]:
    ctx = click.Context(main)
    groups: list[tuple[str, LazyGroup]] = [("companion", main)]  # type: ignore[list-item]
    for name in SUBCOMMANDS:
        sub = main.get_command(ctx, name)
        if isinstance(sub, LazyGroup):
            groups.append((name, sub))
    return groups


def test_listed_summaries_are_the_commands_own() -> None:
    """`--help` shows the stored one-liners without importing; they must not drift."""
    for _, group in _lazy_groups():
        for name, entry in group.lazy.items():
            assert entry.load().get_short_help_str(1000) == entry.summary, name


def test_python_dash_m_companion_names_itself_companion() -> None:
    """`python -m companion` (docs/getting-started.md) says `companion` in its errors and
    help, not click's guess `python -m companion` cut to "-m companion"."""
    done = subprocess.run([sys.executable, "-m", "companion", "dice", "check",
                           _ex("dice", "block-full.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("companion: error: dice check: give BEFORE"), done.stderr
    assert done.stderr.rstrip().endswith("(see companion dice check --help)"), done.stderr
