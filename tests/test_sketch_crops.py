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
