"""A player's doubtful letters grouped by likeness, so each group is asked once.

One player writes every letter of their garden and play sheets and writes a letter the
same way all game, so a C the network doubts once it tends to doubt every time. The
player's letters in review that read as the same plant and look alike in the letter
network's own view of them (its last hidden layer) are one question: one tap names them
all. A doubtful letter read as another plant, or unlike the others, is a question of its
own, and vegetable and fruit cells are never grouped together (a B is broccoli in one,
blueberry in the other). Letters the reader trusts are left alone: a group only ever
gathers fields that are in review anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from companion.vision.sheet.constants_letters import LETTER_GROUP_DISTANCE
from companion.vision.sheet.drawing_groups import DrawingGroup, alike_clusters


@dataclass(frozen=True)
class LetterLook:
    """A letter cell in review as the reader saw it: its kind, the plant its letter reads
    as, how sure, and the letter network's unit-length features."""

    kind: str  # "vegetable" or "fruit"
    value: str
    confidence: float
    features: NDArray[np.float64] = field(repr=False, compare=False)


def group_letters(looks: Mapping[str, LetterLook], choices: Mapping[str, tuple[str, ...]],
                  first_id: int = 1, distance: float = LETTER_GROUP_DISTANCE,
                  ) -> list[DrawingGroup]:
    """One question per group of alike doubtful letters (ids ``q{first_id}`` on, in the
    order of their first field); ``choices``: the plants of each kind."""
    drafts: list[DrawingGroup] = []
    for kind, value in sorted({(lk.kind, lk.value) for lk in looks.values()}):
        ids = sorted(f for f, lk in looks.items() if (lk.kind, lk.value) == (kind, value))
        feats = np.stack([looks[f].features for f in ids])
        for members in alike_clusters(feats, distance):
            fields = tuple(sorted(ids[i] for i in members))
            conf = min(looks[f].confidence for f in fields)
            drafts.append(DrawingGroup("", kind, fields, value, conf, False, choices[kind],
                                       "letter"))
    drafts.sort(key=lambda g: g.fields[0])
    return [replace(g, id=f"q{first_id + i}") for i, g in enumerate(drafts)]
