"""Play over video in Debian's chromium (issue 31), against ``companion serve --public``
reached from this machine: a remote player at phone size (390 px) joins by the link, says
who they are, sends a sheet and answers its question; the host's big screen follows
without a reload. (The supply page's rounds against ``supply --json``:
tests/test_supply_browser.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_web_phone import _assert_accessible, _assert_fits
from tests.web_support import COMBO, EXAMPLES, Server
from tools.example_photos import photo_with_a_field_to_review

pytestmark = pytest.mark.slow
CHOOSE = "input[type=file][multiple]:not([capture])"
READ_MS = 120_000
TILTED = EXAMPLES / "delicious/photos/combo-tilted-shadow.jpg"  # another player's combo


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("remote"), "--public", "https://night.example.org") as s:
        yield s


def _join_url(server: Server) -> str:
    return f"{server.root}/join?t={(server.data / 'join-token').read_text().strip()}"


def _phone(browser: Any, scheme: str = "light", width: int = 390, axe: bool = False) -> Any:
    """A phone; with ``axe`` it ignores the pages' Content-Security-Policy, which refuses
    the inline axe-core script (the flows run under the policy, as the players' do)."""
    ctx = browser.new_context(viewport={"width": width, "height": 844}, has_touch=True,
                              is_mobile=True, color_scheme=scheme, bypass_csp=axe)
    page = ctx.new_page()
    page.set_default_timeout(READ_MS)
    return page


def _join_and_send(page: Any, server: Server, name: str, photo: Path) -> None:
    page.goto(_join_url(server))
    page.fill("#join-name", name)
    page.click(".join-add button")
    page.wait_for_url("**/join/me")
    page.locator(CHOOSE).set_input_files(photo)
    page.wait_for_selector("[data-testid=total]")


def test_join_name_upload_own_score_and_question(browser, server, tmp_path):
    page = _phone(browser)
    page.goto(_join_url(server))
    _assert_fits(page)
    assert page.locator(".top nav").count() == 0  # none of the host's pages
    _join_and_send(page, server, "Ann", photo_with_a_field_to_review(tmp_path))
    assert page.locator("h1").inner_text() == "Ann"
    assert page.locator("[data-testid=questions]").inner_text() == "Please check 1 field"
    assert page.locator("[data-testid=breakdown] dt").count() >= 6
    field = page.locator(".field").first
    assert field.locator("img.crop").evaluate("i => i.decode().then(() => i.naturalWidth > 0)")
    _assert_fits(page)
    field.locator("button.choice").first.tap()  # the answer, in place
    page.wait_for_selector("[data-testid=no-questions], .field.corrected")
    assert page.locator("[data-testid=questions]").count() == 0
    assert page.url.endswith("/join/me")
    # the host's pages stay shut to this phone
    assert page.goto(server.root + "/history").status == 403
    page.context.close()


def test_the_big_screen_follows_a_new_sheet_without_reloading(browser, server):
    host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    host.set_default_timeout(READ_MS)
    host.goto(server.url)  # the host link, from this machine
    host.goto(server.root + "/big")
    host.evaluate("window.sameDocument = 'yes'")
    assert "Bo" not in host.locator("#big-players").inner_text()
    assert host.locator("#big-ranking").is_hidden()
    phone = _phone(browser, "dark")
    _join_and_send(phone, server, "Bo", COMBO)
    host.wait_for_function("""() => Array.from(document.querySelectorAll('.big-player'))
        .some(li => li.textContent.startsWith('Bo') && li.classList.contains('scored'))""")
    assert host.evaluate("window.sameDocument") == "yes"  # no reload
    host.click("#big-reveal-button")
    host.wait_for_function("() => !document.getElementById('big-ranking').hidden")
    assert "Bo" in host.locator("#big-ranking").inner_text()
    phone.reload()
    assert "Bo" in phone.locator("#ranking").inner_text()  # the player sees it once revealed
    phone.context.close()
    host.context.close()


def test_the_remote_pages_fit_every_phone_and_pass_axe(browser, server):
    page = _phone(browser, axe=True)
    _join_and_send(page, server, "Cy", TILTED)  # Bo sent COMBO: Cy's sheet is her own
    for width in (360, 390, 412):
        for scheme in ("light", "dark"):
            page.set_viewport_size({"width": width, "height": 844})
            page.emulate_media(color_scheme=scheme)
            for path in ("/join", "/join/me"):
                page.goto(server.root + path)
                _assert_fits(page)
                _assert_accessible(page)
    big = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    host = big.new_page()
    host.goto(server.url)
    host.goto(server.root + "/big")
    _assert_accessible(host)
    big.close()
    page.context.close()
