"""The reader benchmark's bookkeeping: the photo plan and how readings are counted."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.delicious.garden import garden
from companion.games.delicious.simulate import simulate_game
from companion.paper.model import FieldKind
from tools.bench_reader import PhotoSpec, ReaderResult, plan, table, tally


def test_plan_is_fixed_mostly_combo_and_pairs_share_a_code() -> None:
    specs = plan(40, 1000)
    assert specs == plan(40, 1000)
    assert len(specs) == 40
    assert len({s.name for s in specs}) == 40
    combos = [s for s in specs if s.sheet == "delicious-combo"]
    assert len(combos) >= 0.6 * len(specs)
    by_paper: dict[str, list[PhotoSpec]] = {}
    for s in specs:
        by_paper.setdefault(s.paper_id, []).append(s)
    pairs = [m for m in by_paper.values() if len(m) == 2]
    assert pairs
    for first, second in pairs:
        assert {first.sheet, second.sheet} == {"delicious-garden", "delicious-play"}
        assert first.code == second.code and first.variant == second.variant
    assert {s.variant for s in specs} == {"A", "B"}
    assert any(s.honey for s in specs)


def _truth(fields: dict[str, str], full: dict[str, str]) -> dict[str, Any]:
    return {"fields": fields, "full_fields": full}


def test_tally_counts_silent_errors_review_and_scores() -> None:
    full = simulate_game(3, 2, "A").field_maps[0]
    spec = PhotoSpec("p-combo", "delicious-combo", "p", 3, 0, "A", 1, "0001", 1000)
    letters = sorted(k for k, v in full.items() if v in ("carrot", "onion", "pepper", "fig"))
    assert len(letters) >= 3
    a, b, c = letters[:3]
    wrong = dict(full)
    wrong[a] = "broccoli" if full[a] != "broccoli" else "carrot"  # wrong, flagged
    wrong[b] = "lettuce" if full[b] != "lettuce" else "carrot"  # wrong, silent
    del wrong[c]  # missed, silent
    result = ReaderResult(wrong, {a}, 0.5)
    t = tally([spec], {spec.name: _truth(full, full)}, {spec.name: result})
    assert t.silent == 2
    assert t.reviewed == 1
    kinds = garden("A").field_kinds()
    assert t.letter_cells == sum(1 for k in full if kinds[k][0] in (FieldKind.VEGETABLE,
                                                                    FieldKind.FRUIT))
    assert t.letter_right == t.letter_cells - 3
    assert t.sheets_all_right == 0
    assert t.papers == 1
    right = ReaderResult(dict(full), set(), 0.4)
    t2 = tally([spec], {spec.name: _truth(full, full)}, {spec.name: right})
    assert (t2.silent, t2.sheets_all_right, t2.papers_scored_right) == (0, 1, 1)
    assert t2.papers_scored_right_no_review == 1
    text = table({"ours": t, "perfect": t2})
    assert "| silent errors (wrong, not in review) | 2 of" in text


def test_a_failed_photo_is_loud_not_silent() -> None:
    full = simulate_game(4, 2, "B").field_maps[1]
    spec = PhotoSpec("q-combo", "delicious-combo", "q", 4, 1, "B", 2, "0002", 1000)
    failed = ReaderResult({}, set(), 0.1, "ImageError: found 2 of 4 corner markers")
    t = tally([spec], {spec.name: _truth(full, full)}, {spec.name: failed})
    assert t.silent == 0 and t.failed_photos == 1 and t.papers_scored_right == 0


def test_a_pair_scores_only_when_the_reader_can_pair_it() -> None:
    """Garden and play photos count as one player only if both codes were read."""
    full = simulate_game(5, 2, "A").field_maps[0]
    garden_fields = {k: v for k, v in full.items() if k.startswith("garden.")}
    play_fields = {k: v for k, v in full.items() if k.startswith("play.")}
    g = PhotoSpec("r-garden", "delicious-garden", "r", 5, 0, "A", 3, "AB12", 1000)
    p = PhotoSpec("r-play", "delicious-play", "r", 5, 0, "A", 4, "AB12", 1000)
    truths = {g.name: _truth(garden_fields, full), p.name: _truth(play_fields, full)}
    paired = {g.name: ReaderResult(garden_fields, set(), 0.5, code="AB12"),
              p.name: ReaderResult(play_fields, set(), 0.5, code="AB12")}
    t = tally([g, p], truths, paired)
    assert (t.pairs, t.pairs_merged, t.papers_scored_right) == (1, 1, 1)
    lost = {g.name: paired[g.name], p.name: ReaderResult(play_fields, set(), 0.5, code="")}
    t2 = tally([g, p], truths, lost)
    assert (t2.pairs, t2.pairs_merged, t2.papers_scored_right) == (1, 0, 0)
    assert t2.sheets_all_right == 2  # each photo was still read right on its own


def test_real_plan_gives_each_player_one_held_out_writer() -> None:
    from tools.synth import real_hands

    if not real_hands.available():
        pytest.skip("real handwriting (UNIPEN) not in ../shared")
    specs = plan(50, 1000, real=True)
    papers = {s.paper_id: s.writer for s in specs}
    assert len(papers) >= 40
    assert len(set(papers.values())) == len(papers)  # one writer per player
    assert all(s.hand == "real-test" and s.name.startswith("real-") for s in specs)
    test_writers = set(real_hands.writers(real_hands.RealSplit.TEST))
    assert set(papers.values()) <= test_writers
    assert not {s.name for s in specs} & {s.name for s in plan(50, 1000)}


def test_calibration_plan_uses_only_calibration_writers_in_games_of_its_own() -> None:
    from tools.synth import real_hands

    if not real_hands.available():
        pytest.skip("real handwriting (UNIPEN) not in ../shared")
    calib = plan(100, 1000, real=True, split="calibrate")
    test = plan(50, 1000, real=True)
    writers = {s.writer for s in calib}
    assert writers == set(real_hands.writers(real_hands.RealSplit.CALIB))
    assert not writers & {s.writer for s in test}
    assert all(s.hand == "real-calib" for s in calib)
    assert not {s.game_seed for s in calib} & {s.game_seed for s in test}
    assert not {s.name for s in calib} & {s.name for s in test}


def _reading(fid: str, kind: FieldKind, value: str | None, conf: float,
             cands: tuple[tuple[str | None, float], ...], note: str = "") -> Any:
    from companion.vision.sheet.reader import FieldReading

    return FieldReading(fid, kind, value, conf, cands, note=note)


def test_letter_facts_see_through_the_letter_threshold() -> None:
    from companion.vision.sheet.reader import LETTER_DOUBT_NOTE
    from tools.bench_reader import letter_facts

    v = FieldKind.VEGETABLE
    readings = {
        # held back by the letter threshold alone: plain reading 0.931 is trusted otherwise
        "a": _reading("a", v, "carrot", 0.85, (("carrot", 0.931), (None, 0.02),
                                               ("onion", 0.049)), LETTER_DOUBT_NOTE),
        # in review on its own: the ink is doubtful
        "b": _reading("b", v, "onion", 0.6, (("onion", 0.6), (None, 0.4)), "faint"),
        "c": _reading("c", v, None, 0.99, ((None, 0.99), ("onion", 0.01))),
        "d": _reading("d", FieldKind.TOOL, "cross", 0.99, (("cross", 0.99), (None, 0.01))),
    }
    facts = letter_facts(readings)
    assert set(facts) == {"a", "b"}
    assert facts["a"][0] == pytest.approx(0.931 / 0.98, abs=1e-9) and facts["a"][1] is False
    assert facts["b"] == (1.0, True)


def test_threshold_sweep_picks_the_lowest_within_the_silent_budget() -> None:
    from tools.bench_reader import LetterRecord, reliability_table
    from tools.fit_letter_sheets import choose, sweep

    records = ([LetterRecord(0.999, False, True)] * 900 + [LetterRecord(0.97, False, False)]
               + [LetterRecord(0.9, False, True)] * 50 + [LetterRecord(0.6, True, False)])
    rows = sweep(records, (0.5, 0.95, 0.98, 0.995))
    assert [(r.reviewed, r.silent) for r in rows] == [(1, 1), (51, 1), (52, 0), (52, 0)]
    quarter = 1 / 4000
    assert choose(rows, 10_000, quarter).threshold == 0.5  # budget 2.5: one silent allowed
    # 0.98 is the lowest with no silent error; 0.995 reviews no more fields, so it is taken
    assert choose(rows, 1000, quarter).threshold == 0.995
    assert choose(rows, 4000, quarter).threshold == 0.5
    assert choose(rows, 3000, quarter).threshold == 0.995
    assert choose(rows, 10_000).threshold == 0.995  # the shipped budget: none
    text = reliability_table(records, 0.98)
    assert "| 0.95-0.98 | 1 | 0.00% | 0.9700 | 1 | 0 |" in text
    assert "| 0.999-1 | 900 | 100.00% |" in text


def test_threshold_sweep_takes_the_strictest_of_equally_costly_thresholds() -> None:
    from tools.bench_reader import LetterRecord
    from tools.fit_letter_sheets import choose, sweep

    # the letters below 0.9 are in review anyway: 0.5 to 0.9 cost the same
    records = ([LetterRecord(0.999, False, True)] * 900 + [LetterRecord(0.6, True, False)]
               + [LetterRecord(0.97, False, True)] * 20)
    rows = sweep(records, (0.5, 0.8, 0.9, 0.98, 0.995))
    assert [r.reviewed for r in rows] == [1, 1, 1, 21, 21]
    assert choose(rows, 4000, 1 / 4000).threshold == 0.9


def test_fitting_without_the_real_data_says_so_and_exits_2(monkeypatch: Any, tmp_path: Any,
                                                           capsys: Any) -> None:
    from tools import fit_letter_sheets

    monkeypatch.setenv("COMPANION_UNIPEN", str(tmp_path / "absent.json"))
    with pytest.raises(SystemExit) as exc:
        fit_letter_sheets.main(["--photos", "2", "--write"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "real handwriting not found" in err and err.count("\n") == 1


def test_pair_sweep_lets_the_letter_threshold_down_where_the_pair_rule_holds_the_error() -> None:
    from tools.bench_reader import LetterRecord
    from tools.fit_letter_sheets import choose_pairs, sweep_pairs

    def rec(q: float, right: bool, photo: str, read: str, second: str) -> LetterRecord:
        return LetterRecord(q, q < 0.9, right, photo, "", "", read, "", second, 1 - q)

    # photo a: a doubtful F-or-G and a wrong G at 0.989 between the same two letters;
    # photo b: sure letters and one right letter at 0.97 whose pair nobody doubts
    records = ([rec(0.6, True, "a", "fig", "golden-raspberry"),
                rec(0.989, False, "a", "golden-raspberry", "fig")]
               + [rec(0.999, True, "b", "carrot", "onion")] * 50
               + [rec(0.97, True, "b", "lettuce", "broccoli")] * 10)
    rows = sweep_pairs(records, (0.5, 0.96, 0.99), (0.99, 1.0))
    plain = {r.threshold: r for r in rows if not r.pairs_on}
    assert (plain[0.96].silent, plain[0.99].silent) == (1, 0)
    pick = choose_pairs(rows, 1000)
    # the pair rule holds the wrong G: 0.96 (as costly as 0.5, and stricter) reviews 2
    # letters with it, where 0.99 alone reviews 12
    assert (pick.threshold, pick.pair_threshold, pick.reviewed, pick.silent) == (0.96, 1.0, 2, 0)
    floored = choose_pairs(rows, 1000, floor=0.99)
    assert (floored.threshold, floored.reviewed, floored.silent) == (0.99, 12, 0)
