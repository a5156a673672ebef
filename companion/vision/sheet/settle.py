"""Settle one player's readings (their sheets merged): drawings grouped by likeness and
named once per group, questions for the groups not trusted, and the letters checked
against the player's own others and against their drawings. Pure: readings in, readings
and groups out; the reader (reader.py) calls it per player."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from companion.games.delicious.garden import garden
from companion.games.delicious.players import OWN_ANSWERS, OWN_EARLIER, OWN_KEY
from companion.games.delicious.verdicts import SIGHT_NOTES
from companion.vision.sheet.constants import LETTER_DOUBT_CONFIDENCE
from companion.vision.sheet.constants_letters import LETTER_GROUP_DISTANCE
from companion.vision.sheet.constants_sketches import (
    DRAWING_CONFIDENCE,
    DRAWN_LETTER_FLOOR,
    LETTER_SURE_READ,
    OWN_LETTER_MARGIN,
    SURE_WRITER_LETTER_FLOOR,
    SURE_WRITER_LETTER_GATE,
    WRITER_LETTER_GATE,
    WRITER_LETTER_READ,
    WRITER_LETTER_SHARE,
    WRITER_LETTERISH_FLOOR,
    WRITER_LETTERISH_SHARE,
)
from companion.vision.sheet.drawing_groups import (
    DrawingEvidence,
    DrawingGroup,
    GroupRule,
    group_drawings,
)
from companion.vision.sheet.field_reading import (
    LETTER_VALUES,
    PLANTS_OF_KIND,
    FieldReading,
    written_candidates,
)
from companion.vision.sheet.letter_groups import (
    LetterLook,
    group_letters,
    guess_written_letters,
    join_alike_questions,
    own_letters_among_drawings,
)
from companion.vision.sheet.own_drawings import OwnDrawings, name_by_own

# Above any probability: no group is trusted (the group fit belongs to another network).
UNFITTED_TRUST = 2.0
GROUP_TRUSTED_NOTE = "a drawing, named with its group of alike drawings"
GROUP_QUESTION_NOTE = "a drawing: one question for its group of alike drawings"
OWN_DRAWING_NOTE = "a drawing, named like the player's drawings of an earlier sheet"
KEY_DRAWING_NOTE = "a drawing, named like the player's own drawing in the sheet's key"
ANSWERS_NOTE = ("a drawing, named with its group once the plants named for the player's "
                "other drawings were ruled out")
OWN_NOTES = {OWN_EARLIER: OWN_DRAWING_NOTE, OWN_KEY: KEY_DRAWING_NOTE,
             OWN_ANSWERS: ANSWERS_NOTE}
OWN_LETTER_NOTE = "a letter like the player's own, though first taken for a drawing"
DRAWN_TOO_NOTE = "a letter for a plant this player draws elsewhere"
LIKE_DRAWINGS_NOTE = "a letter that looks like this player's drawings more than their letters"
LIKE_KEY_NOTE = "a letter that looks like the player's key drawing of another plant"
LIKE_EARLIER_NOTE = "a letter that looks like the player's earlier drawing of another plant"
LIKE_ASKED_NOTE = "a sure letter, but written like this player's doubtful ones"


def group_rule() -> GroupRule:
    """The fitted grouping decision; trusting nothing when it was fitted on another
    network than the one loaded (its floors and plant centres describe that network's
    outputs: refit with ``python -m tools.fit_sketches --groups-only``)."""
    from companion.vision.sheet.sketch_model import model_fingerprint, sketch_classifier

    meta = sketch_classifier().meta
    rule = GroupRule.from_meta(meta)
    fitted_on = meta.get("group_model")
    if fitted_on is not None and fitted_on != model_fingerprint():
        return replace(rule, trust=UNFITTED_TRUST)
    return rule


def settle_drawings(readings: Mapping[str, Any], variant: str | None = None,
                    own: OwnDrawings | None = None, key: OwnDrawings | None = None,
                    named: Mapping[str, str] | None = None,
                    ) -> tuple[dict[str, Any], tuple[DrawingGroup, ...]]:
    """Group the drawings among ``readings`` and name each by its group: a trusted group
    gives its members its guess with its confidence, an untrusted one its guess in review
    (one question); a drawer's sure letters that look like their drawings, and any sure
    letter like the key's drawing of another plant, are doubted
    (_join_letters_like_drawings, _letters_like_named), and any sure letter like the
    player's earlier drawing of another plant; then the letters in review, alike
    ones asked once (letter_groups.py), with the sure letters written like them
    (_join_sure_letters_like_doubtful). ``variant``: the garden whose containers' rules
    keep cells apart; ``own``: the player's named drawings of earlier sheets
    (own_drawings.py); ``key``: the drawings of the key of the player's sheet (read_key),
    asked first: a group either names otherwise is asked; ``named``: cells the player has
    named by hand (cell -> plant: answered questions), whose plants their other groups are
    unlikely to be (drawing_groups._after_answers)."""
    from companion.vision.sheet.sketch_model import model_fingerprint

    drawn = {fid: r.drawing for fid, r in readings.items()
             if isinstance(r, FieldReading) and r.drawing is not None}
    out = dict(readings)
    writer, surely = _letter_writer(readings)
    # the player's named drawings this network can compare with: the key's, then earlier
    # sheets' (each its source and the note of a letter that looks like one of them)
    theirs = [(source, d, note) for source, d, note in ((OWN_KEY, key, LIKE_KEY_NOTE),
                                                        (OWN_EARLIER, own, LIKE_EARLIER_NOTE))
              if d is not None and d.count and d.model == model_fingerprint()]
    rule = group_rule() if drawn or theirs else GroupRule()
    reach = {OWN_KEY: rule.key_distance, OWN_EARLIER: rule.own_distance}
    if drawn and writer:  # a writer's letter like their own others is a letter
        for fid in _own_letters(readings, drawn, surely):
            ev = drawn.pop(fid)
            plant, q = ev.letter or ("", 0.0)  # _own_letters takes only cells with a letter
            out[fid] = replace(readings[fid], value=plant, confidence=min(q, ev.p_written),
                               note=OWN_LETTER_NOTE, drawing=None)
    if drawn and not writer:  # a drawer's letter as alike to their drawings is one of them
        for fid, ev in _drawn_like(readings, drawn, rule.distance).items():
            drawn[fid] = ev
            cands = written_candidates(ev.p_written, ev.plants)
            out[fid] = replace(readings[fid], drawing=ev, as_drawing=None,
                               candidates=tuple(sorted(cands, key=lambda c: -c[1])))
    choices = {kind.value: plants for kind, plants in PLANTS_OF_KIND.items()}
    groups: list[DrawingGroup] = []
    apart = garden(variant).apart() if variant else frozenset()  # the containers' rules
    if drawn:
        groups = group_drawings(drawn, choices, rule, apart, named)
        # a drawing's look where the letter reader is sure of its letter (a writer's
        # letter the sketch network doubts), never a sketch's
        looks = {fid: r.letter_look for fid, r in readings.items()
                 if fid in drawn and r.letter_look is not None
                 and (drawn[fid].letter or ("", 0.0))[1] >= LETTER_SURE_READ}
        if writer:
            groups = guess_written_letters(groups, drawn, WRITER_LETTER_READ)
        groups = join_alike_questions(groups, looks, apart)
        for source, d, _ in theirs:
            groups = name_by_own(groups, drawn, d, reach[source], source)
        groups = [replace(g, id=f"q{i + 1}") for i, g in enumerate(groups)]
    for g in groups:
        for fid in g.fields:
            r = out[fid]
            ev = drawn[fid]
            if g.trusted:
                conf = min(g.confidence, ev.p_written)
                note = OWN_NOTES.get(g.own, GROUP_TRUSTED_NOTE)
            else:
                conf, note = min(g.confidence, ev.p_written, DRAWING_CONFIDENCE), \
                    GROUP_QUESTION_NOTE
            out[fid] = replace(r, value=g.guess, confidence=conf, note=note, group=g.id)
    if not writer:
        for fid in _letters_of_drawn_plants(out, groups):
            out[fid] = replace(out[fid], note=DRAWN_TOO_NOTE,
                               confidence=min(out[fid].confidence, LETTER_DOUBT_CONFIDENCE))
        groups = _join_letters_like_drawings(out, drawn, groups, apart)
    for source, d, note in theirs:
        for fid in _letters_like_named(out, d, reach[source]):
            out[fid] = replace(out[fid], note=note, confidence=min(
                out[fid].confidence, LETTER_DOUBT_CONFIDENCE))
    lettered = group_letters(_doubtful_letters(out), choices, len(groups) + 1)
    for g in lettered:
        for fid in g.fields:
            out[fid] = replace(out[fid], group=g.id)
    return out, (*groups, *_join_sure_letters_like_doubtful(out, lettered, apart))


def _letters_of_drawn_plants(readings: Mapping[str, Any], groups: Sequence[DrawingGroup]
                             ) -> list[str]:
    """The trusted letters whose plant is a trusted group of the player's drawings of the
    same kind (the caller asks it of a drawer only). A player draws a plant alike all
    game, so a letter for a plant they draw is more likely another plant drawn so that it
    reads as a letter (a round lettuce read as a sure O) than the one plant they both draw
    and write."""
    drawn_as = {(g.kind, g.guess) for g in groups if g.what == "drawing" and g.trusted}
    return [fid for fid in _trusted_letters(readings)
            if (readings[fid].kind.value, readings[fid].value) in drawn_as]


def _trusted_letters(readings: Mapping[str, Any]) -> list[str]:
    """The cells read as letters, with a letter look, that are not in review."""
    return [fid for fid, r in readings.items()
            if isinstance(r, FieldReading) and r.drawing is None and r.value is not None
            and r.kind in LETTER_VALUES and r.letter_look is not None and not r.review]


def _look_distance(readings: Mapping[str, Any], a: str, b: str) -> float:
    """Cosine distance of two cells' letter looks (unit length)."""
    return 1.0 - float(np.asarray(readings[a].letter_look, np.float64)
                       @ np.asarray(readings[b].letter_look, np.float64))


