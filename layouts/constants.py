"""Every size used to lay out sheets, in one place. Lengths in millimetres unless named
otherwise; font sizes are in millimetres too (the pen draws in mm)."""

from __future__ import annotations

# Printed in every readable sheet's QR code. Version 2 (2026-12-06) gives the Delicious play
# and combo sheets a key of the player's own drawings (a box beside each plant of the
# legend). A photo of an older version is read with that version's geometry, so sheets
# already printed stay readable.
LAYOUT_VERSION = 2
# The sheets each version changed (the others are laid out as in the version before).
LAYOUT_CHANGES: dict[int, tuple[str, ...]] = {2: ("delicious-play", "delicious-combo")}

# ---- registration --------------------------------------------------------------------
MARKER_SIZE_MM = 15.0  # 6 modules of 2.5 mm: black border + 4x4 data bits
MARKER_MODULES = 6
MARKER_QUIET_MM = 3.0  # white around each marker, more than one module (2.5 mm)
MARKER_INSET_MM = 14.0  # marker centre from each page edge; most printers leave 5 mm bare
QR_SIZE_MM = 21.0  # symbol without quiet zone: version 1, 1 mm (5.9 px at 150 dpi) a module
QR_QUIET_MODULES = 4
QR_ERROR = "m"

# ---- page furniture ------------------------------------------------------------------
PAGE_MARGIN_MM = 7.0
TITLE_FONT_MM = 5.6
SUBTITLE_FONT_MM = 3.0
SMALL_FONT_MM = 2.4
HEADER_BOTTOM_MM = 30.0  # content starts below the markers' band
CORNER_KEEPOUT_MM = MARKER_INSET_MM + MARKER_SIZE_MM / 2 + MARKER_QUIET_MM  # 24.5

# ---- lines ---------------------------------------------------------------------------
LINE_MM = 0.4
LINE_BOLD_MM = 0.7

# ---- cells ---------------------------------------------------------------------------
# A cell is a rounded square; its field box is the inner writing area, inset by the quiet
# margin so a reader's crop never touches the printed border.
CELL_MM = 10.6  # natural size in the garden panel (scaled 0.9-1.15 on the sheets)
CELL_GAP_MM = 1.6
PAIR_GAP_MM = 3.0  # between two linked pairs in a row
ROW_PITCH_MM = 12.2
CELL_QUIET_MM = 1.4  # border to writing area
CELL_RADIUS_MM = 1.6
MIN_CELL_MM = 9.0  # a printed vegetable cell never gets smaller than this (tested)

# ---- garden panel (natural size; placed with a scale) ---------------------------------
GARDEN_W_MM = 196.0
GARDEN_H_MM = 210.0
BADGE_MM = 6.4  # tool icon / points badge beside a row
CONTAINER_PAD_MM = 1.4
AREA_TAB_MM = 6.5  # the area's name, written upward along its left edge
BADGE_GAP_MM = 1.2  # between a badge column and the cells
PLANTER_PITCH_X_MM = 17.0
PLANTER_PITCH_Y_MM = 16.2
PLANTER_SPACE_MM = 14.6  # outer size of a hexagon / oval / star space

# ---- play panel (natural size) --------------------------------------------------------
PLAY_W_MM = 80.0
CHOICE_CIRCLE_MM = 7.0
SPOT_MM = 15.0  # wild / bonus spot outer size

# ---- score pads ------------------------------------------------------------------------
PAD_LABEL_W_MM = 58.0
PAD_ROW_MIN_MM = 9.0
PAD_ROW_MAX_MM = 14.0
PAD_CELL_QUIET_MM = 1.2

# ---- dice mat ----------------------------------------------------------------------------
DIE_MM = 16.0  # a Diced Veggies die is about 16 mm
MAT_GRID_CELLS = 7  # 7 x 7 dice fit in the frame's corner guide
