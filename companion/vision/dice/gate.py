"""Is there a Diced Veggies block in the photo at all? Cheap tests on a thumbnail first.

A block is a cluster of brightly coloured cubes that stand out from the table. A blank
page, sensor noise, a document or an answer sheet has no such colour once the photo is
balanced on its own white (the paper, a white table, the pips, or the specular glints,
which take the lamp's colour). These tests take a few milliseconds, so the full reader
(about a second) only runs where dice may be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from companion.errors import ImageError
from companion.vision.dice import constants as C
from companion.vision.shrink import shrink_large

NO_DICE = "no Diced Veggies dice found"
MAT_DICE_UNREAD = ("the dice mat is in the photo, but no die on it could be read surely "
                   "(too small, blurred or dim?): take the photo again closer, with the "
                   "phone held still")


class NoDiceError(ImageError):
    """The photo holds no Diced Veggies block (exit 2, like any unreadable photo)."""


@dataclass(frozen=True)
class Glance:
    """What the thumbnail shows."""

    white_bgr: np.ndarray  # the photo's white under its own light (BGR, 0-255)
    coloured_share: float  # share of the frame with die-like colour, unlike the table
    spread: float  # grey-level standard deviation of the thumbnail
    coloured: np.ndarray  # thumbnail mask of those pixels

    def coloured_within(self, mask: np.ndarray) -> float:
        """Share of ``mask`` (any resolution of the same frame) that has die-like colour."""
        if not mask.any():
            return 0.0
        h, w = mask.shape[:2]
        big = cv2.resize(self.coloured.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
        return float(big[mask.astype(bool)].mean())


def thumbnail(bgr: np.ndarray) -> np.ndarray:
    s = min(1.0, C.GATE_LONG_SIDE_PX / max(bgr.shape[:2]))
    return shrink_large(bgr, s, C.HALVE_FROM_PX)


def white_reference(bgr: np.ndarray) -> np.ndarray:
    """The colour of white under this photo's light: its brightest pixels (paper, white
    pips, glints), as a BGR triple."""
    px = bgr.reshape(-1, 3).astype(np.float32)
    lum = px.mean(axis=1)
    top = px[lum >= np.percentile(lum, C.GATE_WHITE_PERCENTILE)]
    return np.maximum(np.median(top, axis=0), 1.0)


def balanced_lab(bgr: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Lab (L 0-100) of the photo after dividing out its white; white maps to L ~ 95."""
    gains = C.GATE_WHITE_LEVEL / np.maximum(white.astype(np.float32), 1.0)
    img = np.clip(bgr.astype(np.float32) * gains, 0, 255) / 255.0
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab)


def glance(bgr: np.ndarray) -> Glance:
    thumb = thumbnail(bgr)
    grey = thumb.mean(axis=2)
    spread = float(grey.std())
    white = white_reference(thumb)
    lab = balanced_lab(cv2.GaussianBlur(thumb, (0, 0), 1.0), white)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    coloured = (chroma >= C.GATE_CHROMA_MIN) & (lab[..., 0] >= C.GATE_L_MIN)
    # the table is what fills the frame's border: colour shared with it is no die
    h, w = chroma.shape
    band = max(2, int(min(h, w) * C.BORDER_BAND_FRACTION))
    border = np.zeros((h, w), bool)
    border[:band], border[-band:], border[:, :band], border[:, -band:] = True, True, True, True
    ab = lab[..., 1:]
    table = ab[border & coloured]
    if len(table) > 0.5 * border.sum():
        # a coloured table (wood, cloth): dice must stand out from it in colour
        centre = np.median(table, axis=0)
        spread_ab = float(np.percentile(np.linalg.norm(table - centre, axis=1), 90))
        far = np.linalg.norm(ab - centre, axis=-1) > max(C.GATE_TABLE_AB, 1.5 * spread_ab)
        coloured &= far
    return Glance(white, float(coloured.mean()), spread, coloured)


def check(bgr: np.ndarray) -> Glance:
    """Raise NoDiceError when the photo plainly holds no block; else what was seen."""
    g = glance(bgr)
    if g.spread < C.GATE_MIN_SPREAD:
        raise NoDiceError(f"{NO_DICE} (the photo is blank)")
    if g.coloured_share < C.GATE_MIN_COLOURED_SHARE:
        raise NoDiceError(f"{NO_DICE} (nothing in the photo has the dice's colours)")
    return g


def colourless(feature: np.ndarray, white: np.ndarray) -> bool:
    """True when a face's log-chromaticity sits at the photo's white: a white die, paper."""
    return float(np.linalg.norm(feature - white)) < C.GATE_FACE_MIN_LOG_CHROMA


class _Read(Protocol):
    @property
    def review(self) -> bool: ...

    @property
    def sure_shape(self) -> bool: ...


def confirm(dice: Sequence[_Read], by_shape: bool = False) -> None:
    """A block is there only when some of its dice are read surely; a page of bubbles or
    a stain read as all-doubtful "dice" is no block. ``by_shape``: count the dice that are
    surely there with their pips read surely, their colour aside - a later photo of a game
    whose colours were learnt is read against them even where this light leaves most
    colours in doubt, rather than refused."""
    sure = sum(d.sure_shape if by_shape else not d.review for d in dice)
    if sure == 0 or (sure < C.GATE_MIN_SURE_DICE and sure < C.GATE_MIN_SURE_SHARE * len(dice)):
        raise NoDiceError(f"{NO_DICE} (nothing read surely as a die)")
