"""Screenshots of play over video for docs/screens: the join page and a player's own score
at phone size (390 px, light and dark) and the host's big screen at 1280 px, before and
after the reveal. Usage: python -m tools.remote_screens [OUT_DIR]"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from tools.example_photos import photo_with_a_field_to_review
from tools.screens import CHROMIUM_ARGS, ROOT, shoot, start_server

PHOTOS = ROOT / "examples" / "delicious" / "photos"
SENT = (("Ann", "combo-good-light.jpg"), ("Bo", "combo-tilted-shadow.jpg"),
        ("Cy", "combo-upside-down-B.jpg"))
WAITING = ("Dee",)
CHOOSE = "input[type=file][multiple]:not([capture])"


def _join(browser: Any, url: str, name: str, scheme: str = "light") -> Any:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, color_scheme=scheme)
    page = ctx.new_page()
    page.set_default_timeout(180_000)
    page.goto(url)
    page.fill("#join-name", name)
    page.click(".join-add button")
    page.wait_for_url("**/join/me")
    return page


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    out = Path(argv[0]) if argv else ROOT / "docs" / "screens"
    out.mkdir(parents=True, exist_ok=True)
    exe = shutil.which("chromium")
    if exe is None:
        print("remote_screens: chromium is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        proc, url = start_server(data, "--public", "https://night.example.org")
        root = url.split("?", 1)[0].rstrip("/")
        join = f"{root}/join?t={(data / 'join-token').read_text().strip()}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
                for scheme in ("light", "dark"):
                    ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                              color_scheme=scheme)
                    page = ctx.new_page()
                    page.goto(join)
                    shoot(page, out / f"join-{scheme}.png")
                    ctx.close()
                for name, photo in SENT:
                    page = _join(browser, join, name)
                    page.locator(CHOOSE).set_input_files(PHOTOS / photo)
                    page.wait_for_selector("[data-testid=total]")
                    page.context.close()
                for name in WAITING:
                    _join(browser, join, name).context.close()
                for scheme in ("light", "dark"):
                    page = _join(browser, join, f"Eve {scheme}", scheme)
                    # the same bytes from a second player are refused as a copy of the
                    # first's sheet: a few bytes after the JPEG's end make it another file
                    photo = photo_with_a_field_to_review(Path(tmp))
                    photo.write_bytes(photo.read_bytes() + scheme.encode())
                    page.locator(CHOOSE).set_input_files(photo)
                    page.wait_for_selector("[data-testid=total]")
                    shoot(page, out / f"join-score-{scheme}.png")
                    page.context.close()
                host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                host.goto(url)
                host.goto(root + "/big")
                host.wait_for_timeout(1500)  # the first event of the stream
                shoot(host, out / "big-screen-hidden.png")
                host.click("#big-reveal-button")
                host.wait_for_function("() => !document.getElementById('big-ranking').hidden")
                shoot(host, out / "big-screen.png")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"wrote play-over-video screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
