"""Synthetic handwriting stays inside its box, is reproducible and works without fonts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.synth import fonts as fontmod
from tools.synth import handwriting as hw
from tools.synth.handwriting import FontSet, MarkKind, draw_letter, draw_mark

LETTERS = "BCFGLMOPSW"
PAPER = 230


def _canvas(color: bool) -> np.ndarray:
    shape = (120, 140, 3) if color else (120, 140)
    return np.full(shape, PAPER, np.uint8)


def _outside_untouched(img: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    mask = np.ones(img.shape[:2], bool)
    mask[max(0, y): y + h, max(0, x): x + w] = False
    return bool((img[mask] == PAPER).all())


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    letter=st.sampled_from(LETTERS),
    fonts=st.sampled_from([f.value for f in FontSet]),
    x=st.integers(-10, 100), y=st.integers(-10, 80),
    w=st.integers(8, 70), h=st.integers(8, 70),
    color=st.booleans(),
)
def test_letter_stays_in_box_and_inks_it(seed: int, letter: str, fonts: str, x: int, y: int,
                                          w: int, h: int, color: bool) -> None:
    img = _canvas(color)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        draw_letter(img, (x, y, w, h), letter, np.random.default_rng(seed), fonts=fonts)
    assert _outside_untouched(img, (x, y, w, h))
    inside = img[max(0, y): y + h, max(0, x): x + w]
    if x >= 0 and y >= 0 and x + w <= img.shape[1] and y + h <= img.shape[0] and min(w, h) >= 20:
        assert (inside < PAPER - 40).any(), "a letter must leave visible ink"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from([k.value for k in MarkKind]),
       w=st.integers(10, 80), h=st.integers(10, 80), color=st.booleans())
def test_mark_stays_in_box(seed: int, kind: str, w: int, h: int, color: bool) -> None:
    img = _canvas(color)
    box = (20, 15, w, h)
    draw_mark(img, box, kind, np.random.default_rng(seed))
    assert _outside_untouched(img, box)
    assert (img[15: 15 + h, 20: 20 + w] < PAPER).any()


@pytest.mark.parametrize("fonts", ["train", "heldout", "strokes", "all"])
def test_letters_reproducible_per_seed(fonts: str) -> None:
    a, b, c = _canvas(True), _canvas(True), _canvas(True)
    for img, seed in ((a, 5), (b, 5), (c, 6)):
        rng = np.random.default_rng(seed)
        for i, letter in enumerate(LETTERS[:5]):
            draw_letter(img, (i * 28, 10, 28, 40), letter, rng, fonts=fonts)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_marks_reproducible_per_seed() -> None:
    imgs = []
    for seed in (3, 3, 4):
        img = _canvas(False)
        rng = np.random.default_rng(seed)
        for i, kind in enumerate(MarkKind):
            draw_mark(img, (i * 22, 10, 22, 22), kind, rng)
        imgs.append(img)
    assert np.array_equal(imgs[0], imgs[1])
    assert not np.array_equal(imgs[0], imgs[2])


def test_split_is_disjoint_and_holds_out_three_families() -> None:
    train = {f.name for f in fontmod.FONT_FAMILIES if f.split is fontmod.FontSplit.TRAIN}
    held = {f.name for f in fontmod.FONT_FAMILIES if f.split is fontmod.FontSplit.HELDOUT}
    assert len(held) >= 3 and not train & held
    files = [n for f in fontmod.FONT_FAMILIES for n in f.files]
    assert len(files) == len(set(files)), "a font file may belong to one family only"


def test_fonts_txt_lists_every_package() -> None:
    from pathlib import Path

    listed = Path(__file__).parents[1] / "tools" / "fonts.txt"
    names = {ln.strip() for ln in listed.read_text().splitlines()
             if ln.strip() and not ln.startswith("#")}
    assert set(fontmod.debian_packages()) <= names


def test_without_fonts_falls_back_to_strokes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hw, "font_families", lambda split: ())
    img = _canvas(False)
    with pytest.warns(RuntimeWarning, match="no heldout handwriting fonts"):
        draw_letter(img, (10, 10, 60, 60), "G", np.random.default_rng(0))
    assert (img < PAPER - 40).any()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        draw_mark(_canvas(False), (0, 0, 20, 20), "star", np.random.default_rng(0))
    with pytest.raises(ValueError):
        draw_letter(np.zeros((10, 10), np.float32), (0, 0, 8, 8), "B",
                    np.random.default_rng(0))
    with pytest.raises(ValueError):
        draw_letter(_canvas(False), (0, 0, 40, 40), "Q", np.random.default_rng(0),
                    fonts="strokes")


def test_font_folders_can_be_hidden(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """COMPANION_FONT_DIRS names the folders searched; set empty, no font is found, so the
    suite can be run as on a machine without the font packages."""
    monkeypatch.setenv(fontmod.FONT_DIRS_ENV, "")
    assert fontmod.font_dirs() == ()
    monkeypatch.setenv(fontmod.FONT_DIRS_ENV, str(tmp_path))
    assert fontmod.font_dirs() == (tmp_path,)
    monkeypatch.delenv(fontmod.FONT_DIRS_ENV)
    assert fontmod.font_dirs() == fontmod.FONT_DIRS
