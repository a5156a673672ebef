"""What one field of a photographed Delicious sheet was read as, shared by the reader
(reader.py) and the settling of a player's drawings and letters (settle.py), so that
neither imports the other."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from companion.games.delicious.symbols import FRUIT_LETTERS, VEGETABLE_LETTERS
from companion.paper.model import FieldKind
from companion.vision.sheet.constants import REVIEW_BELOW
from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
from companion.vision.sheet.decide import Candidates
from companion.vision.sheet.drawing_groups import DrawingEvidence

LETTER_VALUES: dict[FieldKind, dict[str, str]] = {
    FieldKind.VEGETABLE: {letter: v.value for v, letter in VEGETABLE_LETTERS.items()},
    FieldKind.FRUIT: {letter: f.value for f, letter in FRUIT_LETTERS.items()},
}
# The note of a letter field sent to review for its letter alone (tools/fit_letter_sheets.py
# recognises it).
LETTER_DOUBT_NOTE = "letter not clear enough to be sure"
# The note of a cell that holds a drawing, before its group is read (drawing_groups.py).
DRAWING_NOTE = "a drawing, not a letter: named with the player's alike drawings"

PLANTS_OF_KIND: dict[FieldKind, tuple[str, ...]] = {
    FieldKind.VEGETABLE: VEGETABLE_PLANTS, FieldKind.FRUIT: FRUIT_PLANTS}
# The note of a letter sure enough on its own but read between the same two letters as a
# doubtful one of the same sheet (letter_pairs.py).
LETTER_PAIR_NOTE = "these two letters look alike elsewhere in this hand"
# A letter field's value from its letter, whatever the kind (a B is broccoli or blueberry).
LETTER_OF_VALUE = {v: letter for values in LETTER_VALUES.values()
                    for letter, v in values.items()}


@dataclass(frozen=True)
class FieldReading:
    """One field's reading: the value (None = empty), its confidence, the alternatives."""

    id: str
    kind: FieldKind
    value: str | None
    confidence: float
    candidates: tuple[tuple[str | None, float], ...]
    shift_px: tuple[int, int] = (0, 0)
    note: str = ""
    # a drawing's evidence, for reading it with the player's alike drawings (None: a letter,
    # a mark or nothing; never in any JSON)
    drawing: DrawingEvidence | None = field(default=None, repr=False, compare=False)
    group: str = field(default="", compare=False)  # its group of alike cells, if any
    # a letter's look to the letter network (unit-length hidden features), for asking a
    # player's alike doubtful letters once (letter_groups.py; never in any JSON)
    letter_look: np.ndarray | None = field(default=None, repr=False, compare=False)
    # a cell read as a letter: its evidence as a drawing, for a player who draws
    # (settle_drawings; never in any JSON)
    as_drawing: DrawingEvidence | None = field(default=None, repr=False, compare=False)

    @property
    def review(self) -> bool:
        return self.confidence < REVIEW_BELOW

    @property
    def written_share(self) -> float:
        """The value's probability among the written candidates (the blank's left out): for
        a letter, how sure the letter reader is of it among the field's letters."""
        written = sum(p for v, p in self.candidates if v is not None)
        own = sum(p for v, p in self.candidates if v == self.value)
        return own / written if written > 0 else 0.0

    def set_by_hand(self, value: str | None) -> FieldReading:
        """The same field holding ``value`` for certain (a correction by hand)."""
        return FieldReading(self.id, self.kind, value, 1.0, ((value, 1.0),), self.shift_px,
                            "set by hand")


def written_candidates(p: float, values: Iterable[tuple[str, float]]) -> Candidates:
    """A written cell's candidates: blank with 1 - ``p`` (``p``: written), else its values
    in their shares of ``p``."""
    return ((None, 1 - p), *((v, p * q) for v, q in values))
