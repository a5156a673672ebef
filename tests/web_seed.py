"""A store with one of everything the web app changes (a Delicious table, a dice block, a
saved play, players, a correction), the photos' readings put in the app's cache so no
reader runs: for the tests that attack the web's forms."""

from __future__ import annotations

from typing import NamedTuple

from starlette.testclient import TestClient

from companion.store import SeatInput, Store
from companion.web.delicious import sheet_json
from companion.web.dice import dice_read_json
from companion.web.readers import DICE, SHEET
from tests.web_support import BLOCK, COMBO


class Seeded(NamedTuple):
    sheet_scoring: int
    sheet_reading: int
    dice_scoring: int
    dice_reading: int
    play: int
    player: int


def seed(client: TestClient, store: Store, sheet: object, dice: object) -> Seeded:
    return seed_app(client.app, store, sheet, dice)


def seed_app(app: object, store: Store, sheet: object, dice: object) -> Seeded:
    """``seed`` for an app called without a client (``create_app``'s answer)."""
    web = app.app.state.web  # type: ignore[attr-defined]  # the Guard wraps the app
    night = store.current_night().id
    ava = store.add_player(night, "Ava")
    store.add_player(night, "Ben")
    s1 = store.new_scoring("delicious", night)
    p1, r1 = store.add_photo(COMBO.read_bytes(), "image/jpeg", 10, 10, scoring_id=s1.id,
                             reading=(SHEET, sheet_json(sheet)))  # type: ignore[arg-type]
    web.cache.put(SHEET, p1.id, sheet)
    s2 = store.new_scoring("diced-veggies", night)
    from PIL import Image

    with Image.open(BLOCK) as im:
        size = im.size
    p2, r2 = store.add_photo(BLOCK.read_bytes(), "image/jpeg", *size, scoring_id=s2.id,
                             role="block",
                             reading=(DICE, dice_read_json(dice, BLOCK.name)))  # type: ignore[arg-type]
    web.cache.put(DICE, p2.id, dice)
    assert r1 is not None and r2 is not None
    play = store.save_play("dulce", [SeatInput("Ava", 40, 1, True), SeatInput("Ben", 30, 2)],
                           night_id=night)
    return Seeded(s1.id, r1.id, s2.id, r2.id, play.id, ava.id)