def _ask_with(readings: dict[str, Any], groups: list[DrawingGroup], fid: str,
              g: DrawingGroup, note: str, cap: float) -> None:
    """Put the sure letter ``fid`` in the question ``g`` (in ``groups``, replaced there),
    its value kept and its confidence capped at ``cap`` (in review)."""
    r = readings[fid]
    readings[fid] = replace(r, note=note, group=g.id, confidence=min(r.confidence, cap))
    groups[[x.id for x in groups].index(g.id)] = replace(
        g, fields=tuple(sorted((*g.fields, fid))))


def _kept_apart(fid: str, g: DrawingGroup, apart: Collection[frozenset[str]]) -> bool:
    """Whether the game's rules keep ``fid`` apart from a cell of ``g``."""
    return any(frozenset((fid, f)) in apart for f in g.fields)


def _letters_like_drawings(readings: Mapping[str, Any], drawn: Mapping[str, DrawingEvidence],
                           reach: float = LETTER_GROUP_DISTANCE) -> dict[str, str]:
    """The trusted letters that look, to the letter network, like one of the player's
    drawings whose letter reads as the same plant (within ``reach``), nearer to it than
    to any of the player's other trusted letters of that plant, each with that drawing
    (the caller asks it of a drawer only). A drawer's plant drawn so that it reads as a
    letter reads so in every cell, mostly doubted as a drawing, now and then let through
    as a sure letter: a round lettuce as an O by a player who writes onions as O (the
    sketch bench's one silent error), where the sketch network sees the drawings too
    unlike to group them."""
    trusted = _trusted_letters(readings)
    drawings = [fid for fid, ev in drawn.items()
                if ev.letter is not None and readings[fid].letter_look is not None]
    out: dict[str, str] = {}
    for fid in trusted:
        r = readings[fid]
        near = [(_look_distance(readings, fid, f), f) for f in drawings
                if (drawn[f].letter or ("", 0.0))[0] == r.value and readings[f].kind == r.kind]
        own = [_look_distance(readings, fid, f) for f in trusted
               if f != fid and readings[f].value == r.value and readings[f].kind == r.kind]
        if near and min(near)[0] <= reach and min(near)[0] < min(own, default=float("inf")):
            out[fid] = min(near)[1]
    return out


