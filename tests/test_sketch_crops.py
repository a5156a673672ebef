"""tools/sketch_crops.py: which calib crops quick hands drew, and the real crops' kind."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.sheet.constants_sketches import LETTER_CLASS, SKETCH_CLASSES
from tools import sketch_crops as C
from tools.synth import sketches as S

pytestmark = pytest.mark.synth


def test_quick_mask_marks_quick_players_sketches_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(S.QUICK_SHARE, S.Setting.CALIB, 0.5)
    n = 4 * len(SKETCH_CLASSES)
    mask = C.quick_mask(7, n, S.Setting.CALIB)
    letters = np.arange(n) % len(SKETCH_CLASSES) == SKETCH_CLASSES.index(LETTER_CLASS)
    assert mask.any() and not mask[letters].any()
    with C.without_quick_hands():
        assert not C.quick_mask(7, n, S.Setting.CALIB).any()
    assert S.QUICK_SHARE[S.Setting.CALIB] == 0.5  # put back


def test_best_of_kind_asks_only_the_cells_kind() -> None:
    carrot, fig = SKETCH_CLASSES.index("carrot"), SKETCH_CLASSES.index("fig")
    probs = np.full((2, len(SKETCH_CLASSES)), 0.01)
    probs[0, fig] = 0.9  # a carrot cell read as fig: the vegetables' best is still carrot
    probs[0, carrot] = 0.05
    probs[1, carrot] = 0.9  # a fig cell read as carrot: the fruits' best is the first fruit
    assert C.best_of_kind(probs, np.array([carrot, fig])) == 0.5


def test_per_plant_rows_count_each_plant_and_its_misreadings() -> None:
    carrot, fig, pepper = (SKETCH_CLASSES.index(p) for p in ("carrot", "fig", "pepper"))
    n = len(SKETCH_CLASSES)

    def probs(reads: list[int]) -> np.ndarray:
        out = np.full((len(reads), n), 0.01)
        out[np.arange(len(reads)), reads] = 0.9
        return out

    held = probs([carrot, pepper, fig])  # held-out: one carrot right, one read as pepper
    yh = np.array([carrot, carrot, fig])
    real = probs([pepper, pepper, carrot])  # real carrots: two read as pepper
    yr = np.array([carrot, carrot, carrot])
    rows = {r.split(" | ")[0].strip("| "): r for r in C.per_plant_rows(held, yh, real, yr)}
    assert rows["carrot"] == "| carrot | 50.0% | 33.3% | pepper 2, carrot 1 |"
    assert rows["fig"] == "| fig | 100.0% | - | - |"  # no real fig drawn
    assert rows["onion"] == "| onion | - | - | - |"
    assert LETTER_CLASS not in rows and len(rows) == n - 1
    assert C.per_plant_rows(held, yh, None, None)[0].endswith("| - | - |")
