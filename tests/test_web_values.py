"""Issue #27 items 7 and 8: values no form of the app writes (a die where none was read,
ids of 25 digits, "²" for points, 5,000 digits, JSON nested 100,000 deep) are each a
clear 4xx, and the store is byte-identical after each."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from companion.store import Store
from tests.conftest import dump
from tests.web_seed import Seeded, seed

HUGE = "1" * 25


@pytest.fixture
def seeded(client: TestClient, store: Store,
           example_readings: tuple[object, object]) -> Seeded:
    return seed(client, store, *example_readings)


@pytest.mark.parametrize("cell", ["99,99", "-1,-1", "0,0,0", "1", "²,1", HUGE + ",1"])
def test_a_correction_for_a_cell_with_no_die_is_refused(client: TestClient, store: Store,
                                                        seeded: Seeded, cell: str) -> None:
    before = dump(store.root)
    r = client.post(f"/dice/{seeded.dice_scoring}/correct",
                    data={"reading": seeded.dice_reading, "cell": cell, "value": "none"})
    assert r.status_code == 400 and ("no die was read" in r.text or "ROW,COL" in r.text)
    assert dump(store.root) == before
    assert client.get(f"/dice?s={seeded.dice_scoring}").status_code == 200


def test_an_error_page_offers_undo(client: TestClient, store: Store, seeded: Seeded,
                                   example_readings: tuple[object, object]) -> None:
    die = example_readings[1].dice[0]  # type: ignore[attr-defined]
    ok = client.post(f"/dice/{seeded.dice_scoring}/correct",
                     data={"reading": seeded.dice_reading, "cell": f"{die.row},{die.col}",
                           "value": "none"})
    assert ok.status_code in (200, 303)
    # a correction stored before cells were checked (the die removed twice) breaks the page
    store._conn.execute("INSERT INTO corrections (reading_id, field, value, created_at) "
                        "VALUES (?, '99,99', 'none', 'then')", (seeded.dice_reading,))
    broken = client.get(f"/dice?s={seeded.dice_scoring}")
    assert broken.status_code == 400 and 'data-testid="undo"' in broken.text
    action = broken.text.split('<form method="post" action="')[1].split('"')[0]
    fields = dict(part.split('" value="') for part in
                  broken.text.split('<input type="hidden" name="')[1:4] if '" value="' in part
                  for part in [part.split('">')[0]])
    assert client.post(action, data=fields).status_code in (200, 303)
    assert client.get(f"/dice?s={seeded.dice_scoring}").status_code == 200
    for cut in ("²", "9" * 5000, "-1", "0"):  # a cut the page cannot draw draws them all
        assert client.get(f"/dice?s={seeded.dice_scoring}&cut={cut}").status_code == 200
    sheet = client.get(f"/delicious/{seeded.sheet_scoring}/overlay/{HUGE}.jpg")
    assert sheet.status_code == 400
    for key in ("\u00b2", "9" * 5000):  # a tapped field's sheet int() cannot take: none picked
        r = client.get(f"/delicious?s={seeded.sheet_scoring}&field={key}:garden.honey")
        assert r.status_code == 200


@pytest.mark.parametrize("method,url,data", [
    ("GET", f"/history/plays/{HUGE}", None),
    ("GET", "/?page=\u00b2", None),  # isdigit() but not int()'s
    ("GET", "/history?page=\u00b9\u00b2", None),
    ("GET", f"/history/photos/{HUGE}", None),
    ("GET", f"/delicious?s={HUGE}", None),
    ("GET", f"/dice?s={HUGE}", None),
    ("GET", f"/delicious/{HUGE}/overlay/1.jpg", None),
    ("GET", f"/delicious/1/crop/{HUGE}.png", None),
    ("GET", f"/dice/1/overlay/{HUGE}.jpg", None),
    ("POST", f"/players/{HUGE}/rename", {"name": "X"}),
    ("POST", f"/plays/{HUGE}/delete", {}),
    ("POST", f"/delicious/{HUGE}/save", {}),
    ("POST", "/delicious/1/player", {"reading": "1", "player": HUGE}),
    ("POST", "/pads/dulce", {"rows": "2", "name0": "A", "points0": "1" * 20, "action": "save"}),
    ("POST", "/pads/dulce", {"rows": "2", "name0": "A", "points0": "²", "action": "save"}),
    ("POST", "/pads/dulce", {"rows": "2", "name0": "A", "points0": "9" * 5000,
                             "action": "save"}),
    ("POST", "/pads/diced-veggies", {"rows": "2", "name0": "A", "recipes0": "²+1",
                                     "action": "save"}),
    ("POST", "/pads/dulce", {"rows": HUGE, "action": "more"}),
    ("POST", "/pads/dulce", {"rows": "2", "state": "[" * 100_000, "action": "best-harvest"}),
])
def test_bad_values_are_a_clear_4xx(client: TestClient, store: Store, seeded: Seeded,
                                    method: str, url: str, data: dict[str, str] | None) -> None:
    before = dump(store.root)
    big = data is not None and sum(map(len, data.values())) > 50_000
    # a big form goes as multipart, as a browser may send it: urlencoded, 100,000 "[" are
    # 300 KB, which the form cap refuses before the app sees it
    r = client.request(method, url, data=data, headers={"accept": "application/json"},
                       files={"pad": ("pad.txt", b"", "text/plain")} if big else None)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:200])
    assert "error" in r.json() and "internal" not in r.json()["error"]
    assert dump(store.root) == before


@pytest.mark.parametrize(("url", "words"), [
    ("/pads/" + "x" * 8000, "no score pad for 'xxx"),
    ("/standings/" + "x" * 8000, "unknown game 'xxx"),
    ("/api/" + "x" * 8000, "no such API: GET /api/xxx"),
])
def test_an_error_quoting_a_long_request_is_cut_to_one_readable_line(
        client: TestClient, url: str, words: str) -> None:
    """A message quoting what the client sent stays a line a phone can show (the error
    page also wraps a word too long for its width); not 8,000 characters sent back."""
    r = client.get(url, headers={"accept": "application/json"})
    line = r.json()["error"]
    assert r.status_code == 404 and line.startswith(words)
    assert len(line) <= 300 and line.endswith("…")
    assert len(client.get(url).text) < 8000  # the page too


def test_a_bad_since_is_named_as_the_page_names_it(client: TestClient) -> None:
    """The web's filter is ?since=, not the command line's --since."""
    for url in ("/api/history?since=last+week", "/history?since=2026-13-45"):
        r = client.get(url, headers={"accept": "application/json"})
        assert r.status_code == 400
        assert r.json()["error"].startswith("since '") and "--since" not in r.json()["error"]
