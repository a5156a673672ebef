"""Group a player's drawings by likeness, then name each group once.

A player draws a carrot the same way all game, so the drawings of one player (garden and
play sheets together) that look alike are read as one: the members' evidence is summed,
the cell's rule holds (vegetable cells and fruit cells are grouped apart, so a fruit cell
only ever holds a fruit), and a group is trusted only where the sum is strong and every
member agrees. Otherwise the group is one question; a member that disagrees with its
group is a question of its own. Agglomerative clustering is written out here because the
groups are tiny (a few dozen drawings) and scipy is not otherwise needed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.vision.sheet.constants_sketches import (
    EVIDENCE_FLOOR,
    MEMBER_FLOOR,
    OUTLIER_GUESS,
    OUTLIER_OWN,
)


@dataclass(frozen=True)
class DrawingEvidence:
    """What the reader saw in one drawn cell: plant probabilities among the plants its
    kind allows, and how the network sees it (unit-length features)."""

    kind: str  # "vegetable" or "fruit"
    plants: tuple[tuple[str, float], ...]
    p_written: float
    p_letter: float
    features: np.ndarray = field(repr=False, compare=False)

    def prob(self, plant: str) -> float:
        return dict(self.plants).get(plant, 0.0)

    @property
    def best(self) -> str:
        return max(self.plants, key=lambda c: c[1])[0]


@dataclass(frozen=True)
class DrawingGroup:
    """Alike drawings read as one: the guess, how sure, and whether it is trusted."""

    id: str
    kind: str
    fields: tuple[str, ...]
    guess: str
    confidence: float
    trusted: bool
    choices: tuple[str, ...]

    def question_json(self) -> dict[str, Any]:
        return {"id": self.id, "fields": list(self.fields), "guess": self.guess,
                "choices": list(self.choices)}


def _clusters(feats: np.ndarray, threshold: float) -> list[list[int]]:
    """Average-linkage agglomerative clusters under a cosine-distance threshold."""
    groups = [[i] for i in range(len(feats))]
    if len(feats) < 2:
        return groups
    dist = 1.0 - feats @ feats.T
    while True:
        best, pair = threshold, None
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                d = float(dist[np.ix_(groups[a], groups[b])].mean())
                if d < best:
                    best, pair = d, (a, b)
        if pair is None:
            return groups
        a, b = pair
        groups[a] = groups[a] + groups[b]
        del groups[b]


def _read_group(members: Sequence[DrawingEvidence]) -> tuple[str, float]:
    """The group's guess and its probability: the members' mean log-probability.

    Not their sum: the members are one player's same drawing made again, so when the
    network misreads one it misreads them all alike (measured: groups of re-drawn real
    sketches trusted at 0.999 on a wrong plant). A group is as sure as its average drawing.
    """
    plants = [p for p, _ in members[0].plants]
    logs = [sum(math.log(max(m.prob(p), EVIDENCE_FLOOR)) for m in members) / len(members)
            for p in plants]
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    i = int(np.argmax(weights))
    return plants[i], weights[i] / sum(weights)


def group_drawings(drawings: Mapping[str, DrawingEvidence], choices: Mapping[str, tuple[str, ...]],
                   distance: float, trust: float) -> list[DrawingGroup]:
    """The groups of one player's drawings (``choices``: the plants of each kind)."""
    out: list[DrawingGroup] = []
    for kind in sorted({d.kind for d in drawings.values()}):
        ids = sorted(f for f, d in drawings.items() if d.kind == kind)
        feats = np.stack([drawings[f].features for f in ids]).astype(np.float64)
        pending = [[ids[i] for i in c] for c in _clusters(feats, distance)]
        while pending:
            members = pending.pop(0)
            guess, conf = _read_group([drawings[f] for f in members])
            odd = [f for f in members if len(members) > 1
                   and drawings[f].best != guess and drawings[f].prob(drawings[f].best)
                   >= OUTLIER_OWN and drawings[f].prob(guess) < OUTLIER_GUESS]
            if odd:  # a drawing that disagrees with its group is its own question
                rest = [f for f in members if f not in odd]
                pending.extend([rest] if rest else [])
                pending.extend([f] for f in odd)
                continue
            agree = all(drawings[f].prob(guess) >= MEMBER_FLOOR for f in members)
            out.append(DrawingGroup("", kind, tuple(sorted(members)), guess, conf,
                                    conf >= trust and agree, choices[kind]))
    out.sort(key=lambda g: g.fields[0])
    return [DrawingGroup(f"q{i + 1}", g.kind, g.fields, g.guess, g.confidence, g.trusted,
                         g.choices) for i, g in enumerate(out)]
