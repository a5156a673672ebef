"""Every tuning number of the sheet photo reader, with its unit in the name or comment.

One place, as in SDAPS: a reading decision that changes should be a one-line change here.
Loading and registration numbers, shared with the dice reader, are in
``companion.vision.constants``.
"""

from __future__ import annotations

# --- illumination and ink --------------------------------------------------------------------
# Background estimate: morphological closing with a square of this size (mm), then a blur.
BACKGROUND_KERNEL_MM = 4.0
# After dividing by the background and by what the sheet prints there, a pixel is the
# player's ink when darker than this fraction (pencil reaches ~0.7, paper noise ~0.95).
INK_RATIO_BELOW = 0.9
# Cells are judged a little more sensitively (light pencil letters), marks at the default.
CELL_INK_BELOW = 0.93
MARK_INK_BELOW = 0.9
# Marks adapt to the player's pen: the darkest strokes of their letters (this percentile of
# a written cell's relative lightness, median over cells) set the ink test for marks at
# 1 - PEN_FRACTION * (1 - pen), kept within [MARK_INK_MIN, MARK_INK_MAX].
PEN_PERCENTILE = 3.0
PEN_FRACTION = 0.2
MARK_INK_MIN = 0.75
MARK_INK_MAX = 0.94
# Gaussian sigma (px, rectified) smoothing the photo before the ink test, against sensor noise.
INK_SMOOTH_PX = 0.8
# The blank sheet's print is grown by this many pixels and blurred like the photo (px, at the
# rectified resolution) before it is compared with it, so a one-pixel misregistration or
# lens blur along a printed line never counts as the player's ink. The blur is chosen per
# field among these sigmas, by which one matches the photo best.
PRINTED_GROW_PX = 1
BLANK_BLUR_PX = (0.7, 1.2, 1.8, 2.6)
# Ring of the printed border excluded from a writing area, in mm on each side.
BORDER_RING_MM = 1.0

# --- written vs empty (vegetable, fruit cells) ------------------------------------------------
# Share of the writing area (shrunk by BORDER_RING_MM) that is ink: below EMPTY_BELOW is empty,
# above WRITTEN_ABOVE written; between, the cell goes to review. Measured on 350 synthetic
# cells: empty ones reach 0.011 at most, written ones 0.10 or more in 98 of 100.
CELL_EMPTY_BELOW = 0.012
CELL_WRITTEN_ABOVE = 0.05
# A cell whose ink is all faint (no pixel share darker than STRONG_INK_BELOW reaches
# CELL_STRONG_MIN) may be a half-erased smudge or a very light pencil letter: review it.
STRONG_INK_BELOW = 0.9
CELL_STRONG_MIN = 0.01
# ... or whose darkest strokes (PEN_PERCENTILE of its relative lightness) stay lighter than
# this: a blurred, half-erased smudge reads ~0.88, pencil letters ~0.7, pens ~0.3.
CELL_FAINT_DARK = 0.82
# Confidence given to such a faint cell (below REVIEW_BELOW, so it is reviewed).
FAINT_CONFIDENCE = 0.6
# A letter written along the cell's border (an L hugging its bottom-left corner) leaves
# little ink inside the writing area. A cell not clearly written there is measured again
# over its whole box, print included, nudged a pixel each way as marks are (the least ink
# is kept, so a printed edge a pixel off never counts): from CELL_EDGE_WRITTEN_ABOVE of the
# box, and more than in the writing area, it is written, at EDGE_WRITTEN_CONFIDENCE (in
# review: print may still leak in). Measured: empty cells of 40 synthetic photos (650) reach
# 0.0054 at most over the whole box; the one real test writer's L read empty (a silent
# error) had 0.0035 in its writing area and 0.13 over the box.
CELL_EDGE_WRITTEN_ABOVE = 0.05
EDGE_WRITTEN_CONFIDENCE = 0.6
# A cell's darkest strokes against the player's own writing on the same sheet (darkness
# 1 - lightness at PEN_PERCENTILE, over the median of the sheet's sure letters): an erased
# letter keeps a small part of it. On 240 synthetic photos (6,489 letters, 70 half-erased
# smudges) letters reached 0.37 at the least (0.57 at the 1st percentile), smudges 0.43 at
# most (0.27 at the 95th). Below ERASED_BELOW the cell reads empty, in review at
# ERASED_CONFIDENCE; below ERASED_SURE_BELOW it reads empty and is trusted.
ERASED_BELOW = 0.33
ERASED_SURE_BELOW = 0.2
# ... and only when few of its strokes are firm (share of the writing area below
# STRONG_INK_BELOW): a light pencil letter on a sheet otherwise written in felt pen can be
# as light as an erasure next to that pen, but keeps firm strokes (faint letters: 0.04-0.34,
# mostly above 0.08; smudges mostly below 0.04), so it goes to review instead.
ERASED_SURE_MAX_STRONG = 0.05
ERASED_CONFIDENCE = 0.75
# The other way round, a cell held at FAINT_CONFIDENCE only for light strokes (it has firm
# ones, CELL_STRONG_MIN) whose darkest strokes reach this share of the player's median is
# their ordinary (light pencil) writing and keeps its plain ink probability, once the sheet
# has PEN_LIKE_MIN_LETTERS sure letters to compare with. On seed 0's photos such faint
# letters reached 0.41-0.77 of the pen, smudges with firm strokes at most 0.43.
PEN_LIKE_SHARE = 0.5
PEN_LIKE_MIN_LETTERS = 5

