"""Write the web pages' icons (the sheets' own art as SVG) into companion/web/static/icons.

Run after changing layouts/art: ``python -m tools.web_icons``; tests/test_web_icons.py
fails while the files and the art differ.
"""

from __future__ import annotations

from pathlib import Path

from layouts.svg_icons import icon_svgs

ICON_DIR = Path(__file__).resolve().parents[1] / "companion" / "web" / "static" / "icons"


def main() -> None:
    ICON_DIR.mkdir(parents=True, exist_ok=True)
    for name, svg in icon_svgs().items():
        (ICON_DIR / name).write_text(svg, encoding="utf-8")
    print(f"wrote {len(icon_svgs())} icons to {ICON_DIR}")


if __name__ == "__main__":
    main()
