"""Screenshots of the supply page for docs/screens: a phone (390 px) and a shared screen
(1440 px), light and dark. Usage: python -m tools.supply_screens [OUT_DIR] [--seed S]"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from tools.screens import CHROMIUM_ARGS, ROOT, shoot, start_server

SIZES = {"phone": (390, 844), "wide": (1440, 900)}
SHOWN_ROUND = 4  # a round with earlier rounds below it


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    args = [a for a in argv if not a.startswith("--")]
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 42
    out = Path(args[0]) if args and "--seed" not in argv[:1] else ROOT / "docs" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    exe = shutil.which("chromium")
    if exe is None:
        print("supply_screens: chromium is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp))
        root = url.split("?", 1)[0].rstrip("/")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
                for size, (w, h) in SIZES.items():
                    for scheme in ("light", "dark"):
                        ctx = browser.new_context(viewport={"width": w, "height": h},
                                                  color_scheme=scheme)
                        page = ctx.new_page()
                        page.goto(f"{root}/supply?seed={seed}&round={SHOWN_ROUND}")
                        shoot(page, out / f"supply-{size}-{scheme}.png")
                        ctx.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"wrote supply screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