# The letter classifier gets the writing area grown by this much (mm), so a letter that
# touches the edge, or a field a pixel off, is never cut (it erases border lines itself).
LETTER_CROP_GROW_MM = 0.8
# Blank-sheet pixels darker than this (grey level) are print, painted out of letter crops.
LETTER_PRINT_BELOW = 200

# --- marks (choice circles, tool icons, honey, first potter) -------------------------------
# The player's ink is measured in the icon's box grown on every side by this fraction of the
# box's smaller side: outward where a ring around the icon counts (choice, honey), inward
# for tool and First Potter icons, whose frames and neighbours would otherwise leak in.
MARK_GROW: dict[str, float] = {"choice": 0.3, "tool": -0.12, "honey": 0.45, "first-potter": -0.12}
# First Potter: the check-or-cross shape is judged on the box grown by this fraction.
SHAPE_GROW = 0.15
# Check-or-cross logistic model: weights for the 3x3 ink grid (row by row), point symmetry,
# aspect and a bias. Fitted on 262 First Potter marks as the reader sees them (printed icon
# removed) in synthetic 12 MP photos: 96% right on a held-out half, none of those wrong with
# confidence > 0.9; 100% on clean synthetic checks and crosses (tests/test_vision_marks.py).
CROSS_WEIGHTS = (3.17, 1.56, -4.56, -0.75, -0.03, -1.7, -3.61, -2.82, 10.97, 0.75, -1.41, 2.23)
# Those weights were fitted where the dense icon art cut holes in the marks, and came out
# timid: on the quiet icons most checks and crosses stayed below 0.9 confidence although few
# were wrong. The shape is now judged on two ink masks (the player's ink test, and halfway
# from paper to the mark's darkest SHAPE_DARK_PERCENTILE), their log-odds averaged and
# multiplied by CROSS_SHARPEN. On 1682 checks and crosses (First Potter, tool and choice
# marks) in 140 photos with seeds apart from the reported ones: 18 wrong, 321 below 0.9
# (985 before), 3 wrong with confidence >= 0.9 (1 before); First Potter alone 4 wrong of
# 176 (5 before), 33 below 0.9 (113 before), 1 wrong and confident (1 before).
CROSS_SHARPEN = 1.5
SHAPE_DARK_PERCENTILE = 2.0
SHAPE_HALFWAY = 0.5
# A mark whose darkest ink (that percentile of its relative lightness) is lighter than this
# is faint, blurred pencil: its shape confidence is held at SHAPE_FAINT_CONFIDENCE. On the
# same marks, every confident mistake was this faint (right ones: 95% darker than 0.85);
# with the hold, none is left (review 376 of 1682 marks instead of 321).
SHAPE_FAINT_DARK = 0.85
SHAPE_FAINT_CONFIDENCE = 0.85
# Ink share of that box (the least of the box and the box nudged one pixel each way):
# below BLANK is unmarked, above SURE is marked; between, the field goes to review.
MARK_BLANK_BELOW: dict[str, float] = {
    "choice": 0.004, "tool": 0.002, "honey": 0.002, "first-potter": 0.002,
}
MARK_SURE_ABOVE: dict[str, float] = {
    "choice": 0.03, "tool": 0.02, "honey": 0.02, "first-potter": 0.02,
}
# (Measured on 20 synthetic photos, well-resolved fields: blank icons read 0.000, marked
# ones 0.0035 at least, 0.035 for 95 of 100 tools, 0.056 for every First Potter.)
# Any ink share from MARK_ANY_INK up means "marked", at probability at least
# MARK_FAINT_PROBABILITY (so it goes to review until the share reaches SURE): a blank icon's
# share is exactly 0 after the nudge test (904 blank tool and First Potter icons on 60
# quiet-art photos), while a faint or blurred pencil cross can leave only 0.002-0.004.
MARK_ANY_INK = 0.001
MARK_FAINT_PROBABILITY = 0.6