def _letters_like_named(readings: Mapping[str, Any], named: OwnDrawings, reach: float
                        ) -> list[str]:
    """The trusted letters that the sketch network sees within ``reach`` (the distance at
    which those drawings name a group) of the player's named drawing (``named``: their
    sheet's key, or their earlier sheets') of another plant of the cell's kind, nearer
    than to their drawing of the letter's plant if any. Those drawings say how this player
    draws that plant, so such a letter may be one more of them read as a letter: a round
    lettuce as an O, where the key names the lettuce drawings (on the 200 calib key papers
    no trusted letter came within 0.58 of a key drawing of another plant)."""
    out = []
    for fid, r in readings.items():
        if (not isinstance(r, FieldReading) or r.drawing is not None or r.value is None
                or r.review or r.kind not in LETTER_VALUES or r.as_drawing is None):
            continue
        look = np.asarray(r.as_drawing.features, np.float64)
        dist = {plant: 1.0 - float((np.asarray(named.looks[plant], np.float64) @ look).max())
                for plant in PLANTS_OF_KIND[r.kind] if plant in named.looks
                and np.asarray(named.looks[plant]).shape[-1] == look.shape[0]}
        other = min((d for plant, d in dist.items() if plant != r.value), default=float("inf"))
        if other <= reach and other < dist.get(r.value, float("inf")):
            out.append(fid)
    return out


