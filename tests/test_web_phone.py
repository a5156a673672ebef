"""The phone pages at the widths phones have (360, 390 and 412 px), light and dark, in
headless Debian chromium: any field corrected from the overlay, nothing wider than the
screen, dice reasons in words, names for people, and both ways to add a photo (issue 30);
axe-core (vendored in tests/vendor) finds no serious or critical problem on any page."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.store import SeatInput, Store
from tests.history_seed import seed
from tests.web_support import COMBO, EXAMPLES, Server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("phone")
    with Store.open(data) as store:
        seed(store, 12)  # History and Standings with plays in them
        night = store.new_night("Game night 2026-01-09", date="2026-01-09")
        store.save_play("dulce", [SeatInput("Ann", 40.0, 1, True), SeatInput("Bo", 30.0, 2)],
                        night_id=night.id, tiebreak=None)
    with Server(data) as s:
        yield s


PAGES = ("", "delicious", "dice", "pads/dulce", "pads/wild-gardens", "pads/deli-duel",
         "pads/diced-veggies", "print", "history", "history/plays/1", "standings",
         "standings/dulce")
# Every element's right edge, past the screen's: what makes a page scroll sideways.
WIDER = """() => Array.from(document.querySelectorAll('body *'))
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.right > window.innerWidth + 0.5)
  .map(([e, r]) => `${e.tagName}.${e.className} ends at ${Math.round(r.right)}`)"""


AXE = Path(__file__).resolve().parent / "vendor" / "axe-core.min.js"  # tests/vendor/README.md
SERIOUS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' '))}`)"""


