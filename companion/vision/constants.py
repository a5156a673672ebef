"""Tuning numbers every photo reader shares (loading, marker registration), with units.

The sheet reader's own numbers are in ``companion.vision.sheet.constants``, the dice
reader's in ``companion.vision.dice.constants``.
"""

from __future__ import annotations

from types import MappingProxyType

# --- loading ---------------------------------------------------------------------------------
# Largest photo we decode, in pixels (width x height). Phones give 12-50 MP; anything much
# bigger is more likely a decompression bomb than a photo.
MAX_IMAGE_PIXELS = 80_000_000
# Photos with more than 8 bits a channel (16-bit PNG, 32-bit TIFF-like modes) take two to
# eight times the memory a pixel once decoded: their own smaller budget, in pixels.
MAX_DEEP_IMAGE_PIXELS = 20_000_000
# Longest side over shortest side: a sheet or a block is at most about 2:1 in a photo, and a
# 1 x 80,000,000 strip only costs memory. Checked from the header, before decoding.
MAX_IMAGE_ASPECT = 6.0
# Image types the readers decode (Pillow format name -> media type): what the web app
# accepts as an upload and what the store keeps.
IMAGE_FORMATS = MappingProxyType({"JPEG": "image/jpeg", "PNG": "image/png",
                                  "WEBP": "image/webp", "HEIF": "image/heif",
                                  "HEIC": "image/heic", "MPO": "image/jpeg"})

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
# Places one corner-marker id is tried at when it shows more than once in a photo (another
# sheet, a neighbour's corner): the largest few, so the choices stay a handful.
MAX_PLACES_PER_MARKER = 3
# A scanned sheet given as a PDF is drawn at the resolution the reader flattens photos to
# (RECTIFIED_DPI): finer costs time and gains nothing, since every field is read there.
SCAN_RENDER_DPI = 200
# Per-field shift search: how far a field's printed border may sit from where the
# homography predicts it, in mm, and the search step in px (rectified).
FIELD_SHIFT_MAX_MM = 2.5
# Shifts are smoothed: each field takes the median over fields whose centres lie this close (mm).
SHIFT_NEIGHBOUR_MM = 15.0
# A field keeps its own shift when it is within this many px of its neighbours' median.
SHIFT_TRUST_PX = 2
# ... or when its own match (normalised correlation with the blank) is at least this good.
SHIFT_TRUST_SCORE = 0.6
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
IDENTIFY_PX_PER_MM = 2.0
IDENTIFY_MIN_NCC = 0.4
IDENTIFY_MIN_MARGIN = 0.05
# Page shapes whose marker fit is within 2x the best residual plus this (mm) stay candidates.
IDENTIFY_RESIDUAL_SLACK_MM = 0.3
# Where two look-alike blanks differ by more than this (grey levels), they are compared again.
IDENTIFY_DIFFER_GREY = 40.0
# Margin around the expected QR box, in mm, when cropping it from the rectified sheet.
QR_MARGIN_MM = 6.0
# --- bent paper (local_fit.py) ---------------------------------------------------------------
# Blocks of print matched between the flattened photo and the blank, in two passes:
# (px/mm, block mm, spacing mm, search reach mm, least correlation to keep a block).
LOCAL_COARSE = (1.0, 40.0, 20.0, 15.0, 0.4)
LOCAL_FINE = (2.0, 16.0, 8.0, 3.0, 0.5)
# A block of the blank this plain (grey levels, standard deviation) has nothing to align on.
LOCAL_BLOCK_MIN_STD = 12.0
# A block is dropped when its offset differs this much (mm) from its neighbours' median.
LOCAL_OUTLIER_MM = 1.0
# The fitted field's nodes lie this far apart, and it is smoothed over this reach (mm).
LOCAL_NODE_MM = 4.0
LOCAL_SMOOTH_MM = 8.0
# A node vouched for by less than this many blocks' worth of weight is not vouched for.
LOCAL_MIN_SUPPORT = 0.5
# The sheet is taken as bent (and flattened again) when a coarse block of print sits as far
# from where the markers put it as per-field alignment reaches (mm). On the bench's tuning
# photos flat sheets stay under 2.3 mm; bent sheets misread without this start near 3.9.
LOCAL_ENGAGE_MM = FIELD_SHIFT_MAX_MM
# A field where the page may be further than this (mm) from where the fit puts it is not
# read with full confidence.
LOCAL_DOUBT_MM = 0.6
# How far the page may be off at a place is the LOCAL_DOUBT_RANK-th worst block near it: one
# block pulled off by the player's ink over it is not a bend (1 would trust no single block).
LOCAL_DOUBT_RANK = 2
