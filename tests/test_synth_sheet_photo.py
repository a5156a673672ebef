"""Filled synthetic sheets: the truth is what was written, and nothing else is inked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError, UnknownNameError
from companion.games.delicious.simulate import simulate_game
from companion.paper.model import FieldKind
from tools.synth.camera import CameraOptions
from tools.synth.sheet_photo import (
    _blank_page,
    _px,
    fill_sheet,
    make_photo,
    render_sheet_photo,
    sheet_geometry,
)

DPI = 100  # small pages keep these tests quick; the bench uses the default
SMALL_CAMERA = CameraOptions().sized(1000)


@pytest.fixture(scope="module")
def field_map() -> dict[str, str]:
    return simulate_game(11, 2, "A").field_maps[0]


def _changed(page: np.ndarray, blank: np.ndarray, box: tuple[int, int, int, int]) -> float:
    x, y, w, h = box
    a = page[y:y + h, x:x + w].astype(np.int16)
    b = blank[y:y + h, x:x + w].astype(np.int16)
    return float(np.abs(a - b).max(initial=0))


@pytest.mark.parametrize("sheet,prefix", [("delicious-garden", "garden."),
                                          ("delicious-play", "play."),
                                          ("delicious-combo", "")])
def test_truth_is_the_field_map_on_that_sheet(
    sheet: str, prefix: str, field_map: dict[str, str]
) -> None:
    filled = fill_sheet(sheet, field_map, "A", np.random.default_rng(1), dpi=DPI)
    assert filled.truth == {k: v for k, v in field_map.items() if k.startswith(prefix)}
    ids = {f.id for f in sheet_geometry(sheet).fields}
    assert set(filled.truth) <= ids


def test_written_fields_are_inked_and_empty_fields_untouched(field_map: dict[str, str]) -> None:
    """Every value leaves ink in its field; an empty field stays exactly as printed unless
    it was deliberately smudged."""
    for seed in range(4):
        filled = fill_sheet("delicious-combo", field_map, "A", np.random.default_rng(seed),
                            dpi=DPI)
        blank = _blank_page("delicious-combo", "letter", "A", DPI, "")
        for spec in sheet_geometry("delicious-combo").fields:
            diff = _changed(filled.page_bgr, blank, _px(spec.box_mm, DPI))
            if spec.id in filled.truth:
                assert diff > 60, f"{spec.id} should carry ink"
            elif spec.id in filled.smudged:
                assert spec.kind in (FieldKind.VEGETABLE, FieldKind.FRUIT)
            else:
                assert diff == 0, f"{spec.id} is empty but was drawn on (seed {seed})"


def test_a_smudge_can_be_forced_or_refused(field_map: dict[str, str]) -> None:
    """Tests that need a smudge ask for one: chance and installed fonts do not decide."""
    for seed in range(3):
        on = fill_sheet("delicious-garden", field_map, "A", np.random.default_rng(seed),
                        dpi=DPI, smudge=True)
        off = fill_sheet("delicious-garden", field_map, "A", np.random.default_rng(seed),
                         dpi=DPI, smudge=False)
        assert len(on.smudged) == 1 and off.smudged == ()
        assert not set(on.smudged) & set(on.truth)


def test_smudges_and_stray_marks_happen(field_map: dict[str, str]) -> None:
    """Over a few sheets the extras the reader must ignore do occur."""
    sheets = [fill_sheet("delicious-garden", field_map, "A", np.random.default_rng(s), dpi=DPI)
              for s in range(12)]
    assert any(s.smudged for s in sheets)
    assert any(s.stray_marks for s in sheets)
    for s in sheets:
        assert not set(s.smudged) & set(s.truth)


def test_same_seed_same_photo(field_map: dict[str, str]) -> None:
    a = render_sheet_photo("delicious-play", field_map, 3, camera=SMALL_CAMERA, dpi=DPI)
    b = render_sheet_photo("delicious-play", field_map, 3, camera=SMALL_CAMERA, dpi=DPI)
    c = render_sheet_photo("delicious-play", field_map, 4, camera=SMALL_CAMERA, dpi=DPI)
    assert a.photo.jpeg == b.photo.jpeg
    assert a.photo.jpeg != c.photo.jpeg


def test_make_photo_returns_bgr_and_truth(field_map: dict[str, str]) -> None:
    img, truth = make_photo("delicious-combo", field_map, 5, camera=SMALL_CAMERA, dpi=DPI)
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8
    assert max(img.shape[:2]) == 1000
    assert truth == field_map


def test_truth_json_is_a_field_map(field_map: dict[str, str]) -> None:
    shot = render_sheet_photo("delicious-garden", field_map, 2, variant="A",
                              camera=SMALL_CAMERA, dpi=DPI, code="AB12")
    doc = shot.truth_json()
    assert doc["game"] == "delicious" and doc["variant"] == "A"
    assert doc["sheet"] == "delicious-garden" and doc["code"] == "AB12"
    assert doc["fields"] == shot.truth


def test_bad_input_is_reported(field_map: dict[str, str]) -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(UnknownNameError):
        fill_sheet("dulce-scorepad", {}, "A", rng, dpi=DPI)
    with pytest.raises(UnknownNameError):
        fill_sheet("delicious-combo", {"garden.nowhere.r0.c0": "carrot"}, "A", rng, dpi=DPI)
    with pytest.raises(InputError):
        fill_sheet("delicious-combo", {"garden.planter.r0.c0": "carrot"}, "A", rng, dpi=DPI)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from("AB"),
       keep=st.floats(0.0, 1.0))
def test_any_subset_of_a_game_is_truth_on_the_combo(seed: int, variant: str, keep: float) -> None:
    """Whatever part of a simulated sheet is written, the truth is exactly that part."""
    full = simulate_game(seed, 2, variant).field_maps[1]
    rng = np.random.default_rng(seed)
    part = {k: v for k, v in full.items() if rng.random() < keep}
    filled = fill_sheet("delicious-combo", part, variant, rng, dpi=DPI)
    assert filled.truth == part
