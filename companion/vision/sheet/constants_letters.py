"""Numbers of the handwritten-letter classifier, with units in names or comments."""

from __future__ import annotations

from companion.vision.assets import asset_path

# The ten capitals a Delicious cell may hold (vegetables B C L M O P, fruits B F G S W).
LETTER_CLASSES: tuple[str, ...] = ("B", "C", "F", "G", "L", "M", "O", "P", "S", "W")
# The letters each kind of letter cell allows (a B is a vegetable or a fruit).
FIELD_LETTERS: dict[str, tuple[str, ...]] = {
    "vegetable": ("B", "C", "L", "M", "O", "P"),
    "fruit": ("B", "F", "G", "S", "W"),
}

# Shipped model and its metadata (temperature, classes, input size).
MODEL_PATH = asset_path("letters.onnx")
META_PATH = asset_path("letters.json")

# Network input: a square of this many pixels, ink = 1.0 on paper = 0.0.
INPUT_PX = 32
# The letter's ink box is centred in a square this much larger than its longer side.
INPUT_MARGIN = 1.15

# Background estimate for illumination: grey closing with a disc this fraction of the crop's
# shorter side (must exceed the widest pen stroke), at least BG_KERNEL_MIN_PX.
BG_KERNEL_FRACTION = 0.25
BG_KERNEL_MIN_PX = 7
# Ink is scaled so its 99.5th percentile reaches 1; never by more than 1 / INK_FLOOR, so a
# nearly blank crop is not blown up into noise.
INK_PERCENTILE = 99.5
INK_FLOOR = 0.2
# A pixel counts as ink for locating the letter above this normalised ink level.
INK_LEVEL = 0.35
# Ink darkness (before stretching) above the paper's median that is still grain or noise.
INK_NOISE_MARGIN = 0.04
# Printed cell borders poking in at the crop's edges: within EDGE_BAND_FRACTION of a side, a
# row or column with more than EDGE_LINE_COVER of its length above EDGE_INK_LEVEL is a
# border and erased, with its neighbours while they stay above EDGE_RIM_COVER (blur).
EDGE_BAND_FRACTION = 0.15
EDGE_INK_LEVEL = 0.2
EDGE_LINE_COVER = 0.85
EDGE_RIM_COVER = 0.3
# Ink blobs smaller than this fraction of the largest blob are specks, ignored for the box.
SPECK_FRACTION = 0.08

# Tesseract baseline: letter scaled to this height (px), padded by this fraction of it.
TESSERACT_LETTER_HEIGHT_PX = 48
TESSERACT_PAD_FRACTION = 0.5

# Below this top probability (after restriction to the field's letters) a letter crop counts
# as doubtful in tools/bench_letters.py. Sweep on 2,000 held-out-font crops photographed
# at 2.8-11 px/mm: 1 confident error (0.05%) with 15% sent to review; 0.9 and 0.95 both gave
# 2. (The sheet reader, whose letters come from sheets at least a third of the frame, uses
# its own constants.LETTER_REVIEW_BELOW.)
REVIEW_BELOW = 0.98

# The player's own letters (own_letters.py): letters above OWN_SURE_ABOVE are the player's
# examples; a doubtful letter's probabilities are multiplied by exp(OWN_WEIGHT x its
# correlation with the best example of each candidate, less the candidates' mean), the
# inputs blurred by OWN_BLUR_PX (network input pixels) first. A new leader must lead by
# OWN_MIN_GAIN. Swept on the real calibration writers (tools/bench_letters.py --own-fit):
# no weight beat 0 there, so the reader leaves the comparison off unless asked for it.
OWN_SURE_ABOVE = 0.995
OWN_BLUR_PX = 1.5
OWN_WEIGHT = 8.0
OWN_MIN_GAIN = 0.1

# A player's letters in review are asked once per group (letter_groups.py): letters read as
# the same plant join while the mean cosine distance of the letter network's hidden
# features stays under LETTER_GROUP_DISTANCE. Chosen on the real calibration writers'
# sheets (python -m tools.fit_letter_groups, 200 photos): at 0.3, 4,413 of the 5,326 pairs
# of one player's letters read alike and truly alike are close enough to join, and none of
# the 7 pairs read alike but truly two letters; at 0.35 one of those would.
LETTER_GROUP_DISTANCE = 0.3
