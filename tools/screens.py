"""Screenshots of every ``companion serve`` page at phone size (390 x 844) for docs/screens.

Starts a server on a fresh data directory, plays a short evening through the pages
(players, a Delicious table of two sheets, a dice block, a score pad) and saves one PNG a
page. Needs Debian's chromium. Usage: python -m tools.screens [OUT_DIR] [--dark]
[--width=PX]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.example_photos import EXAMPLES, photo_with_a_field_to_review

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = EXAMPLES
# The file input that picks photos already taken (the other one opens the camera).
CHOOSE = "input[type=file]:not([capture])"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]


def start_server(data: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli.serve", "--data", str(data), "--port", "0",
         *extra], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline().strip()
    if not first.startswith("serving at "):
        proc.kill()
        raise SystemExit(f"the server did not start: {first!r}")
    return proc, first.removeprefix("serving at ")


IMAGES_LOADED = ("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")


def shoot(page: object, path: Path) -> None:
    """Full-page PNG once every picture on the page has arrived."""
    page.wait_for_function(IMAGES_LOADED, timeout=60_000)  # type: ignore[attr-defined]
    page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
    page.screenshot(path=path, full_page=True)  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    out = Path(next((a for a in argv if not a.startswith("--")), ROOT / "docs" / "screens"))
    dark = "--dark" in argv
    width = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--width=")), 390)
    out.mkdir(parents=True, exist_ok=True)
    exe = shutil.which("chromium")
    if exe is None:
        print("screens: chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp), "--lan", "--host", "127.0.0.1")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": width, "height": 844},
                                        device_scale_factor=1,
                                        color_scheme="dark" if dark else "light")
                suffix = "-dark" if dark else ""
                page.goto(url)
                for name in ("Ana", "Ben", "Cleo"):
                    page.fill("input[name=name][placeholder='Add a player']", name)
                    page.click("form[action='/players/add'] button")
                    page.wait_for_selector(f"input[value='{name}']")
                page.goto(url.split("?")[0] + "delicious")
                shoot(page, out / f"delicious-upload{suffix}.png")
                page.set_input_files(CHOOSE, [
                    photo_with_a_field_to_review(Path(tmp)),
                    PHOTOS / "delicious/photos/combo-good-light.jpg"])
                page.wait_for_selector(".progress:not([hidden])")
                page.screenshot(path=out / f"delicious-reading{suffix}.png")
                page.wait_for_selector("#ranking", timeout=60_000)
                for i, name in enumerate(("Ana", "Ben")):
                    page.select_option(f"form.autosubmit select >> nth={i}", label=name)
                    page.wait_for_selector(f"#ranking td:text-is('{name}')")
                shoot(page, out / f"delicious{suffix}.png")
                first = page.locator("section.player").first
                if first.locator("details.sheet-detail[open]").count() == 0:
                    first.locator("details.sheet-detail summary").click()
                first.locator("a.hit[data-field='garden.wheelbarrow.r0.c0']").click()
                page.wait_for_selector("#fix")
                page.wait_for_function(IMAGES_LOADED, timeout=60_000)
                page.screenshot(path=out / f"delicious-fix{suffix}.png")
                page.locator(".field button:text-is('blueberry')").first.click()  # the erased B
                page.wait_for_selector(".field.corrected")
                page.wait_for_function(IMAGES_LOADED, timeout=60_000)
                page.locator(".field.corrected").first.scroll_into_view_if_needed()
                page.screenshot(path=out / f"delicious-corrected{suffix}.png")
                page.on("dialog", lambda d: d.accept())  # "Save anyway?" if a rule is broken
                page.click("button:has-text('Save to tonight')")
                page.wait_for_url("**/")
                root = url.split("?")[0]
                page.goto(root + "dice")
                page.set_input_files("form:has(input[value=block]) " + CHOOSE,
                                     PHOTOS / "dice/photos/table-full.jpg")
                page.wait_for_selector(".cuts", timeout=60_000)
                page.click(".cut >> nth=2")
                page.wait_for_selector("#takes")
                shoot(page, out / f"dice{suffix}.png")
                page.goto(root + "dice")
                page.set_input_files("form:has(input[value=before]) " + CHOOSE,
                                     PHOTOS / "dice/photos/pair-before.jpg")
                page.wait_for_selector("h2:text-is('Before the cut')", timeout=60_000)
                page.set_input_files("form:has(input[value=after]) " + CHOOSE,
                                     PHOTOS / "dice/photos/pair-after-turned.jpg")
                page.wait_for_selector("#verdict-wait, #verdict", timeout=60_000)
                shoot(page, out / f"dice-check{suffix}.png")
                page.goto(root + "pads/wild-gardens")
                for i, (n, pol) in enumerate((("Ana", "47"), ("Ben", "45"))):
                    page.fill(f"input[name=name{i}]", n)
                    page.fill(f"input[name=pollinator{i}]", pol)
                    page.fill(f"input[name=jar{i}]", "16")
                page.click("button[value=score]")
                page.wait_for_selector("#result")
                shoot(page, out / f"pad{suffix}.png")
                page.click("button[value=save]")
                page.wait_for_url("**/")
                shoot(page, out / f"tonight{suffix}.png")
                page.goto(root + "print")
                shoot(page, out / f"print{suffix}.png")
                for name in ("history", "standings"):
                    page.goto(root + name)
                    shoot(page, out / f"{name}{suffix}.png")
                page.goto(root)
                page.locator("li.play a:text-is('Share')").last.click()  # the Delicious table
                page.wait_for_selector("#share")
                page.evaluate("window.scrollTo(0, 0)")  # the ranking above the share card
                page.screenshot(path=out / f"share{suffix}.png")
                page.goto(root + "delicious")
                page.route("**/delicious/upload", lambda route: route.abort("internetdisconnected"))
                page.set_input_files(CHOOSE, PHOTOS / "delicious/photos/combo-good-light.jpg")
                page.wait_for_selector("form.upload .retry:not([hidden])")
                page.screenshot(path=out / f"upload-retry{suffix}.png")
                page.unroute("**/delicious/upload")
                page.goto(root + "history")
                page.wait_for_function("navigator.serviceWorker.controller !== null")
                page.context.set_offline(True)
                page.goto(root + "standings")  # the worker's stand-in page
                page.wait_for_selector("h1:text-is('The Wi-Fi dropped')")
                page.screenshot(path=out / f"offline{suffix}.png")
                page.context.set_offline(False)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"wrote screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