# --- confidence ------------------------------------------------------------------------------
# Detail the photo must hold where a field is (photo pixels per mm of paper) for the field
# to be trusted: MARK for tool and First Potter icons (which must also be sharper than the
# blurriest template), CELL for everything else. Below, a reading's confidence is capped at
# LOW_DETAIL_CONFIDENCE (so it goes to review).
# A tool whose cross is clear (probability at least REVIEW_BELOW) is exempt: blur fades a
# cross but never draws one, so low detail only makes "empty" doubtful. (On 60 photos, no
# blank tool icon in a low-detail field had any ink share at all.) Over quiet icon art, on
# 140 photos: all 7 marks that left no ink at all were in fields judged blurred, none in
# the 164 fields capped only for px/mm < 3.5, so MARK is 3.0 (was 3.5).
MIN_MARK_PX_PER_MM = 3.0
MIN_CELL_PX_PER_MM = 2.5
LOW_DETAIL_CONFIDENCE = 0.7
# A letter whose classifier probability (among the field's letters) is below this goes to
# review whatever the ink says. The letter model's own threshold (0.98) is set on crops as
# small as 2.8 px/mm; on the letters the reader cut from photos (sheet covering a third of
# the frame or more: 5,430 letters of seed 0 and 5,450 of seed 1; and 1,059 of sheets
# covering 5-33%), no letter at 0.95 or more was wrong, one at 0.918 was; 0.95 reviews 130
# and 141 letters where 0.98 reviewed 218 and 236. A model whose letters.json carries its
# own threshold uses that: "sheet_review_below", fitted on filled sheets of the real
# calibration writers (tools/fit_letter_sheets.py, run by `make train`), else
# "review_below", fitted on their single crops (tools/train_letters.py). Its
# "sheet_pair_review_below", fitted with it, holds a letter read between the two letters a
# doubtful letter of its sheet hesitated between (letter_pairs.py).
LETTER_REVIEW_BELOW = 0.95
LETTER_DOUBT_CONFIDENCE = 0.85
# A field whose calibrated confidence is below this goes to review.
REVIEW_BELOW = 0.9
# Rules may break a tie only between letter candidates whose probabilities differ by less.
TIE_MARGIN = 0.25
# How much more likely a rule makes the letter it favours (odds factor) in a close call.
RULE_PRIOR_WEIGHT = 4.0
# Some marks break the rules outright unless the garden around them is full: a First Potter
# check needs its container completed, a circled honey jar one whole area. When such a
# mark's reading is uncertain (below REVIEW_BELOW) and a cell it depends on is surely
# empty, the mark is made this many times less likely, however far apart the candidates
# are. On 200 synthetic photos both crosses read as checks (0.85 and 0.52) were on
# incomplete containers; on 200 others a blurred honey jar read as circled with no area
# full. The field stays in review.
MARK_RULE_WEIGHT = 10.0

