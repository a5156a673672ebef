"""A dim, grainy photo: measured from the sheet's own print, said once for the photo."""

from __future__ import annotations

import numpy as np

from companion.games.delicious.verdicts import (
    LOW_LIGHT_NOTE,
    VerdictCode,
    photo_verdicts,
)
from companion.vision.sheet.light import contrast_to_noise
from tests.fake_readings import FakeField

PPM = 200 / 25.4


def _page(noise: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A blank with printed lines, and a photo of it (lightness over the local paper white,
    which the paper's grain mostly stays under) with ``noise`` grain; the lines at 0.3."""
    blank = np.full((600, 500), 255, np.uint8)
    blank[100:104, 50:450] = 0
    blank[300:304, 50:450] = 0
    blank[100:500, 248:252] = 0
    ratio = np.where(blank < 128, 0.3, 0.8).astype(np.float32)
    ratio += np.random.default_rng(seed).normal(0.0, noise, ratio.shape).astype(np.float32)
    return np.clip(ratio, 0.0, 1.0), blank


def test_contrast_to_noise_falls_as_the_grain_rises() -> None:
    cnr = [contrast_to_noise(*_page(n), PPM) for n in (0.01, 0.03, 0.1)]
    assert cnr[0] > cnr[1] > cnr[2]
    assert 5 < cnr[2] < 9  # the lines' depth (0.7) over the grain's spread (0.1): near 7


def test_nothing_to_measure_is_no_verdict() -> None:
    ratio = np.ones((300, 300), np.float32)
    assert contrast_to_noise(ratio, np.full((300, 300), 255, np.uint8), PPM) == float("inf")
    assert contrast_to_noise(ratio, np.zeros((300, 300), np.uint8), PPM) == float("inf")


def test_a_grainy_photo_is_one_verdict_over_every_doubt() -> None:
    grainy = {f"garden.crate.r0.c{i}": FakeField(f"garden.crate.r0.c{i}", None, 0.5,
                                                 LOW_LIGHT_NOTE) for i in range(5)}
    other = {"play.choice.r0": FakeField("play.choice.r0", None, 0.4, "")}
    (verdict,) = photo_verdicts("dim.jpg", {**grainy, **other})
    assert verdict.code is VerdictCode.LOW_LIGHT and verdict.to_json()["code"] == "low-light"
    assert verdict.fields == tuple(sorted([*grainy, *other]))
    assert "retake the photo in better light" in verdict.message
    assert photo_verdicts("dim.jpg", dict(list(grainy.items())[:4])) == []  # few: listed
