"""Quiet artwork for icons a player marks over (tool crosses, First Potter checks).

A pencil cross over dense, dark art is hard to see for a person and for the photo reader:
where the print is near black, nothing the player adds can darken it further. Inside
those fields every colour is washed towards the paper, so the darkest printed pixel stays
light enough for a pencil stroke to show on top of it, while the shapes stay recognisable.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from layouts.palette import RGB, Palette
from layouts.pen import Pen

# Share of each colour's darkness kept inside a marked icon (0 = paper, 1 = as printed).
# At 0.45 the ink outline prints at ~63% lightness: a light pencil stroke (~70% of the
# paper's lightness) still darkens it clearly.
ICON_INK_KEPT = 0.45
# Black-and-white prints have no colour to tell shapes apart, only the outline: keep a
# little more of it.
ICON_INK_KEPT_BW = 0.5


def washed(rgb: RGB, kept: float) -> RGB:
    """The colour with only ``kept`` of its darkness left, per channel."""
    r, g, b = rgb
    return (1 - (1 - r) * kept, 1 - (1 - g) * kept, 1 - (1 - b) * kept)


@contextmanager
def quiet(pen: Pen) -> Iterator[None]:
    """Draw with every palette colour washed towards the paper until the block ends."""
    kept = ICON_INK_KEPT_BW if pen.bw else ICON_INK_KEPT
    loud = pen.palette
    pen.palette = Palette({role: washed(rgb, kept) for role, rgb in loud.colours.items()})
    try:
        yield
    finally:
        pen.palette = loud