# --- overlay ---------------------------------------------------------------------------------
OVERLAY_GREEN_BGR = (40, 160, 40)
OVERLAY_ORANGE_BGR = (0, 140, 255)
OVERLAY_RED_BGR = (30, 30, 220)
OVERLAY_SCORE_BGR = (150, 40, 0)

# --- glare -----------------------------------------------------------------------------------
# A rectified pixel at GLARE_LEVEL or above is clipped white. Around each field (its box
# grown by GLARE_WINDOW_MM) the blank sheet's printing (darker than GLARE_PRINTED_BELOW) is
# looked for in the photo: if at least GLARE_FIELD_SHARE of it has no dark pixel within
# GLARE_REACH_MM (slack for alignment), a reflection has washed it out and the field's
# confidence is capped at LOW_DETAIL_CONFIDENCE. Fewer than GLARE_MIN_PRINTED_PX printed
# pixels nearby leave nothing to judge by. On clean photos (the example photos, bright
# good-light ones whose paper clips, an 800 px one) no field had any washed print at all,
# while a letter at a reflection's edge was misread with 12% of its print washed: hence
# a low share.
GLARE_LEVEL = 240
GLARE_PRINTED_BELOW = 128
GLARE_WINDOW_MM = 2.5
GLARE_REACH_MM = 0.8
GLARE_FIELD_SHARE = 0.1
GLARE_MIN_PRINTED_PX = 40

