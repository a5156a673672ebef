"""A player's drawings named once, kept for their next sheets (``delicious read
--save-drawings FILE`` / ``--drawings FILE``).

A player draws a carrot the same way all game, and the next game too: the drawings of an
earlier sheet whose plant is known (a question answered, a field set by hand, a group the
reader trusted) are examples of that player's own hand. A later group of drawings alike
to one plant's examples (within ``group_own``, chosen on calib players' second sheets),
each drawing and on average, and to no other plant's, is named by them with no question;
a group the network trusts that they name otherwise is asked. The looks are the sketch
network's features, so a file is only used with the network that wrote it.
The file format is in docs/formats.md ("Player drawings").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import InputError
from companion.fileio import load_own_file, save_own_file
from companion.games.delicious.players import OWN_EARLIER
from companion.vision.sheet.constants_sketches import (
    OWN_DRAWING_CONFIDENCE,
    OWN_DRAWINGS_PER_PLANT,
    SKETCH_PLANTS,
)
from companion.vision.sheet.drawing_groups import DrawingEvidence, DrawingGroup

FORMAT = "companion-drawings"
VERSION = 1
_DIGITS = 4  # features are unit-length; 4 decimals move a cosine distance by < 1e-3


@dataclass(frozen=True)
class OwnDrawings:
    """Per plant, the looks (unit-length sketch-network features, newest first) of one
    player's named drawings, and the network (``model_fingerprint``) that saw them."""

    model: str
    looks: Mapping[str, np.ndarray]  # plant -> (n, d)

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.looks.values())

    def plants(self) -> list[str]:
        return [p for p in SKETCH_PLANTS if p in self.looks]

    def with_newer(self, newer: OwnDrawings) -> OwnDrawings:
        """These drawings with ``newer``'s first, OWN_DRAWINGS_PER_PLANT kept per plant
        (a newer network's looks replace an older one's: the two do not compare). A look
        kept already is not kept twice (one sheet saved again, a table saved twice), and
        a drawing named anew is kept under its new name only (a group corrected after a
        table was saved)."""
        if newer.model != self.model:
            return newer
        fresh = [r for a in newer.looks.values() for r in a]
        out = {}
        for p in SKETCH_PLANTS:
            old = [r for r in self.looks.get(p, ()) if not any(_same(r, f) for f in fresh)]
            rows = [*newer.looks.get(p, ()), *old]
            if rows:
                out[p] = _distinct(np.stack(rows))[:OWN_DRAWINGS_PER_PLANT]
        return OwnDrawings(self.model, out)

    def name(self, looks: Sequence[np.ndarray], allowed: Iterable[str], distance: float
             ) -> str | None:
        """The one plant among ``allowed`` whose earlier drawings the ``looks`` (one
        group's) are within ``distance`` of (mean cosine distance, for the group and for
        each drawing), while no other plant's are; None otherwise."""
        feats = np.stack([np.asarray(v, np.float64) for v in looks])
        near = []
        for plant, mine in self.looks.items():
            if mine.shape[1] != feats.shape[1]:
                return None
            d = 1.0 - feats @ mine.T
            if float(d.mean()) <= distance and float(d.mean(axis=1).max()) <= distance:
                near.append(plant)
        if len(near) != 1 or near[0] not in set(allowed):
            return None
        return near[0]

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "model": self.model,
                "plants": {p: [[round(float(x), _DIGITS) for x in row] for row in self.looks[p]]
                           for p in self.plants()}}

    @classmethod
    def from_json(cls, doc: Any) -> OwnDrawings:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise InputError(f'not a drawings file (expected "format": "{FORMAT}")')
        if doc.get("version") != VERSION:
            raise InputError(f"drawings file version {doc.get('version')!r} is not {VERSION}")
        model, plants = doc.get("model"), doc.get("plants")
        if not isinstance(model, str) or not isinstance(plants, dict):
            raise InputError('a drawings file needs "model" (text) and "plants" (an object)')
        looks: dict[str, np.ndarray] = {}
        width = None
        for plant, rows in plants.items():
            if plant not in SKETCH_PLANTS:
                raise InputError(f"drawings file: {plant!r} is not a plant "
                                 f"({', '.join(SKETCH_PLANTS)})")
            try:
                arr = np.asarray(rows, np.float64)
            except (TypeError, ValueError):
                arr = np.zeros((0,))
            if (arr.ndim != 2 or not 1 <= len(arr) <= OWN_DRAWINGS_PER_PLANT
                    or not np.isfinite(arr).all() or (width is not None and arr.shape[1] != width)):
                raise InputError(f'drawings file: "{plant}" needs 1 to '
                                 f"{OWN_DRAWINGS_PER_PLANT} rows of numbers of one length")
            width = arr.shape[1]
            norms = np.linalg.norm(arr, axis=1, keepdims=True)
            if not all(math.isclose(float(n), 1.0, abs_tol=0.01) for n in norms[:, 0]):
                raise InputError(f'drawings file: "{plant}" has a row that is not a look '
                                 "(length 1)")
            looks[plant] = arr / norms
        return cls(model, looks)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """One drawing's look twice (equal to the file's rounding)."""
    return a.shape == b.shape and float(np.abs(a - b).max()) <= 10.0 ** -_DIGITS


