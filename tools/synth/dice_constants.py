"""Numbers behind the synthetic dice photos, with their units.

Ranges are (low, high), sampled uniformly. The die colours here are deliberately not the
reader's reference colours (companion/vision/dice/constants.py): a real set of dice is
never exactly the nominal colour either.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# ---- the dice ------------------------------------------------------------------------------------
DIE_SIZE_MM = (15.5, 16.5)  # edge of a die, per photo
DIE_GAP_MM = (0.2, 0.9)  # seam between neighbouring dice, per photo
DIE_JITTER_MM = 0.7  # largest shift of one die from its grid cell
DIE_TILT_DEG = 4.0  # largest turn of one die about the vertical
CORNER_RADIUS = 0.22  # rounding of the die's edge, fraction of the half-edge
BEVEL = 0.2  # width of the rounded rim seen from above, fraction of the half-edge
# sRGB (R, G, B) of each ingredient's plastic, and how much one die may stray (per channel).
DIE_COLOURS_RGB: Mapping[str, tuple[int, int, int]] = MappingProxyType({
    "carrot": (240, 122, 34),
    "mushroom": (198, 166, 118),
    "onion": (182, 82, 172),
    "pepper": (58, 146, 62),
    "tomato": (198, 30, 38),
})
DIE_COLOUR_JITTER = 8.0  # grey levels
PIP_LATTICE = 0.52  # pip offset from the centre, fraction of the half-edge
PIP_RADIUS = (0.15, 0.17)  # fraction of the half-edge
WHITE_PIP_RGB = (246, 244, 238)
DARK_PIP_RGB = (38, 30, 28)
DARK_PIPS_CHANCE = 0.25  # share of photos whose dice have dark pips
FACE_TEXTURE_PX = 96  # a die's top is drawn at this size, then warped into the photo

# ---- the camera ----------------------------------------------------------------------------------
PHOTO_SIZE_PX = (1600, 1200)  # (long side, short side)
PORTRAIT_CHANCE = 0.3
FOCAL_LENGTH_FRAMES = (0.9, 1.3)  # in units of the long frame side
TILT_DEG = (0.0, 14.0)  # camera axis away from the vertical: slight perspective
YAW_DEG = (-22.0, 22.0)  # the block (or mat) turned in the frame
BLOCK_ON_MAT_TURN_DEG = (-4.0, 4.0)  # the block turned on the mat
BLOCK_FILL = (0.3, 0.6)  # table photos: block width / frame width
MAT_FILL = (0.7, 0.88)  # mat photos: mat height / frame short side (corners in view)
CANVAS_PX_PER_MM = 5.0  # resolution of the table (and mat) plane before the camera warp

# ---- light and sensor ----------------------------------------------------------------------------
ILLUMINANT_GAIN = (0.88, 1.12)  # per channel: warm, cool or greenish light
EXPOSURE = (0.8, 1.05)
LIGHT_GRADIENT = (0.0, 0.3)  # darkest side loses this fraction of light
SHADOW_OFFSET = (0.15, 0.45)  # cast shadow length, fraction of the die height
SHADOW_DEPTH = (0.35, 0.6)  # fraction of light blocked under the block
BLUR_SIGMA_PX = (0.3, 1.0)
NOISE_SIGMA = (1.5, 5.0)  # grey levels
JPEG_QUALITY = (72, 92)

# ---- tables --------------------------------------------------------------------------------------
# Base colours (BGR) of the table kinds; wood gets grain, cloth a weave, stone speckles.
TABLES: Mapping[str, tuple[tuple[int, int, int], ...]] = MappingProxyType({
    "wood": ((40, 70, 110), (30, 55, 90), (55, 90, 135), (70, 100, 130)),
    "cloth": ((200, 200, 200), (150, 110, 70), (60, 60, 150), (90, 120, 90)),
    "stone": ((60, 60, 62), (120, 120, 118), (35, 35, 40)),
    "plain": ((235, 235, 232), (180, 180, 185), (80, 80, 80)),
})