# --- covers ----------------------------------------------------------------------------------
# The blank's print is judged over its own local paper white (darker than
# COVER_PRINTED_BELOW there: lines and edges, not wide fills). A printed pixel is seen when
# some photo pixel within COVER_REACH_MM (around a field, after its shift) or
# COVER_MAP_REACH_MM (across the page, where no field shift applies) is at least
# COVER_SEEN_SHARE of the print's own depth below the paper. A field with COVER_FIELD_SHARE
# of its print (its box grown by COVER_WINDOW_MM; at least COVER_MIN_PRINTED_PX printed
# pixels) unseen is covered; so is one within COVER_MARGIN_MM of a place on the page
# (a grid of COVER_MAP_PX_PER_MM) where that share of the print within COVER_AREA_MM is
# unseen and print fills at least COVER_AREA_MIN_PRINTED of it. Chosen on 90 calibration
# combo photos of the reader benchmark with two random covers each (tools/synth/covers.py's
# tuning shapes): silent errors 280 without the check, 21 with the fields' test alone, 12
# with the page's at a 6 mm margin and 0.1 of print, 8 at 9 mm and 0.06 (kept); on 300
# calibration photos with nothing on them it flags 2 fields of 23,547, and none on 240 bent
# and sketched ones (the glare rim below, added after, left those counts and the cover
# bench's tuning rows as they were).
COVER_PRINTED_BELOW = 0.6
COVER_WINDOW_MM = 2.5
COVER_REACH_MM = 0.8
COVER_SEEN_SHARE = 0.4
COVER_FIELD_SHARE = 0.5
COVER_MIN_PRINTED_PX = 40
COVER_AREA_MM = 8.0
COVER_AREA_MIN_PRINTED = 0.06
COVER_MAP_REACH_MM = 2.5
COVER_MAP_PX_PER_MM = 1.0
COVER_MARGIN_MM = 9.0
# Long thin things (a pencil, a pen) hide too little print for the tests above, yet their
# edges cross mark boxes as clean strokes. They are found as straight edges the blank does
# not print: on a grid of LYING_PX_PER_MM, the photo's edges (Canny at LYING_CANNY_LOW and
# 2.5 times that, after a blur of LYING_BLUR_PX) less those within LYING_PRINT_MM of a blank
# edge of about the same direction (one of LYING_DIRECTIONS bins, or a neighbour); a run of
# them at least LYING_MIN_LENGTH_MM long (gaps up to LYING_GAP_MM) that does not follow such
# print within LYING_FOLLOW_MM for LYING_FOLLOW_SHARE of its length marks the fields within
# LYING_REACH_MM of it (a pencil's width on either side, since which side it lies on is not
# known) and LYING_END_MM past its ends (a sharpened cone's edges are short). Nothing within
# LYING_BORDER_MM of the page's edge counts. Chosen on 12 photos of the cover bench's
# pencils setting (real-size pencils, tools/synth/covers.py) and the same photos with
# nothing on them: silent errors 9 -> 1, no field flagged on the clear photos.
LYING_PX_PER_MM = 4.0
LYING_BLUR_PX = 1.5
LYING_CANNY_LOW = 20
LYING_DIRECTIONS = 8
LYING_PRINT_MM = 1.4
LYING_MIN_LENGTH_MM = 25.0
LYING_GAP_MM = 4.0
# ... and lies on an edge pixel (after the thickening) along LYING_SUPPORT of its length:
# print a bent page moved, lined up by chance across a planter's shapes, is sparse (2 of 40
# clear bent photos flagged fields without this; removed from 0.5; pencils lost from 0.8).
LYING_SUPPORT = 0.6
LYING_FOLLOW_MM = 2.5
LYING_FOLLOW_SHARE = 0.6
LYING_REACH_MM = 8.0
LYING_END_MM = 15.0
LYING_BORDER_MM = 3.0
# A line found is followed along its axis, past where its edges were lost in print, while
# the LYING_SIDE_MM beside it on one side looks like it did along the part found: a pencil
# hides what lies under it, so its look carries on. Followed while the mean difference over
# LYING_FOLLOW_RUN_MM stays within LYING_ALIKE (of the grey scale, 1 = black to white). A
# line whose strips, on both sides, differ from their own look by more than LYING_EVEN on
# average along the line itself is no pencil's edge (print a bent page moved, lined up by
# chance along a row of cells' corners: 1 of 40 bent photos before; 0.12 kept it, 0.1 not,
# and 0.08 lost a pencil).
LYING_SIDE_MM = 6.0
LYING_FOLLOW_RUN_MM = 5.0
LYING_ALIKE = 0.08
LYING_EVEN = 0.1
# On a bent sheet, a line that runs where the fit of the bend is in doubt (LOCAL_DOUBT_MM,
# sampled every LYING_FOLD_STEP_MM) for LYING_FOLD_SHARE of its length is the paper's own
# fold or lifted edge, left to the bent-paper check: 3 of 29 clear bent photos flagged
# fields near their bend as covered without this; 0.5 left 2 (lines along the fold, just
# inside the doubt's edge).
LYING_FOLD_STEP_MM = 5.0
LYING_FOLD_SHARE = 0.4
# Print lost within COVER_GLARE_RIM_MM of clipped white (GLARE_LEVEL) is a reflection's:
# the glare check speaks for it (a spot's soft rim washes the print out without clipping).
COVER_GLARE_RIM_MM = 6.0

# --- low light -------------------------------------------------------------------------------
# The page's contrast to noise (light.py): the printed lines' depth below the paper (their
# median, in lightness over local paper white) over the robust spread of plain paper
# (darker than LOW_LIGHT_PAPER_FROM nowhere within LOW_LIGHT_PAPER_MARGIN_MM on the blank)
# once its shading is taken off (a blur of LOW_LIGHT_SMOOTH_MM). Under LOW_LIGHT_CNR the
# photo's doubtful fields are put down to the light, said once for the photo. Chosen on
# generated photos, 2026-12-06: 400 of the reader benchmark's photos (normal light, bent
# paper) measure 22.7 and up (1% under 26, median 65); under darker exposures and heavier
# sensor noise, photos at 18.7 and above kept the 2-5 fields in review of a good photo,
# at 14.9-15.7 8-12 went to review, at 12.2 and below 16-59 (the wrong fields among them).
LOW_LIGHT_CNR = 17.0
LOW_LIGHT_PAPER_FROM = 250
LOW_LIGHT_PAPER_MARGIN_MM = 1.0
LOW_LIGHT_PRINT_BELOW = 100
LOW_LIGHT_SMOOTH_MM = 0.4
LOW_LIGHT_STRIDE = 3  # px of the flattened page between those measured, each way