def _distinct(rows: np.ndarray) -> np.ndarray:
    """``rows`` without the repeats of an earlier row."""
    kept: list[np.ndarray] = []
    for r in rows:
        if not any(_same(r, k) for k in kept):
            kept.append(r)
    return np.stack(kept)


def drawings_from(named: Iterable[tuple[str, np.ndarray]], model: str) -> OwnDrawings:
    """The drawings file's content from (plant, look) pairs, in the order given."""
    by_plant: dict[str, list[np.ndarray]] = {}
    for plant, look in named:
        if plant in SKETCH_PLANTS:
            by_plant.setdefault(plant, []).append(np.asarray(look, np.float64))
    return OwnDrawings(model, {p: np.stack(v[:OWN_DRAWINGS_PER_PLANT])
                               for p, v in by_plant.items()})


def load_drawings(path: str | Path) -> OwnDrawings:
    return load_own_file(path, "drawings", OwnDrawings.from_json)


def save_drawings_file(drawings: OwnDrawings, path: str | Path) -> None:
    save_own_file(path, drawings.to_json(), "drawings")


def name_by_own(groups: Sequence[DrawingGroup], drawn: Mapping[str, DrawingEvidence],
                own: OwnDrawings, distance: float, source: str = OWN_EARLIER
                ) -> list[DrawingGroup]:
    """``groups`` with the player's named drawings' word (``source``: OWN_KEY or
    OWN_EARLIER): a group of drawings they name (``OwnDrawings.name``) is trusted as that
    plant at OWN_DRAWING_CONFIDENCE (or kept, a trusted group they agree with); a trusted
    group they name otherwise becomes a question guessing their plant. Letter groups and
    groups they do not name are left alone."""
    out = []
    for g in groups:
        plant = None
        if g.what == "drawing":
            plant = own.name([drawn[f].features for f in g.fields], g.choices, distance)
        if plant is None or (g.trusted and plant == g.guess):
            out.append(g)
        elif g.trusted:
            out.append(replace(g, guess=plant, trusted=False))
        else:
            out.append(replace(g, guess=plant, trusted=True,
                               confidence=OWN_DRAWING_CONFIDENCE, own=source))
    return out


def named_drawings(player: Any, model: str) -> OwnDrawings:
    """The drawings of one player's reading (a ``PlayerReading``) whose plant is known:
    set by hand (an answered question is its fields set by hand), or read and not in
    review (a trusted group); then those of their sheets' keys."""
    hand = {fid for fid, _ in player.corrections}
    final = player.readings
    named = []
    for fid, r in player.grouped_readings.items():
        ev = getattr(r, "drawing", None)
        got = final[fid]
        if ev is not None and got.value is not None and (fid in hand or not got.review):
            named.append((got.value, ev.features))
    for sheet in player.sheets:
        key = getattr(sheet, "key_drawings", None)
        if key is not None and key.model == model:
            named += [(p, row) for p in key.plants() for row in key.looks[p]]
    return drawings_from(named, model)
