"""Real trajectories re-drawn as other hands (training variety): the letter must survive."""

from __future__ import annotations

import numpy as np

from tools.synth import hand_variety
from tools.synth.hand_variety import vary_strokes
from tools.synth.handwriting import letter_cell_crop

# An F as a writer draws it: the stem down, the top bar, the middle bar (letter 1 high).
F_STROKES = (
    np.array([[0.0, 0.0], [0.0, 0.5], [0.0, 1.0]]),
    np.array([[0.0, 0.0], [0.3, 0.0], [0.6, 0.0]]),
    np.array([[0.0, 0.5], [0.25, 0.5], [0.45, 0.5]]),
)


def _extent(strokes: tuple[np.ndarray, ...]) -> np.ndarray:
    allp = np.concatenate(strokes)
    return allp.max(axis=0) - allp.min(axis=0)


def test_same_seed_same_hand_and_seeds_differ() -> None:
    a = vary_strokes(F_STROKES, "F", np.random.default_rng(3))
    b = vary_strokes(F_STROKES, "F", np.random.default_rng(3))
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    others = [vary_strokes(F_STROKES, "F", np.random.default_rng(s)) for s in range(20)]
    assert len({np.concatenate(o).round(6).tobytes() for o in others}) > 10


def test_varied_letter_keeps_its_strokes_and_shape() -> None:
    n_joined = 0
    for seed in range(300):
        out = vary_strokes(F_STROKES, "F", np.random.default_rng(seed))
        assert 1 <= len(out) <= len(F_STROKES)
        n_joined += len(out) < len(F_STROKES)
        assert all(np.isfinite(st).all() and st.shape[1] == 2 and len(st) > 0 for st in out)
        w, h = _extent(out)
        # about a letter high (a hook, a run-on or a moved stroke adds a little), and its
        # width stays within the aspect range of real capitals
        assert 0.8 < h < 1.6
        assert 0.2 < w / h < 1.6
    # joins happen, but most letters keep their pen lifts
    assert 0 < n_joined < 150


def test_kept_hands_are_the_writer_s_own() -> None:
    kept = 0
    for seed in range(200):
        out = vary_strokes(F_STROKES, "F", np.random.default_rng(seed))
        kept += len(out) == 3 and all(np.array_equal(a, b) for a, b in
                                      zip(out, F_STROKES, strict=True))
    assert abs(kept / 200 - hand_variety.KEEP_CHANCE) < 0.08


def test_varied_trajectory_draws_into_a_cell() -> None:
    rng = np.random.default_rng(0)
    crop = letter_cell_crop("F", rng, strokes=vary_strokes(F_STROKES, "F", rng), px_per_mm=8.0,
                            photo_px_per_mm=10.0)
    assert crop.dtype == np.uint8 and crop.ndim == 2
    assert int(crop.max()) - int(crop.min()) > 60  # ink on paper


def test_cursive_loops_only_when_asked_and_they_lengthen_the_path() -> None:
    def length(strokes: tuple[np.ndarray, ...]) -> float:
        return sum(float(np.linalg.norm(np.diff(st, axis=0), axis=1).sum()) for st in strokes)

    plain = [vary_strokes(F_STROKES, "F", np.random.default_rng(s)) for s in range(200)]
    again = [vary_strokes(F_STROKES, "F", np.random.default_rng(s), loops=False)
             for s in range(200)]
    assert all(len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
               for a, b in zip(plain, again, strict=True))
    looped = [vary_strokes(F_STROKES, "F", np.random.default_rng(s), loops=True)
              for s in range(200)]
    longer = sum(length(b) > length(a) + 0.3 for a, b in zip(plain, looped, strict=True))
    assert 10 < longer < 120  # a loop of radius 0.1-0.2 adds 0.6 or more; most get none
    assert all(np.isfinite(st).all() for out in looped for st in out)


def test_a_small_g_falls_back_to_the_capital_without_fonts() -> None:
    from tools.synth.handwriting import letter_alpha

    a = letter_alpha(40, 40, "g", np.random.default_rng(5), fonts="strokes")
    b = letter_alpha(40, 40, "G", np.random.default_rng(5), fonts="strokes")
    assert np.array_equal(a, b)
