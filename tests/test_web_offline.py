"""A dropped Wi-Fi, an upload sent again and a finished table shared (issue 30, "Beyond"),
at 360, 390 and 412 px, light and dark, in headless Debian chromium: the "Reconnecting"
banner comes and goes, the service worker's offline page stands in for a page and opens
it once the server is back, an upload whose answer was lost is sent again and kept once,
and a saved play offers its picture (PNG) and an "Add to BG Stats" link with its data;
axe-core finds no serious or critical problem on the pages changed."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest

from companion.store import SeatInput, Store
from companion.store.export import BGSTATS_PUSH
from tests.test_web_phone import _assert_accessible, _fresh
from tests.test_web_phone import _assert_fits as _fits
from tests.web_support import COMBO, READ_TIMEOUT_MS, WIDTHS, Server

pytestmark = pytest.mark.slow
PROBE_WAIT_MS = 15_000  # app.js looks for the server every 2 s


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("offline")
    with Store.open(data) as store:
        night = store.new_night("Friday", date="2026-01-09")
        store.save_play("dulce", [SeatInput("Ann", 40.0, 1, True), SeatInput("Bo", 30.0, 2)],
                        night_id=night.id)
    with Server(data) as s:
        yield s


def _first_phone(phone: Any) -> bool:
    return bool(phone.viewport_size["width"] == WIDTHS[0]
                and phone.evaluate("matchMedia('(prefers-color-scheme: light)').matches"))


def test_offline_shows_reconnecting_and_back_online_clears_it(phone: Any,
                                                               server: Server) -> None:
    phone.goto(server.root + "/")
    banner = phone.locator("#reconnecting")
    assert banner.is_hidden()
    phone.context.set_offline(True)
    banner.wait_for(state="visible")
    assert "Reconnecting" in banner.inner_text()
    _fits(phone)
    _assert_accessible(phone)
    phone.context.set_offline(False)
    banner.wait_for(state="hidden", timeout=PROBE_WAIT_MS)


def test_a_request_that_finds_no_server_shows_reconnecting_until_it_answers(
        page: Any, server: Server) -> None:
    """The phone says it is online, but the server cannot be reached (the Wi-Fi is up,
    the laptop is not): a failed form shows the banner; it clears once /alive answers. On
    one phone: the banner at every width is the test above."""
    page.goto(server.root + "/")
    down = {"on": True}

    def alive(route: Any) -> None:
        if down["on"]:
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route("**/alive", alive)
    page.route("**/players/add", lambda route: route.abort("connectionrefused"))
    page.fill("input[name=name][placeholder='Add a player']", "Cleo")
    page.click("form[action='/players/add'] button")
    banner = page.locator("#reconnecting")
    banner.wait_for(state="visible")
    page.wait_for_timeout(2500)  # a probe or two, refused: still shown
    assert banner.is_visible()
    down["on"] = False
    banner.wait_for(state="hidden", timeout=PROBE_WAIT_MS)


def test_the_service_worker_stands_in_for_a_page_and_caches_no_page(phone: Any,
                                                                     server: Server) -> None:
    phone.goto(server.root + "/history")
    phone.wait_for_function("navigator.serviceWorker.controller !== null")
    kept = phone.evaluate("""async () => {
        const out = [];
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const req of await cache.keys()) out.push(new URL(req.url).pathname);
        }
        return out; }""")
    assert "/static/offline.html" in kept and "/static/app.css" in kept
    assert all(p.startswith("/static/") or p == "/favicon.ico" for p in kept), kept
    phone.context.set_offline(True)
    phone.goto(server.root + "/history/plays/1")  # not the browser's error page
    phone.locator("h1:text-is('The Wi-Fi dropped')").wait_for()
    assert phone.locator("#reconnecting").is_visible()
    _fits(phone)
    _assert_accessible(phone)
    phone.context.set_offline(False)
    phone.locator("#share").wait_for(timeout=PROBE_WAIT_MS)  # the page asked for, by itself
    assert phone.url.endswith("/history/plays/1")


def _photos_kept(server: Server) -> int:
    with Store.open(server.data) as store:
        return sum(len(store.photos(s.id)) for n in store.nights()
                   for s in store.scorings(n.id, "delicious"))


def _retried(phone: Any, server: Server) -> None:
    """The photo picked, the upload failed: kept and shown waiting, then sent again by
    itself once the server answers."""
    phone.locator("input[type=file][multiple]:not([capture])").set_input_files(_fresh(COMBO))
    retry = phone.locator("form.upload .retry")
    retry.wait_for(state="visible")
    assert "Not sent yet: 1 photo" in retry.inner_text()
    assert phone.locator("#reconnecting").is_visible()
    _fits(phone)
    _assert_accessible(phone)
    phone.wait_for_selector("[data-testid=total]", timeout=READ_TIMEOUT_MS)  # sent again
    assert phone.locator("section.player").count() == 1
    assert phone.locator("#reconnecting").is_hidden()


def test_an_upload_that_fails_once_is_sent_again_and_kept_once(page: Any,
                                                                   server: Server) -> None:
    before = _photos_kept(server)
    tries: list[str] = []

    def fail_once(route: Any) -> None:
        tries.append(route.request.method)
        if len(tries) == 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.goto(server.root + "/delicious")
    page.route("**/delicious/upload", fail_once)
    _retried(page, server)
    assert tries == ["POST", "POST"]
    assert _photos_kept(server) == before + 1  # the score arrived once


def test_an_upload_the_server_was_too_busy_for_is_sent_again_when_it_says(
        page: Any, server: Server) -> None:
    before = _photos_kept(server)
    tries: list[str] = []

    def busy_once(route: Any) -> None:
        tries.append(route.request.method)
        if len(tries) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={
                "error": "busy: 24 photos are waiting to be read; try again in 1 s"})
        else:
            route.continue_()

    page.goto(server.root + "/delicious")
    page.route("**/delicious/upload", busy_once)
    page.locator("input[type=file][multiple]:not([capture])").set_input_files(_fresh(COMBO))
    retry = page.locator("form.upload .retry")
    retry.wait_for(state="visible")
    assert "Sending again in 1 s" in retry.inner_text()
    page.wait_for_selector("[data-testid=total]")
    assert tries == ["POST", "POST"] and _photos_kept(server) == before + 1


# The first upload reaches the server (which keeps the photo), but its answer is lost on
# the way back: the page's request is sent by fetch and then reported failed.
LOSE_FIRST_ANSWER = """(() => {
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.target = url; return open.call(this, method, url, ...rest); };
  XMLHttpRequest.prototype.send = function (body) {
    if (window.lostAnswer === undefined && body instanceof FormData) {
      window.lostAnswer = null;
      fetch(this.target, {method: "POST", body, headers: {Accept: "application/json"}})
        .then(r => r.text()).then(doc => {
          sessionStorage.setItem("lostAnswer", doc); this.onerror(); });
      return;
    }
    return send.call(this, body);
  };
})()"""


def test_an_upload_whose_answer_was_lost_is_sent_again_and_kept_once(
        page: Any, server: Server) -> None:
    """The page is the one above; what differs is the server's answer to the retry."""
    before = _photos_kept(server)
    page.goto(server.root + "/delicious")
    page.evaluate(LOSE_FIRST_ANSWER)
    _retried(page, server)
    lost = json.loads(page.evaluate("sessionStorage.getItem('lostAnswer')"))
    assert page.url.endswith(lost["location"])  # the retry answered with the first table
    assert _photos_kept(server) == before + 1  # kept by the first, not again by the retry


