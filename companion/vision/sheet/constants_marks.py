"""Numbers of the check-or-cross shape classifier, with units in names or comments."""

from __future__ import annotations

from companion.vision.assets import asset_path

# Network outputs, in this order.
MARK_CLASSES: tuple[str, ...] = ("check", "cross")

# Shipped model and its metadata (temperature, classes, input size).
MODEL_PATH = asset_path("marks.onnx")
META_PATH = asset_path("marks.json")

# Network input: the icon's relative-lightness patch resized to a square of this many pixels,
# ink darkness stretched so 1.0 = the mark's darkest ink, 0.0 = paper.
INPUT_PX = 32
# The stretch divides by this percentile (%) of the patch's ink darkness (1 - relative
# lightness), never by less than INK_FLOOR, so an empty patch's grain is not blown up.
INK_PERCENTILE = 99.0
INK_FLOOR = 0.1
# Patches smaller than this (px, either side) cannot hold a mark's shape.
MIN_PATCH_PX = 4
# A mark with fewer ink pixels than this (under both of the reader's ink tests, for the CNN;
# in its one ink mask, for the logistic model) has no shape to judge.
MIN_SHAPE_INK_PX = 12
# A patch whose darkest ink (the reader's SHAPE_DARK_PERCENTILE of relative lightness) is
# lighter than BARE_INK_DARK holds barely any ink: printed-edge residue around a blank icon,
# or a ghost of a mark. Its CNN shape is held within [1 - BARE_SHAPE_CONFIDENCE,
# BARE_SHAPE_CONFIDENCE], so a faint "any ink" reading (0.6 marked) no longer outweighs
# "blank". In 3,511 harvested check/cross patches only 2 real marks were that light.
BARE_INK_DARK = 0.96
BARE_SHAPE_CONFIDENCE = 0.6
