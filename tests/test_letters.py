"""The shipped letter model: loads in cv2.dnn, reads clean letters, respects field letters."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError, UnknownNameError
from companion.vision.sheet.constants_letters import (
    INPUT_PX,
    LETTER_CLASSES,
    META_PATH,
    MODEL_PATH,
    REVIEW_BELOW,
)
from companion.vision.sheet.letters import LetterClassifier, preprocess, softmax_restricted
from tools.synth.handwriting import draw_letter, letter_cell_crop

VEG = ("B", "C", "L", "M", "O", "P")
FRUIT = ("B", "F", "G", "S", "W")


@pytest.fixture(scope="module")
def clf() -> LetterClassifier:
    return LetterClassifier.load()


def clean_letter(letter: str, seed: int, fonts: str = "strokes") -> np.ndarray:
    img = np.full((96, 96), 235, np.uint8)
    draw_letter(img, (8, 8, 80, 80), letter, np.random.default_rng(seed), fonts=fonts)
    return img


def test_model_is_small_and_loads_with_cv2_dnn() -> None:
    assert MODEL_PATH.stat().st_size < 1_000_000
    net = cv2.dnn.readNetFromONNX(str(MODEL_PATH))
    net.setInput(np.zeros((3, 1, INPUT_PX, INPUT_PX), np.float32))
    assert np.asarray(net.forward()).shape == (3, len(LETTER_CLASSES))
    meta = json.loads(META_PATH.read_text())
    assert meta["classes"] == list(LETTER_CLASSES)
    assert 0.2 < meta["temperature"] < 10
    assert 0.5 < meta["review_below"] < 1.0  # fitted on the real calibration writers
    assert meta["calibrated_on"] == "real-calib writers"
    # fitted on photographed sheets of the same writers (tools/fit_letter_sheets.py)
    assert 0.5 < meta["sheet_review_below"] < 1.0
    assert "real-calib" in meta["sheet_calibrated_on"]


def test_the_reader_reviews_letters_below_the_sheet_fitted_threshold() -> None:
    from companion.vision.sheet.reader import Reader, _letter_review_below

    meta = json.loads(META_PATH.read_text())
    assert _letter_review_below(Reader.OURS) == meta["sheet_review_below"]


def test_the_pair_threshold_is_the_stricter_one_and_the_reader_uses_it() -> None:
    from companion.vision.sheet.reader import Reader, _pair_review_below

    meta = json.loads(META_PATH.read_text())
    if "sheet_pair_review_below" not in meta:  # fitted without the pairs rule
        assert _pair_review_below(Reader.OURS) == 0.0
        return
    assert meta["sheet_review_below"] < meta["sheet_pair_review_below"] <= 1.0
    assert _pair_review_below(Reader.OURS) == meta["sheet_pair_review_below"]
    assert _pair_review_below(Reader.TESSERACT) == 0.0
    # the letter threshold never goes below the one fitted on the same writers' crops (the
    # ensemble's, as the reader reads them, where there is one)
    floor = meta.get("ensemble", {}).get("review_below", meta["review_below"])
    assert meta["sheet_review_below"] >= floor


def test_model_exposes_its_features_for_the_players_own_letters() -> None:
    from companion.vision.sheet.letters import LetterClassifier

    clf = LetterClassifier.load()
    x = np.random.default_rng(0).random((4, INPUT_PX, INPUT_PX)).astype(np.float32)
    logits, hidden = clf.logits_and_features(x)
    assert np.allclose(logits, clf.logits(x), atol=1e-4)
    assert hidden.shape[0] == 4 and hidden.shape[1] >= 64


@pytest.mark.parametrize("letter", LETTER_CLASSES)
def test_clean_stroke_letters_read_right(clf: LetterClassifier, letter: str) -> None:
    crops = [clean_letter(letter, seed) for seed in range(4)]
    for ranked in clf.classify_many(crops, [LETTER_CLASSES] * len(crops)):
        assert ranked[0][0] == letter, ranked[:3]


def test_clean_heldout_font_letters_mostly_right(clf: LetterClassifier) -> None:
    crops = [clean_letter(L, seed, "heldout") for L in LETTER_CLASSES for seed in range(3)]
    truth = [L for L in LETTER_CLASSES for _ in range(3)]
    ranked = clf.classify_many(crops, [LETTER_CLASSES] * len(crops))
    right = sum(r[0][0] == t for r, t in zip(ranked, truth, strict=True))
    assert right >= len(truth) - 1


def test_restriction_to_field_letters(clf: LetterClassifier) -> None:
    crop = clean_letter("F", 1)
    full = clf.classify(crop, LETTER_CLASSES)
    assert full[0][0] == "F"
    veg = clf.classify(crop, VEG)
    assert [r[0] for r in veg] != [] and {r[0] for r in veg} == set(VEG)
    assert sum(p for _, p in veg) == pytest.approx(1.0)
    assert [p for _, p in veg] == sorted((p for _, p in veg), reverse=True)
    only = clf.classify(crop, ["b"])
    assert only == [("B", pytest.approx(1.0))]


def test_batch_equals_single(clf: LetterClassifier) -> None:
    rng = np.random.default_rng(3)
    crops = [letter_cell_crop(L, rng, fonts="strokes") for L in "BGMSW"]
    alloweds = [VEG, FRUIT, VEG, FRUIT, FRUIT]
    many = clf.classify_many(crops, alloweds)
    for c, a, m in zip(crops, alloweds, many, strict=True):
        one = clf.classify(c, a)
        assert [x[0] for x in one] == [x[0] for x in m]
        assert np.allclose([x[1] for x in one], [x[1] for x in m], atol=1e-5)


def test_degraded_crops_confident_when_right(clf: LetterClassifier) -> None:
    """On reader-like crops, most answers are right and wrong ones are rarely confident."""
    rng = np.random.default_rng(11)
    truth = [LETTER_CLASSES[i % 10] for i in range(100)]
    crops = [letter_cell_crop(t, rng, fonts="strokes") for t in truth]
    ranked = clf.classify_many(crops, [LETTER_CLASSES] * 100)
    ok = [r[0][0] == t for r, t in zip(ranked, truth, strict=True)]
    assert sum(ok) >= 95
    assert sum(1 for r, g in zip(ranked, ok, strict=True) if not g and r[0][1] >= REVIEW_BELOW) <= 1


def test_bad_inputs(clf: LetterClassifier) -> None:
    crop = clean_letter("C", 0)
    with pytest.raises(UnknownNameError):
        clf.classify(crop, ["Q"])
    with pytest.raises(InputError):
        clf.classify(crop, [])
    with pytest.raises(InputError):
        clf.classify(np.zeros((2, 2), np.uint8), VEG)
    with pytest.raises(InputError):
        clf.classify_many([crop], [VEG, FRUIT])
    assert clf.classify_many([], []) == []
    with pytest.raises(InputError):
        LetterClassifier.load("/nonexistent/letters.onnx")


def test_blank_and_border_only_crops_give_blank_input() -> None:
    blank = np.full((80, 90), 220, np.uint8)
    assert preprocess(blank).max() == 0
    framed = blank.copy()
    cv2.rectangle(framed, (0, 0), (89, 79), 60, 2)
    assert preprocess(framed).max() == 0


def test_preprocess_centres_and_normalises_light() -> None:
    crop = clean_letter("L", 2)
    ramp = np.linspace(0.6, 1.0, crop.shape[1])[None, :]
    dim = (crop * ramp).astype(np.uint8)
    a, b = preprocess(crop), preprocess(dim)
    assert a.shape == (INPUT_PX, INPUT_PX)
    assert np.abs(a - b).mean() < 0.05
    ys, xs = np.nonzero(a > 0.5)
    assert abs(ys.mean() - INPUT_PX / 2) < INPUT_PX / 4


def test_print_slivers_at_the_rim_do_not_shrink_the_letter() -> None:
    crop = np.full((96, 96), 235, np.uint8)  # a small letter in a big cell, as small sheets give
    draw_letter(crop, (28, 28, 40, 40), "S", np.random.default_rng(4), fonts="strokes")
    corners = crop.copy()
    for cx, cy in ((0, 0), (95, 0), (0, 95), (95, 95)):  # rounded cell corners left over
        cv2.ellipse(corners, (cx, cy), (10, 10), 0, 0, 360, 150, 3)
    assert np.abs(preprocess(crop) - preprocess(corners)).mean() < 0.02


def test_sliver_rule_keeps_a_letter_that_reaches_the_edge() -> None:
    crop = np.full((80, 80), 230, np.uint8)
    cv2.line(crop, (0, 40), (60, 40), 40, 4)  # an L-ish stroke running off the left edge
    cv2.line(crop, (60, 10), (60, 40), 40, 4)
    a = preprocess(crop)
    assert a.max() > 0.5
    ys, xs = np.nonzero(a > 0.5)
    assert xs.max() - xs.min() > INPUT_PX / 2  # the box spans the whole stroke


def test_small_sheet_crops_are_softer_than_large_sheet_crops() -> None:
    """At few photo px/mm the reader's crop is an upscaled, blurred photo: less fine detail."""
    def detail(photo_ppm: float) -> float:
        total = 0.0
        for seed in range(12):
            c = letter_cell_crop("W", np.random.default_rng(seed), fonts="strokes",
                                 px_per_mm=8.0, photo_px_per_mm=photo_ppm)
            assert c.dtype == np.uint8 and c.ndim == 2
            total += float(cv2.Laplacian(c.astype(np.float32), cv2.CV_32F).var())
        return total

    assert detail(3.0) < 0.5 * detail(11.0)


