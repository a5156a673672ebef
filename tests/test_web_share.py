"""The pieces behind a dropped Wi-Fi and a shared result (issue 30), in-process (a retried
upload keeping its photos once is in tests/test_web_idempotent.py): the service worker and
/alive are served as the pages' script expects, the worker's shell holds no page, and a
saved play's picture is a PNG of its ranking."""

from __future__ import annotations

import io
import re

from starlette.testclient import TestClient

from companion.store import SeatInput, Store
from companion.web.app import STATIC_DIR
from companion.web.share_image import ShareSeat, ShareTable, share_png
from tests.web_support import EXAMPLES

DICE = EXAMPLES / "dice/photos/mat-full.jpg"


def test_the_service_worker_and_alive(client: TestClient) -> None:
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    alive = client.get("/alive")
    assert alive.status_code == 204 and alive.headers["cache-control"] == "no-store"
    offline = client.get("/static/offline.html")
    assert offline.status_code == 200 and "Reconnecting" in offline.text
    page = client.get("/")
    assert page.headers["cache-control"] == "no-store"
    assert 'id="reconnecting"' in page.text


def test_the_shell_the_worker_keeps_holds_no_page() -> None:
    """Pages carry the token and players' data: the worker keeps static files only, each
    of which exists, and caches nothing it was not told to."""
    text = (STATIC_DIR / "sw.js").read_text()
    shell = re.search(r"const SHELL = \[(.*?)\];", text, re.S)
    assert shell is not None
    paths = re.findall(r'"([^"]+)"', shell.group(1)) + ["/static/offline.html"]
    assert all(p.startswith("/static/") or p == "/favicon.ico" for p in paths), paths
    for p in paths:
        assert p == "/favicon.ico" or (STATIC_DIR / p.removeprefix("/static/")).is_file(), p
    assert text.count("c.put(") == 1 and "SHELL.includes(url.pathname)" in text
    assert 'req.method !== "GET"' in text


def test_a_saved_play_has_a_picture_and_a_bg_stats_link(client: TestClient,
                                                       store: Store) -> None:
    from PIL import Image

    night = store.new_night("Friday", date="2026-01-09")
    play = store.save_play("wild-gardens", [SeatInput("Jada", 52.0, 1, True),
                                            SeatInput("Kim", 40.0, 2)], night_id=night.id)
    png = client.get(f"/plays/{play.id}/share.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert "wild-gardens-2026-01-09" in png.headers["content-disposition"]
    with Image.open(io.BytesIO(png.content)) as img:
        assert img.format == "PNG" and img.width == 1080 and 300 < img.height < 800
    page = client.get(f"/history/plays/{play.id}").text
    assert f'href="/plays/{play.id}/share.png"' in page and 'data-testid="bgstats"' in page
    assert client.get("/plays/999/share.png").status_code == 404
    assert f'href="/history/plays/{play.id}#share"' in client.get("/").text


def test_the_picture_shows_every_seat_and_each_players_overlays() -> None:
    from PIL import Image

    seats = tuple(ShareSeat(i + 1, f"Player {i}", 30.0 - i, i == 0) for i in range(6))
    plain = share_png(ShareTable("Dulce", "2026-01-09", seats))
    sheet = io.BytesIO()
    Image.new("RGB", (1600, 1130), (200, 220, 200)).save(sheet, format="JPEG")
    with_sheets = share_png(ShareTable("Delicious", "2026-01-09", seats[:2], (
        ("Player 0", (sheet.getvalue(), sheet.getvalue())), ("Player 1", (sheet.getvalue(),)))))
    with Image.open(io.BytesIO(plain)) as a, Image.open(io.BytesIO(with_sheets)) as b:
        assert a.height > 6 * 80  # a row a seat
        assert b.height > 2 * 300  # a row of thumbnails a player
        assert a.width == b.width == 1080
    long_name = share_png(ShareTable("Dulce", "x", (ShareSeat(1, "W" * 200, 1.0, True),)))
    assert long_name.startswith(b"\x89PNG")
