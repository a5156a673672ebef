"""The history and standings pages in a real browser (Debian chromium, phone viewport)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import SeatInput, Store
from tests.history_seed import seed

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
ROOT = Path(__file__).resolve().parents[1]


def _jpeg() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 120, 40)).save(buf, "JPEG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    data = tmp_path_factory.mktemp("web-history")
    with Store.open(data) as s:
        seed(s, 50)
        night = s.current_night()
        scoring = s.new_scoring("delicious", night.id)
        _, reading = s.add_photo(_jpeg(), "image/jpeg", 64, 48, scoring_id=scoring.id,
                                 reading=("delicious-sheet", {"photo": "ann.jpg"}))
        assert reading is not None
        s.correct(reading.id, "garden.teapot.first-potter", None)
        s.correct(reading.id, "garden.boots.r0.c0", "carrot")
        s.undo_correction(reading.id)
        play = s.save_play("delicious", [SeatInput("Ann", 44, 1, True), SeatInput("Bo", 40, 2)],
                           night_id=night.id, scoring_id=scoring.id, tiebreak=None)
    from companion.cli import SUBCOMMANDS

    serve = ["-m", "companion", "serve"] if "serve" in SUBCOMMANDS else [
        "-m", "companion.cli.serve"]
    proc = subprocess.Popen([sys.executable, *serve, "--data", str(data), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    match = re.match(r"serving at (http://\S+?)/?$", first.strip())
    assert match, first + (proc.stderr.read() if proc.stderr else "")
    try:
        yield match.group(1), play.id
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def page(browser: object, server: tuple[str, int]) -> Iterator[object]:
    base = server[0]
    ctx = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    pg = ctx.new_page()
    outside: list[str] = []

    def only_ours(route: object) -> None:
        url = route.request.url  # type: ignore[attr-defined]
        if url.startswith(base):
            route.continue_()  # type: ignore[attr-defined]
        else:
            outside.append(url)
            route.abort()  # type: ignore[attr-defined]

    pg.route("**/*", only_ours)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    assert outside == [], "the pages must work offline"
    assert errors == []
    ctx.close()


def _fits(pg: object) -> bool:
    return bool(pg.evaluate(  # type: ignore[attr-defined]
        "document.querySelector('main').scrollWidth <= window.innerWidth"))


def test_history_lists_filters_and_opens_a_play(page: object, server: tuple[str, int]) -> None:
    base, play_id = server
    pg = page
    pg.goto(f"{base}/history")  # type: ignore[attr-defined]
    assert "100 a page" in pg.inner_text("#count")  # type: ignore[attr-defined]
    items = pg.locator("#history li")  # type: ignore[attr-defined]
    assert items.count() == 100
    assert "Delicious" in items.first.inner_text() and "won by Ann" in items.first.inner_text()
    assert _fits(pg)
    pg.select_option("select[name=game]", "dulce")  # type: ignore[attr-defined]
    pg.click("form.filters button")  # type: ignore[attr-defined]
    pg.wait_for_url(re.compile(r"game=dulce"))  # type: ignore[attr-defined]
    titles = pg.locator("#history .play-head > strong").all_inner_texts()  # type: ignore
    assert titles and set(titles) == {"Dulce"}
    pg.goto(f"{base}/history")  # type: ignore[attr-defined]
    pg.click(f"a[href='/history/plays/{play_id}']")  # type: ignore[attr-defined]
    pg.wait_for_url(f"**/history/plays/{play_id}")  # type: ignore[attr-defined]
    assert pg.locator("#seats tbody tr").count() == 2  # type: ignore[attr-defined]
    img = pg.locator("#pictures img").first  # type: ignore[attr-defined]
    img.scroll_into_view_if_needed()
    pg.wait_for_function("document.querySelector('#pictures img').naturalWidth > 0")  # type: ignore
    assert img.evaluate("i => i.naturalWidth") == 64
    fixes = pg.locator(".corrections li").all_inner_texts()  # type: ignore[attr-defined]
    assert fixes == ["garden.teapot.first-potter → empty", "garden.boots.r0.c0 → carrot (undone)"]
    assert pg.locator("a", has_text="overlay").get_attribute("href").endswith(".jpg")  # type: ignore
    assert _fits(pg)


def test_standings_pages_draw_the_chart(page: object, server: tuple[str, int]) -> None:
    base, _ = server
    pg = page
    pg.goto(f"{base}/standings")  # type: ignore[attr-defined]
    cards = pg.locator(".standings-card")  # type: ignore[attr-defined]
    assert cards.count() == 6 and cards.last.get_attribute("data-game") == "overall"
    assert pg.locator("#score-chart").count() == 0  # type: ignore[attr-defined]
    pg.click(".standings-card[data-game=dulce] h2 a")  # type: ignore[attr-defined]
    pg.wait_for_url("**/standings/dulce")  # type: ignore[attr-defined]
    pg.wait_for_selector("#score-chart[data-ready]")  # type: ignore[attr-defined]
    drawn = pg.evaluate("""() => {
        const c = document.getElementById('score-chart');
        const chart = Chart.getChart(c);
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let ink = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i] > 0) ink++;
        return {sets: chart.data.datasets.map(d => d.label), labels: chart.data.labels.length,
                ink: ink, version: Chart.version,
                rows: document.querySelectorAll('.standings tbody tr').length};
    }""")
    assert drawn["version"] == "4.6.1"
    assert drawn["sets"] == sorted(drawn["sets"]) and len(drawn["sets"]) == drawn["rows"] >= 4
    assert drawn["labels"] >= 10 and drawn["ink"] > 5000
    assert _fits(pg)
    pg.goto(f"{base}/standings/chess")  # type: ignore[attr-defined]
    assert "unknown game" in pg.inner_text("#error")  # type: ignore[attr-defined]
