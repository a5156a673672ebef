"""The night keeps its dice game's colours: its first photo of a full starting block
teaches them (their own table in the store), every later dice photo that night is read
with them, and the page says so and can forget them."""

from __future__ import annotations

import re
import secrets
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from companion.store import MIGRATIONS, Store, migrate
from companion.store.dice_colours import dice_colours, forget_dice_colours, keep_dice_colours
from companion.store.paths import DB_NAME
from companion.vision.dice.colours import DiceColours, learn_colours
from companion.vision.dice.reader import read_dice_photo

DOC = {"format": "companion-dice-colours", "version": 1, "white": "pips",
       "families": {n: {"ln_r_g": 0.1 * i, "ln_b_g": -0.1 * i, "scatter": 1.0}
                    for i, n in enumerate(("carrot", "mushroom", "onion", "pepper", "tomato"))}}


def test_the_store_keeps_one_set_of_colours_a_night(store: Store) -> None:
    night = store.current_night().id
    assert dice_colours(store, night) is None and dice_colours(store, None) is None
    keep_dice_colours(store, night, DOC, None)
    keep_dice_colours(store, night, {**DOC, "white": "paper"}, None)  # replaced, not doubled
    kept = dice_colours(store, night)
    assert kept is not None and kept.doc["white"] == "paper" and kept.photo_id is None
    assert DiceColours.from_json(kept.doc).white == "paper"
    assert dice_colours(store, store.new_night("Next").id) is None
    forget_dice_colours(store, night)
    assert dice_colours(store, night) is None


def test_a_store_of_the_version_before_gains_the_colours_table(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    before = next(i for i, step in enumerate(MIGRATIONS) if "night_dice_colours" in str(step))
    assert migrate(conn, MIGRATIONS[:before]) == before
    conn.execute("INSERT INTO nights (name, date, created_at) VALUES ('Old', '2024-05-05', "
                 "'2024-05-05T20:00:00+00:00')")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "night_dice_colours" not in tables
    conn.close()
    with Store.open(tmp_path) as s:
        assert s.version == len(MIGRATIONS)
        keep_dice_colours(s, 1, DOC, None)
        assert dice_colours(s, 1) is not None


def _reading_docs(store: Store, sid: int) -> list[dict[str, object]]:
    return [r.doc for r in store.readings(sid)]


def _upload(client: TestClient, photo: Path, role: str = "block") -> int:
    """Upload ``photo`` as bytes not sent before (a JPEG ignores what follows its end): the
    same bytes again would be answered with the table they made, read as it was then."""
    data = photo.read_bytes() + secrets.token_bytes(8)
    r = client.post("/dice/upload", data={"role": role},
                    files=[("photo", (photo.name, data, "image/jpeg"))],
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    found = re.search(r"s=(\d+)", r.headers["location"])
    assert found is not None
    return int(found.group(1))


@pytest.mark.slow
def test_the_first_full_block_teaches_and_later_photos_are_read_with_it(
        client: TestClient, store: Store, dice_game: tuple[Path, Path, object]) -> None:
    full, cut, _ = dice_game
    night = store.current_night().id
    page = client.get("/dice").text
    assert "teaches tonight's dice colours" in page and "Forget the colours" not in page
    # a cut block first teaches nothing: it is not 7 dice of each
    first = _upload(client, cut)
    assert dice_colours(store, night) is None
    assert "colours" not in _reading_docs(store, first)[0]
    sid = _upload(client, full)
    kept = dice_colours(store, night)
    assert kept is not None
    assert kept.doc == learn_colours(read_dice_photo(full)).to_json()
    (photo,) = store.photos(sid)
    assert kept.photo_id == photo.id
    page = client.get(f"/dice?s={sid}").text
    assert "This photo taught tonight's dice colours." in page
    assert "Forget the colours" in page
    later = _upload(client, cut)
    (doc,) = _reading_docs(store, later)
    assert doc["colours"] == kept.doc  # the reading keeps what it was read with
    page = client.get(f"/dice?s={later}").text
    assert "Read with the colours learnt from the first photo." in page
    with_colours = read_dice_photo(cut, DiceColours.from_json(kept.doc))
    assert doc["dice"] == with_colours.to_json()["dice"]
    # forgetting: the next photo is read alone again
    r = client.post("/dice/colours/forget", data={"s": str(later)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/dice?s={later}"
    assert dice_colours(store, night) is None
    again = _upload(client, cut)
    assert "colours" not in _reading_docs(store, again)[0]
    assert "Read with the colours" not in client.get(f"/dice?s={again}").text