def _join_letters_like_drawings(readings: dict[str, Any], drawn: Mapping[str, DrawingEvidence],
                                groups: list[DrawingGroup], apart: Collection[frozenset[str]]
                                ) -> list[DrawingGroup]:
    """``groups`` with each of the player's trusted letters that look like one of their
    drawings (_letters_like_drawings) asked with that drawing's question, where the
    question guesses the letter's plant: the two are likely one thing, drawn, and a sure
    letter must not answer for it. The letter keeps its value, in review (``readings`` is
    updated); no question is added. A drawing trusted or guessed as another plant leaves
    the letter alone (on the calib sketch papers, 8 such letters of 8 were right), and so
    do the game's rules keeping the letter apart from the question's cells."""
    for fid, near in _letters_like_drawings(readings, drawn).items():
        r = readings[fid]
        g = next((x for x in groups if x.id == readings[near].group), None)
        if (g is None or g.trusted or g.what != "drawing" or g.kind != r.kind.value
                or g.guess != r.value or _kept_apart(fid, g, apart)):
            continue
        _ask_with(readings, groups, fid, g, LIKE_DRAWINGS_NOTE, DRAWING_CONFIDENCE)
    return groups


def _two_best(r: FieldReading) -> frozenset[str]:
    """A letter cell's two likeliest values."""
    ranked = [v for v, _ in sorted(r.candidates, key=lambda c: -c[1]) if v is not None]
    return frozenset(ranked[:2])


def _join_sure_letters_like_doubtful(readings: dict[str, Any], lettered: list[DrawingGroup],
                                     apart: Collection[frozenset[str]],
                                     reach: float = LETTER_GROUP_DISTANCE
                                     ) -> list[DrawingGroup]:
    """``lettered`` (the player's letter questions) with each of their sure letters asked
    with a doubtful letter it looks like: read as the same plant, between the same two
    likeliest letters, within ``reach`` of it and nearer to it than to any of the
    player's sure letters of that plant that look like no doubtful one. One hand writes a
    letter alike in every cell: a writer whose G looks like a 6 has it read as a doubtful
    S-or-G in some cells and now and then as a sure S; the sure copy shares the doubt.
    Its value is kept, in review (``readings`` is updated); no question is added."""
    asked = {f: g.id for g in lettered if not g.trusted for f in g.fields}
    sure = [fid for fid in _trusted_letters(readings) if len(_two_best(readings[fid])) == 2]
    two = {fid: _two_best(readings[fid]) for fid in (*sure, *asked)}
    near: dict[str, tuple[float, str]] = {}
    for fid in sure:
        r = readings[fid]
        alike = [(_look_distance(readings, fid, f), f) for f in asked
                 if readings[f].kind == r.kind and readings[f].value == r.value
                 and two[f] == two[fid]]
        if alike and min(alike)[0] <= reach:
            near[fid] = min(alike)
    out = list(lettered)
    for fid, (d, f) in near.items():
        r = readings[fid]
        own = [_look_distance(readings, fid, o) for o in sure if o not in near
               and readings[o].kind == r.kind and readings[o].value == r.value]
        g = next(x for x in out if x.id == asked[f])
        if (d >= min(own, default=float("inf")) or g.guess != r.value
                or _kept_apart(fid, g, apart)):
            continue
        _ask_with(readings, out, fid, g, LIKE_ASKED_NOTE, LETTER_DOUBT_CONFIDENCE)
    return out