def _bgstats(phone: Any) -> dict[str, Any]:
    href = str(phone.locator("[data-testid=bgstats]").get_attribute("href"))
    assert href.startswith(BGSTATS_PUSH)
    doc = json.loads(unquote(href.removeprefix(BGSTATS_PUSH)))
    assert isinstance(doc, dict)
    return doc


def _png_size(phone: Any, url: str) -> tuple[int, int, int]:
    from PIL import Image

    res = phone.request.get(url)
    assert res.status == 200 and res.headers["content-type"] == "image/png"
    data = res.body()
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return len(data), img.width, img.height


SHARED = """() => new Promise(resolve => {
  navigator.canShare = (d) => Array.isArray(d.files) && d.files.length > 0;
  navigator.share = async (d) => resolve(d.files.map(f => [f.name, f.type, f.size]));
  document.querySelector('button[data-share]').click();
})"""


def test_a_saved_play_shares_its_picture_and_opens_bg_stats(phone: Any,
                                                            server: Server) -> None:
    phone.goto(server.root + "/")
    phone.locator("li.play a:text-is('Share')").first.click()
    phone.wait_for_url("**/history/plays/*#share")
    button = phone.locator("button[data-share]")
    assert button.is_visible()
    _fits(phone)
    _assert_accessible(phone)
    image = str(phone.locator("a.download").get_attribute("href"))
    size, width, height = _png_size(phone, server.root + image)
    assert 5_000 < size < 1_000_000 and width == 1080 and 300 < height < 2000
    # the phone's share sheet gets the picture as a file
    ((name, kind, nbytes),) = phone.evaluate(SHARED)
    assert name.endswith(".png") and kind == "image/png" and nbytes == size
    # a browser without a share sheet for files downloads it
    phone.evaluate("navigator.canShare = undefined")
    with phone.expect_download() as download:
        button.click()
    assert download.value.suggested_filename == name
    doc = _bgstats(phone)
    assert doc["game"]["name"] and doc["playDate"].count(":") == 2
    assert {(p["name"], p["rank"], p["winner"]) for p in doc["players"]} >= {
        ("Ann", 1, True)}


def test_a_finished_delicious_table_shares_ranking_and_overlays(phone: Any,
                                                                server: Server) -> None:
    phone.goto(server.root + "/delicious")
    phone.locator("input[type=file][multiple]:not([capture])").set_input_files(_fresh(COMBO))
    phone.wait_for_selector("[data-testid=total]")
    total = int(phone.locator("[data-testid=total]").first.inner_text())
    table = phone.url
    phone.once("dialog", lambda d: d.accept())
    with phone.expect_navigation():
        phone.locator("form[action$='/save'] button").click()
    phone.goto(table)
    share = phone.locator("#share")
    share.wait_for()
    _fits(phone)
    _assert_accessible(phone)
    doc = _bgstats(phone)
    assert doc["game"] == {"name": "Delicious", "highestWins": True, "noPoints": False,
                           "sourceGameId": "delicious"}
    assert [(p["score"], p["rank"], p["winner"]) for p in doc["players"]] == [
        (total, 1, True)]
    if _first_phone(phone):  # the picture is drawn by the server, the same on every phone
        image = str(share.locator("a.download").get_attribute("href"))
        size, width, height = _png_size(phone, server.root + image)
        assert 20_000 < size < 3_000_000 and width == 1080
        assert height > 600  # the ranking and the sheet's overlay under it
