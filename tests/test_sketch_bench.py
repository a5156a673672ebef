"""The sketch bench's tables (tools/bench_sketch.py), on made-up paper results."""

from __future__ import annotations

from typing import Any

import pytest

from tools.bench_sketch import LATER_DRIFT, PaperResult, _as_dict, plan, print_tables


def _result(questions: int, silent: int = 0) -> dict[str, Any]:
    r = PaperResult("calib", fields=10, right=9, questions=questions, right_after=10,
                    seconds=[0.3], silent=[f"f{i}" for i in range(silent)])
    r.cells["drawn, generator"] += 4
    r.cells_right["drawn, generator"] += 3
    return _as_dict(r)


def test_calib_papers_are_their_own_seeds() -> None:
    calib = plan(4, "calib")
    assert {p.column for p in calib} == {"calib"}
    assert not {p.seed for p in calib} & {p.seed for p in plan(4, "synthetic")}


def test_later_second_sheets_are_the_second_games_with_the_drawings_moved() -> None:
    second = plan(3, "real", sitting=1)
    later = plan(3, "real", sitting=1, drift=LATER_DRIFT)
    assert [p.name for p in later] == [p.name + f"-d{LATER_DRIFT:g}" for p in second]
    assert plan(1, "real", sitting=1, drift=0.03)[0].name != later[0].name  # cached apart
    assert [(p.game_seed, p.seed, p.player) for p in later] == [
        (p.game_seed, p.seed, p.player) for p in second]
    assert {p.drift for p in second} == {0.0} and {p.drift for p in later} == {LATER_DRIFT}


def test_tables_give_the_questions_median_max_and_mean(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    got = [_result(2), _result(5, silent=1), _result(3)]
    print_tables([("calib", "calib setting")], {"calib": got})
    out = capsys.readouterr().out
    assert "| calib setting | 3 | 0 | 90.0% | 1 | 3 / 5 | 100.0% | 0.30 |" in out
    assert "| calib | drawn, generator | 12 | 75.0% | 0 |" in out
    assert "questions mean 3.33" in out
