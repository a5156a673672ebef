"""Judging and fitting the grouping decision on kept drawing evidence (tools/)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.vision.sheet.constants_sketches import VEGETABLE_PLANTS
from companion.vision.sheet.drawing_groups import DrawingEvidence, GroupRule
from tools.fit_sketches import centres, ood_floors
from tools.sketch_evidence import judge


@dataclass(frozen=True)
class _G:
    fields: tuple[str, ...]
    guess: str
    trusted: bool


def _paper(truths: dict[str, str], source: str = "real") -> dict[str, Any]:
    drawings: dict[str, Any] = {}
    evidence: dict[str, DrawingEvidence] = {}
    for i, (fid, want) in enumerate(sorted(truths.items())):
        f = np.zeros(4, np.float32)
        f[i % 4] = 1.0
        drawings[fid] = {"truth": want, "source": source, "features": f.tolist()}
        evidence[fid] = DrawingEvidence(
            "vegetable", tuple((p, 0.9 if p == want else 0.02) for p in VEGETABLE_PLANTS),
            0.99, 0.01, f)
    return {"drawings": drawings, "evidence": evidence}


def test_judge_counts_silent_errors_questions_and_one_tap_answers() -> None:
    paper = _paper({"a": "carrot", "b": "carrot", "c": "onion", "d": "pepper"})
    groups = [_G(("a", "b", "c"), "carrot", False), _G(("d",), "onion", True)]
    j = judge([paper], lambda ev, apart: groups)
    assert j.questions == [1] and j.mixed == 1
    assert j.silent["all"] == 1 and j.silent["real"] == 1  # d trusted as onion
    assert j.right["all"] == 0  # nothing trusted is right
    assert j.right_after["all"] == 2  # the tap names a, b (carrot); c stays wrong


def test_centres_and_floors_come_from_the_rightly_read_calibration_drawings() -> None:
    paper = _paper({"a": "carrot", "b": "onion"})
    c = centres([paper])
    assert set(c) == {"carrot", "onion"}
    assert abs(float(np.linalg.norm(c["carrot"])) - 1.0) < 1e-6
    rule = GroupRule(centres={k: tuple(v) for k, v in c.items()})
    on_kind, typical = ood_floors([paper], rule)
    assert on_kind == 0.95 and typical == 0.95  # 1.0 each (nothing recorded: 1.0), less 0.05
    back = GroupRule.from_meta({"group_distance": 0.2, "group_trust": 0.99,
                                "group_on_kind": on_kind, "group_typical": typical,
                                "centres": c})
    assert back.likeness([paper["evidence"]["a"]], "carrot") > 0.999
    assert back.likeness([paper["evidence"]["a"]], "onion") < 0.01


def test_the_trust_floor_is_above_every_wrongly_read_calibration_drawing() -> None:
    from tools.fit_sketches import GATE_MARGIN, sweep, trust_floor

    paper = _paper({"a": "carrot", "b": "onion"})
    # b is read as carrot at 0.9: no group may be trusted at its probability or below
    paper["evidence"]["b"] = DrawingEvidence(
        "vegetable", tuple((p, 0.9 if p == "carrot" else 0.02) for p in VEGETABLE_PLANTS),
        0.99, 0.01, paper["evidence"]["b"].features)
    floor, facts = trust_floor([paper])
    assert facts["wrong_drawings"] == 1
    assert abs(floor - (facts["max_wrong_drawing"] + GATE_MARGIN)) < 1e-3
    assert abs(facts["max_wrong_drawing"] - 0.9) < 1e-3  # its probability of carrot
    trusts = {r[1] for r in sweep([paper], GroupRule(), floor)}
    assert min(trusts) == floor and all(t >= floor for t in trusts)


def test_fitting_without_the_trust_floor_chooses_on_the_groups_alone(
        tmp_path: Any, monkeypatch: Any) -> None:
    """``--no-trust-floor``: the trust may go below the surest wrongly read drawing where
    no group is wrong there (an onion read as mushroom at 0.9 that looks like no mushroom,
    so its group is never trusted; a carrot and a mushroom read right, at 0.905 once
    normalised), and the floor is recorded as not applied; by default no trust under the
    floor (0.92), so nothing is trusted."""
    import json

    import companion.vision.sheet.constants_sketches as constants
    import tools.sketch_evidence as evidence
    from tools.fit_sketches import main

    paper = _paper({"a": "carrot", "b": "onion", "c": "mushroom"})
    for fid, plant, p_best in (("a", "carrot", 0.95), ("b", "mushroom", 0.9),
                               ("c", "mushroom", 0.95)):
        paper["evidence"][fid] = DrawingEvidence(
            "vegetable", tuple((p, p_best if p == plant else 0.02) for p in VEGETABLE_PLANTS),
            0.99, 0.01, paper["evidence"][fid].features)
    meta = tmp_path / "sketches.json"
    meta.write_text(json.dumps({"letter_gate": 0.987}))
    monkeypatch.setattr(constants, "SKETCH_META_PATH", meta)
    monkeypatch.setattr(evidence, "collect", lambda *_a, **_k: tmp_path / "papers.jsonl")
    monkeypatch.setattr(evidence, "load", lambda _p: [paper])
    main(["--groups-only", "--papers", "1"])
    floored = json.loads(meta.read_text())
    assert floored["group_trust"] >= floored["group_trust_floor"]["max_wrong_drawing"]
    assert "applied" not in floored["group_trust_floor"]
    main(["--groups-only", "--papers", "1", "--no-trust-floor"])
    alone = json.loads(meta.read_text())
    assert alone["group_trust_floor"]["applied"] is False
    assert alone["group_trust"] == 0.9 < floored["group_trust"]
    assert alone["group_fit"]["silent"] == 0 and alone["group_fit"]["questions_median"] == 1
    assert alone["letter_gate"] == 0.987 and alone["group_fit"]["papers"] == 1


def _looking(kind_probs: dict[str, float], look: Any, truth: str) -> tuple[Any, Any]:
    """A drawn cell with the given look (made unit length)."""
    f = np.asarray(look, np.float32)
    f /= np.linalg.norm(f)
    rest = (1.0 - sum(kind_probs.values())) / (len(VEGETABLE_PLANTS) - len(kind_probs))
    ev = DrawingEvidence("vegetable", tuple((v, kind_probs.get(v, rest))
                                            for v in VEGETABLE_PLANTS), 0.99, 0.01, f)
    return {"truth": truth, "source": "generator", "features": f.tolist()}, ev


def test_the_question_join_is_the_widest_that_joins_no_two_plants() -> None:
    """Two carrot questions 0.25 apart and an onion guessed carrot 0.55 from them: joins
    up to 0.5 join the carrots only; 0.6 would ask about the onion in the carrots' question.
    The reader takes the fitted join from the metadata."""
    from tools.fit_sketches import MERGES, fit_merge

    unsure = {"carrot": 0.6, "onion": 0.3}
    half = float(np.arccos(0.75)) / 2  # a and b: cosine 0.75, distance 0.25
    up = 0.45 / np.cos(half)  # c: cosine 0.45 to each, distance 0.55
    cells = {"a": _looking(unsure, [np.cos(half), np.sin(half), 0, 0], "carrot"),
             "b": _looking(unsure, [np.cos(half), -np.sin(half), 0, 0], "carrot"),
             "c": _looking(unsure, [up, 0, np.sqrt(1 - up * up), 0], "onion")}
    paper = {"drawings": {k: v[0] for k, v in cells.items()},
             "evidence": {k: v[1] for k, v in cells.items()}}
    merge, lines = fit_merge([paper], GroupRule(0.2, 0.99))
    assert merge == 0.5 and len(lines) == len(MERGES)
    assert "join 0.6: 1 questions mixing plants" in lines[-1]
    assert GroupRule.from_meta({"group_merge": merge}).merge == 0.5
    assert GroupRule.from_meta({}).merge == GroupRule().merge  # the default without a fit
