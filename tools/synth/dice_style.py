"""How widely the synthetic dice photos vary: the narrow first setting, a wide one to tune
on, and a held-out one (its own seeds and a second shading model) used only to measure.

A style is drawn once per photo into a ``Look``: the lamp's colour temperature and how far
the camera corrected it, the dice batch's shades, gloss and glare, shadow hardness, the
gap between dice, the camera's tilt and focus.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from tools.synth import dice_constants as K


class Shading(StrEnum):
    PLASTIC = "plastic"  # Lambert with a soft window reflection (the first renderer)
    SATIN = "satin"  # wrapped diffuse, Schlick rim, sharp-edged glare window (held out)


@dataclass(frozen=True)
class Style:
    name: str
    shading: Shading = Shading.PLASTIC
    cct_k: tuple[float, float] = (5500.0, 5500.0)  # lamp colour temperature, kelvin
    wb_correction: tuple[float, float] = (1.0, 1.0)  # share of the lamp colour the camera undid
    batch_shift: float = 0.0  # per photo and ingredient, grey levels (a batch's shade)
    batch_lightness: tuple[float, float] = (1.0, 1.0)  # per photo and ingredient, factor
    gloss: tuple[float, float] = (1.0, 1.0)  # specular strength, factor
    glare_chance: float = 0.0  # a die carries a bright glare spot
    shadow_blur: tuple[float, float] = (0.18, 0.18)  # shadow softness, fraction of the edge
    gap_mm: tuple[float, float] = K.DIE_GAP_MM
    tilt_deg: tuple[float, float] = K.TILT_DEG
    blur_px: tuple[float, float] = K.BLUR_SIGMA_PX
    side_shade: tuple[float, float] = (0.3, 0.5)  # side wall: ambient, diffuse share


NARROW = Style("narrow")
WIDE = Style(
    "wide", Shading.PLASTIC, cct_k=(2700.0, 6500.0), wb_correction=(0.35, 1.0),
    batch_shift=14.0, batch_lightness=(0.85, 1.12), gloss=(0.5, 2.0), glare_chance=0.15,
    shadow_blur=(0.04, 0.35), gap_mm=(0.0, 3.0), tilt_deg=(0.0, 25.0), blur_px=(0.3, 2.0),
    side_shade=(0.25, 0.6),
)
HELD_OUT = Style(
    "held-out", Shading.SATIN, cct_k=(2700.0, 6500.0), wb_correction=(0.35, 1.0),
    batch_shift=14.0, batch_lightness=(0.85, 1.12), gloss=(0.5, 2.0), glare_chance=0.15,
    shadow_blur=(0.04, 0.35), gap_mm=(0.0, 3.0), tilt_deg=(0.0, 25.0), blur_px=(0.3, 2.0),
    side_shade=(0.25, 0.6),
)
STYLES: Mapping[str, Style] = {s.name: s for s in (NARROW, WIDE, HELD_OUT)}


@dataclass(frozen=True)
class Look:
    """One photo's draw from a style."""

    shading: Shading
    lamp_gains: np.ndarray  # BGR gains the lamp (after the camera's correction) applies
    cct_k: float
    batch: Mapping[str, np.ndarray]  # ingredient -> RGB shade of this batch
    gloss: float
    glare_chance: float
    shadow_blur: float
    gap_mm: float
    tilt_deg: tuple[float, float]
    blur_px: float
    side_shade: tuple[float, float]


# sRGB of a black body (R, G, B) at a few temperatures, interpolated in mireds
_CCT = ((2700.0, (255, 169, 87)), (3500.0, (255, 196, 137)), (4500.0, (255, 219, 186)),
        (5500.0, (255, 236, 224)), (6500.0, (255, 249, 253)))


def lamp_rgb(cct: float) -> np.ndarray:
    """Relative RGB of a lamp at ``cct`` kelvin, green = 1, 5500 K neutral."""
    mired = np.array([1e6 / k for k, _ in _CCT])[::-1]
    rgb = np.array([c for _, c in _CCT], np.float64)[::-1]
    m = 1e6 / cct
    here = np.array([np.interp(m, mired, rgb[:, i]) for i in range(3)])
    ref = np.array(_CCT[3][1], np.float64)
    out = here / ref
    return out / out[1]


def draw_look(style: Style, rng: np.random.Generator) -> Look:
    cct = float(np.exp(rng.uniform(np.log(style.cct_k[0]), np.log(style.cct_k[1]))))
    corr = float(rng.uniform(*style.wb_correction))
    gains = lamp_rgb(cct) ** (1.0 - corr)
    batch = {}
    for name, rgb in K.DIE_COLOURS_RGB.items():
        shade = np.array(rgb, np.float64) * rng.uniform(*style.batch_lightness)
        shade += rng.normal(0, style.batch_shift / 2, 3) if style.batch_shift else 0.0
        batch[name] = np.clip(shade, 0, 255)
    return Look(
        style.shading, gains[::-1].copy(), cct, batch, float(rng.uniform(*style.gloss)),
        style.glare_chance, float(rng.uniform(*style.shadow_blur)),
        float(rng.uniform(*style.gap_mm)), style.tilt_deg, float(rng.uniform(*style.blur_px)),
        (float(style.side_shade[0]), float(style.side_shade[1])),
    )
