"""The app's icons (favicon and the home-screen icons of the web app manifest), drawn with
Pillow so they can be remade: python -m tools.make_icons."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "companion" / "web" / "static"
GREEN, LEAF, CARROT, CREAM = (46, 125, 50), (129, 199, 132), (239, 124, 34), (246, 244, 239)


def icon(size: int) -> Image.Image:
    """A carrot on the app's green, drawn at 4x and scaled down for smooth edges."""
    s = size * 4
    img = Image.new("RGB", (s, s), GREEN)
    d = ImageDraw.Draw(img)
    d.ellipse((s * 0.08, s * 0.08, s * 0.92, s * 0.92), fill=CREAM)
    d.polygon([(s * 0.36, s * 0.38), (s * 0.64, s * 0.38), (s * 0.5, s * 0.84)], fill=CARROT)
    for dx in (-0.09, 0.0, 0.09):
        d.ellipse((s * (0.45 + dx), s * 0.16, s * (0.55 + dx), s * 0.4), fill=LEAF)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for size in (192, 512):
        icon(size).save(STATIC / f"icon-{size}.png", optimize=True)
    icon(180).save(STATIC / "apple-touch-icon.png", optimize=True)
    icon(64).save(STATIC / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48), (64, 64)])


if __name__ == "__main__":
    main()
