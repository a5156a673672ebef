"""Load a photo from disk as a BGR array, the way a phone meant it to be seen.

Pillow decodes (JPEG, PNG, WebP, and HEIC through pillow-heif) because it reads EXIF
orientation, which OpenCV's imread applies inconsistently across versions. A one-page PDF
(a sheet put through a scanner) is drawn by pdfium, which the sheets are already checked
with. Every way a file can be bad ends in one ``ImageError`` line naming the file and the
problem.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from companion.errors import ImageError
from companion.vision.constants import (
    MAX_DEEP_IMAGE_PIXELS,
    MAX_IMAGE_ASPECT,
    MAX_IMAGE_PIXELS,
    SCAN_RENDER_DPI,
)

# Pillow modes with more than 8 bits a channel.
_DEEP_MODES = frozenset({"I", "F", "I;16", "I;16B", "I;16L", "I;16N", "RGB;16", "RGBA;16"})


def shape_problem(width: int, height: int, mode: str,
                  max_pixels: int = MAX_IMAGE_PIXELS) -> str | None:
    """Why a photo of this header must not be decoded (None if it may): too many pixels,
    too deep or too thin. Read before any decoding, in the command line and the
    web alike: a small file can decode huge."""
    pixels = width * height
    if pixels > max_pixels:
        return (f"{width}x{height} is {pixels / 1e6:.0f} megapixels, more than the "
                f"{max_pixels / 1e6:.0f} MP limit; resize the photo")
    if mode in _DEEP_MODES and pixels > min(max_pixels, MAX_DEEP_IMAGE_PIXELS):
        return (f"{width}x{height} with more than 8 bits a channel is more than the "
                f"{MAX_DEEP_IMAGE_PIXELS / 1e6:.0f} MP limit for such images; save it as a "
                "JPEG")
    if max(width, height) > MAX_IMAGE_ASPECT * min(width, height):
        return (f"{width}x{height} is a strip, not a photo of a sheet or a block (sides more "
                f"than {MAX_IMAGE_ASPECT:g} to 1)")
    return None


def _register_heif() -> None:
    """Teach Pillow HEIC/HEIF (idempotent); absent plugin just means no HEIC support."""
    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
    except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
        pass


def _to_rgb(img: Image.Image) -> Image.Image:
    """Flatten any mode to 8-bit RGB; transparency is composited on white paper."""
    if img.mode == "RGB":
        return img
    if img.mode in ("RGBA", "LA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("RGB")
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        arr = np.asarray(img, dtype=np.float32)  # not float64: half the peak memory
        top = float(arr.max()) or 1.0
        arr *= 255.0 / top
        return Image.fromarray(arr.astype(np.uint8)).convert("RGB")
    return img.convert("RGB")


def load_image(path: str | os.PathLike[str], max_pixels: int = MAX_IMAGE_PIXELS) -> np.ndarray:
    """Return the photo at ``path`` as an H x W x 3 BGR uint8 array, EXIF-rotated upright.

    Raises ImageError for a missing file, a file that is not an image, a truncated image,
    or one with more than ``max_pixels`` pixels.
    """
    arr = _decode(path, max_pixels, grey=False)
    # RGB -> BGR without a cv2 import: the dice reader may load without touching OpenCV.
    return np.ascontiguousarray(arr[:, :, ::-1])


def load_grey(path: str | os.PathLike[str], max_pixels: int = MAX_IMAGE_PIXELS) -> np.ndarray:
    """The photo at ``path`` as an H x W grey uint8 array, EXIF-rotated upright; errors as
    :func:`load_image`.

    A JPEG is decoded straight to its luma channel (the decoder skips the colour planes and
    their upsampling: a 12 MP photo in 0.04 s instead of 0.24 s); the luma is the weighting
    of red, green and blue that a grey conversion computes, so a pixel differs from
    ``cvtColor(load_image(path), COLOR_BGR2GRAY)`` by rounding at most, except where the
    colour planes' lower resolution shifts it at sharp colour edges. Other formats are
    decoded in colour and converted.
    """
    arr = _decode(path, max_pixels, grey=True)
    if arr.ndim == 2:
        return arr
    import cv2

    return np.asarray(cv2.cvtColor(arr, cv2.COLOR_RGB2GRAY))


def _decode(path: str | os.PathLike[str], max_pixels: int, grey: bool) -> np.ndarray:
    """RGB (or, with ``grey`` for a JPEG, luma) uint8 array of an upright photo."""
    p = Path(path)
    name = str(path)
    if not p.exists():
        raise ImageError(f"{name}: no such file")
    if p.is_dir():
        raise ImageError(f"{name}: is a directory, not a photo")
    if p.stat().st_size == 0:
        raise ImageError(f"{name}: the file is empty")
    with p.open("rb") as f:
        if f.read(5) == b"%PDF-":
            return _scanned_page(p, name, max_pixels, grey)
    _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as img:
                w, h = img.size
                problem = shape_problem(w, h, img.mode, max_pixels)
                if problem is not None:
                    raise ImageError(f"{name}: {problem}")
                if grey and img.format == "JPEG" and img.mode in ("RGB", "L"):
                    img.draft("L", img.size)  # full size, luma only
                img.load()
                if grey and img.mode == "L":
                    return _upright_array(img)
                upright = ImageOps.exif_transpose(img)
                rgb = _to_rgb(upright if upright is not None else img)
                return np.asarray(rgb, dtype=np.uint8)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError(
            f"{name}: not an image Pillow can read (expected JPEG, PNG, WebP, HEIC or a "
            "one-page PDF scan)"
        ) from None
    except Image.DecompressionBombError:
        raise ImageError(
            f"{name}: far more than {max_pixels / 1e6:.0f} megapixels, too large to decode safely"
        ) from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        msg = str(exc).lower()
        if "truncated" in msg or "broken data" in msg or isinstance(exc, EOFError):
            raise ImageError(f"{name}: the image file is truncated or damaged") from None
        raise ImageError(f"{name}: cannot decode the image ({exc})") from None


def _scanned_page(p: Path, name: str, max_pixels: int, grey: bool) -> np.ndarray:
    """The one page of a scanned sheet's PDF, drawn at SCAN_RENDER_DPI (RGB, or grey)."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(p)
    except pdfium.PdfiumError:
        raise ImageError(f"{name}: a PDF that cannot be opened (damaged or password-protected)"
                         ) from None
    try:
        if len(pdf) != 1:
            raise ImageError(f"{name}: a PDF of {len(pdf)} pages; give each sheet's scan as a "
                             "file of its own (one page a file)")
        page = pdf[0]
        scale = SCAN_RENDER_DPI / 72  # PDF sizes are in points, 72 an inch
        w_pt, h_pt = page.get_size()
        problem = shape_problem(max(1, round(w_pt * scale)), max(1, round(h_pt * scale)),
                                "RGB", max_pixels)
        if problem is not None:
            raise ImageError(f"{name}: its page {problem}")
        try:
            bitmap = page.render(scale=scale, grayscale=grey)
        except pdfium.PdfiumError as exc:
            raise ImageError(f"{name}: the PDF's page cannot be drawn ({exc})") from None
        img = bitmap.to_pil()
        return np.asarray(img.convert("L") if grey else _to_rgb(img), dtype=np.uint8)
    finally:
        pdf.close()


def _upright_array(img: Image.Image) -> np.ndarray:
    """An 8-bit grey image as an array, turned upright by its EXIF orientation (in place:
    an upright photo is not copied)."""
    ImageOps.exif_transpose(img, in_place=True)
    return np.asarray(img, dtype=np.uint8)
