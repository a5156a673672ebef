"""Printable sheets, photo readers and score-assist engines for food-themed tabletop games.

The library's front door (docs/api.md): ``read_sheet`` and ``read_dice`` read a photo and
return what the command line prints. Importing ``companion`` loads nothing heavy; the
vision stack (OpenCV, NumPy, the ONNX models) is imported on the first read.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.dice.reader import DiceReading
    from companion.vision.sheet.reader import SheetReading

__version__ = "0.1.0"
__all__ = ["DiceReading", "SheetReading", "__version__", "read_dice", "read_sheet"]


def read_sheet(
    photo: str | os.PathLike[str] | np.ndarray, *, reader: str = "ours"
) -> SheetReading:
    """Read a photographed Delicious sheet: every field with its confidence, the fields to
    review, the rules they break and the score.

    ``photo`` is a path (JPEG, PNG, WebP, HEIC, or a one-page PDF scan) or an image array
    as OpenCV holds it (BGR or grey); ``reader`` picks the letter reader ("ours" or
    "tesseract"). An unreadable photo raises ``ImageError``, a file that cannot be opened
    ``InputError`` (both are ``companion.errors.CompanionError``).
    """
    from companion.vision.sheet.reader import read_image, read_photo

    if isinstance(photo, str | os.PathLike):
        return read_photo(os.fspath(photo), reader)
    return read_image(_image(photo), reader=reader)


def read_dice(photo: str | os.PathLike[str] | np.ndarray) -> DiceReading:
    """Read a photographed block of Diced Veggies dice (on the mat or on a table).

    ``reading.block`` is the rules engine's block, so ``reading.block.legal_cuts()`` lists
    the cuts; ``reading.review`` the dice read with low confidence. Errors as ``read_sheet``.
    """
    from companion.vision.dice.reader import read_dice_image, read_dice_photo

    if isinstance(photo, str | os.PathLike):
        return read_dice_photo(os.fspath(photo))
    return read_dice_image(_image(photo))


def _image(photo: object) -> np.ndarray:
    """An image array, or one clear error for anything else."""
    import numpy as np

    from companion.errors import InputError

    if not isinstance(photo, np.ndarray) or photo.ndim not in (2, 3) or photo.size == 0:
        raise InputError("expected a photo path or an image array (BGR or grey)")
    return photo


def __getattr__(name: str) -> Any:
    """``companion.SheetReading`` and ``companion.DiceReading``, imported when first named."""
    if name == "SheetReading":
        from companion.vision.sheet.reader import SheetReading

        return SheetReading
    if name == "DiceReading":
        from companion.vision.dice.reader import DiceReading

        return DiceReading
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
