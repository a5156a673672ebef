"""The supply page in a real browser (Debian's chromium through Playwright) against
``companion serve``: its rounds are the ones ``companion delicious supply --json`` prints."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web_support import Server

pytestmark = pytest.mark.slow
SEED = 2026
KEYS = ("vegetable", "icon", "token", "side")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("serve")) as s:
        yield s


def _cli_rounds(seed: int) -> list[dict[str, Any]]:
    out = subprocess.run([sys.executable, "-m", "companion", "delicious", "supply", "--seed",
                          str(seed), "--json"], capture_output=True, text=True, check=True)
    return [{pos: {k: r[pos][k] for k in KEYS} for pos in ("top", "bottom")}
            for r in json.loads(out.stdout)["rounds"]]


def _shown(page: Any, selector: str) -> dict[str, dict[str, str]]:
    cards = page.eval_on_selector_all(selector, "els => els.map(e => ({...e.dataset}))")
    return {c["position"]: {k: c[k] for k in KEYS} for c in cards}


@pytest.mark.parametrize("width", [390, 1440])
def test_the_page_reveals_the_rounds_the_command_deals(server, browser, width):
    expected = _cli_rounds(SEED)
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    page.goto(f"{server.root}/supply")
    page.fill("input[name=seed]", str(SEED))
    page.click("text=Set up the supply")
    assert page.locator("[data-seed]").inner_text() == str(SEED)
    assert page.locator(".reveal").count() == 0  # round 0: the decks are ready, nothing shown
    for number in range(1, 13):
        if number == 3:
            # the keys are heard once the page's deferred script has run (before
            # DOMContentLoaded), which can come after the round's heading is drawn
            page.wait_for_load_state("domcontentloaded")
            page.keyboard.press("ArrowRight")  # the host's keyboard steps too
        else:
            page.click("#next-round")
        page.wait_for_selector(f".supply-head [data-round='{number}']")
        assert _shown(page, ".reveal") == expected[number - 1], number
        earlier = page.eval_on_selector_all(".earlier li", "els => els.map(e => +e.dataset.round)")
        assert earlier == list(range(number - 1, 0, -1))
    assert page.locator("#next-round").count() == 0
    assert "All 12 rounds are out" in page.inner_text("main")
    for li in range(1, 12):  # the earlier rounds listed at the end match too
        assert _shown(page, f".earlier li[data-round='{li}'] .mini") == expected[li - 1]
    page.wait_for_load_state("domcontentloaded")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(".supply-head [data-round='11']")
    assert _shown(page, ".reveal") == expected[10]
    ctx.close()


@pytest.mark.parametrize("query", ["seed=abc", "seed=-1", "seed=9007199254740992",
                                   "seed=1&round=13", "seed=1&round=x"])
def test_a_bad_seed_or_round_is_a_400_in_words(server, query):
    res = httpx.get(f"{server.root}/supply?{query}", timeout=10)
    assert res.status_code == 400
    assert "must be" in res.text and "Traceback" not in res.text


def test_every_icon_the_page_uses_is_served(server):
    html = httpx.get(f"{server.root}/supply?seed=5&round=12", timeout=10).text
    icons = set(re.findall(r'/static/icons/[a-z-]+\.svg', html))
    assert len(icons) >= 6
    for icon in icons:
        assert httpx.get(server.root + icon, timeout=10).status_code == 200, icon
