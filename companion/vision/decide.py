"""Turn each field's candidate readings into one value, letting the rules settle close calls.

The rules are a prior, not a verdict: a legal sheet is more likely than an illegal one, but
a player may well have broken a rule, and that is exactly what validation must report.
So a rule only reweighs the two leading letters of a field whose reading is uncertain and
whose leaders are close; a confident reading is never changed.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.delicious.garden import garden
from companion.games.delicious.symbols import ContainerKind
from companion.vision.constants import REVIEW_BELOW, RULE_PRIOR_WEIGHT, TIE_MARGIN

Candidate = tuple[str | None, float]
Candidates = tuple[Candidate, ...]
Decision = tuple[str | None, float, str]  # value, confidence, note


def _normalised(cands: Candidates) -> list[Candidate]:
    total = sum(p for _, p in cands) or 1.0
    return sorted(((v, p / total) for v, p in cands), key=lambda c: -c[1])


def _plain(cands: Candidates) -> Decision:
    ranked = _normalised(cands)
    value, p = ranked[0]
    return value, p, ""


def _hints(cands: Mapping[str, Candidates], decided: Mapping[str, Decision],
           variant: str) -> dict[str, tuple[dict[str, float], str]]:
    """Per uncertain container cell: a weight per vegetable from its container's rule."""
    out: dict[str, tuple[dict[str, float], str]] = {}
    sure = {
        fid: d[0] for fid, d in decided.items() if d[0] is not None and d[1] >= REVIEW_BELOW
    }
    for c in garden(variant).containers:
        partner = {a: b for a, b in c.pairs} | {b: a for a, b in c.pairs}
        for cell in c.cells:
            if cell not in cands or cell in sure:
                continue
            others = [sure[o] for o in c.cells if o != cell and o in sure]
            weights: dict[str, float] = {}
            if c.kind is ContainerKind.SAME and others and len(set(others)) == 1:
                weights[others[0]] = RULE_PRIOR_WEIGHT
            elif c.kind is ContainerKind.PAIRS and partner.get(cell) in sure:
                weights[sure[partner[cell]]] = RULE_PRIOR_WEIGHT
            elif c.kind is ContainerKind.DIFFERENT:
                for v in set(others):
                    weights[v] = 1.0 / RULE_PRIOR_WEIGHT
            if weights:
                out[cell] = (weights, f"close call settled by the {c.kind.value} container rule")
    return out


def _reweigh(cands: Candidates, weights: Mapping[str, float], note: str) -> Decision | None:
    """Apply a rule's weights to the two leading letters, if they are close."""
    ranked = _normalised(cands)
    empty = sum(p for v, p in ranked if v is None)
    letters = [(v, p) for v, p in ranked if v is not None]
    written = 1.0 - empty
    if len(letters) < 2 or empty >= 0.5 or written <= 0.0:
        return None
    (v1, p1), (v2, p2) = letters[0], letters[1]
    if (p1 - p2) / written >= TIE_MARGIN:
        return None
    if v1 not in weights and v2 not in weights:
        return None
    w1, w2 = p1 * weights.get(v1, 1.0), p2 * weights.get(v2, 1.0)
    if w1 + w2 <= 0.0:
        return None
    share = (w1 if w1 >= w2 else w2) / (w1 + w2)
    value = v1 if w1 >= w2 else v2
    return value, share * (p1 + p2), note


def decide(cands: Mapping[str, Candidates], variant: str) -> dict[str, Decision]:
    """One (value, confidence, note) per field; rules only reweigh close letter calls."""
    decided = {fid: _plain(c) for fid, c in cands.items()}
    for fid, (weights, note) in _hints(cands, decided, variant).items():
        better = _reweigh(cands[fid], weights, note)
        if better is not None:
            decided[fid] = better
    return decided
