"""A player's doubtful letters: alike ones are one question, unlike ones ask apart."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.paper.model import FieldKind
from companion.vision.sheet.constants_sketches import FRUIT_PLANTS, VEGETABLE_PLANTS
from companion.vision.sheet.drawing_groups import DrawingEvidence, DrawingGroup
from companion.vision.sheet.field_reading import FieldReading
from companion.vision.sheet.letter_groups import (
    LetterLook,
    group_letters,
    guess_written_letters,
    join_alike_questions,
    own_letters_among_drawings,
)
from companion.vision.sheet.settle import settle_drawings

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "delicious" / "photos"
CHOICES = {"vegetable": VEGETABLE_PLANTS, "fruit": FRUIT_PLANTS}


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def _look(seed: int, wobble: float = 0.0, n: int = 64) -> np.ndarray:
    """A unit feature row: ``seed`` picks the shape, ``wobble`` re-draws it a little."""
    base = np.random.default_rng(seed).random(n)
    jitter = np.random.default_rng(seed * 1000 + int(wobble * 100)).normal(0, wobble, n)
    return _unit(base + jitter)


def _letter(fid: str, value: str, look: np.ndarray, conf: float = 0.6,
            kind: FieldKind = FieldKind.VEGETABLE) -> FieldReading:
    return FieldReading(fid, kind, value, conf, ((value, conf), (None, 1 - conf)),
                        note="letter not clear enough to be sure", letter_look=look)


def test_alike_doubtful_letters_read_alike_are_one_question() -> None:
    looks = {f"garden.boots.r0.c{i}": LetterLook("vegetable", "carrot", 0.6, _look(1, 0.02))
             for i in range(3)}
    groups = group_letters(looks, CHOICES)
    assert len(groups) == 1
    g = groups[0]
    assert g.fields == tuple(sorted(looks)) and g.guess == "carrot" and not g.trusted
    assert g.choices == VEGETABLE_PLANTS and g.id == "q1"


def test_letters_read_as_different_plants_or_unlike_ask_apart() -> None:
    looks = {"a": LetterLook("vegetable", "carrot", 0.6, _look(1)),
             "b": LetterLook("vegetable", "onion", 0.6, _look(1)),  # alike, another letter
             "c": LetterLook("vegetable", "carrot", 0.6, _unit(  # another shape
                 np.eye(64)[0] * 5 + _look(9))),
             "d": LetterLook("fruit", "blueberry", 0.6, _look(1))}
    groups = group_letters(looks, CHOICES, first_id=4)
    assert sorted(g.fields for g in groups) == [("a",), ("b",), ("c",), ("d",)]
    assert [g.id for g in groups] == ["q4", "q5", "q6", "q7"]
    assert {g.fields[0]: g.choices for g in groups}["d"] == FRUIT_PLANTS


def test_settle_asks_only_letters_in_review_and_numbers_after_drawings() -> None:
    alike = _look(3, 0.01)
    readings = {
        "garden.boots.r0.c0": _letter("garden.boots.r0.c0", "pepper", alike),
        "garden.boots.r0.c1": _letter("garden.boots.r0.c1", "pepper", _look(3, 0.02)),
        "garden.crate.r0.c0": _letter("garden.crate.r0.c0", "pepper", alike, conf=0.999),
        "garden.crate.r0.c1": FieldReading("garden.crate.r0.c1", FieldKind.VEGETABLE, None,
                                           0.99, ((None, 0.99),)),
    }
    settled, groups = settle_drawings(readings, "A")
    assert [(g.id, g.fields) for g in groups] == [
        ("q1", ("garden.boots.r0.c0", "garden.boots.r0.c1"))]
    assert settled["garden.boots.r0.c0"].group == "q1"
    assert settled["garden.crate.r0.c0"].group == ""  # trusted: never asked
    assert all(settled[f].review for f in groups[0].fields)


def test_a_letter_set_by_hand_is_never_asked_again() -> None:
    r = _letter("garden.boots.r0.c0", "pepper", _look(3))
    assert r.set_by_hand("onion").letter_look is None
    assert settle_drawings({r.id: r.set_by_hand("onion")}, "A")[1] == ()


def test_a_doubtful_hand_is_asked_once_per_letter_and_one_name_answers_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end on an example photo, with the letter threshold raised until most letters
    are doubtful: alike letters of a plant are one question, every field of a question is
    in review, and ``--name`` on one of its fields names them all."""
    from companion.vision.sheet import reader

    monkeypatch.setattr(reader, "_letter_review_below", lambda _reader: 0.999999)
    photo = str(EXAMPLES / "combo-good-light.jpg")
    code, out = _read(photo, "--json")
    doc = json.loads(out)
    asked = [q for q in doc["questions"] if q["what"] == "letter"]
    doubted = [f for q in asked for f in q["fields"]]
    assert asked and len(asked) < len(doubted)  # some letters asked together
    assert set(doubted) <= set(doc["review"])
    assert all(doc["fields"][f] == q["guess"] for q in asked for f in q["fields"])
    biggest = max(asked, key=lambda q: len(q["fields"]))
    other = next(c for c in biggest["choices"] if c != biggest["guess"])
    code, out = _read(photo, "--json", "--name", f"{biggest['fields'][0]}={other}")
    named = json.loads(out)
    assert all(named["fields"][f] == other for f in biggest["fields"])
    assert not set(biggest["fields"]) & set(named["review"])
    assert biggest["id"] not in {q["id"] for q in named["questions"]
                                 if set(q["fields"]) & set(biggest["fields"])}


