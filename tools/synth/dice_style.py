"""How widely the synthetic dice photos vary: the narrow first setting, a wide one to tune
on, and a held-out one (its own seeds and a second shading model) used only to measure;
then ``wider`` (other dice paints and plastics, pip shapes and colours, lamps from 2200 K
candle-warm to 8000 K shade-cold, cameras that balance white wrongly or not at all, paper
and more kinds of wood under the block) to tune on, and ``unseen``: those ranges with a
shading model, a plastic, pip shapes and paint draws no tuning run used, measured only
(the ``pips`` and ``satin`` tuning sets have since shown the reader its pip shapes, shading
and plastic); and ``mixed``, measured only and never tuned on: the unseen looks under two
lamps across the frame, with marbled paint and a phone's colour noise.

A style is drawn once per photo into a ``Look``: the lamp's colour temperature and how far
the camera corrected it, the dice batch's shades, gloss and glare, shadow hardness, the
gap between dice, the camera's tilt and focus. One game is one ``Look`` (one box of dice,
one table, one lamp): a game's photos share it.
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

import numpy as np

from tools.synth import dice_constants as K


class Shading(StrEnum):
    PLASTIC = "plastic"  # Lambert with a soft window reflection (the first renderer)
    SATIN = "satin"  # wrapped diffuse, Schlick rim, sharp-edged glare window (held out)


class Plastic(StrEnum):
    OPAQUE = "opaque"  # the first dice: paint on solid plastic
    MATTE = "matte"  # a dull finish: little gloss, flatter shading
    TRANSLUCENT = "translucent"  # light scatters inside: a lighter, paler, evenly lit face


class PipShape(StrEnum):
    ROUND = "round"
    SMALL = "small"  # round, a third smaller
    SQUARE = "square"  # rounded squares (first held out; tuned on since the pips set)
    RING = "ring"  # a drilled pip: a dark rim round a pip-coloured floor (likewise)


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
    # other dice paints: per photo and ingredient, hue turned by up to this (degrees),
    # saturation and value scaled within these factors
    paint_hue_deg: float = 0.0
    paint_saturation: tuple[float, float] = (1.0, 1.0)
    paint_value: tuple[float, float] = (1.0, 1.0)
    plastics: tuple[Plastic, ...] = (Plastic.OPAQUE,)
    pip_shapes: tuple[PipShape, ...] = (PipShape.ROUND,)
    pip_colours: tuple[tuple[int, int, int], ...] = ()  # RGB; empty: the first renderer's
    # the camera's white balance off by a green-magenta tint: gain of green, per photo
    tint: tuple[float, float] = (1.0, 1.0)
    # table kinds a photo's surface may be, beside those the bench asks for by name
    tables: Mapping[str, tuple[tuple[int, int, int], ...]] = field(
        default_factory=dict)  # extra BGR base colours per kind (K.TABLES's own kept)
    # mixed light: a second lamp (kelvin) lighting the far side of the frame, up to this
    # share of the light there (the first lamp the rest); None: one lamp
    second_lamp_k: tuple[float, float] | None = None
    second_share: tuple[float, float] = (0.0, 0.0)
    # marbled paint: a smooth swirl of lighter and darker paint across each die's face,
    # this fraction of its colour at most
    marble: tuple[float, float] = (0.0, 0.0)
    # a phone in dim light: colour noise of this sigma (grey levels) per channel, in
    # blotches, besides the grey sensor noise every photo has
    chroma_noise: tuple[float, float] = (0.0, 0.0)


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
# Beyond the first renderer's: cream and bone pips, dark grey and navy ones (RGB).
_PIP_COLOURS = ((246, 244, 238), (238, 226, 196), (250, 250, 250), (38, 30, 28),
                (70, 70, 76), (30, 34, 60))
# More tables (BGR): wood from pale pine and orange cherry to walnut; paper white, cream
# and brown kraft (as tan as a mushroom die)
_MORE_TABLES: Mapping[str, tuple[tuple[int, int, int], ...]] = {
    "wood": ((120, 170, 214), (40, 78, 160), (24, 38, 62), (78, 126, 178), (60, 110, 190)),
    "paper": ((240, 242, 244), (206, 228, 240), (112, 150, 188), (226, 234, 236)),
}
WIDER = Style(
    "wider", Shading.PLASTIC, cct_k=(2200.0, 8000.0), wb_correction=(0.0, 1.1),
    batch_shift=14.0, batch_lightness=(0.8, 1.12), gloss=(0.3, 2.0), glare_chance=0.15,
    shadow_blur=(0.04, 0.35), gap_mm=(0.0, 3.0), tilt_deg=(0.0, 25.0), blur_px=(0.3, 2.0),
    side_shade=(0.25, 0.6), paint_hue_deg=8.0, paint_saturation=(0.8, 1.1),
    paint_value=(0.85, 1.05), plastics=(Plastic.OPAQUE, Plastic.MATTE),
    pip_shapes=(PipShape.ROUND, PipShape.SMALL), pip_colours=_PIP_COLOURS, tint=(0.92, 1.08),
    tables=_MORE_TABLES,
)
# tuned on: the wider looks with the square and drilled pips the unseen set first showed
# (its own seeds; its shading and plastics stay the wider ones)
PIPS = replace(WIDER, name="pips",
               pip_shapes=(PipShape.SQUARE, PipShape.RING, PipShape.ROUND))
# tuned on: the pips looks with the satin shading and translucent plastic the unseen set
# first showed (its own seeds), beside the tuned ones
SATIN = replace(PIPS, name="satin", shading=Shading.SATIN,
                plastics=(Plastic.OPAQUE, Plastic.MATTE, Plastic.TRANSLUCENT))
# measured only: the wider ranges with the satin shading, translucent plastic, square and
# drilled pips, and its own seeds (tools/bench_dice_vision.py)
UNSEEN = Style(
    "unseen", Shading.SATIN, cct_k=(2200.0, 8000.0), wb_correction=(0.0, 1.1),
    batch_shift=14.0, batch_lightness=(0.8, 1.12), gloss=(0.3, 2.0), glare_chance=0.15,
    shadow_blur=(0.04, 0.35), gap_mm=(0.0, 3.0), tilt_deg=(0.0, 25.0), blur_px=(0.3, 2.0),
    side_shade=(0.25, 0.6), paint_hue_deg=8.0, paint_saturation=(0.8, 1.1),
    paint_value=(0.85, 1.05), plastics=(Plastic.OPAQUE, Plastic.TRANSLUCENT),
    pip_shapes=(PipShape.SQUARE, PipShape.RING, PipShape.ROUND), pip_colours=_PIP_COLOURS,
    tint=(0.92, 1.08), tables=_MORE_TABLES,
)
# measured only, never tuned on (the second unseen column, after the satin shading and
# translucent plastic joined the tuning sets): the unseen looks under mixed light (a warm
# lamp and a window's daylight across the frame), with marbled paint and a phone's colour
# noise in dim light, on its own seeds
MIXED = replace(UNSEEN, name="mixed", cct_k=(2200.0, 4000.0), second_lamp_k=(5000.0, 8000.0),
                second_share=(0.2, 0.6), marble=(0.04, 0.12), chroma_noise=(1.0, 4.0),
                plastics=(Plastic.OPAQUE, Plastic.MATTE, Plastic.TRANSLUCENT))
# tuned on (tools/dice_errors.py): the satin looks under two lamps the other way round
# from the mixed column's (daylight over the frame and a warm lamp across its far side),
# with marbled paint and colour noise, on its own seeds; the mixed column's own setting (a
# warm lamp first, daylight across) stays unseen; its share of the far side, marbling and
# noise are the mixed column's own ranges
TWO_LAMP = replace(SATIN, name="two-lamp", cct_k=(4500.0, 8000.0),
                   second_lamp_k=(2200.0, 3300.0), second_share=MIXED.second_share,
                   marble=MIXED.marble, chroma_noise=MIXED.chroma_noise)
STYLES: Mapping[str, Style] = {s.name: s for s in (NARROW, WIDE, HELD_OUT, WIDER, PIPS,
                                                    SATIN, TWO_LAMP, UNSEEN, MIXED)}


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
    plastic: Plastic = Plastic.OPAQUE
    pip_shape: PipShape = PipShape.ROUND
    pip_rgb: tuple[int, int, int] | None = None  # None: the renderer draws white or dark
    tables: Mapping[str, tuple[tuple[int, int, int], ...]] = field(default_factory=dict)
    second_gains: np.ndarray | None = None  # BGR gains of a second lamp (mixed light)
    second_share: float = 0.0
    marble: float = 0.0
    chroma_noise: float = 0.0


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


def _paint(rgb: tuple[int, int, int], style: Style, rng: np.random.Generator) -> np.ndarray:
    """Another maker's paint for one ingredient: hue turned, saturation and value scaled."""
    h, s, v = colorsys.rgb_to_hsv(*(c / 255.0 for c in rgb))
    h = (h + rng.uniform(-style.paint_hue_deg, style.paint_hue_deg) / 360.0) % 1.0
    s = min(1.0, s * rng.uniform(*style.paint_saturation))
    v = min(1.0, v * rng.uniform(*style.paint_value))
    return np.array(colorsys.hsv_to_rgb(h, s, v)) * 255.0


