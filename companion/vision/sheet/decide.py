"""Turn each field's candidate readings into one value, letting the rules settle close calls.

The rules are a prior, not a verdict: a legal sheet is more likely than an illegal one, but
a player may well have broken a rule, and that is exactly what validation must report.
So a rule only reweighs the two leading values of a field whose reading is uncertain (and,
for letters, whose leaders are close); a confident reading is never changed, and a settled
one is never more confident than the reading was, so it stays in review.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.games.delicious.garden import HONEY_FIELD, garden
from companion.games.delicious.symbols import ContainerKind
from companion.vision.sheet.constants import (
    MARK_RULE_WEIGHT,
    REVIEW_BELOW,
    RULE_PRIOR_WEIGHT,
    TIE_MARGIN,
)

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


Hint = tuple[dict[str, float], str, float]  # weight per value, note, largest margin


def _hints(cands: Mapping[str, Candidates], decided: Mapping[str, Decision],
           variant: str) -> dict[str, Hint]:
    """Per uncertain field: a weight per value from its container's rule."""
    out: dict[str, Hint] = {}
    sure = {
        fid: d[0] for fid, d in decided.items() if d[0] is not None and d[1] >= REVIEW_BELOW
    }
    def unfinished(cells: Iterable[str]) -> bool:
        return any(decided[cell][0] is None and decided[cell][1] >= REVIEW_BELOW
                   for cell in cells if cell in decided)

    def uncertain(fid: str) -> bool:
        return fid in cands and decided[fid][1] < REVIEW_BELOW

    g = garden(variant)
    for c in g.containers:
        if uncertain(c.first_potter) and unfinished(c.cells):
            out[c.first_potter] = ({"check": 1.0 / MARK_RULE_WEIGHT},
                                   "settled by the rule: a check needs a full container", 1.0)
    areas = {c.area for c in g.containers}
    if uncertain(HONEY_FIELD) and all(
            unfinished([cell for c in g.containers if c.area is a for cell in c.cells])
            for a in areas):
        out[HONEY_FIELD] = ({"circled": 1.0 / MARK_RULE_WEIGHT},
                            "settled by the rule: the honey needs a full area", 1.0)
    for c in g.containers:
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
                out[cell] = (weights, f"close call settled by the {c.kind.value} container rule",
                             TIE_MARGIN)
    return out


def _reweigh(cands: Candidates, weights: Mapping[str, float], note: str,
             margin: float) -> Decision | None:
    """Apply a rule's weights (a blank keeps weight 1); with ``margin`` below 1, only to a
    written cell whose two leading letters are that close. A new decision only when the
    rule changes the likeliest value."""
    ranked = _normalised(cands)
    if margin < 1.0:  # a tie-break between the two leading letters of a written cell
        empty = sum(p for v, p in ranked if v is None)
        written = [(v, p) for v, p in ranked if v is not None]
        if len(written) < 2 or empty >= 0.5:
            return None
        (v1, p1), (v2, p2) = written[0], written[1]
        if (p1 - p2) / (1.0 - empty) >= margin or (v1 not in weights and v2 not in weights):
            return None
    weighed = [(v, p * (weights.get(v, 1.0) if v is not None else 1.0)) for v, p in ranked]
    total = sum(p for _, p in weighed)
    value, p = max(weighed, key=lambda c: c[1])
    if total <= 0.0 or value == ranked[0][0]:
        return None
    return value, min(p / total, ranked[0][1]), note


def decide(cands: Mapping[str, Candidates], variant: str) -> dict[str, Decision]:
    """One (value, confidence, note) per field; rules only reweigh uncertain readings."""
    decided = {fid: _plain(c) for fid, c in cands.items()}
    for fid, (weights, note, margin) in _hints(cands, decided, variant).items():
        better = _reweigh(cands[fid], weights, note, margin)
        if better is not None:
            decided[fid] = better
    return decided
