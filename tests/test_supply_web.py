"""The web's side of the supply: a seed kept with the night (its own table in the store),
and the night's Delicious sheets checked against it as ``read --supply-seed`` does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from companion.cli.delicious_read import read_cmd
from companion.games.delicious.supply import ALGORITHM
from companion.store import Store
from companion.store.supplies import forget_supply_seed, keep_supply_seed, supply_seed

COMBO = Path(__file__).resolve().parent.parent / "examples/delicious/photos/combo-good-light.jpg"
SEED = 42  # not the supply this example sheet was drawn with: the check finds plenty


def test_the_store_keeps_one_seed_a_night(store: Store) -> None:
    night = store.current_night().id
    assert supply_seed(store, night) is None and supply_seed(store, None) is None
    keep_supply_seed(store, night, 5, ALGORITHM)
    keep_supply_seed(store, night, 6, ALGORITHM)  # replaced, not doubled
    assert supply_seed(store, night) == (6, ALGORITHM)
    assert supply_seed(store, store.new_night("Next").id) is None
    forget_supply_seed(store, night)
    assert supply_seed(store, night) is None


def test_keeping_and_forgetting_tonights_seed(client: TestClient, store: Store) -> None:
    r = client.post("/supply/keep", data={"seed": "123", "round": "4"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/supply?seed=123&round=4"
    assert supply_seed(store, store.current_night().id) == (123, ALGORITHM)
    assert "Tonight's supply: Delicious sheets" in client.get("/supply?seed=123&round=4").text
    assert "seed <strong class=\"num\">123</strong>" in client.get("/supply").text
    assert "Play this supply tonight" in client.get("/supply?seed=124").text
    client.post("/supply/forget")
    assert supply_seed(store, store.current_night().id) is None


@pytest.mark.parametrize("seed", ["", "x", "-1", "9007199254740992"])
def test_a_bad_seed_is_not_kept(client: TestClient, store: Store, seed: str) -> None:
    r = client.post("/supply/keep", data={"seed": seed})
    assert r.status_code == 400 and supply_seed(store, store.current_night().id) is None


def test_keeping_a_seed_from_another_site_is_refused(client: TestClient, store: Store) -> None:
    r = client.post("/supply/keep", data={"seed": "1"},
                    headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and supply_seed(store, store.current_night().id) is None


def _review_fields(html: str) -> set[str]:
    return set(re.findall(r'<div class="field\s*" data-field="([^"]+)"', html))


@pytest.mark.slow
def test_tonights_sheets_are_checked_against_tonights_supply(
        client: TestClient, store: Store) -> None:
    r = client.post("/delicious/upload", files=[("photo", (COMBO.name, COMBO.read_bytes(),
                                                           "image/jpeg"))],
                    follow_redirects=False)
    sid = int(r.headers["location"].split("s=")[1])
    before = _review_fields(client.get(f"/delicious?s={sid}").text)
    client.post("/supply/keep", data={"seed": str(SEED)})
    after = _review_fields(client.get(f"/delicious?s={sid}").text)
    res = CliRunner().invoke(read_cmd, [str(COMBO), "--json", "--supply-seed", str(SEED)])
    assert res.exit_code == 0  # doubts are review items, not rule problems
    cli = json.loads(res.stdout)
    flagged = {f for m in cli["supply"] for f in m["fields"]}
    assert flagged and not flagged & before
    assert after == before | flagged == set(cli["review"])
    client.post(f"/delicious/{sid}/save")
    (play,) = store.plays()
    assert play.game == "delicious"  # a doubt is a question: the sheet is still saved
