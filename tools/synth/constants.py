"""Numbers behind the synthetic sheet photos, with their units.

Ranges are (low, high) and are sampled uniformly unless a comment says otherwise. They
describe an ordinary phone photo of a sheet lying on a table, on the hard side of normal.
"""

from __future__ import annotations

# ---- camera ------------------------------------------------------------------------------
PHOTO_SIZE_PX = (4000, 3000)  # (long side, short side): a 12 MP phone sensor
PORTRAIT_CHANCE = 0.5  # probability the phone is held upright (frame taller than wide)
TILT_DEG = (0.0, 35.0)  # angle between the sheet's normal and the camera axis
ROTATION_DEG = (0.0, 360.0)  # in-plane rotation of the sheet in the frame
# Share of the frame's area the sheet itself covers: the reader's promise is "a sheet filling
# a third of the frame or more". A sheet turned near 45 degrees cannot reach the top of the
# range inside a 4:3 frame; its span is then capped at FILL_MAX.
SHEET_AREA_FRACTION = (1.0 / 3.0, 0.75)
# Alternatively (CameraOptions.sheet_area=None): the sheet's outline spans this fraction of the
# frame, measured in the frame direction where it is tightest (0.9 nearly touches two edges).
FILL_FRACTION = (1.0 / 3.0, 0.9)
FILL_MAX = 0.95  # never span more of the frame than this, so the whole sheet is in the photo
FOCAL_LENGTH_FRAMES = (0.7, 1.0)  # focal length in units of the long frame side (~26 mm eq.)
LENS_BLUR_SIGMA_PX = (0.4, 1.8)  # Gaussian sigma at 4000 px wide; scaled with output size
MOTION_BLUR_CHANCE = 0.15
MOTION_BLUR_LENGTH_PX = (2.0, 7.0)  # at 4000 px wide
LIGHT_GRADIENT = (0.0, 0.45)  # darkest corner loses up to this fraction of light
VIGNETTE = (0.0, 0.25)  # fraction of light lost at the frame corners
SHADOW_CHANCE = 0.6
SHADOW_DEPTH = (0.2, 0.55)  # fraction of light blocked in the core of a shadow
SHADOW_SOFTNESS_FRAMES = (0.01, 0.05)  # blur sigma as a fraction of the long frame side
PAPER_BRIGHTNESS = (0.88, 1.0)  # reflectance of the paper relative to pure white
PAPER_WARMTH = (0.0, 0.07)  # blue lost relative to red: white to cream/recycled paper
EXPOSURE_GAIN = (0.85, 1.08)  # overall brightness
SENSOR_NOISE_SIGMA = (1.5, 6.0)  # grey levels (0-255) of Gaussian read noise
JPEG_QUALITY = (70, 92)
PAPER_BEND_MM = (0.0, 1.0)  # peak displacement of a gently curled sheet
DROP_SHADOW_MM = (0.3, 1.5)  # how far the paper's edge shadow reaches onto the table
BACKGROUNDS = ("wood", "cloth", "plain")

# ---- filling a sheet -----------------------------------------------------------------------
PAGE_DPI = 200  # resolution of the rendered page before it is photographed
MM_PER_INCH = 25.4
# Pens: (name, BGR ink colour, (min, max) ink strength 0-1 where 1 is fully opaque).
PENS: tuple[tuple[str, tuple[int, int, int], tuple[float, float]], ...] = (
    ("pencil", (75, 72, 70), (0.45, 0.8)),
    ("black-ballpoint", (40, 35, 30), (0.7, 0.95)),
    ("blue-ballpoint", (130, 55, 25), (0.7, 0.95)),
    ("black-felt", (20, 20, 20), (0.85, 1.0)),
)
MIN_STROKE_MM = 0.3  # no pen or pencil draws a thinner line; thinner glyph strokes are widened
PRESSURE_JITTER = 0.12  # per field, fraction of the pen's strength that varies
CHOICE_MARKS = ("fill", "cross", "check", "circle")  # ways a player marks a choice circle
CHOICE_MARK_WEIGHTS = (0.4, 0.3, 0.2, 0.1)
LETTER_GROW = (0.85, 1.1)  # letters use a little less, or a little more, than the writing area
SKETCH_GROW = (0.9, 1.15)  # sketches fill their cell, sometimes a little past its edge
MARK_GROW = (1.0, 1.3)  # crosses and checks overshoot the printed icon by this factor
HONEY_RING_GROW = (1.35, 1.7)  # a circle drawn around the printed honey "3"
STRAY_MARKS = (0, 3)  # scribbles outside every field, per sheet (inclusive)
STRAY_MARK_MM = (4.0, 12.0)  # size of a stray scribble
STRAY_MARK_CLEARANCE_MM = 3.0  # keep stray marks this far from fields, markers and the QR
SMUDGE_CHANCE = 0.35  # probability a sheet has one half-erased smudge in an empty field

# ---- paper off the table (CameraOptions.bend_*, page_bend.py) ------------------------------
# Where the paper leaves the table, measured in from its edge (or, for a corner, in from the
# corner along its diagonal), in mm.
BEND_REACH_MM = (15.0, 45.0)
BEND_ANGLE_DEG = (15.0, 45.0)  # slope of the bent paper at its end
BEND_HINGE_MM = (4.0, 12.0)  # radius of the fold where a lifted edge leaves the table
# The bench's two settings of bent paper (kinds, reach mm, angle degrees): "edges" is the
# one the reader was tuned on, "corners" (curled corners, steeper) is measured only.
BEND_SETTINGS: dict[str, tuple[tuple[str, ...], tuple[float, float], tuple[float, float]]] = {
    "edges": (("curl", "lift"), (15.0, 45.0), (15.0, 45.0)),
    "corners": (("corner",), (20.0, 50.0), (20.0, 55.0)),
}
