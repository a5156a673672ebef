"""Group a player's drawings by likeness, then name each group once.

A player draws a carrot the same way all game, so the drawings of one player (garden and
play sheets together) that look alike are read as one: a group is as sure as its average
drawing, the cell's rule holds (vegetable cells and fruit cells are grouped apart, so a
fruit cell only ever holds a fruit), and a group is trusted only where its evidence is
strong, every member agrees and the drawings look like ones the network learnt
(GroupRule); a player's groups are matched to different plants. Otherwise the group is
one question; a member that clearly disagrees with its group is a question of its own,
and questions with one guess whose drawings are still alike are asked as one.
Agglomerative clustering is written out here because the groups are tiny (a few dozen
drawings) and scipy is not otherwise needed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.games.delicious.players import OWN_ANSWERS
from companion.vision.sheet.constants_sketches import (
    ANSWER_APART,
    ASSIGN_CLOSE,
    EVIDENCE_FLOOR,
    GROUP_DISTANCE_DEFAULT,
    GROUP_TRUST_DEFAULT,
    MEMBER_FLOOR,
    OUTLIER_GUESS,
    OUTLIER_OWN,
    QUESTION_MERGE_DISTANCE,
    SKETCH_CLASSES,
    WRITER_LETTERISH_FLOOR,
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
    # the sketch network's own probabilities over SKETCH_CLASSES (before the letter reader
    # is mixed in and before the kind's plants are singled out): how far it strays
    network: tuple[float, ...] = field(default=(), repr=False, compare=False)
    # the letter reader's best reading of the cell: (the plant it reads as, probability)
    letter: tuple[str, float] | None = field(default=None, compare=False)
    # read as a letter, then as a drawing because the player draws and it is like their
    # drawings (settle._drawn_like): its plants lean on that letter, so it
    # counts towards a trusted group only where the sketch network's own reading agrees
    on_word: bool = field(default=False, compare=False)

    def prob(self, plant: str) -> float:
        return dict(self.plants).get(plant, 0.0)

    @property
    def best(self) -> str:
        return max(self.plants, key=lambda c: c[1])[0]

    @property
    def sketch_best(self) -> str:
        """The plant the sketch network alone reads best among the cell's (``best``
        where its own probabilities were not kept)."""
        if not self.network:
            return self.best
        return max((p for p, _ in self.plants),
                   key=lambda p: self.network[SKETCH_CLASSES.index(p)])

    def backs(self, guess: str) -> bool:
        """May this drawing count towards trusting ``guess``?"""
        return self.best == guess and (not self.on_word or self.sketch_best == guess)


@dataclass(frozen=True)
class DrawingGroup:
    """Alike drawings (or doubtful letters, letter_groups.py) read as one: the guess, how
    sure, and whether it is trusted."""

    id: str
    kind: str
    fields: tuple[str, ...]
    guess: str
    confidence: float
    trusted: bool
    choices: tuple[str, ...]
    what: str = "drawing"  # what its cells hold: "drawing" or "letter"
    # named by the player's own named drawings: "key" (the sheet's key) or "earlier" (an
    # earlier sheet's), "" when not (own_drawings.py); "answers": trusted once the plants
    # the player named for other drawings were ruled out (_after_answers)
    own: str = ""

    def question_json(self) -> dict[str, Any]:
        return {"id": self.id, "fields": list(self.fields), "guess": self.guess,
                "choices": list(self.choices), "what": self.what}


def alike_clusters(feats: np.ndarray, threshold: float,
                   start: Sequence[Sequence[int]] | None = None,
                   may_join: Callable[[list[int], list[int]], bool] | None = None
                   ) -> list[list[int]]:
    """Average-linkage agglomerative clusters of unit-length rows under a cosine-distance
    threshold (also letter_groups.py's), from ``start`` (each row alone by default); two
    clusters ``may_join`` forbids stay apart."""
    groups = [list(g) for g in start] if start is not None else [[i] for i in range(len(feats))]
    if len(groups) < 2:
        return groups
    dist = 1.0 - feats @ feats.T
    while True:
        best, pair = threshold, None
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                d = float(dist[np.ix_(groups[a], groups[b])].mean())
                if d < best and (may_join is None or may_join(groups[a], groups[b])):
                    best, pair = d, (a, b)
        if pair is None:
            return groups
        a, b = pair
        groups[a] = groups[a] + groups[b]
        del groups[b]


def _plant_logs(members: Sequence[DrawingEvidence]) -> dict[str, float]:
    """Per plant, the members' mean log-probability (floored at EVIDENCE_FLOOR).

    A mean, not a sum: the members are one player's same drawing made again, so when the
    network misreads one it misreads them all alike (measured: groups of re-drawn real
    sketches trusted at 0.999 on a wrong plant). A group is as sure as its average drawing.
    """
    plants = [p for p, _ in members[0].plants]
    return {p: sum(math.log(max(m.prob(p), EVIDENCE_FLOOR)) for m in members) / len(members)
            for p in plants}


def _share(logs: Mapping[str, float], plant: str) -> float:
    """``plant``'s probability among the plants of ``logs`` (mean log-probabilities)."""
    top = max(logs.values())
    return math.exp(logs[plant] - top) / sum(math.exp(v - top) for v in logs.values())


def _read_group(members: Sequence[DrawingEvidence]) -> tuple[str, float]:
    """The group's guess and its probability from the members' mean log-probabilities."""
    logs = _plant_logs(members)
    guess = max(logs, key=lambda p: logs[p])
    return guess, _share(logs, guess)


@dataclass(frozen=True)
class GroupRule:
    """When a group of alike drawings is trusted; fitted on the calib setting
    (tools/fit_sketches.py, assets/sketches.json), checked on real sketches.

    Trust needs, besides the group's probability (``trust``, on one drawing's scale): every
    member's own best plant is the guess; the network put at least ``on_kind`` of every
    member's probability on plants the cell allows (a drawing it takes for a letter or for
    the other kind's plant is unlike what it learnt); and the group's mean look is at least
    ``typical`` alike (cosine) to the mean look of the guessed plant's calibration drawings
    (``centres``): a drawing far from every drawing the network knows is read with
    confidence it has not earned.
    """

    distance: float = GROUP_DISTANCE_DEFAULT
    trust: float = GROUP_TRUST_DEFAULT
    on_kind: float = 0.0
    typical: float = -1.0
    centres: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    # the player's groups matched to different plants (drawing_groups._assign)
    match: bool = True
    # questions with one guess alike within this (average-linkage cosine distance) are one
    merge: float = QUESTION_MERGE_DISTANCE
    # a group named by the player's earlier drawings lies within this of them
    # (own_drawings.py; the grouping distance where the metadata holds none)
    own: float | None = None
    # a group named by the drawings of the sheet's key lies within this of them (one
    # drawing a plant; ``own`` where the metadata holds none)
    key: float | None = None

    @property
    def own_distance(self) -> float:
        return self.distance if self.own is None or self.own < 0 else self.own

    @property
    def key_distance(self) -> float:
        return self.own_distance if self.key is None or self.key < 0 else self.key

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> GroupRule:
        """The rule assets/sketches.json holds (defaults where it holds none)."""
        def num(key: str, default: float) -> float:
            v = meta.get(key)
            return float(v) if isinstance(v, int | float) else default

        centres = meta.get("centres")
        return cls(num("group_distance", GROUP_DISTANCE_DEFAULT),
                   num("group_trust", GROUP_TRUST_DEFAULT), num("group_on_kind", 0.0),
                   num("group_typical", -1.0),
                   {str(k): tuple(float(x) for x in v) for k, v in centres.items()}
                   if isinstance(centres, dict) else {},
                   merge=num("group_merge", QUESTION_MERGE_DISTANCE),
                   own=num("group_own", -1.0) if "group_own" in meta else None,
                   key=num("group_key", -1.0) if "group_key" in meta else None)

    def likeness(self, members: Sequence[DrawingEvidence], plant: str) -> float:
        """Cosine likeness of the members' mean look to ``plant``'s centre (1.0 without
        centres: nothing to compare with; -1.0 for centres of another shape of look)."""
        centre = self.centres.get(plant)
        if not centre:
            return 1.0
        mean = np.mean([m.features for m in members], axis=0).astype(np.float64)
        c = np.asarray(centre, np.float64)
        if mean.shape != c.shape:
            return -1.0
        return float(mean @ c / max(float(np.linalg.norm(mean) * np.linalg.norm(c)), 1e-9))

    def trusts(self, members: Sequence[DrawingEvidence], guess: str, conf: float,
               seen: Sequence[DrawingEvidence] | None = None) -> bool:
        """``seen``: the members as the network saw them, where ``members`` are narrowed
        to fewer plants (_after_answers): how far they stray is judged on those."""
        looks = members if seen is None else seen
        return (conf >= self.trust and all(m.backs(guess) for m in members)
                and all(m.prob(guess) >= MEMBER_FLOOR for m in members)
                and min(on_kind_mass(m) for m in looks) >= self.on_kind
                and self.likeness(looks, guess) >= self.typical)


def on_kind_mass(ev: DrawingEvidence) -> float:
    """The network's probability on the plants the cell allows (1.0 if not recorded)."""
    if not ev.network:
        return 1.0
    return sum(ev.network[SKETCH_CLASSES.index(p)] for p, _ in ev.plants)


@dataclass
class _Draft:
    members: list[str]
    guess: str
    conf: float
    trusted: bool
    narrowed: bool = False  # trusted once the player's answers ruled plants out


def _assign(logs: Sequence[Mapping[str, float]]) -> list[str] | None:
    """The plants, one per group and all different, with the most summed mean
    log-probability (None when there are more groups than plants). One player draws
    different plants differently, so a player's groups are most likely different plants."""
    if not logs:
        return []
    plants = list(logs[0])
    if len(logs) > len(plants):
        return None
    best: tuple[float, tuple[str, ...]] | None = None
    for perm in itertools.permutations(plants, len(logs)):
        total = sum(lg[p] for lg, p in zip(logs, perm, strict=True))
        if best is None or total > best[0]:
            best = (total, perm)
    return list(best[1]) if best else None


def alike_sets(sets: Sequence[Sequence[str]], looks: Mapping[str, np.ndarray],
               distance: float, apart: Collection[frozenset[str]] = frozenset()
               ) -> list[list[int]]:
    """Which ``sets`` of cells join while their ``looks`` stay alike (average linkage
    under ``distance``, alike_clusters), never two cells the rules keep ``apart``: per
    join, the indices of its sets, in alike_clusters' order (also letter_groups.py's
    joining of questions)."""
    ids = [f for s in sets for f in s]
    owner = [k for k, s in enumerate(sets) for _ in s]
    start, at = [], 0
    for s in sets:
        start.append(list(range(at, at + len(s))))
        at += len(s)
    feats = np.stack([looks[f] for f in ids]).astype(np.float64)

    def may_join(a: list[int], b: list[int]) -> bool:
        return not any(frozenset((ids[i], ids[j])) in apart for i in a for j in b)

    return [list(dict.fromkeys(owner[i] for i in c))
            for c in alike_clusters(feats, distance, start, may_join)]


def _merge_questions(drafts: list[_Draft], drawings: Mapping[str, DrawingEvidence],
                     apart: Collection[frozenset[str]], distance: float) -> list[_Draft]:
    """Questions (untrusted groups) with the same guess whose drawings are alike within
    ``distance`` (average linkage), never cells the rules keep apart, asked as one: one
    question per plant a player drew alike, however tightly the groups were cut."""
    asked = [d for d in drafts if not d.trusted]
    if distance <= 0 or len(asked) < 2:
        return drafts
    looks = {f: drawings[f].features for d in asked for f in d.members}
    joins: list[list[int]] = []
    for guess in {d.guess for d in asked}:
        same = [k for k, d in enumerate(asked) if d.guess == guess]
        sets = [asked[k].members for k in same]
        joins += [[same[i] for i in j] for j in alike_sets(sets, looks, distance, apart)]
    if len(joins) == len(asked):
        return drafts
    out = [d for d in drafts if d.trusted]
    for j in sorted(joins):  # each join first holds its earliest question: asked's order
        members = [f for k in j for f in asked[k].members]
        g, conf = _read_group([drawings[f] for f in members])
        out.append(_Draft(members, g, conf, False))
    return out


def _settle_kind(drawings: Mapping[str, DrawingEvidence], ids: Sequence[str],
                 rule: GroupRule, apart: Collection[frozenset[str]],
                 named: Mapping[str, str] | None = None) -> list[_Draft]:
    """The groups of one player's drawings of one kind, each trusted or a question
    (``apart``: pairs of cells that cannot hold the same plant; ``named``: the drawings
    the player has named, _after_answers)."""
    feats = np.stack([drawings[f].features for f in ids]).astype(np.float64)
    pending = [[ids[i] for i in c] for c in alike_clusters(feats, rule.distance)]
    drafts: list[_Draft] = []
    while pending:
        members = pending.pop(0)
        guess, conf = _read_group([drawings[f] for f in members])
        odd = [f for f in members if len(members) > 1
               and drawings[f].best != guess and drawings[f].prob(drawings[f].best)
               >= OUTLIER_OWN and drawings[f].prob(guess) < OUTLIER_GUESS]
        loose = [f for f in members if drawings[f].on_word and not drawings[f].backs(guess)]
        kept = [drawings[f] for f in members if f not in loose]
        if not odd and loose and kept and rule.trusts(kept, *_read_group(kept)):
            odd = loose  # trusted without them: asked apart, not the whole group
        if odd:  # a drawing that disagrees with its group is its own question
            rest = [f for f in members if f not in odd]
            pending.extend([rest] if rest else [])
            pending.extend([f] for f in odd)
            continue
        clash = [f for f in members if any(frozenset((f, g)) in apart for g in members)]
        if clash:  # cells the rules keep apart: the drawing that fits the guess least goes
            worst = min(clash, key=lambda f: drawings[f].prob(guess))
            pending.append([f for f in members if f != worst])
            pending.append([worst])
            continue
        evs = [drawings[f] for f in members]
        drafts.append(_Draft(members, guess, conf, rule.trusts(evs, guess, conf)))
    drafts = _merge_questions(drafts, drawings, apart, rule.merge)
    if rule.match:
        _match([(d, [drawings[f] for f in d.members]) for d in drafts])
    return _after_answers(drafts, drawings, named, rule) if named else drafts


def _match(drafts: Sequence[tuple[_Draft, Sequence[DrawingEvidence]]]) -> None:
    """The player's groups as different plants (each draft with its members' evidence,
    changed in place): a group whose plant the assignment gives to another group is not
    trusted, and a close call goes the assignment's way."""
    logs = [_plant_logs(members) for _, members in drafts]
    plants = list(dict.fromkeys(p for lg in logs for p in lg))
    floor = math.log(EVIDENCE_FLOOR)  # a plant ruled out for a group (_after_answers)
    logs = [{p: lg.get(p, floor) for p in plants} for lg in logs]
    assigned = _assign(logs)
    if assigned is None:
        return
    for (d, _), lg, plant in zip(drafts, logs, assigned, strict=True):
        if plant != d.guess:
            d.trusted = False
            if lg[plant] >= lg[d.guess] + math.log(ASSIGN_CLOSE):
                d.guess, d.conf = plant, _share(lg, plant)


def _narrowed(ev: DrawingEvidence, ruled_out: Collection[str]) -> DrawingEvidence:
    """The drawing's plant evidence without ``ruled_out``, the rest scaled to sum as
    before (itself when nothing would be left)."""
    kept = [(p, q) for p, q in ev.plants if p not in ruled_out]
    total, left = sum(q for _, q in ev.plants), sum(q for _, q in kept)
    if not kept or left <= 0:
        return ev
    return replace(ev, plants=tuple((p, q * total / left) for p, q in kept))


def _after_answers(drafts: list[_Draft], drawings: Mapping[str, DrawingEvidence],
                   named: Mapping[str, str], rule: GroupRule) -> list[_Draft]:
    """The drafts once the player has named some drawings (``named``: cell -> plant, as
    set by hand). A player draws each plant one way, so a plant they named is ruled out
    for their other groups of drawings, unless a group looks like the drawings they named
    it for (ANSWER_APART: one plant's drawings cut in two) and unless the cells named look
    like letters. A question whose evidence, so narrowed, is strong enough by the same
    rule is trusted (``narrowed``); a trusted group whose plant the player gave to other
    drawings is asked."""
    answered = {f: p for d in drafts for f in d.members if (p := named.get(f))}
    if not answered:
        return drafts
    ruling = {f: p for f, p in answered.items()
              if drawings[f].p_letter < WRITER_LETTERISH_FLOOR}
    feats = {f: drawings[f].features.astype(np.float64) for d in drafts for f in d.members}
    opened = []
    for d in drafts:
        if any(f in answered for f in d.members):
            continue  # the player's own answer (or a cell of it) stands
        ruled_out = set()
        for plant in set(ruling.values()):
            theirs = [f for f, p in ruling.items() if p == plant]
            dist = float(np.mean([1.0 - feats[a] @ feats[b]
                                  for a in d.members for b in theirs]))
            if dist >= ANSWER_APART:
                ruled_out.add(plant)
        if not ruled_out or (d.trusted and d.guess not in ruled_out):
            continue
        seen = [drawings[f] for f in d.members]
        members = [_narrowed(ev, ruled_out) for ev in seen]
        d.guess, d.conf = _read_group(members)
        # a group trusted as a plant the player gave to other drawings is asked
        d.trusted = d.narrowed = not d.trusted and rule.trusts(members, d.guess, d.conf, seen)
        opened.append((d, members))
    if rule.match and opened:
        _match(opened)
    return drafts


def group_drawings(drawings: Mapping[str, DrawingEvidence], choices: Mapping[str, tuple[str, ...]],
                   rule: GroupRule, apart: Collection[frozenset[str]] = frozenset(),
                   named: Mapping[str, str] | None = None) -> list[DrawingGroup]:
    """The groups of one player's drawings (``choices``: the plants of each kind;
    ``apart``: pairs of cells the game's rules keep from holding the same plant, so a
    group never holds both: a group that would is split, its weakest fit asked alone;
    ``named``: cells the player has named, cell -> plant, whose plants their other groups
    are unlikely to be)."""
    out: list[DrawingGroup] = []
    for kind in sorted({d.kind for d in drawings.values()}):
        ids = sorted(f for f, d in drawings.items() if d.kind == kind)
        for d in _settle_kind(drawings, ids, rule, apart, named):
            out.append(DrawingGroup("", kind, tuple(sorted(d.members)), d.guess, d.conf,
                                    d.trusted, choices[kind],
                                    own=OWN_ANSWERS if d.trusted and d.narrowed else ""))
    out.sort(key=lambda g: g.fields[0])
    return [replace(g, id=f"q{i + 1}") for i, g in enumerate(out)]
