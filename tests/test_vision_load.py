"""Loading photos: formats, EXIF orientation, and one clear error per bad file."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.errors import ImageError
from companion.vision.load import load_image


def _pattern(w: int = 60, h: int = 40) -> Image.Image:
    """Red top-left quadrant on white, so orientation is visible in the array."""
    arr = np.full((h, w, 3), 255, np.uint8)
    arr[: h // 2, : w // 2] = (255, 0, 0)
    return Image.fromarray(arr)


@pytest.mark.parametrize("fmt,suffix", [("JPEG", ".jpg"), ("PNG", ".png"), ("WEBP", ".webp")])
def test_formats_load_as_bgr(tmp_path: Path, fmt: str, suffix: str) -> None:
    path = tmp_path / f"p{suffix}"
    _pattern().save(path, fmt, quality=95) if fmt != "PNG" else _pattern().save(path, fmt)
    img = load_image(path)
    assert img.shape == (40, 60, 3) and img.dtype == np.uint8
    b, g, r = (int(v) for v in img[5, 5])
    assert r > 200 and g < 60 and b < 60  # red in BGR order
    assert img[35, 55].min() > 200


def test_heic(tmp_path: Path) -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    path = tmp_path / "p.heic"
    try:
        _pattern(64, 48).save(path, "HEIF", quality=90)
    except (KeyError, OSError) as exc:  # encoder missing in this build
        pytest.skip(f"no HEIF encoder: {exc}")
    img = load_image(path)
    assert img.shape == (48, 64, 3)
    assert img[5, 5, 2] > 180 and img[5, 5, 0] < 90


def test_exif_orientation_applied(tmp_path: Path) -> None:
    path = tmp_path / "rot.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # stored image must be rotated 90 degrees clockwise to display
    _pattern(60, 40).save(path, "JPEG", quality=95, exif=exif.tobytes())
    img = load_image(path)
    assert img.shape == (60, 40, 3)  # portrait after rotation
    # Clockwise rotation carries the red top-left quadrant to the top-right.
    assert img[5, 35, 2] > 200 and img[5, 35, 0] < 80
    assert img[5, 5].min() > 200


def test_grey_and_alpha_modes(tmp_path: Path) -> None:
    grey = tmp_path / "g.png"
    Image.new("L", (10, 8), 90).save(grey)
    assert load_image(grey).shape == (8, 10, 3)
    rgba = tmp_path / "a.png"
    Image.new("RGBA", (10, 8), (0, 0, 0, 0)).save(rgba)
    assert load_image(rgba).min() == 255  # transparent -> white paper


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")


def test_directory_and_empty(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="directory"):
        load_image(tmp_path)
    empty = tmp_path / "e.jpg"
    empty.write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image(empty)


def test_not_an_image(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("shopping list: carrots, figs\n")
    with pytest.raises(ImageError, match="not an image"):
        load_image(path)


def test_truncated_jpeg(tmp_path: Path) -> None:
    buf = io.BytesIO()
    rng = np.random.default_rng(1)
    Image.fromarray(rng.integers(0, 255, (200, 300, 3), np.uint8)).save(buf, "JPEG")
    data = buf.getvalue()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageError, match="truncated"):
        load_image(path)


def _png_claiming(w: int, h: int) -> bytes:
    """A PNG whose header claims w x h pixels but carries almost no data."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    body = struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    idat = b"IDAT" + zlib.compress(b"\x00" * 16)
    body += struct.pack(">I", len(idat) - 4) + idat + struct.pack(">I", zlib.crc32(idat))
    iend = b"IEND"
    body += struct.pack(">I", 0) + iend + struct.pack(">I", zlib.crc32(iend))
    return b"\x89PNG\r\n\x1a\n" + body


def test_huge_image_refused_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(_png_claiming(30_000, 30_000))
    with pytest.raises(ImageError, match="megapixels"):
        load_image(path)


def test_cap_is_a_parameter(tmp_path: Path) -> None:
    path = tmp_path / "p.png"
    _pattern().save(path)
    with pytest.raises(ImageError, match="limit"):
        load_image(path, max_pixels=1000)


