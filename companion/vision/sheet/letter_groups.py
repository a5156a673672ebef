"""A player's doubtful letters grouped by likeness, so each group is asked once.

One player writes every letter of their garden and play sheets and writes a letter the
same way all game, so a C the network doubts once it tends to doubt every time. The
player's letters in review that read as the same plant and look alike in the letter
network's own view of them (its last hidden layer) are one question: one tap names them
all. A doubtful letter read as another plant, or unlike the others, is a question of its
own, and vegetable and fruit cells are never grouped together (a B is broccoli in one,
blueberry in the other). Letters the reader trusts are left alone: a group only ever
gathers fields that are in review anyway.

A letter the sketch network doubts is read as a drawing (a real writer's letter often is),
and a writer's copies of one letter rarely look alike enough to that network to be one
group: the drawing questions whose guess is one plant and whose cells the letter network
sees alike are asked once too (:func:`join_alike_questions`). And for a player who writes
their plants as letters, such a cell that looks like one of their own letters read the
same surely, nearer to it than to any of their drawings, is read as that letter
(:func:`own_letters_among_drawings`): a writer's letter looks like their other copies of
it, while a player's copies of one doodle lie closer to each other.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from companion.vision.sheet.constants_letters import LETTER_GROUP_DISTANCE
from companion.vision.sheet.drawing_groups import (
    DrawingEvidence,
    DrawingGroup,
    alike_clusters,
    alike_sets,
)


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


def join_alike_questions(groups: Sequence[DrawingGroup],
                         looks: Mapping[str, NDArray[np.float64]],
                         apart: Collection[frozenset[str]] = frozenset(),
                         distance: float = LETTER_GROUP_DISTANCE) -> list[DrawingGroup]:
    """``groups`` with the drawing questions of one kind and one guess joined while the
    letter network's looks of their cells stay alike (average linkage under ``distance``):
    a drawing whose guess differs, a trusted group, a cell without a look and two cells
    the game's rules keep apart (``apart``) are never joined. Ids are left to the caller."""
    def joinable(g: DrawingGroup) -> bool:
        return not g.trusted and g.what == "drawing" and all(f in looks for f in g.fields)

    out = [g for g in groups if not joinable(g)]
    for kind, guess in sorted({(g.kind, g.guess) for g in groups if joinable(g)}):
        same = [g for g in groups if joinable(g) and (g.kind, g.guess) == (kind, guess)]
        for j in alike_sets([g.fields for g in same], looks, distance, apart):
            joined = [same[k] for k in sorted(j)]
            out.append(replace(joined[0], fields=tuple(sorted(f for g in joined
                                                             for f in g.fields)),
                               confidence=min(g.confidence for g in joined)))
    out.sort(key=lambda g: g.fields[0])
    return out


def guess_written_letters(groups: Sequence[DrawingGroup],
                          evidence: Mapping[str, DrawingEvidence], sure: float
                          ) -> list[DrawingGroup]:
    """``groups`` with each drawing question guessing the plant the letter reader reads in
    every one of its cells, at least ``sure`` each, where it does: for a player who writes
    their plants as letters (the caller decides), a drawn cell is most likely a letter the
    sketch network doubted. Trusted groups and questions whose cells read otherwise keep
    their guess; a question stays a question."""
    out = []
    for g in groups:
        reads = [evidence[f].letter for f in g.fields]
        sure_reads = [r for r in reads if r is not None and r[1] >= sure]
        plants = {plant for plant, _ in sure_reads}
        if (not g.trusted and g.what == "drawing" and len(sure_reads) == len(reads)
                and len(plants) == 1 and plants <= set(g.choices)):
            g = replace(g, guess=plants.pop())
        out.append(g)
    return out


def own_letters_among_drawings(reads: Mapping[str, tuple[str, float]],
                               looks: Mapping[str, NDArray[np.float64]],
                               drawn: Mapping[str, float], sure: float, floor: float,
                               distance: float = LETTER_GROUP_DISTANCE, margin: float = 0.0,
                               letterish: float = float("inf"), lone: bool = False
                               ) -> set[str]:
    """The cells of ``drawn`` (cell -> the sketch network's "letter" probability) to read
    as letters after all: the letter reader is at least ``sure`` of its letter (``reads``:
    cell -> (plant its best letter reads as, probability); a cell left out is neither taken
    nor vouches), and either the network gives "letter" at least ``letterish``, or it gives
    at least ``floor`` and the cell's look (``looks``, unit length) is within ``distance``
    of a cell outside ``drawn`` read as the same plant at least as surely, and nearer to
    that letter than to any other drawn cell, give or take ``margin``; with ``lone``, also
    when no other drawn cell is within ``distance`` (a player draws a plant alike in each
    of its cells). Repeated while it takes any: a letter taken back vouches for the
    writer's next copy."""
    def dist(a: str, b: str) -> float:
        return 1.0 - float(looks[a] @ looks[b])

    drawings = {f for f in drawn if f in looks}
    out: set[str] = set()
    while True:
        letters = [f for f in looks if f not in drawings and f in reads and reads[f][1] >= sure]
        took: set[str] = set()
        for fid in drawings:
            if fid not in reads or reads[fid][1] < sure or drawn[fid] < floor:
                continue
            if drawn[fid] >= letterish:
                took.add(fid)
                continue
            near = min((dist(fid, f) for f in letters if reads[f][0] == reads[fid][0]),
                       default=float("inf"))
            rival = min((dist(fid, f) for f in drawings if f != fid), default=float("inf"))
            if (near <= distance and near < rival + margin) or (lone and rival > distance):
                took.add(fid)
        if not took:
            return out
        out |= took
        drawings -= took
