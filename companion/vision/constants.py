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
# Rectified sheet resolution: 200 dpi, so a blank sheet rendered at an integer dpi lines up
# pixel for pixel with the rectified photo.
RECTIFIED_DPI = 200
RECTIFIED_PX_PER_MM = RECTIFIED_DPI / 25.4  # 7.87 px/mm
# Window for subpixel corner refinement at full resolution, half-size in pixels.
CORNER_REFINE_HALF_WINDOW_PX = 5
# Largest mean distance (in mm on the sheet) between a marker corner and where the
# homography puts it before we reject the registration as inconsistent.
MAX_MARKER_RESIDUAL_MM = 2.5
# Per-field shift search: how far a field's printed border may sit from where the
# homography predicts it, in mm, and the search step in px (rectified).
FIELD_SHIFT_MAX_MM = 1.5
# The window compared with the blank sheet: the field box grown by this much (mm), enough
# to hold the printed border around a cell.
SHIFT_WINDOW_GROW_MM = 2.5
# A shift is only taken when its match beats the unshifted one by this much (correlation).
SHIFT_MIN_GAIN = 0.02
# Resolutions (px/mm) at which the QR crop is decoded, in order; 21 mm codes have modules
# of 0.64 mm, so 8 px/mm gives ~5 px per module and 16 px/mm rescues blurred ones.
QR_PX_PER_MM = (8.0, 16.0, 5.0, 12.0)
# Recognising a sheet whose QR is unreadable: a coarse flattened photo (px/mm) compared with
# each blank sheet; the best normalised correlation must reach MIN_NCC and beat the
# runner-up by MIN_MARGIN.
IDENTIFY_PX_PER_MM = 1.5
IDENTIFY_MIN_NCC = 0.5
IDENTIFY_MIN_MARGIN = 0.05
# Margin around the expected QR box, in mm, when cropping it from the rectified sheet.
QR_MARGIN_MM = 6.0

# --- illumination and ink --------------------------------------------------------------------
# Background estimate: morphological closing with a square of this size (mm), then a blur.
BACKGROUND_KERNEL_MM = 4.0
# After dividing by the background, a pixel is ink when darker than this fraction of paper.
INK_RATIO_BELOW = 0.78
# A template pixel darker than this fraction of white is printed artwork; that mask is grown
# by this much (mm) so a slightly misregistered printed line never counts as handwriting.
PRINTED_RATIO_BELOW = 0.8
PRINTED_DILATE_MM = 0.6
# Ring of the printed border excluded from a writing area, in mm on each side.
BORDER_RING_MM = 1.0

# --- written vs empty (vegetable, fruit cells) ------------------------------------------------
# Ink fraction of the writing area: below EMPTY_BELOW is empty for sure, above WRITTEN_ABOVE
# written for sure; between, the cell goes to review.
CELL_EMPTY_BELOW = 0.012
CELL_WRITTEN_ABOVE = 0.035

# --- marks (choice circles, tool icons, honey, first potter) -------------------------------
# The player's ink (printed artwork removed) is measured in the icon's box grown on every
# side by this fraction of the box's smaller side, so a ring drawn around the icon counts.
MARK_GROW: dict[str, float] = {"choice": 0.3, "tool": 0.15, "honey": 0.45, "first-potter": 0.15}
# Ink fraction of that grown box: below BLANK is unmarked, above SURE is marked; between,
# the field goes to review.
MARK_BLANK_BELOW: dict[str, float] = {
    "choice": 0.012, "tool": 0.012, "honey": 0.010, "first-potter": 0.012,
}
MARK_SURE_ABOVE: dict[str, float] = {
    "choice": 0.03, "tool": 0.03, "honey": 0.025, "first-potter": 0.03,
}

# --- confidence ------------------------------------------------------------------------------
# A field whose calibrated confidence is below this goes to review.
REVIEW_BELOW = 0.9
# Rules may break a tie only between letter candidates whose probabilities differ by less.
TIE_MARGIN = 0.25
# How much more likely a rule makes the letter it favours (odds factor) in a close call.
RULE_PRIOR_WEIGHT = 4.0

# --- overlay ---------------------------------------------------------------------------------
OVERLAY_GREEN_BGR = (40, 160, 40)
OVERLAY_ORANGE_BGR = (0, 140, 255)
OVERLAY_RED_BGR = (30, 30, 220)