def _assert_accessible(page: Any) -> None:
    """No serious or critical axe-core violation on the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text())
    assert page.evaluate(SERIOUS) == [], page.url


def _assert_fits(page: Any) -> None:
    assert page.evaluate(WIDER) == [], page.url
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_every_page_fits_the_screen_and_every_tab_shows(phone: Any, server: Server) -> None:
    width = phone.viewport_size["width"]
    for path in PAGES:
        assert phone.goto(server.root + "/" + path).status == 200
        _assert_fits(phone)
        _assert_accessible(phone)
        for tab in ("Tonight", "Delicious", "Dice", "Pads", "Print", "History"):
            box = phone.locator(f".top nav a:text-is('{tab}')").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (path, tab)
            assert box["height"] >= 44  # a finger's tap
    phone.goto(server.root + "/history")
    box = phone.locator(".tabs a:text-is('Standings')").bounding_box()
    assert box and box["x"] + box["width"] <= width


def _fresh(photo: Path) -> dict[str, Any]:
    """The photo as bytes no test sent before (a JPEG ignores what follows its end): each
    phone gets a table of its own, where the same bytes would open the table they made."""
    return {"name": photo.name, "mimeType": "image/jpeg",
            "buffer": photo.read_bytes() + secrets.token_bytes(8)}


def _upload_table(page: Any, server: Server, *photos: Path) -> None:
    page.goto(server.url + "delicious")
    page.locator("input[type=file][multiple]:not([capture])").set_input_files(
        [_fresh(p) for p in photos])
    page.wait_for_selector("[data-testid=total]")


def _total(page: Any) -> int:
    return int(page.locator("[data-testid=total]").first.inner_text())


def test_a_confident_field_corrected_from_the_overlay_and_saved_with_a_problem(
        phone: Any, server: Server) -> None:
    _upload_table(phone, server, COMBO)
    assert phone.locator(".field").count() == 0  # nothing in review: every field is confident
    _assert_fits(phone)
    _assert_accessible(phone)
    assert not phone.locator("[data-testid=problems-left]").count()
    before = _total(phone)
    left = phone.locator("a.hit[data-field='garden.wheelbarrow.r0.c0']")
    beside = phone.locator("a.hit[data-field='garden.wheelbarrow.r0.c1']")
    assert left.count() == 1 and beside.count() == 1
    left_value = str(left.get_attribute("aria-label")).rsplit(": ", 1)[1]
    beside_value = str(beside.get_attribute("aria-label")).rsplit(": ", 1)[1]
    assert left_value != beside_value
    box, pic = left.bounding_box(), phone.locator(".sheetmap").first.bounding_box()
    assert box and pic and pic["x"] <= box["x"] and box["x"] + box["width"] <= pic["x"] + pic[
        "width"]
    left.tap()  # a tap on the overlay picture opens that field's card
    card = phone.locator("#fix + .field[data-field='garden.wheelbarrow.r0.c0']")
    card.wait_for()
    assert card.locator("[data-testid=field-words]").inner_text() == \
        "Wheelbarrow, bottom row, left"
    assert card.locator("img.crop").evaluate("i => i.decode().then(() => i.naturalWidth > 0)")
    # the same vegetable twice in the wheelbarrow breaks a rule
    _assert_fits(phone)
    _assert_accessible(phone)
    card.locator(f"button.choice[value='{beside_value}']").click()
    phone.wait_for_selector("[data-testid=problems-left]")
    _assert_fits(phone)
    assert phone.locator(".field.corrected[data-field='garden.wheelbarrow.r0.c0']").count()
    assert phone.locator(".problems li").count() >= 1
    assert _total(phone) != before or phone.locator(".problems li").count()
    assert not phone.locator("p.ok:has-text('Nothing left to check')").count()
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    phone.once("dialog", dismiss)
    save = phone.locator("form[action$='/save'] button")
    save.click()
    phone.wait_for_timeout(300)
    assert asked and asked[0].endswith("Save anyway?") and "rule problem" in asked[0]
    assert "/delicious" in phone.url  # not saved
    phone.once("dialog", lambda d: d.accept())
    with phone.expect_navigation():
        save.click()
    assert phone.url.split("?")[0] == server.root + "/"  # saved: back to tonight
    assert phone.locator("li.play").count() >= 1


def test_any_field_from_the_list(page: Any, server: Server) -> None:
    """The server's list of every field, on one phone: nothing here depends on the screen
    (the overlay test checks the table at every width)."""
    _upload_table(page, server, COMBO)
    select = page.locator("form.pick select").first
    options = select.locator("option")
    assert options.count() >= 90  # every field of the combo sheet
    assert "Jar of Honey" in select.inner_text()
    select.select_option(value=f"{re.sub(r'[^0-9]', '', str(select.get_attribute('id')))}"
                         ":garden.honey")
    page.locator("form.pick button").first.click()
    page.wait_for_selector("#fix + .field[data-field='garden.honey']")


def test_doubtful_dice_in_words_looks_right_and_the_verdict_waits(phone: Any,
                                                                   server: Server) -> None:
    photos = EXAMPLES / "dice/photos"
    phone.goto(server.url + "dice")
    phone.locator("form:has(input[value=before]) input[type=file]:not([capture])"
                  ).set_input_files(_fresh(photos / "pair-before.jpg"))
    phone.wait_for_selector("h2:text-is('Before the cut')")
    phone.locator("form:has(input[value=after]) input[type=file]:not([capture])"
                  ).set_input_files(_fresh(photos / "pair-after-turned.jpg"))
    wait = phone.locator("#verdict-wait")
    wait.wait_for()
    assert phone.locator("#verdict").count() == 0  # no verdict on dice still in doubt
    _assert_fits(phone)
    doubts = phone.locator("[data-testid=doubt]")
    assert doubts.count() >= 1
    said = " ".join(doubts.all_inner_texts())
    assert "colour" in said and "no-veggie-colour" not in said and "colour-near" not in said
    assert "%" not in " ".join(phone.locator("form.die-fix:not(.on-tap) p").all_inner_texts())
    _assert_accessible(phone)
    for _ in range(doubts.count()):
        with phone.expect_response(lambda r: "/dice?s=" in r.url):
            phone.locator("form.die-fix:not(.on-tap) button.looks-right").first.click()
        phone.wait_for_load_state()
    phone.locator("#verdict").wait_for()
    assert re.match(r"(Legal|Illegal) cut", phone.locator("#verdict h2").inner_text())
    assert phone.locator("#verdict-wait").count() == 0
    _assert_fits(phone)


def test_the_dice_mat_on_the_delicious_page_is_named_for_people(phone: Any,
                                                                 server: Server) -> None:
    phone.goto(server.url + "delicious")
    phone.locator("input[type=file]:not([capture])").set_input_files(
        EXAMPLES / "dice/photos/mat-full.jpg")
    error = phone.locator("#error")
    error.wait_for(state="visible")
    text = error.inner_text()
    assert "That's the Diced Veggies dice mat" in text and "Dice page" in text
    assert "diced-veggies-mat" not in text and "delicious-combo" not in text
    _assert_fits(phone)


@pytest.mark.parametrize("path", ["delicious", "dice"])
def test_every_upload_offers_the_camera_and_photos_taken_earlier(phone: Any, server: Server,
                                                                  path: str) -> None:
    phone.goto(server.url + path)
    forms = phone.locator("form.upload")
    assert forms.count() >= 1
    width = phone.viewport_size["width"]
    for i in range(forms.count()):
        form = forms.nth(i)
        camera = form.locator("input[type=file][capture=environment]")
        choose = form.locator("input[type=file]:not([capture])")
        assert camera.count() == 1 and choose.count() == 1
        assert camera.get_attribute("multiple") is None
        if path == "delicious":  # a table's sheets, several at once
            assert choose.get_attribute("multiple") is not None
        for label in ("Take a photo", "Choose"):
            button = form.locator(f"label.file:has-text('{label}')")
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
            assert box["height"] >= 48
    _assert_fits(phone)


def test_a_table_of_players_collapses_each_and_names_whose_sheet(phone: Any,
                                                                  server: Server) -> None:
    photos = EXAMPLES / "delicious/photos"
    _upload_table(phone, server, photos / "combo-tilted-shadow.jpg",
                  photos / "garden-player3.jpg", photos / "play-player3.jpg")
    players = phone.locator("section.player")
    assert players.count() == 2
    for i in range(2):
        detail = players.nth(i).locator("details.sheet-detail")
        if not players.nth(i).locator(".problems li").count():
            assert detail.get_attribute("open") is None  # folded: the table stays short
        whose = players.nth(i).locator("[data-testid=whose]")
        name = players.nth(i).locator("h2").inner_text()
        assert whose.inner_text().endswith(name)  # the whole name, not cut off
        assert whose.evaluate("e => e.scrollWidth <= e.clientWidth")
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height < 2600, height
    players.nth(0).locator("details.sheet-detail summary").click()
    assert players.nth(0).locator(".sheetmap a.hit").first.is_visible()
    _assert_fits(phone)
    _assert_accessible(phone)


def test_history_says_the_date_once_and_labels_its_date_filter(phone: Any,
                                                               server: Server) -> None:
    phone.goto(server.root + "/history")
    since = phone.locator("label[for=since]")
    assert since.inner_text() == "Played since" and since.is_visible()
    assert phone.locator("input#since[type=date]").count() == 1
    whens = phone.locator("[data-testid=when]").all_inner_texts()
    assert "Game night 2026-01-09" in whens
    assert all(w.count("2026-01-09") <= 1 for w in whens)
    _assert_fits(phone)