def draw_look(style: Style, rng: np.random.Generator) -> Look:
    cct = float(np.exp(rng.uniform(np.log(style.cct_k[0]), np.log(style.cct_k[1]))))
    corr = float(rng.uniform(*style.wb_correction))
    gains = lamp_rgb(cct) ** (1.0 - corr)
    wider = style.paint_hue_deg > 0 or len(style.plastics) > 1 or bool(style.pip_colours)
    if wider:
        gains = gains * np.array([1.0, rng.uniform(*style.tint), 1.0])
    batch = {}
    for name, rgb in K.DIE_COLOURS_RGB.items():
        base = _paint(rgb, style, rng) if wider else np.array(rgb, np.float64)
        shade = base * rng.uniform(*style.batch_lightness)
        shade += rng.normal(0, style.batch_shift / 2, 3) if style.batch_shift else 0.0
        batch[name] = np.clip(shade, 0, 255)
    look = Look(
        style.shading, gains[::-1].copy(), cct, batch, float(rng.uniform(*style.gloss)),
        style.glare_chance, float(rng.uniform(*style.shadow_blur)),
        float(rng.uniform(*style.gap_mm)), style.tilt_deg, float(rng.uniform(*style.blur_px)),
        (float(style.side_shade[0]), float(style.side_shade[1])),
    )
    if not wider:
        return look  # the first styles' draws, unchanged
    plastic = style.plastics[int(rng.integers(len(style.plastics)))]
    shape = style.pip_shapes[int(rng.integers(len(style.pip_shapes)))]
    pip = style.pip_colours[int(rng.integers(len(style.pip_colours)))]
    gloss = look.gloss * (0.3 if plastic is Plastic.MATTE else 1.0)
    look = replace(look, plastic=plastic, pip_shape=shape, pip_rgb=pip, gloss=gloss,
                   tables=style.tables)
    if style.second_lamp_k is None:
        return look  # the styles before the mixed one: their draws unchanged
    lo, hi = style.second_lamp_k
    cct2 = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    # the camera balances white for the whole frame once: the second lamp keeps its colour
    # relative to the first
    second = gains * lamp_rgb(cct2) / lamp_rgb(cct)
    return replace(look, second_gains=second[::-1].copy(),
                   second_share=float(rng.uniform(*style.second_share)),
                   marble=float(rng.uniform(*style.marble)),
                   chroma_noise=float(rng.uniform(*style.chroma_noise)))