def test_small_sheet_letters_mostly_right(clf: LetterClassifier) -> None:
    """Crops as a sheet filling a third of the frame gives them (~3.5 px/mm in the photo)."""
    letters = "BCFGLMOPSW" * 4
    crops = [letter_cell_crop(t, np.random.default_rng([7, i]), fonts="heldout",
                              photo_px_per_mm=3.5) for i, t in enumerate(letters)]
    ranked = clf.classify_many(crops, [LETTER_CLASSES] * len(crops))
    right = sum(r[0][0] == t for r, t in zip(ranked, letters, strict=True))
    assert right >= 0.8 * len(letters)


@settings(max_examples=60, deadline=None)
@given(logits=st.lists(st.floats(-30, 30), min_size=10, max_size=10),
       allowed=st.sets(st.sampled_from(LETTER_CLASSES), min_size=1),
       temperature=st.floats(0.3, 5.0))
def test_restricted_softmax_properties(logits: list[float], allowed: set[str],
                                       temperature: float) -> None:
    lg = np.array(logits, np.float32)
    ranked = softmax_restricted(lg, sorted(allowed), temperature)
    assert {r[0] for r in ranked} == allowed
    probs = [p for _, p in ranked]
    assert sum(probs) == pytest.approx(1.0)
    assert probs == sorted(probs, reverse=True)
    top = max(allowed, key=lambda a: lg[LETTER_CLASSES.index(a)])
    # the leader has the largest logit (ties closer than float32 resolution may go either way)
    assert lg[LETTER_CLASSES.index(ranked[0][0])] >= lg[LETTER_CLASSES.index(top)] - 1e-6


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary missing")
@pytest.mark.parametrize("letter,allowed", [("L", VEG), ("W", FRUIT), ("O", VEG)])
def test_tesseract_returns_whitelisted_letter_or_none(letter: str,
                                                      allowed: tuple[str, ...]) -> None:
    from companion.vision.sheet.tesseract_letters import read_letter_tesseract

    got, conf = read_letter_tesseract(clean_letter(letter, 0), allowed)
    assert got is None or got in allowed
    assert 0.0 <= conf <= 1.0
    blank, c0 = read_letter_tesseract(np.full((80, 80), 230, np.uint8), allowed)
    assert blank is None or blank in allowed
    with pytest.raises(InputError):
        read_letter_tesseract(clean_letter(letter, 0), ["BC"])
