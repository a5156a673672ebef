"""Every tuning number of the sheet photo reader, with its unit in the name or comment.

One place, as in SDAPS: a reading decision that changes should be a one-line change here.
"""

from __future__ import annotations

# --- loading ---------------------------------------------------------------------------------
# Largest photo we decode, in pixels (width x height). Phones give 12-50 MP; anything much
# bigger is more likely a decompression bomb than a photo.
MAX_IMAGE_PIXELS = 80_000_000

# --- registration ----------------------------------------------------------------------------
# Long side, in pixels, of the downscaled copy the ArUco markers are first searched on.
DETECT_LONG_SIDE_PX = 1600
# Rectified sheet resolution in pixels per millimetre (8 px/mm = 203 dpi).
RECTIFIED_PX_PER_MM = 8.0
# Window for subpixel corner refinement at full resolution, half-size in pixels.
CORNER_REFINE_HALF_WINDOW_PX = 5
# Largest mean distance (in mm on the sheet) between a marker corner and where the
# homography puts it before we reject the registration as inconsistent.
MAX_MARKER_RESIDUAL_MM = 2.5
# Per-field shift search: how far a field's printed border may sit from where the
# homography predicts it, in mm, and the search step in px (rectified).
FIELD_SHIFT_MAX_MM = 1.5
FIELD_SHIFT_STEP_PX = 1
# Upscale factor for a QR crop before decoding (QR modules are small on a phone photo).
QR_UPSCALE = 2.0
# Margin around the expected QR box, in mm, when cropping it from the rectified sheet.
QR_MARGIN_MM = 6.0

# --- illumination and ink --------------------------------------------------------------------
# Background estimate: morphological closing with a square of this size (mm), then a blur.
BACKGROUND_KERNEL_MM = 4.0
# After dividing by the background, a pixel is ink when darker than this fraction of paper.
INK_RATIO_BELOW = 0.62
# Ring of the printed border excluded from a writing area, in mm on each side.
BORDER_RING_MM = 1.0

# --- written vs empty (vegetable, fruit cells) ------------------------------------------------
# Ink fraction of the writing area: below EMPTY_BELOW is empty for sure, above WRITTEN_ABOVE
# written for sure; between, the cell goes to review.
CELL_EMPTY_BELOW = 0.012
CELL_WRITTEN_ABOVE = 0.035

# --- marks (choice circles, tool icons, honey, first potter) -------------------------------
# Extra ink fraction over what the blank printed icon holds: below is blank, above is marked.
MARK_BLANK_BELOW = 0.025
MARK_SURE_ABOVE = 0.06
# Honey: ring around the printed "3", inner and outer radius as fractions of the box half-size.
HONEY_RING_INNER = 0.72
HONEY_RING_OUTER = 1.35

# --- confidence ------------------------------------------------------------------------------
# A field whose calibrated confidence is below this goes to review.
REVIEW_BELOW = 0.9
# Rules may break a tie only between letter candidates whose probabilities differ by less.
TIE_MARGIN = 0.25

# --- overlay ---------------------------------------------------------------------------------
OVERLAY_GREEN_BGR = (40, 160, 40)
OVERLAY_ORANGE_BGR = (0, 140, 255)
OVERLAY_RED_BGR = (30, 30, 220)