def _own_letters(readings: Mapping[str, Any], drawn: Mapping[str, DrawingEvidence],
                 surely: bool = False) -> set[str]:
    """The drawn cells that are the player's own letters (letter_groups.py
    own_letters_among_drawings): the player's letters read with confidence vouch; a drawn
    cell with another doubt (glare, a bend, too little detail) is never taken. ``surely``:
    the player writes surely (``_letter_writer``), so the sketch network's doubt counts
    for less."""
    reads: dict[str, tuple[str, float]] = {}
    looks: dict[str, Any] = {}
    for fid, r in readings.items():
        if not isinstance(r, FieldReading) or r.letter_look is None or r.value is None:
            continue
        looks[fid] = r.letter_look
        if fid in drawn:
            letter = drawn[fid].letter
            if letter is not None and r.note not in SIGHT_NOTES:
                reads[fid] = letter
        elif r.kind in LETTER_VALUES and not r.review:
            reads[fid] = (r.value, r.written_share)
    letterish = {fid: ev.p_letter for fid, ev in drawn.items()}
    floor, gate = ((SURE_WRITER_LETTER_FLOOR, SURE_WRITER_LETTER_GATE) if surely
                   else (DRAWN_LETTER_FLOOR, WRITER_LETTER_GATE))
    return own_letters_among_drawings(reads, looks, letterish, LETTER_SURE_READ, floor,
                                      margin=OWN_LETTER_MARGIN, letterish=gate, lone=True)


def _drawn_like(readings: Mapping[str, Any], drawn: Mapping[str, DrawingEvidence],
                distance: float) -> dict[str, DrawingEvidence]:
    """The cells read as letters (let through by the sketch network, or under its gate on
    the letter reader's word alone) that the sketch network sees within ``distance`` (the
    fitted grouping distance: as alike as the drawings of one group) of one of the
    player's drawings, with their evidence as drawings. A player draws a plant alike in
    each of its cells, so such a cell is most likely one more of their drawings taken for
    a letter: on the sketch bench, a round lettuce read as a sure O (onion), a strawberry
    as a sure B. Its group trusts it only where its letter, the drawings and the sketch
    network's own reading of it agree (DrawingEvidence.backs)."""
    if not drawn:
        return {}
    feats = np.stack([d.features for d in drawn.values()]).astype(np.float64)
    out = {}
    for fid, r in readings.items():
        if (not isinstance(r, FieldReading) or r.as_drawing is None or r.drawing is not None
                or r.value is None):
            continue
        look = np.asarray(r.as_drawing.features, np.float64)
        if look.shape[0] == feats.shape[1] and 1.0 - float((feats @ look).max()) <= distance:
            out[fid] = replace(r.as_drawing, on_word=True)
    return out


def _letter_writer(readings: Mapping[str, Any]) -> tuple[bool, bool]:
    """Does this player write their plants as letters, and do they write surely? Surely:
    WRITER_LETTER_SHARE of the plant cells holding a value are letters read with
    confidence. A writer also: WRITER_LETTERISH_SHARE are those or drawn cells the sketch
    network half believes are letters (at least WRITER_LETTERISH_FLOOR), a writer whose
    letters it doubts."""
    plants = [r for r in readings.values() if isinstance(r, FieldReading)
              and r.kind in LETTER_VALUES and r.value is not None]
    if not plants:
        return False, False
    sure = sum(r.drawing is None and not r.review for r in plants)
    letterish = sure + sum(r.drawing is not None
                           and r.drawing.p_letter >= WRITER_LETTERISH_FLOOR for r in plants)
    surely = sure >= WRITER_LETTER_SHARE * len(plants)
    return surely or letterish >= WRITER_LETTERISH_SHARE * len(plants), surely


def _doubtful_letters(readings: Mapping[str, Any]) -> dict[str, LetterLook]:
    """The letter cells in review, as letter_groups sees them (read_fields gives a look
    only to a cell read as a letter, and a field set by hand has none)."""
    return {fid: LetterLook(r.kind.value, r.value, r.confidence, r.letter_look)
            for fid, r in readings.items()
            if isinstance(r, FieldReading) and r.letter_look is not None
            and r.drawing is None and r.value is not None and r.review and not r.group}
