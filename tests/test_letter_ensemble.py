"""The letter ensemble: averaging calibrated members, asked only where the first is unsure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from companion.errors import InputError
from companion.vision.sheet.constants_letters import (
    FIELD_LETTERS,
    INPUT_PX,
    LETTER_CLASSES,
    META_PATH,
    MODEL_PATH,
)
from companion.vision.sheet.letter_ensemble import (
    EnsembleMean,
    EnsembleSettings,
    ensemble_scores,
    log_softmax,
    mean_scores,
    top_allowed,
)
from companion.vision.sheet.letters import LetterClassifier, softmax_restricted

N = len(LETTER_CLASSES)


def _logits(rows: list[dict[str, float]]) -> np.ndarray:
    out = np.zeros((len(rows), N), np.float32)
    for k, row in enumerate(rows):
        for letter, v in row.items():
            out[k, LETTER_CLASSES.index(letter)] = v
    return out


def test_one_member_mean_is_its_own_calibrated_softmax() -> None:
    lg = np.random.default_rng(0).normal(size=(5, N)) * 4
    assert np.allclose(mean_scores([lg], [0.7], 1.0), log_softmax(lg, 0.7))
    p = np.exp(mean_scores([lg, -lg], [1.0, 2.0], 1.0))
    assert np.allclose(p.sum(axis=1), 1.0)
    want = (np.exp(log_softmax(lg, 1.0)) + np.exp(log_softmax(-lg, 2.0))) / 2
    assert np.allclose(p, want)


def test_the_log_mean_is_the_renormalised_geometric_mean() -> None:
    lg = np.random.default_rng(3).normal(size=(4, N)) * 4
    got = np.exp(mean_scores([lg, -lg], [1.0, 2.0], 1.0, EnsembleMean.LOG))
    want = np.sqrt(np.exp(log_softmax(lg, 1.0)) * np.exp(log_softmax(-lg, 2.0)))
    assert np.allclose(got, want / want.sum(axis=1, keepdims=True))
    # a member sure of a letter another one rules out: the log mean doubts it more
    two = [_logits([{"B": 8.0}]), _logits([{"S": 8.0}])]
    b = LETTER_CLASSES.index("B")
    assert (np.exp(mean_scores(two, [1.0, 1.0], 1.0, EnsembleMean.LOG))[0, b]
            <= np.exp(mean_scores(two, [1.0, 1.0], 1.0))[0, b] + 1e-12)


def test_ensemble_temperature_softens_the_mean() -> None:
    lg = _logits([{"B": 5.0, "S": 1.0}])
    sharp = np.exp(mean_scores([lg], [1.0], 1.0)).max()
    soft = np.exp(mean_scores([lg], [1.0], 2.0)).max()
    assert soft < sharp


def test_top_allowed_renormalises_over_the_field() -> None:
    scores = log_softmax(_logits([{"F": 10.0, "B": 1.0}]), 1.0)
    veg = top_allowed(scores, [FIELD_LETTERS["vegetable"]])[0]
    ranked = softmax_restricted(scores[0].astype(np.float32), FIELD_LETTERS["vegetable"], 1.0)
    assert veg == pytest.approx(ranked[0][1])


def test_others_run_only_on_the_doubtful_letters() -> None:
    first = _logits([{"B": 12.0}, {"B": 1.0, "S": 0.9}, {"G": 12.0}, {"G": 1.0, "S": 1.2}])
    inputs = np.arange(4, dtype=np.float32)[:, None, None] * np.ones((1, 2, 2), np.float32)
    alloweds = [FIELD_LETTERS["fruit"]] * 4
    seen: list[np.ndarray] = []

    def other(x: np.ndarray) -> np.ndarray:
        seen.append(x[:, 0, 0].copy())
        return np.asarray(_logits([{"S": 12.0}] * len(x)))

    scores = ensemble_scores(inputs, alloweds, first, [1.0, 1.0], [other],
                             EnsembleSettings(0.995, 1.0))
    assert len(seen) == 1 and list(seen[0]) == [1.0, 3.0]  # one batch, the doubtful rows
    plain = log_softmax(first, 1.0)
    assert np.array_equal(scores[[0, 2]], plain[[0, 2]])  # sure letters untouched
    assert np.allclose(scores[[1, 3]], mean_scores([first[[1, 3]], _logits([{"S": 12.0}] * 2)],
                                                   [1.0, 1.0], 1.0))
    assert LETTER_CLASSES[int(scores[1].argmax())] == "S"


def test_no_members_or_no_doubt_leaves_the_first_model() -> None:
    first = _logits([{"B": 12.0}, {"C": 2.0, "O": 1.9}])
    inputs = np.zeros((2, 2, 2), np.float32)
    alloweds = [FIELD_LETTERS["vegetable"]] * 2
    assert np.array_equal(ensemble_scores(inputs, alloweds, first, [0.8], [],
                                          EnsembleSettings(0.995, 1.0)),
                          log_softmax(first, 0.8))

    def never(x: np.ndarray) -> np.ndarray:
        raise AssertionError("asked although the first model was sure")

    assert np.array_equal(ensemble_scores(inputs[:1], alloweds[:1], first[:1], [0.8, 1.0],
                                          [never], EnsembleSettings(0.995, 1.0)),
                          log_softmax(first[:1], 0.8))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(InputError):
        EnsembleSettings(0.0, 1.0)
    with pytest.raises(InputError):
        EnsembleSettings(0.99, 0.0)
    with pytest.raises(InputError):
        ensemble_scores(np.zeros((1, 2, 2), np.float32), [("B",)], np.zeros((1, N)), [1.0],
                        [lambda x: x], EnsembleSettings(0.99, 1.0))


def _model_dir(tmp_path: Path, ensemble: object) -> Path:
    meta = json.loads(META_PATH.read_text())
    meta.pop("ensemble", None)
    if ensemble is not None:
        meta["ensemble"] = ensemble
    shutil.copy(MODEL_PATH, tmp_path / "letters.onnx")
    (tmp_path / "letters.json").write_text(json.dumps(meta))
    shutil.copy(MODEL_PATH, tmp_path / "twin.onnx")
    (tmp_path / "twin.json").write_text(json.dumps({**meta, "ensemble": None}))
    return tmp_path / "letters.onnx"


def test_a_model_without_ensemble_reads_as_before(tmp_path: Path) -> None:
    clf = LetterClassifier.load(_model_dir(tmp_path, None))
    assert clf.members == () and clf.ensemble is None
    x = np.random.default_rng(1).random((6, INPUT_PX, INPUT_PX)).astype(np.float32)
    alloweds = [FIELD_LETTERS["fruit"]] * 3 + [FIELD_LETTERS["vegetable"]] * 3
    for sc, lg, al in zip(clf.scores(x, alloweds), clf.logits(x), alloweds, strict=True):
        got = softmax_restricted(sc.astype(np.float32), al, 1.0)
        want = softmax_restricted(lg, al, clf.temperature)
        assert [a for a, _ in got] == [a for a, _ in want]
        assert np.allclose([p for _, p in got], [p for _, p in want], atol=1e-6)


def test_members_load_from_beside_the_model(tmp_path: Path) -> None:
    path = _model_dir(tmp_path, {"members": ["twin.onnx"], "doubt_below": 1.0,
                                 "temperature": 1.0})
    clf = LetterClassifier.load(path)
    assert len(clf.members) == 1 and clf.ensemble == EnsembleSettings(1.0, 1.0)
    x = np.random.default_rng(2).random((4, INPUT_PX, INPUT_PX)).astype(np.float32)
    alloweds = [FIELD_LETTERS["fruit"]] * 4
    # every letter is doubtful at 1.0; a twin's mean is the model itself
    assert np.allclose(clf.scores(x, alloweds), log_softmax(clf.logits(x), clf.temperature),
                       atol=1e-5)
    assert LetterClassifier.load(path, members=False).members == ()


def test_the_pooling_is_read_from_the_ensemble_entry(tmp_path: Path) -> None:
    path = _model_dir(tmp_path, {"members": ["twin.onnx"], "doubt_below": 0.99,
                                 "temperature": 1.0, "mean": "log"})
    clf = LetterClassifier.load(path)
    assert clf.ensemble == EnsembleSettings(0.99, 1.0, EnsembleMean.LOG)


@pytest.mark.parametrize("entry", [{"members": ["twin.onnx"]},
                                   {"members": ["twin.onnx"], "doubt_below": "x",
                                    "temperature": 1.0},
                                   {"members": ["twin.onnx"], "doubt_below": 0.99,
                                    "temperature": 1.0, "mean": "median"}])
def test_a_bad_ensemble_entry_is_refused(tmp_path: Path, entry: object) -> None:
    with pytest.raises(InputError):
        LetterClassifier.load(_model_dir(tmp_path, entry))


def test_a_missing_member_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        LetterClassifier.load(_model_dir(tmp_path, {"members": ["nowhere.onnx"],
                                                    "doubt_below": 0.99, "temperature": 1.0}))


def test_the_shipped_ensemble_loads() -> None:
    meta = json.loads(META_PATH.read_text())
    clf = LetterClassifier.load()
    if "ensemble" not in meta:
        assert clf.members == ()
        return
    assert len(clf.members) == len(meta["ensemble"]["members"])
    assert 0.9 <= meta["ensemble"]["doubt_below"] <= 1.0
    assert meta["sheet_review_below"] >= meta["ensemble"]["review_below"]


def test_the_reader_reads_letters_through_the_ensemble() -> None:
    """The sheet reader's letters are the classifier's (ensemble included), own letters
    compared or not; those the first network reads at the shipped ``doubt_below`` or above
    are its own, the others pooled with the other members."""
    from companion.vision.sheet.reader import _classifier, _classify, _net_inputs
    from tools.synth.handwriting import letter_cell_crop

    rng = np.random.default_rng(5)
    crops = [letter_cell_crop(a, rng, fonts="strokes") for a in "BSGCOMPW"]
    alloweds = [sorted(FIELD_LETTERS["fruit" if a in "SGW" else "vegetable"]) for a in "BSGCOMPW"]
    clf = _classifier()
    want = clf.classify_many(crops, alloweds)
    got, looks = _classify(_net_inputs(crops), alloweds, [True] * len(crops), own=False)
    assert looks is not None and looks.shape[0] == len(crops)  # letter_groups' features
    assert np.allclose(np.linalg.norm(looks, axis=1), 1.0)
    assert [[a for a, _ in r] for r in got] == [[a for a, _ in r] for r in want]
    assert np.allclose([p for r in got for _, p in r], [p for r in want for _, p in r])
    single = LetterClassifier.load(members=False).classify_many(crops, alloweds)
    doubt = float(clf.meta["ensemble"]["doubt_below"])
    pooled = 0
    for s, w in zip(single, want, strict=True):
        if s[0][1] >= doubt:
            assert s[0][0] == w[0][0] and s[0][1] == pytest.approx(w[0][1], abs=1e-9)
        else:
            pooled += dict(s)[w[0][0]] != pytest.approx(w[0][1], abs=1e-6)
    assert pooled  # the other members changed the doubtful letters' probabilities
