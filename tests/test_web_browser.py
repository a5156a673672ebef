"""The game-night pages in a real browser: headless Debian chromium at a phone viewport,
driven by Playwright, against ``companion serve`` running in a subprocess."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web_support import (
    EXAMPLES,
    Server,
    alive,
    children,
)
from tools.example_photos import photo_with_a_field_to_review, sketched_sheet_photo
from tools.screens import CHOOSE  # the screenshots' flags

pytestmark = pytest.mark.slow
DELICIOUS = sorted((EXAMPLES / "delicious" / "photos").glob("*.jpg"))
DICE = sorted((EXAMPLES / "dice" / "photos").glob("*.jpg"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("serve")) as s:
        yield s


def _totals(page: Any) -> list[int]:
    return [int(t) for t in page.locator("[data-testid=total]").all_inner_texts()]


def test_every_delicious_photo_through_the_file_input(page: Any, server: Server) -> None:
    page.goto(server.url + "delicious")
    file_input = page.locator(CHOOSE)
    assert file_input.get_attribute("accept") == "image/*"
    assert file_input.get_attribute("multiple") is not None  # photos taken earlier, at once
    camera = page.locator("input[type=file][capture=environment]")
    assert camera.count() == 1 and camera.get_attribute("accept") == "image/*"
    file_input.set_input_files(DELICIOUS)
    page.wait_for_selector("#ranking")
    # garden-player3 and play-player3 carry one code: five photos, four players
    assert len(_totals(page)) == 4
    api = httpx.post(server.root + "/api/delicious/read", timeout=120, files=[
        ("photo", (p.name, p.read_bytes(), "image/jpeg")) for p in DELICIOUS]).json()
    assert sorted(_totals(page)) == sorted(d["score"]["total"] for d in api["players"])
    for img in page.locator("img.overlay").all():
        assert img.evaluate("i => i.decode().then(() => i.naturalWidth > 0)")


def test_correct_a_review_field_rescores_and_undo_restores(page: Any, server: Server,
                                                           tmp_path: Path) -> None:
    page.goto(server.url + "delicious")
    page.locator(CHOOSE).set_input_files(photo_with_a_field_to_review(tmp_path))
    progress = page.locator(".progress")
    progress.wait_for(state="visible")  # shown while the photo uploads and is read
    assert "Uploading" in progress.inner_text() or "Reading" in progress.inner_text()
    page.wait_for_selector(".field")
    before = _totals(page)[0]
    field = page.locator(".field").first
    fid = field.get_attribute("data-field")
    assert field.locator("img.crop").evaluate("i => i.decode().then(() => i.naturalWidth > 0)")
    field.locator("button.choice:not(.chosen)").first.click()  # another value than read
    page.wait_for_selector(f".field.corrected[data-field='{fid}']")
    after = _totals(page)[0]
    assert after != before
    page.locator("button:has-text('Undo last correction')").click()
    page.wait_for_selector(f".field:not(.corrected)[data-field='{fid}']")
    assert _totals(page)[0] == before


def test_bad_upload_gets_one_line_and_changes_nothing(page: Any, server: Server,
                                                      tmp_path: Path) -> None:
    fake = tmp_path / "sheet.jpg"
    fake.write_text("not a photo at all")
    page.goto(server.url + "delicious")
    page.locator(CHOOSE).set_input_files(fake)
    error = page.locator("#error")
    error.wait_for(state="visible")
    text = error.inner_text()
    assert "not a photo" in text and "\n" not in text.strip()
    assert "Traceback" not in page.content()
    assert page.url.endswith("/delicious")


def _dice_truth(photo: Path) -> dict[str, Any]:
    """The true block beside an example photo; the before/after pair shares pair.json."""
    own = photo.with_suffix(".json")
    if own.exists():
        return dict(json.loads(own.read_text()))
    side = photo.stem.removeprefix("pair-").split("-")[0]  # before, after
    return dict(json.loads((photo.parent / "pair.json").read_text())[side])


@pytest.mark.parametrize("photo", DICE, ids=[p.stem for p in DICE])
def test_every_dice_photo_reads_and_shows_cuts(page: Any, server: Server, photo: Path) -> None:
    page.goto(server.url + "dice")
    page.locator("form:has(input[value=block]) " + CHOOSE).set_input_files(photo)
    page.wait_for_selector("section.card h2:text-is('The block')")
    truth = _dice_truth(photo)
    summary = page.locator("section.card p.muted.small").first.inner_text()
    assert f"{len(truth['dice'])} dice" in summary
    hits = page.locator(".diemap .hit")
    assert hits.count() == len(truth["dice"])
    first = page.locator(".diemap").first.bounding_box()
    for box in (hits.nth(i).bounding_box() for i in range(hits.count())):
        assert box is not None and first is not None
        assert first["x"] - 1 <= box["x"] and box["x"] + box["width"] <= first["x"] + first[
            "width"] + 1
    if page.locator(".cut").count():
        page.locator(".cut").first.click()
        takes = page.locator("#takes")
        takes.wait_for()
        assert re.search(r"= \d+ pips", takes.inner_text())
    else:  # a block with no legal cut or one that is not connected says so
        assert page.locator(".error, .ok, h3").count()


def test_dice_before_after_verdict_and_correction(page: Any, server: Server) -> None:
    page.goto(server.url + "dice")
    page.locator("form:has(input[value=before]) " + CHOOSE).set_input_files(
        EXAMPLES / "dice/photos/table-full.jpg")
    page.wait_for_selector("h2:text-is('Before the cut')")
    page.locator("form:has(input[value=after]) " + CHOOSE).set_input_files(
        EXAMPLES / "dice/photos/table-after-cuts.jpg")
    verdict = page.locator("#verdict-wait")  # dice in doubt: the verdict waits for them
    verdict.wait_for()
    page.wait_for_load_state("load")  # the stylesheet applied: hidden forms are hidden
    assert page.locator("#verdict").count() == 0
    # the after photo has dice in review (examples/dice/photos): confirm the first one
    fix = page.locator("form.die-fix:not(.on-tap)")
    in_review = fix.count()
    assert in_review >= 1 and fix.first.is_visible()
    assert page.locator("form.die-fix.on-tap").first.is_hidden()
    with page.expect_navigation():
        fix.first.locator("button.choice.chosen").click()  # confirm what was read
    page.wait_for_selector("button:has-text('Undo last correction')")
    assert page.locator("form.die-fix:not(.on-tap)").count() == in_review - 1
    assert "1 die set by hand" in page.content()
    page.locator("#verdict-wait").wait_for()
    with page.expect_navigation():  # the undo reloads the page: tap the new one
        page.locator("button:has-text('Undo last correction')").click()
    assert page.locator("form.die-fix:not(.on-tap)").count() == in_review
    # any die can be corrected by tapping it on the photo
    hit = page.locator("#verdict-wait ~ section .diemap .hit:not(.doubt)").first
    target = hit.get_attribute("href")
    assert target
    hit.tap()
    form = page.locator(target)
    form.wait_for(state="visible")
    form.locator("button.choice:not(.chosen)").first.click()
    page.wait_for_selector("text=1 die set by hand")


def test_restart_finds_the_night_intact(browser: Any, tmp_path: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    first = Server(tmp_path).start()
    try:
        page.goto(first.url)
        for name in ("Ana", "Ben"):
            page.fill("input[placeholder='Add a player']", name)
            page.click("form[action='/players/add'] button")
            page.wait_for_selector(f"input[value='{name}']")
        page.goto(first.root + "/pads/deli-duel")
        page.fill("input[name=name0]", "Ana")
        page.fill("input[name=completed_orders0]", "5")
        page.fill("input[name=name1]", "Ben")
        page.fill("input[name=completed_orders1]", "1")
        page.click("button[value=save]")
        page.wait_for_selector("li.play")
    finally:
        workers = children(first.proc.pid) if first.proc is not None else []
        if first.proc is not None:
            first.proc.kill()  # no clean shutdown: what the page said was saved must stay
            first.proc.wait()
            first.proc = None
    deadline = time.monotonic() + 20
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert workers and not any(alive(w) for w in workers)  # readers leave with the server
    second = Server(tmp_path).start()
    try:
        page.goto(second.url)
        assert page.locator("input[value='Ana']").count() == 1
        assert page.locator("input[value='Ben']").count() == 1
        play = page.locator("li.play")
        assert play.count() == 1 and "won by Ana" in play.inner_text()
    finally:
        second.stop()
        ctx.close()


def test_lan_mode_needs_the_token(browser: Any, tmp_path: Path) -> None:
    lan = Server(tmp_path, "--lan", "--host", "127.0.0.1").start()
    try:
        assert "?t=" in lan.url
        assert httpx.get(lan.root + "/").status_code == 403
        assert httpx.get(lan.root + "/?t=wrong").status_code == 403
        assert httpx.post(lan.root + "/api/dice/read").json()["error"]
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        assert page.goto(lan.root + "/").status == 403
        assert page.goto(lan.url).status == 200
        assert page.locator(".join .qr svg").count() == 1
        assert page.goto(lan.root + "/print").status == 200  # the cookie carries the token
        ctx.close()
    finally:
        lan.stop()


def test_a_question_is_answered_with_one_tap_for_its_whole_group(page: Any, server: Server,
                                                                 tmp_path: Path) -> None:
    page.goto(server.url + "delicious")
    page.locator(CHOOSE).set_input_files(sketched_sheet_photo(tmp_path))
    page.wait_for_selector("[data-testid=question]")
    before = _totals(page)[0]
    # the largest group's card (the planter's six alike drawings on this sheet): naming it
    # changes the score, whichever other groups the fitted trust leaves as questions
    cards = page.locator("[data-testid=question]").all()
    card = max(cards, key=lambda c: c.locator("img.crop").count())
    crops = card.locator("img.crop")
    n = crops.count()
    # decode(): once each crop has loaded (the server draws them on request)
    assert n >= 1 and all(c.evaluate("i => i.decode().then(() => i.naturalWidth > 0)")
                          for c in crops.all())
    fields = [a.split(" as photographed")[0] for a in
              (c.get_attribute("alt") or "" for c in crops.all())]
    # the card says how many it names; "drawing" is not said (a doubted letter may be one)
    heading = card.locator("h3").inner_text()
    assert heading == (f"Which plant are these {n} alike ones?" if n > 1
                       else "Which plant is this?")
    questions = page.locator("[data-testid=question]").count()
    button = card.locator("button.choice:not(.chosen)").first
    plant = button.get_attribute("value")
    assert button.locator("img").count() == 1  # our icon on the button
    button.click()  # one tap (it can settle other cards too: an answer rules its plant
    # out for the player's other drawings)
    page.wait_for_function(f"document.querySelectorAll('[data-testid=question]').length "
                           f"< {questions}")
    for fid in fields:  # every field of the group is now set by hand to that plant
        assert page.locator(f".field.corrected[data-field='{fid}'] strong").inner_text() \
            == plant
    assert _totals(page)[0] != before  # rescored (this sheet, this answer: it changes)
    page.locator("button:has-text('Undo naming')").first.click()
    page.wait_for_function(f"document.querySelectorAll('[data-testid=question]').length "
                           f"== {questions}")
    assert _totals(page)[0] == before


def test_a_players_named_drawings_read_their_next_sheet(page: Any, server: Server,
                                                        tmp_path: Path) -> None:
    """A sheet given to a player, its questions answered with one tap each, the table
    saved: that player's next sheet, once given to them, asks fewer questions and says
    how many drawings it named like their earlier ones."""
    from collections import Counter

    from tools.example_photos import sketched_game_photos

    (first, truth1), (second, _) = sketched_game_photos(tmp_path)
    page.goto(server.url)
    page.fill("input[name=name][placeholder='Add a player']", "Dana")
    page.click("form[action='/players/add'] button")
    page.wait_for_selector("input[value='Dana']")
    page.goto(server.url + "delicious")
    page.locator(CHOOSE).set_input_files(first)
    page.wait_for_selector("[data-testid=keep-drawings]")  # asked to choose whose it is
    page.select_option("select[name=player]", label="Dana")
    page.wait_for_selector("[data-testid=whose]:has-text('Now called Dana')")
    left = page.locator("[data-testid=question]").count()
    while left:  # one tap a question, each its group's plant (a tap can settle others)
        card = page.locator("[data-testid=question]").first
        fields = [(c.get_attribute("alt") or "").split(" as photographed")[0]
                  for c in card.locator("img.crop").all()]
        plant = Counter(truth1[f] for f in fields).most_common(1)[0][0]
        card.locator(f"button.choice[value='{plant}']").click()
        page.wait_for_function("document.querySelectorAll('[data-testid=question]').length "
                               f"< {left}")
        left = page.locator("[data-testid=question]").count()
    # on this sheet answers settle other questions, and the page says so
    assert "named from the answers" in page.locator("[data-testid=answers-named]").inner_text()
    page.once("dialog", lambda d: d.accept())  # rule problems left: save anyway
    page.click("button:has-text('Save to tonight')")
    page.wait_for_url(lambda url: "/delicious" not in url)  # saved: back to tonight

    page.goto(server.url + "delicious")
    page.locator(CHOOSE).set_input_files(second)
    page.wait_for_selector("[data-testid=question]")
    alone = page.locator("[data-testid=question]").count()
    page.select_option("select[name=player]", label="Dana")
    page.wait_for_selector("[data-testid=own-named]")
    assert "like Dana's drawings of earlier sheets" in page.locator(
        "[data-testid=own-named]").inner_text()
    assert page.locator("[data-testid=question]").count() < alone
