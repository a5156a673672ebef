"""Every ``--json`` output of the CLI on the files in ``examples/``, byte for byte.

The recorded outputs in ``tests/golden/`` are what the commands printed before the games
were gathered into one registry; a refactoring must leave them alone. Regenerate them
only for a change meant to alter an output (``COMPANION_GOLDEN_WRITE=1 pytest
tests/test_examples_golden.py``), in a commit that names what changed.

The one thing normalised is ``"seconds"`` (a photo's reading time), which is never the
same twice. Photo reads also print confidences, which a new release of OpenCV or NumPy
moves in the last printed digit (OpenCV 5.1.0 moved 0.9964 to 0.9963 on one field): where
the text differs, the documents are compared again with photo confidences allowed to
differ by CONFIDENCE_DRIFT, and every other value (each letter read, every score, every
key and its order) still exactly.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from companion.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"
WRITE = os.environ.get("COMPANION_GOLDEN_WRITE") == "1"
_SECONDS = re.compile(r'"seconds": [0-9.eE+-]+')
CONFIDENCE_DRIFT = 0.002  # largest change of a printed confidence between library releases


def _same(got: object, want: object, where: str = "") -> str | None:
    """Where two documents differ beyond confidence drift (None if they do not)."""
    if isinstance(want, float) and isinstance(got, float) and "onfidence" in where:
        return None if abs(got - want) <= CONFIDENCE_DRIFT else where
    if type(got) is not type(want):
        return where
    if isinstance(want, dict):
        assert isinstance(got, dict)
        if list(got) != list(want):
            return where
        return next((d for k in want if (d := _same(got[k], want[k], f"{where}.{k}"))), None)
    if isinstance(want, list):
        assert isinstance(got, list)
        if len(got) != len(want):
            return where
        return next((d for i, (g, w) in enumerate(zip(got, want, strict=True))
                     if (d := _same(g, w, f"{where}[{i}]"))), None)
    return None if got == want else where


class Case(NamedTuple):
    """One command line, run from the repository root; ``slow`` when it reads photos."""

    name: str
    args: tuple[str, ...]
    slow: bool = False


def _case(name: str, *args: str, slow: bool = False) -> Case:
    return Case(name, args, slow)


SHEETS = ("delicious-garden", "delicious-play", "delicious-combo", "delicious-scorepad",
          "diced-veggies-mat", "diced-veggies-scorepad", "dulce-scorepad",
          "wild-gardens-scorepad", "deli-duel-scorepad")
DEL = "examples/delicious"
PHOTOS = f"{DEL}/photos"
DICE = "examples/dice"
DICE_PHOTOS = f"{DICE}/photos"
DULCE = "examples/dulce"

CASES: list[Case] = [
    _case("sheets-list", "sheets", "list", "--json"),
    *(_case(f"sheets-geometry-{s}", "sheets", "geometry", s, "--json") for s in SHEETS),
    _case("sheets-geometry-garden-a4-B", "sheets", "geometry", "delicious-garden",
          "--paper", "a4", "--variant", "B", "--json"),
    _case("sheets-geometry-combo-B", "sheets", "geometry", "delicious-combo",
          "--variant", "B", "--json"),
    _case("delicious-garden-A", "delicious", "garden", "--json"),
    _case("delicious-garden-B", "delicious", "garden", "--variant", "B", "--json"),
    _case("delicious-simulate-7", "delicious", "simulate", "--seed", "7", "--players", "3",
          "--json"),
    _case("delicious-score-table", "delicious", "score",
          *(f"{DEL}/seed7-player{i}.json" for i in (1, 2, 3)), "--json"),
    *(_case(f"delicious-score-player{i}", "delicious", "score",
            f"{DEL}/seed7-player{i}.json", "--json") for i in (1, 2, 3)),
    _case("delicious-read-table", "delicious", "read", f"{PHOTOS}/combo-good-light.jpg",
          f"{PHOTOS}/combo-tilted-shadow.jpg", f"{PHOTOS}/garden-player3.jpg",
          f"{PHOTOS}/play-player3.jpg", "--json", slow=True),
    _case("delicious-read-table-set", "delicious", "read", f"{PHOTOS}/combo-good-light.jpg",
          f"{PHOTOS}/combo-tilted-shadow.jpg", f"{PHOTOS}/garden-player3.jpg",
          f"{PHOTOS}/play-player3.jpg", "--set", "2:garden.wheelbarrow.r0.c2=C", "--json",
          slow=True),
    _case("delicious-read-upside-down-B", "delicious", "read",
          f"{PHOTOS}/combo-upside-down-B.jpg", "--json", slow=True),
    _case("delicious-read-garden-alone", "delicious", "read", f"{PHOTOS}/garden-player3.jpg",
          "--json", slow=True),
    *(_case(f"dice-read-{p}", "dice", "read", f"{DICE_PHOTOS}/{p}.jpg", "--json", slow=True)
      for p in ("mat-dark-pips", "mat-full", "pair-after-turned", "pair-before",
                "table-after-cuts", "table-full")),
    *(_case(f"dice-cuts-{b}", "dice", "cuts", f"{DICE}/{b}.json", "--json")
      for b in ("block-full", "block-after-cuts", "block-take-all", "before", "after")),
    _case("dice-cuts-block-full-full-only", "dice", "cuts", f"{DICE}/block-full.json",
          "--full-only", "--json"),
    _case("dice-cuts-block-full-kids", "dice", "cuts", f"{DICE}/block-full.json", "--kids",
          "--json"),
    _case("dice-cuts-mat-full", "dice", "cuts", f"{DICE_PHOTOS}/mat-full.jpg", "--json",
          slow=True),
    _case("dice-cuts-table-after-cuts", "dice", "cuts", f"{DICE_PHOTOS}/table-after-cuts.jpg",
          "--json", slow=True),
    *(_case(f"dice-check-block-full-{c}", "dice", "check", f"{DICE}/block-full.json",
            "--cut", c, "--json") for c in ("V3L", "V3T2R", "H1L4D", "V1L", "H2U")),
    _case("dice-check-before-after", "dice", "check", f"{DICE}/before.json",
          f"{DICE}/after.json", "--json"),
    _case("dice-check-photo-pair", "dice", "check", f"{DICE_PHOTOS}/pair-before.jpg",
          f"{DICE_PHOTOS}/pair-after-turned.jpg", "--json", slow=True),
    _case("dice-check-photo-cut", "dice", "check", f"{DICE_PHOTOS}/mat-full.jpg",
          "--cut", "V3L", "--json", slow=True),
    _case("dice-score", "dice", "score", f"{DICE}/final-state.json", "--json"),
    _case("dulce-score-order", "dulce", "score-order", f"{DULCE}/score-order.json", "--json"),
    _case("dulce-best-harvest", "dulce", "best-harvest", f"{DULCE}/best-harvest.json",
          "--json"),
    _case("dulce-plant-legal", "dulce", "plant", f"{DULCE}/plant.json", "--card", "24",
          "--at", "0,1", "--json"),
    _case("dulce-plant-off-board", "dulce", "plant", f"{DULCE}/plant.json", "--card", "24",
          "--at", "3,3", "--json"),
    _case("dulce-plant-rotated", "dulce", "plant", f"{DULCE}/plant.json", "--card", "24",
          "--at", "2,2", "--rotate", "90", "--json"),
    _case("dulce-final", "dulce", "final", f"{DULCE}/final.json", "--json"),
    _case("dulce-final-eggs-first", "dulce", "final", f"{DULCE}/final.json", "--tiebreak",
          "eggs-first", "--json"),
    _case("wild-gardens-score", "wild-gardens", "score", "examples/wild-gardens/score.json",
          "--json"),
    _case("deli-duel-check-file", "deli-duel", "check", "--file",
          "examples/deli-duel/check.json", "--json"),
    _case("deli-duel-check-args", "deli-duel", "check", "white-bread+cheese+tomato",
          "rye-bread+ham+mayo", "--play", "wild,cheese,rye-bread", "--json"),
    _case("deli-duel-winner", "deli-duel", "winner", "examples/deli-duel/winner.json",
          "--json"),
    *(_case(f"deli-duel-setup-{n}", "deli-duel", "setup", "--players", str(n), "--json")
      for n in range(2, 7)),
    _case("deli-duel-deck", "deli-duel", "deck", "--json"),
    _case("deli-duel-deck-demo", "deli-duel", "deck", "--demo-pack", "--json"),
]


def _run(case: Case) -> str:
    """``exit N`` then the command's stdout, its reading times blanked."""
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, list(case.args))
    finally:
        os.chdir(cwd)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return f"exit {result.exit_code}\n" + _SECONDS.sub('"seconds": 0', result.stdout)


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c.name, marks=[pytest.mark.slow] if c.slow else [])
             for c in CASES])
