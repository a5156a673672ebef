"""A game's own dice colours: learnt once from its full starting block, then used to read
every later photo of the game (``companion dice read --save-colours`` / ``--colours``).

The colours are each family's centre as log-chromaticity (ln R/G, ln B/G) relative to the
photo's white, and how widely that family's dice scatter about it. What a box of dice
looks like under one lamp is then the table's own, not our guess of it. The file format
is in docs/formats.md ("Dice colours").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import InputError
from companion.fileio import load_own_file, save_own_file
from companion.vision.dice import constants as C
from companion.vision.dice.colour import DICE_PER_FAMILY, INGREDIENT_NAMES

FORMAT = "companion-dice-colours"
VERSION = 1
_GAUSS_MEDIAN_RADIUS = math.sqrt(2.0 * math.log(2.0))
DOUBTFUL_LIGHT = "colour-light-doubtful"  # the reader's flag (doubt_words.py)


@dataclass(frozen=True)
class DiceColours:
    """Each family's centre (relative to white) and scatter (COLOUR_SPREAD units, >= 1)."""

    centres: np.ndarray  # (5, 2) in INGREDIENT_NAMES order
    scatter: np.ndarray  # (5,)
    white: str = "pips"  # where the teaching photo's white came from: paper, pips or photo

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "white": self.white,
            "families": {
                name: {"ln_r_g": round(float(c[0]), 4), "ln_b_g": round(float(c[1]), 4),
                       "scatter": round(float(s), 3)}
                for name, c, s in zip(INGREDIENT_NAMES, self.centres, self.scatter, strict=True)
            },
        }

    @classmethod
    def from_json(cls, doc: Any) -> DiceColours:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise InputError(f'not a dice colours file (expected "format": "{FORMAT}")')
        if doc.get("version") != VERSION:
            raise InputError(f"dice colours version {doc.get('version')!r} is not {VERSION}")
        fams = doc.get("families")
        if not isinstance(fams, dict) or set(fams) != set(INGREDIENT_NAMES):
            raise InputError("dice colours need exactly the five families: "
                             + ", ".join(INGREDIENT_NAMES))
        centres, scatter = [], []
        for name in INGREDIENT_NAMES:
            f = fams[name]
            try:
                vals = [float(f[k]) for k in ("ln_r_g", "ln_b_g", "scatter")]
            except (TypeError, KeyError, ValueError):
                raise InputError(f'dice colours: "{name}" needs numbers ln_r_g, ln_b_g and '
                                 "scatter") from None
            if not all(math.isfinite(v) for v in vals) or vals[2] <= 0:
                raise InputError(f'dice colours: "{name}" has a value out of range')
            centres.append(vals[:2])
            scatter.append(vals[2])
        white = doc.get("white", "pips")
        return cls(np.array(centres), np.array(scatter), str(white))


def colours_from(rel: np.ndarray, names: list[str], white: str) -> DiceColours:
    """The colours of a full starting block's dice: ``rel`` their colours (relative to
    white), ``names`` their families, 7 of each; a few dice may have been missed (at
    least LEARN_MIN_DICE read, LEARN_MIN_EACH to 7 of each family)."""
    counts = {n: names.count(n) for n in INGREDIENT_NAMES}
    per = DICE_PER_FAMILY
    if (len(names) < C.LEARN_MIN_DICE
            or any(not C.LEARN_MIN_EACH <= v <= per for v in counts.values())):
        got = ", ".join(f"{v} {n}" for n, v in counts.items())
        raise InputError(f"not a full starting block: {len(names)} dice read ({got}); the "
                         f"colours are learnt from the {C.FULL_BLOCK_DICE} dice of a full "
                         f"block, {per} of each")
    centres, scatter = [], []
    arr = np.array(names)
    for n in INGREDIENT_NAMES:
        mine = rel[arr == n]
        c = np.median(mine, axis=0)
        spread = float(np.median(np.linalg.norm(mine - c, axis=1))) / C.COLOUR_SPREAD
        centres.append(c)
        scatter.append(max(1.0, spread / _GAUSS_MEDIAN_RADIUS))
    return DiceColours(np.array(centres), np.array(scatter), white)


def learn_colours(reading: Any) -> DiceColours:
    """The colours of the full starting block a ``DiceReading`` read (InputError when it
    is not one: 35 dice, 7 of each; or when the light left its families' naming in doubt)."""
    if any(DOUBTFUL_LIGHT in d.flags for d in reading.dice):
        # another naming of the five groups fits this light nearly as well: teaching it
        # would make every later photo of the game as wrong as this one may be
        raise InputError("the dice colours were not learnt: under this light some "
                         "families could be named either way (a photo of the full block "
                         "in whiter light, or on the mat, can teach them)")
    rel = np.array([d.colour for d in reading.dice], np.float64).reshape(-1, 2)
    return colours_from(rel, [d.ingredient.value for d in reading.dice], reading.white)


def load_colours(path: str | Path) -> DiceColours:
    return load_own_file(path, "dice colours", DiceColours.from_json)


def save_colours_file(colours: DiceColours, path: str | Path) -> None:
    save_own_file(path, colours.to_json(), "dice colours", indent=2)
