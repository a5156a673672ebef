"""A doubtful letter next to the same player's sure letters: only doubt is ever touched."""

from __future__ import annotations

import numpy as np

from companion.vision.sheet.own_letters import compare_own, letter_features


def _glyph(kind: str) -> np.ndarray:
    x = np.zeros((32, 32), np.float32)
    if kind == "L":
        x[4:28, 8:11] = 1
        x[25:28, 8:24] = 1
    elif kind == "C":
        x[4:7, 10:26] = 1
        x[4:28, 8:11] = 1
        x[25:28, 10:26] = 1
    else:  # O
        x[4:28, 8:11] = 1
        x[4:28, 22:25] = 1
        x[4:7, 8:25] = 1
        x[25:28, 8:25] = 1
    return x


def test_no_sure_letters_changes_nothing() -> None:
    inputs = np.stack([_glyph("L"), _glyph("C")])
    ranked = [[("C", 0.6), ("L", 0.4)], [("C", 0.7), ("L", 0.3)]]
    assert compare_own(letter_features(inputs), ranked, 0.95) == ranked


def test_sure_letters_are_never_changed() -> None:
    inputs = np.stack([_glyph("L"), _glyph("C"), _glyph("L")])
    ranked = [[("L", 0.999), ("C", 0.001)], [("C", 0.999), ("L", 0.001)],
              [("L", 0.97), ("C", 0.03)]]
    out = compare_own(letter_features(inputs), ranked, 0.95)
    assert out[:2] == ranked[:2]
    assert out[2] == ranked[2]  # not doubtful (0.97 >= 0.95)


def test_a_doubtful_letter_follows_the_players_own_hand_but_stays_doubtful() -> None:
    inputs = np.stack([_glyph("L"), _glyph("C"), _glyph("L")])
    ranked = [[("L", 0.999), ("C", 0.001)], [("C", 0.999), ("L", 0.001)],
              [("C", 0.55), ("L", 0.45)]]
    out = compare_own(letter_features(inputs), ranked, 0.95, weight=20.0)
    assert out[2][0][0] == "L"
    assert out[2][0][1] <= 0.55  # never surer than the plain reading


def test_a_weight_of_zero_is_the_plain_reading() -> None:
    inputs = np.stack([_glyph("L"), _glyph("C"), _glyph("L")])
    ranked = [[("L", 0.999), ("C", 0.001)], [("C", 0.999), ("L", 0.001)],
              [("C", 0.55), ("L", 0.45)]]
    assert compare_own(letter_features(inputs), ranked, 0.95, weight=0.0) == ranked


def test_hidden_features_are_used_when_given() -> None:
    inputs = np.stack([_glyph("L"), _glyph("C")])
    hidden = np.array([[1.0, 0.0], [3.0, 4.0]], np.float32)
    f = letter_features(inputs, hidden)
    assert np.allclose(f, [[1, 0], [0.6, 0.8]])
    assert letter_features(inputs, np.zeros((2, 0), np.float32)).shape == (2, 32 * 32)