def _read(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["delicious", "read", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.output


def _question(qid: str, fields: tuple[str, ...], guess: str, kind: str = "vegetable",
              trusted: bool = False, conf: float = 0.5) -> DrawingGroup:
    return DrawingGroup(qid, kind, fields, guess, conf, trusted, CHOICES[kind])


def test_drawing_questions_of_one_guess_the_letter_network_sees_alike_are_asked_once(
        ) -> None:
    """A writer's doubted B's, each its own drawing question, become one question."""
    b = {f: _look(1, 0.02) for f in ("a", "b", "c")}
    groups = [_question("q1", ("a",), "broccoli", conf=0.5),
              _question("q2", ("b", "c"), "broccoli", conf=0.4),
              _question("q3", ("d",), "carrot")]  # another guess: never joined
    looks = {**b, "d": _look(1, 0.02)}
    got = join_alike_questions(groups, looks)
    assert sorted(g.fields for g in got) == [("a", "b", "c"), ("d",)]
    joined = next(g for g in got if len(g.fields) == 3)
    assert joined.guess == "broccoli" and joined.confidence == 0.4 and not joined.trusted


def test_unlike_looks_trusted_groups_letters_and_cells_kept_apart_are_never_joined(
        ) -> None:
    other = _unit(np.eye(64)[0] * 5 + _look(9))
    groups = [_question("q1", ("a",), "onion"), _question("q2", ("b",), "onion"),
              _question("q3", ("c",), "onion", trusted=True),
              _question("q4", ("d",), "onion"), _question("q5", ("e",), "onion"),
              _question("q6", ("f",), "onion"),
              DrawingGroup("q7", "vegetable", ("g",), "onion", 0.5, False,
                           VEGETABLE_PLANTS, "letter"),
              _question("q8", ("h",), "blueberry", kind="fruit")]
    looks = {"a": _look(1), "b": other, "c": _look(1), "d": _look(1),
             "f": _look(1), "g": _look(1), "h": _look(1)}  # "e" has no look
    apart = {frozenset(("a", "d"))}
    got = join_alike_questions(groups, looks, apart)
    fields = sorted(g.fields for g in got)
    # a with f (d is kept from a by the rules, so d stays alone), nothing else joins
    assert fields == [("a", "f"), ("b",), ("c",), ("d",), ("e",), ("g",), ("h",)]


def _drawn(fid: str, shape: int, look: np.ndarray | None) -> FieldReading:
    """A vegetable cell read as a drawing (the sketch network doubted its letter): its own
    sketch features (``shape``), a broccoli guess, and its letter look if the letter reader
    was sure of its letter."""
    f = np.full(8, 0.05, np.float32)
    f[shape] = 1.0
    plants = tuple((v, 0.6 if v == "broccoli" else 0.08) for v in VEGETABLE_PLANTS)
    ev = DrawingEvidence("vegetable", plants, 0.99, 0.4, f / np.linalg.norm(f),
                         letter=("broccoli", 0.995) if look is not None else None)
    return FieldReading(fid, FieldKind.VEGETABLE, "broccoli", 0.6, (("broccoli", 0.6),),
                        note="a drawing", drawing=ev, letter_look=look)


def test_a_writers_doubted_letters_unlike_to_the_sketch_network_are_asked_once() -> None:
    b = _look(5, 0.01)
    readings = {f.id: f for f in (_drawn("garden.boots.r0.c0", 0, b),
                                  _drawn("garden.crate.r0.c0", 4, _look(5, 0.02)),
                                  _drawn("garden.crate.r0.c1", 6, None))}  # no sure letter
    settled, groups = settle_drawings(readings, "A")
    assert [(g.id, g.fields, g.guess, g.what) for g in groups] == [
        ("q1", ("garden.boots.r0.c0", "garden.crate.r0.c0"), "broccoli", "drawing"),
        ("q2", ("garden.crate.r0.c1",), "broccoli", "drawing")]
    assert {settled[f].group for f in groups[0].fields} == {"q1"}
    assert all(settled[f].review and settled[f].value == "broccoli" for f in readings)


def _evidence(letter: tuple[str, float] | None) -> DrawingEvidence:
    plants = tuple((v, 0.6 if v == "broccoli" else 0.08) for v in VEGETABLE_PLANTS)
    return DrawingEvidence("vegetable", plants, 0.99, 0.3, np.ones(4) / 2, letter=letter)


def test_a_drawing_question_whose_cells_read_as_one_letter_guesses_that_plant() -> None:
    """Only the guess changes (it stays a question); every cell must read the same plant
    surely enough, and a trusted group or a letter question is left alone."""
    ev = {"a": _evidence(("carrot", 0.97)), "b": _evidence(("carrot", 0.93)),
          "c": _evidence(("carrot", 0.97)), "d": _evidence(("onion", 0.99)),
          "e": _evidence(("carrot", 0.6)), "f": _evidence(None), "g": _evidence(("carrot", 1))}
    groups = [_question("q1", ("a", "b"), "broccoli"),
              _question("q2", ("c", "d"), "broccoli"),  # two letters
              _question("q3", ("e",), "broccoli"),  # unsure
              _question("q4", ("f",), "broccoli"),  # no letter read
              _question("q5", ("g",), "broccoli", trusted=True),
              DrawingGroup("q6", "vegetable", ("g",), "broccoli", 0.5, False,
                           VEGETABLE_PLANTS, "letter")]
    got = guess_written_letters(groups, ev, 0.9)
    assert [g.guess for g in got] == ["carrot"] + ["broccoli"] * 5
    assert got[0].confidence == groups[0].confidence and not got[0].trusted


def _written(fid: str, value: str, conf: float = 0.99) -> FieldReading:
    return FieldReading(fid, FieldKind.VEGETABLE, value, conf, ((value, conf),))


def test_a_player_who_writes_letters_has_their_drawn_cells_guessed_as_letters() -> None:
    """Of five plant cells, four sure letters (a letter writer, 0.8 >= 0.6): the cell the
    sketch network took for a drawing, its letter read as a carrot, guesses carrot. With
    two sure letters of five, the drawing's own guess stays."""
    drawn = replace(_drawn("garden.crate.r0.c0", 0, None),
                    drawing=replace(_drawn("x", 0, None).drawing, letter=("carrot", 0.95)))
    letters = [_written(f"garden.boots.r0.c{i}", "onion") for i in range(2)]
    more = [_written(f"garden.bathtub.r0.c{i}", "lettuce") for i in range(2)]
    readings = {r.id: r for r in (drawn, *letters, *more)}
    settled, groups = settle_drawings(readings, "A")
    assert settled["garden.crate.r0.c0"].value == "carrot"
    assert settled["garden.crate.r0.c0"].review and groups[0].guess == "carrot"
    fewer = {r.id: r for r in (drawn, *letters,
                               *(replace(m, confidence=0.5) for m in more))}
    settled, groups = settle_drawings(fewer, "A")
    assert settled["garden.crate.r0.c0"].value == "broccoli" and groups[0].guess == "broccoli"


def test_a_writer_whose_letters_the_sketch_network_doubts_is_still_a_writer() -> None:
    """Two sure letters of five plant cells (under the 0.6 share) and three drawn cells the
    sketch network half believes are letters (0.4): four in five are letterish, so the
    player writes, and their drawn cell guesses its letter's plant. The same cells given
    "letter" 0.05, as a drawer's doodles are, leave the drawing's own guess."""
    drawn = [replace(_drawn(f"garden.crate.r0.c{i}", i, None),
                     drawing=replace(_drawn("x", 0, None).drawing, letter=("carrot", 0.95)))
             for i in range(3)]
    letters = [_written(f"garden.boots.r0.c{i}", "onion") for i in range(2)]
    readings = {r.id: r for r in (*drawn, *letters)}
    assert readings["garden.crate.r0.c0"].drawing.p_letter == 0.4
    settled, groups = settle_drawings(readings, "A")
    assert [settled[d.id].value for d in drawn] == ["carrot"] * 3
    assert all(g.guess == "carrot" for g in groups)
    doodles = {r.id: replace(r, drawing=replace(r.drawing, p_letter=0.05)) for r in drawn}
    settled, groups = settle_drawings({**readings, **doodles}, "A")
    assert [settled[d.id].value for d in drawn] == ["broccoli"] * 3


def _mix(*weights: float) -> np.ndarray:
    """A unit look made of the first basis directions in these proportions."""
    return _unit(np.array([*weights, *[0.0] * (8 - len(weights))]))


def test_a_drawn_cell_like_the_writers_own_sure_letter_is_read_as_a_letter() -> None:
    """A writer's C the sketch network doubted, alike to their C it let through, is a
    letter; then it vouches for the next copy (nearer to it than to the sure C)."""
    looks = {"sure-c": _mix(1), "c1": _mix(1, 0.2), "c2": _mix(1, 0.5),
             "unsure-c": _mix(1, -1.5), "other": _mix(0, 0, 0, 1)}
    reads = {"sure-c": ("carrot", 0.999), "c1": ("carrot", 0.995), "c2": ("carrot", 0.992),
             "unsure-c": ("carrot", 0.9), "other": ("onion", 0.999)}
    drawn = {"c1": 0.8, "c2": 0.8, "unsure-c": 0.8, "other": 0.8}
    assert own_letters_among_drawings(reads, looks, drawn, 0.99, 0.3) == {"c1", "c2"}
    # c2 is 0.11 from the sure C, 0.035 from c1: at 0.05 only c1, once a letter, vouches
    assert own_letters_among_drawings(reads, looks, drawn, 0.99, 0.3, distance=0.05) \
        == {"c1", "c2"}
    far = {**looks, "c1": _mix(0, 0, 1)}
    assert own_letters_among_drawings(reads, far, drawn, 0.99, 0.3, distance=0.05) == set()
    # a cell the sketch network is sure is no letter stays a drawing, and as a drawing
    # nearer c2 than the sure C it keeps c2 one too
    assert own_letters_among_drawings(reads, looks, {**drawn, "c1": 0.01}, 0.99, 0.3) \
        == set()


def test_a_players_copies_of_one_doodle_stay_drawings_though_they_read_as_a_letter(
        ) -> None:
    """Three pepper doodles read as a sure O, close to the writer's O but closer to each
    other, stay drawings (a player draws a plant the same way all game)."""
    looks = {"o": _mix(1), "p1": _mix(1, 0.5), "p2": _mix(1, 0.55), "p3": _mix(1, 0.5, 0.05),
             "lone": _mix(0, 0, 0, 1)}
    reads = {f: ("onion", 0.995) for f in looks}
    assert 1.0 - float(looks["p1"] @ looks["o"]) < 0.3  # near enough to be taken alone
    doodles = {"p1": 0.5, "p2": 0.5, "p3": 0.5, "lone": 0.5}
    assert own_letters_among_drawings(reads, looks, doodles, 0.99, 0.3) == set()
    assert own_letters_among_drawings(reads, looks, {"p1": 0.5, "lone": 0.5}, 0.99, 0.3) \
        == {"p1"}


def test_a_writers_letter_as_near_its_copies_as_their_sure_letter_is_taken_with_a_margin(
        ) -> None:
    """Two drawn copies of a C, a little nearer each other than to the writer's sure C:
    left as drawings with no margin, letters within it; a copy alike to none of the
    player's drawings is taken when a lone letter is allowed; a cell the sketch network
    leans towards "letter" is taken with no likeness asked."""
    looks = {"sure-c": _mix(1), "c1": _mix(1, 0.3), "c2": _mix(1, 0.3, 0.2),
             "odd": _mix(0, 0, 0, 1), "other": _mix(0, 0, 0, 0, 1)}
    reads = {"sure-c": ("carrot", 0.999), "c1": ("carrot", 0.995), "c2": ("carrot", 0.995),
             "odd": ("onion", 0.995), "other": ("carrot", 0.999)}
    drawn = {"c1": 0.5, "c2": 0.5, "odd": 0.5}
    near_sure = 1.0 - float(looks["c1"] @ looks["sure-c"])
    near_copy = 1.0 - float(looks["c1"] @ looks["c2"])
    assert near_copy < near_sure < near_copy + 0.1
    assert own_letters_among_drawings(reads, looks, drawn, 0.99, 0.3) == set()
    assert own_letters_among_drawings(reads, looks, drawn, 0.99, 0.3, margin=0.1) \
        == {"c1", "c2"}
    # "odd" reads an O with no sure O to vouch: a lone cell is taken only when allowed
    assert own_letters_among_drawings(reads, looks, drawn, 0.99, 0.3, margin=0.1,
                                      lone=True) == {"c1", "c2", "odd"}
    # a lone cell the letter reader is not sure of, or the sketch network calls no letter
    unsure = {**reads, "odd": ("onion", 0.98)}
    assert own_letters_among_drawings(unsure, looks, drawn, 0.99, 0.3, lone=True) == set()
    assert own_letters_among_drawings(reads, looks, {**drawn, "odd": 0.1}, 0.99, 0.3,
                                      lone=True) == set()
    # copies of one doodle are alike: none is lone
    doodles = {"d1": _mix(0, 0, 1), "d2": _mix(0, 0, 1, 0.1)}
    assert own_letters_among_drawings({f: ("onion", 0.995) for f in doodles}, doodles,
                                      dict.fromkeys(doodles, 0.5), 0.99, 0.3,
                                      lone=True) == set()
    assert own_letters_among_drawings({f: ("onion", 0.995) for f in doodles}, doodles,
                                      {"d1": 0.85, "d2": 0.5}, 0.99, 0.3,
                                      letterish=0.8) == {"d1", "d2"}  # then d1 vouches
    assert own_letters_among_drawings({f: ("onion", 0.995) for f in doodles}, doodles,
                                      {"d1": 0.85, "d2": 0.1}, 0.99, 0.3,
                                      letterish=0.8) == {"d1"}


def test_a_letter_writers_drawn_cell_like_their_own_letter_is_a_trusted_letter() -> None:
    """settle_drawings takes the cell back for a player who writes letters (four sure
    letters of five plant cells), trusted; not for a player who mostly draws."""
    c = _mix(1)
    sure = [replace(_written(f"garden.boots.r0.c{i}", "carrot", 0.999),
                    letter_look=_mix(1, 0.02 * i)) for i in range(2)]
    others = [replace(_written(f"garden.bathtub.r0.c{i}", "onion", 0.999),
                      letter_look=_mix(0, 0, 1)) for i in range(2)]
    ev = replace(_drawn("x", 0, None).drawing, letter=("carrot", 0.995), p_letter=0.7)
    drawn = replace(_drawn("garden.crate.r0.c0", 0, None), drawing=ev,
                    letter_look=_unit(c + 0.1 * _mix(0, 1)))
    readings = {r.id: r for r in (drawn, *sure, *others)}
    settled, groups = settle_drawings(readings, "A")
    got = settled["garden.crate.r0.c0"]
    assert (got.value, got.review, got.drawing) == ("carrot", False, None) and not groups
    drawer = {**readings, **{r.id: replace(r, confidence=0.5) for r in others}}
    settled, groups = settle_drawings(drawer, "A")
    assert settled["garden.crate.r0.c0"].review and len(groups) >= 1


def test_a_drawers_sure_letter_drawn_like_their_drawings_is_read_with_them() -> None:
    """A player who draws (three drawn carrots the sketch network calls no letter, one
    letter): a cell let through as a sure P on the letter reader's word alone, as alike to
    the carrot drawings as a group's drawings are, is read with them: in review with the
    carrots' question, never a sure pepper; so is one the sketch network's own gate let
    through. Unlike the drawings it stays a sure letter; a player who writes letters keeps
    it too."""
    carrots = [replace(_drawn(f"garden.crate.r0.c{i}", 0, None),
                       drawing=replace(_drawn("x", 0, None).drawing, p_letter=0.05,
                                       features=_unit(_mix(1, 0.05 * i))))
               for i in range(3)]
    pepper = tuple((v, 0.9 if v == "pepper" else 0.02) for v in VEGETABLE_PLANTS)
    ev = DrawingEvidence("vegetable", pepper, 0.99, 0.95, _unit(_mix(1, 0.1)),
                         letter=("pepper", 0.998))
    p = FieldReading("garden.boots.r0.c0", FieldKind.VEGETABLE, "pepper", 0.99,
                     (("pepper", 0.99),), as_drawing=ev)
    onion = _written("garden.bathtub.r0.c0", "onion", 0.999)
    readings = {r.id: r for r in (*carrots, p, onion)}
    settled, groups = settle_drawings(readings, "A")
    got = settled[p.id]
    assert got.review and got.drawing is not None and got.drawing.on_word and got.group
    assert any(p.id in g.fields and not g.trusted for g in groups)
    assert not settled[onion.id].review  # the player's real letter is left alone
    far = replace(p, as_drawing=replace(ev, features=_mix(0, 0, 0, 1)))
    settled, _ = settle_drawings({**readings, p.id: far}, "A")
    assert (settled[p.id].value, settled[p.id].review, settled[p.id].group) == \
        ("pepper", False, "")
    # let through by the sketch network's own gate (0.995 "letter"), alike all the same
    gated = replace(p, as_drawing=replace(ev, p_letter=0.995))
    assert settle_drawings({**readings, p.id: gated}, "A")[0][p.id].review
    bare = replace(p, as_drawing=None)  # no evidence as a drawing: a letter as read
    assert not settle_drawings({**readings, p.id: bare}, "A")[0][p.id].review
    writer = {**readings, **{r.id: replace(r, drawing=None, value="carrot", confidence=0.999)
                             for r in carrots[1:]}}  # four sure letters of five cells
    assert not settle_drawings(writer, "A")[0][p.id].review


def test_a_sure_writers_drawn_cells_the_sketch_network_half_believes_are_their_letters(
) -> None:
    """Three drawn cells the letter reader reads as a sure C, the sketch network giving
    "letter" 0.35 (under the plain gate, 0.8), alike to each other and to no letter of the
    player: a player whose plant cells are mostly sure letters (5 of 8) has them read as
    letters; a player counted a writer only by such letterish cells (2 sure of 5) is
    asked, as is a sure writer whose cells the network gives "letter" only 0.05."""
    ev = replace(_drawn("x", 0, None).drawing, letter=("carrot", 0.995), p_letter=0.35)
    drawn = [replace(_drawn(f"garden.crate.r0.c{i}", 0, None), drawing=ev,
                     letter_look=_unit(_mix(0, 0, 0, 1) + 0.01 * i * _mix(0, 0, 0, 0, 1)))
             for i in range(3)]
    sure = [_written(f"garden.bathtub.r0.c{i}", "onion", 0.999) for i in range(5)]
    readings = {r.id: r for r in (*drawn, *sure)}
    settled, groups = settle_drawings(readings, "A")
    assert all((settled[d.id].value, settled[d.id].review) == ("carrot", False)
               for d in drawn) and not groups
    letterish = {r.id: r for r in (*drawn, *sure[:2])}
    settled, groups = settle_drawings(letterish, "A")
    assert all(settled[d.id].review for d in drawn) and groups
    doodled = {**readings, **{d.id: replace(d, drawing=replace(ev, p_letter=0.05))
                              for d in drawn}}
    settled, groups = settle_drawings(doodled, "A")
    assert all(settled[d.id].review for d in drawn) and groups


def test_a_drawers_sure_letter_for_a_plant_they_draw_in_a_trusted_group_is_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who draws (three onion drawings, one trusted group) and has a cell read as
    a sure O: a player draws a plant alike all game, so an O where they draw their onions
    may be another plant drawn round (a lettuce); it is asked. A sure C beside it (no
    carrot drawn) stays trusted, and so does the O when the onion group is only a
    question."""
    from companion.vision.sheet import settle
    from companion.vision.sheet.drawing_groups import GroupRule

    monkeypatch.setattr(settle, "group_rule", lambda: GroupRule(0.3, 0.99))
    f = np.full(8, 0.05, np.float32)
    f[2] = 1.0
    onion = tuple((v, 0.999 if v == "onion" else 0.0002) for v in VEGETABLE_PLANTS)
    ev = DrawingEvidence("vegetable", onion, 0.99, 0.01, f / np.linalg.norm(f))
    drawn = [FieldReading(f"garden.crate.r{i}.c0", FieldKind.VEGETABLE, "onion", 0.6,
                          (("onion", 0.6),), note="a drawing", drawing=ev) for i in range(3)]
    o = replace(_written("garden.boots.r0.c0", "onion", 0.998), letter_look=_mix(1))
    c = replace(_written("garden.boots.r1.c0", "carrot", 0.998), letter_look=_mix(0, 1))
    readings = {r.id: r for r in (*drawn, o, c)}
    settled, groups = settle_drawings(readings, "A")
    assert [g.trusted for g in groups if g.what == "drawing"] == [True]
    assert settled[o.id].review and settled[o.id].value == "onion"
    assert any(g.fields == (o.id,) and g.what == "letter" for g in groups)
    assert not settled[c.id].review
    unsure = {r.id: replace(r, drawing=replace(ev, plants=tuple(
        (v, 0.6 if v == "onion" else 0.08) for v in VEGETABLE_PLANTS))) for r in drawn}
    settled, groups = settle_drawings({**readings, **unsure}, "A")
    assert not any(g.trusted for g in groups) and not settled[o.id].review


def test_a_drawers_sure_letter_that_looks_like_their_drawings_joins_their_question() -> None:
    """A player who draws: three round lettuces the sketch network calls drawings (each
    unlike the others to it, so three questions) that the letter reader reads as an O and
    the questions guess onion, and two sure O letters. The O that the letter network sees
    nearer to a lettuce drawing than to the player's other O is asked with that drawing's
    question (no new question, its value kept); the O nearer to the other O stays trusted.
    Where the drawings' questions guess another plant, or the player writes, every letter
    stands."""
    def drawings(plant: str) -> list[FieldReading]:
        plants = tuple((v, 0.5 if v == plant else 0.1) for v in VEGETABLE_PLANTS)
        out = []
        for i in range(3):
            ev = DrawingEvidence("vegetable", plants, 0.99, 0.05, _mix(*[0.0] * i, 1),
                                 letter=("onion", 0.9))
            out.append(FieldReading(f"garden.crate.r0.c{i}", FieldKind.VEGETABLE, "onion", 0.6,
                                    (("onion", 0.6),), note="a drawing", drawing=ev,
                                    letter_look=_mix(1, 0.05 * i)))
        return out

    drawn = drawings("onion")
    like = replace(_written("garden.boots.r0.c0", "onion", 0.998), letter_look=_mix(1, 0.2))
    own = replace(_written("garden.boots.r1.c0", "onion", 0.998), letter_look=_mix(0, 0, 1))
    own2 = replace(_written("garden.bathtub.r0.c0", "onion", 0.998),
                   letter_look=_mix(0, 0, 1, 0.1))
    readings = {r.id: r for r in (*drawn, like, own, own2)}
    before = settle_drawings({k: v for k, v in readings.items() if k != like.id}, "A")[1]
    settled, groups = settle_drawings(readings, "A")
    assert len(groups) == len(before)  # no question more
    asked = [g for g in groups if like.id in g.fields]
    assert len(asked) == 1 and asked[0].what == "drawing" and not asked[0].trusted
    assert drawn[2].id in asked[0].fields and asked[0].guess == "onion"  # the nearest
    got = settled[like.id]
    assert got.review and got.value == "onion" and got.group == asked[0].id
    assert not settled[own.id].review and not settled[own2.id].review
    # nearer to the player's other sure O than to any drawing: a letter like their others
    near_own = replace(like, letter_look=_mix(0.2, 0, 1))
    assert not settle_drawings({**readings, like.id: near_own}, "A")[0][like.id].review
    # drawings the questions name as lettuce: the sure O is no copy of them
    other = {**readings, **{r.id: r for r in drawings("lettuce")}}
    assert not settle_drawings(other, "A")[0][like.id].review
    # a writer (sure letters in most plant cells) keeps their letter
    writer = {**readings, **{f"garden.teapot.r0.c{i}": _written(f"garden.teapot.r0.c{i}",
                                                                "carrot", 0.999)
                             for i in range(4)}}
    assert not settle_drawings(writer, "A")[0][like.id].review


def _fruit(fid: str, ranked: tuple[tuple[str, float], ...], look: np.ndarray) -> FieldReading:
    conf = ranked[0][1]
    return FieldReading(fid, FieldKind.FRUIT, ranked[0][0], conf, (*ranked, (None, 0.001)),
                        note="" if conf >= 0.95 else "letter not clear enough to be sure",
                        letter_look=look)


def test_a_sure_letter_written_like_the_writers_doubtful_ones_is_asked_with_them() -> None:
    """A writer whose G looks like a 6: two cells read as S doubting G, two more (the same
    hand) read as a sure S with G next, and two true S read surely. The sure copies, like
    the doubtful ones and S-or-G like them, join their question though they look like
    each other (a sure letter like a doubtful one vouches for no other); the true S stand,
    and so does a sure S whose runner-up is another letter (B), however alike."""
    doubtful = [_fruit(f"garden.planter.r0.c{i}", (("strawberry", 0.6),
                                                   ("golden-raspberry", 0.39)),
                       _mix(1, 0.05 * i)) for i in range(2)]
    sure_six = [_fruit(f"garden.planter.r1.c{i}", (("strawberry", 0.996),
                                                   ("golden-raspberry", 0.003)),
                       _mix(1, 0.1, 0.01 * i)) for i in range(2)]
    true_s = [_fruit(f"garden.planter.r2.c{i}", (("strawberry", 0.999),
                                                 ("golden-raspberry", 0.0005)),
                     _mix(0, 0, 1, 0.05 * i)) for i in range(2)]
    readings = {r.id: r for r in (*doubtful, *sure_six, *true_s)}
    settled, groups = settle_drawings(readings, "A")
    assert [(g.fields, g.guess, g.what) for g in groups] == [
        (tuple(sorted(r.id for r in (*doubtful, *sure_six))), "strawberry", "letter")]
    assert all(settled[r.id].review and settled[r.id].value == "strawberry"
               and settled[r.id].group == "q1" for r in sure_six)
    assert not any(settled[t.id].review for t in true_s)
    other = {r.id: _fruit(r.id, (("strawberry", 0.996), ("blueberry", 0.003)),
                          r.letter_look) for r in sure_six}
    settled, groups = settle_drawings({**readings, **other}, "A")
    assert not any(settled[r].review for r in other)