def test_error_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "x.webp"
    path.write_bytes(b"RIFF\x00\x00\x00\x00WEBPVP8 garbage")
    with pytest.raises(ImageError) as info:
        load_image(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def _smooth_photo(w: int = 120, h: int = 90) -> Image.Image:
    """Smooth colour gradients: no sharp colour edge for the JPEG's halved colour planes."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    arr = np.stack([xx / w * 200 + 30, yy / h * 180 + 40, (xx + yy) / (w + h) * 150 + 60], -1)
    return Image.fromarray(arr.astype(np.uint8))


def test_grey_jpeg_is_the_grey_of_the_colour_photo(tmp_path: Path) -> None:
    import cv2

    from companion.vision.load import load_grey

    path = tmp_path / "p.jpg"
    _smooth_photo().save(path, "JPEG", quality=90)
    grey = load_grey(path)
    via_colour = cv2.cvtColor(load_image(path), cv2.COLOR_BGR2GRAY)
    assert grey.shape == via_colour.shape == (90, 120) and grey.dtype == np.uint8
    assert int(np.abs(grey.astype(int) - via_colour).max()) <= 2


def test_grey_other_formats_match_exactly(tmp_path: Path) -> None:
    import cv2

    from companion.vision.load import load_grey

    for name, img in (("c.png", _smooth_photo()), ("g.png", Image.new("L", (10, 8), 90)),
                      ("a.png", Image.new("RGBA", (10, 8), (0, 0, 0, 0)))):
        path = tmp_path / name
        img.save(path)
        want = cv2.cvtColor(load_image(path), cv2.COLOR_BGR2GRAY)
        assert np.array_equal(load_grey(path), want), name


def test_grey_exif_orientation_and_errors(tmp_path: Path) -> None:
    from companion.vision.load import load_grey

    path = tmp_path / "rot.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6
    _pattern(60, 40).save(path, "JPEG", quality=95, exif=exif.tobytes())
    grey = load_grey(path)
    assert grey.shape == (60, 40)
    assert grey[5, 35] < 120 and grey[5, 5] > 200  # red (dark in grey) went top-right
    cut = tmp_path / "cut.jpg"
    rng = np.random.default_rng(1)
    Image.fromarray(rng.integers(0, 255, (200, 300, 3), np.uint8)).save(cut, "JPEG")
    cut.write_bytes(cut.read_bytes()[: len(cut.read_bytes()) // 2])
    with pytest.raises(ImageError, match="truncated"):
        load_grey(cut)
    with pytest.raises(ImageError, match="no such file"):
        load_grey(tmp_path / "none.jpg")


def _pdf(path: Path, pages: list[Image.Image], dpi: float = 100.0) -> Path:
    """The pages put through a scanner: one image a page, ``dpi`` pixels an inch."""
    pages[0].save(path, "PDF", resolution=dpi, save_all=True, append_images=pages[1:])
    return path


def test_a_one_page_pdf_scan_is_drawn_at_the_reading_resolution(tmp_path: Path) -> None:
    from companion.vision.constants import SCAN_RENDER_DPI
    from companion.vision.load import load_grey

    path = _pdf(tmp_path / "scan.pdf", [_pattern(300, 200)])  # 3 x 2 inches
    img = load_image(path)
    assert img.shape == (round(2 * SCAN_RENDER_DPI), round(3 * SCAN_RENDER_DPI), 3)
    b, g, r = (int(v) for v in img[20, 20])
    assert r > 200 and g < 60 and b < 60
    assert img[-20, -20].min() > 200
    grey = load_grey(path)
    assert grey.shape == img.shape[:2] and grey[-20, -20] > 200 and grey[20, 20] < 120


def test_pdfs_that_are_not_one_readable_page(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    two = _pdf(tmp_path / "two.pdf", [_pattern(), _pattern()])
    with pytest.raises(ImageError, match="a PDF of 2 pages; give each sheet's scan"):
        load_image(two)
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(b"%PDF-1.7\nnot really")
    with pytest.raises(ImageError, match="a PDF that cannot be opened"):
        load_image(damaged)
    doc = pdfium.PdfDocument.new()
    doc.new_page(14_400, 14_400)  # 200 inches a side, the largest page PDF allows
    huge = tmp_path / "huge.pdf"
    doc.save(huge)
    with pytest.raises(ImageError, match="its page .* megapixels"):
        load_image(huge)