def test_example_output_unchanged(case: Case) -> None:
    path = GOLDEN / f"{case.name}.txt"
    out = _run(case)
    if WRITE:
        path.write_text(out)
    expected = path.read_text()
    assert out.startswith("exit ")
    doc = json.loads(out.partition("\n")[2])  # one JSON document on stdout
    if out != expected:
        assert out.partition("\n")[0] == expected.partition("\n")[0], case.name
        where = _same(doc, json.loads(expected.partition("\n")[2]))
        assert where is None, f"{case.name}: output differs from {path} at {where}"


def test_confidence_drift_is_the_only_leeway() -> None:
    want = {"confidence": {"a": 0.9964}, "values": {"a": "carrot"}, "score": 41.5}
    assert _same({"confidence": {"a": 0.9963}, "values": {"a": "carrot"}, "score": 41.5},
                 want) is None
    assert _same({"confidence": {"a": 0.9}, "values": {"a": "carrot"}, "score": 41.5},
                 want) == ".confidence.a"
    assert _same({"confidence": {"a": 0.9964}, "values": {"a": "pepper"}, "score": 41.5},
                 want) == ".values.a"
    assert _same({"confidence": {"a": 0.9964}, "values": {"a": "carrot"}, "score": 41.6},
                 want) == ".score"


def test_every_golden_file_has_its_case() -> None:
    names = {c.name for c in CASES}
    assert len(names) == len(CASES)
    assert {p.stem for p in GOLDEN.glob("*.txt")} <= names
