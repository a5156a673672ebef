"""The key of a player's own drawings (layout version 2): a box beside each plant of the
play and combo sheets' legend, where a sketching player draws each plant once. Read as
the player's named examples, it names their alike drawings on the same sheet."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import layouts
from companion.errors import UnknownNameError
from companion.games.delicious.players import OWN_EARLIER, OWN_KEY
from companion.vision.sheet.constants_sketches import SKETCH_PLANTS
from companion.vision.sheet.drawing_groups import DrawingEvidence, DrawingGroup
from companion.vision.sheet.own_drawings import OwnDrawings, name_by_own
from tests.conftest import invoke
from tools.example_photos import SKETCH_PLANTS as SKETCH_SEEDS_PLANTS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "delicious" / "photos"
DRAWN = SKETCH_SEEDS_PLANTS  # the example player sketches these, and writes the rest


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("name", ["delicious-combo", "delicious-play"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("variant", ["A", "B"])
def test_the_key_has_a_box_per_plant_clear_of_every_field(name: str, paper: str,
                                                           variant: str) -> None:
    geo = layouts.geometry(name, paper, variant)
    key = geo.extra["drawing_key"]
    assert list(key) == list(SKETCH_PLANTS)
    boxes = list(key.values())
    fields = [f.box_mm.as_list() for f in geo.fields]
    w, h = geo.page_mm
    for k, b in enumerate(boxes):
        assert b[2] >= 4.5 and b[3] >= 4.5, "a box too small to draw in"
        assert 0 < b[0] and b[0] + b[2] < w and 0 < b[1] and b[1] + b[3] < h
        assert not any(_overlap(b, f) for f in fields)
        assert not any(_overlap(b, o) for o in boxes[k + 1:])
    assert geo.to_json()["drawing_key"] == key


def test_older_layouts_stay_drawable_and_readable() -> None:
    assert layouts.LAYOUT_VERSION == 2
    assert layouts.layout_versions("delicious-combo") == (2, 1)
    assert layouts.layout_versions("delicious-garden") == (2,)
    old = layouts.geometry("delicious-combo", version=1)
    assert old.version == 1 and "drawing_key" not in old.extra
    assert [f.id for f in old.fields] == [f.id for f in layouts.geometry("delicious-combo").fields]
    garden1 = layouts.geometry("delicious-garden", version=1)
    assert garden1.fields == layouts.geometry("delicious-garden").fields
    # the play sheet's fields did not move: only its legend grew boxes
    assert layouts.geometry("delicious-play", version=1).fields == \
        layouts.geometry("delicious-play").fields
    with pytest.raises(UnknownNameError, match="layout version 3"):
        layouts.geometry("delicious-combo", version=3)


def test_a_sheet_printed_before_the_key_is_read_with_its_own_layout() -> None:
    from companion.vision.sheet.reader import read_photo

    reading = read_photo(str(EXAMPLES / "combo-good-light.jpg"))
    assert reading.registration.label.version == 1 == reading.geometry.version
    assert reading.key_drawings is None
    truth = json.loads((EXAMPLES / "combo-good-light.truth.json").read_text())["fields"]
    assert reading.fields == truth


# ---- the key's word, then the earlier sheets' (pure) ---------------------------------------


def _look(i: int, d: int = 8) -> np.ndarray:
    v = np.zeros(d)
    v[i] = 1.0
    return v


def _evidence(look: np.ndarray) -> DrawingEvidence:
    return DrawingEvidence("vegetable", (("carrot", 0.5), ("broccoli", 0.5)), 0.99, 0.0, look,
                           ())


def test_the_key_names_a_group_and_an_earlier_sheet_that_disagrees_makes_it_a_question() -> None:
    drawn = {"a": _evidence(_look(0)), "b": _evidence(_look(0)), "c": _evidence(_look(1))}
    groups = [DrawingGroup("q1", "vegetable", ("a", "b"), "broccoli", 0.6, False,
                           ("carrot", "broccoli")),
              DrawingGroup("q2", "vegetable", ("c",), "carrot", 0.6, False,
                           ("carrot", "broccoli"))]
    key = OwnDrawings("m", {"carrot": np.stack([_look(0)])})
    named = name_by_own(groups, drawn, key, 0.4, OWN_KEY)
    assert (named[0].guess, named[0].trusted, named[0].own) == ("carrot", True, OWN_KEY)
    assert named[1] == groups[1], "a group the key does not name is left alone"
    earlier = OwnDrawings("m", {"broccoli": np.stack([_look(0)])})
    asked = name_by_own(named, drawn, earlier, 0.4, OWN_EARLIER)
    assert (asked[0].guess, asked[0].trusted) == ("broccoli", False)
    agreed = name_by_own(named, drawn, key, 0.4, OWN_EARLIER)
    assert agreed[0] == named[0], "named alike by both: kept as the key named it"


# ---- end to end on photographs ---------------------------------------------------------------


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, str]]]:
    """One held-out sketching player's sheet photographed with the key left empty and
    with it drawn (the same photo otherwise)."""
    from tools.example_photos import sketched_game_photos

    folder = tmp_path_factory.mktemp("key")
    plain = sketched_game_photos(folder, games=1)[0]
    keyed = sketched_game_photos(folder, games=1, key=True)[0]
    return {"plain": plain, "key": keyed}


def _doc(photo: Path, *args: str) -> dict[str, Any]:
    res = invoke("delicious", "read", "--json", str(photo), *args)
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.stdout)  # type: ignore[no-any-return]


@pytest.mark.synth
def test_the_key_names_the_players_drawings_with_no_question(
        photos: dict[str, tuple[Path, dict[str, str]]]) -> None:
    plain_photo, truth = photos["plain"]
    key_photo, truth_key = photos["key"]
    assert truth == truth_key
    plain, keyed = _doc(plain_photo), _doc(key_photo)
    assert "key_plants" not in plain and "named_by_key" not in plain
    assert set(keyed["key_plants"]) == set(DRAWN), "every plant the player sketches"
    named = keyed["named_by_key"]
    assert named and not set(named) & set(keyed["review"])
    assert all(keyed["fields"][f] == truth[f] for f in named)
    assert len(keyed["questions"]) < len(plain["questions"])
    wrong = [f for f, v in truth.items() if keyed["fields"].get(f) != v]
    assert not [f for f in wrong if f not in keyed["review"]], "a silent error"
    for q in keyed["questions"]:
        assert len(Counter(truth[f] for f in q["fields"])) == 1, "a question mixes plants"


@pytest.mark.synth
def test_a_sketched_sheet_with_its_key_empty_suggests_the_key(
        photos: dict[str, tuple[Path, dict[str, str]]], client: Any, store: Any) -> None:
    plain_photo, _ = photos["plain"]
    key_photo, _ = photos["key"]
    tip = "tip: draw each plant once in the sheet's key"
    plain = invoke("delicious", "read", str(plain_photo))
    assert tip in plain.stdout and tip not in invoke("delicious", "read", str(key_photo)).stdout
    # a sheet printed before the key (version 1) is not told about it
    old = invoke("delicious", "read", str(EXAMPLES / "combo-good-light.jpg"))
    assert tip not in old.stdout
    r = client.post("/delicious/upload", files=[
        ("photo", (plain_photo.name, plain_photo.read_bytes(), "image/jpeg"))],
        follow_redirects=False)
    page = client.get(r.headers["location"]).text
    assert 'data-testid="key-hint"' in page and 'data-testid="key-named"' not in page


@pytest.mark.synth
def test_read_says_how_many_drawings_the_key_named(
        photos: dict[str, tuple[Path, dict[str, str]]], tmp_path: Path) -> None:
    key_photo, _ = photos["key"]
    res = invoke("delicious", "read", str(key_photo))
    assert res.exit_code in (0, 1), res.output
    line = next(x for x in res.stdout.splitlines() if "in the sheet's key" in x)
    n = len(_doc(key_photo)["named_by_key"])
    assert line.startswith(f"{n} drawing") and "carrot" in line
    # the key's drawings are kept with the others for the player's next sheets
    mine = tmp_path / "mine.json"
    res = invoke("delicious", "read", str(key_photo), "--save-drawings", str(mine))
    assert res.exit_code in (0, 1), res.output
    assert set(json.loads(mine.read_text())["plants"]) == set(DRAWN)


@pytest.mark.synth
def test_the_phone_page_counts_what_the_key_named_and_saving_keeps_it(
        photos: dict[str, tuple[Path, dict[str, str]]], client: Any, store: Any) -> None:
    from companion.store.player_drawings import player_drawings
    from companion.web.delicious import score_table, table_sheets

    key_photo, _ = photos["key"]
    r = client.post("/delicious/upload", files=[
        ("photo", (key_photo.name, key_photo.read_bytes(), "image/jpeg"))],
        follow_redirects=False)
    sid = int(r.headers["location"].split("s=")[1])
    (reading,) = store.readings(sid)
    ann = store.player("Ann", create=True).id
    client.post(f"/delicious/{sid}/player", data={"reading": reading.id, "player": ann})
    doc = score_table(table_sheets(client.app.app.state.web, sid)).players[0].doc
    n = len(doc["named_by_key"])
    assert n > 0
    page = client.get(f"/delicious?s={sid}").text
    assert f'data-testid="key-named">{n} drawings named like the drawings in the sheet' in page
    client.post(f"/delicious/{sid}/save")
    kept = player_drawings(store, ann)
    assert kept is not None and set(DRAWN) <= set(kept["plants"])


def test_the_key_names_within_its_own_distance() -> None:
    from companion.vision.sheet.drawing_groups import GroupRule

    assert GroupRule.from_meta({"group_distance": 0.3}).key_distance == 0.3
    assert GroupRule.from_meta({"group_own": 0.4}).key_distance == 0.4
    rule = GroupRule.from_meta({"group_own": 0.4, "group_key": 0.5})
    assert (rule.own_distance, rule.key_distance) == (0.4, 0.5)
    # a group 0.45 from the key's carrot is named by the key's reach, not the earlier one's
    look = np.array([np.sqrt(1 - 0.55 ** 2), 0.55])  # cosine 0.55 to the carrot: 0.45 away
    drawn = {"a": _evidence(look)}
    group = [DrawingGroup("q1", "vegetable", ("a",), "broccoli", 0.6, False,
                          ("carrot", "broccoli"))]
    carrot = OwnDrawings("m", {"carrot": np.stack([np.array([0.0, 1.0])])})
    assert name_by_own(group, drawn, carrot, rule.key_distance, OWN_KEY)[0].guess == "carrot"
    assert name_by_own(group, drawn, carrot, rule.own_distance, OWN_EARLIER)[0] == group[0]


@pytest.mark.parametrize("source", ["key", "own"])
def test_a_sure_letter_that_looks_like_the_keys_drawing_of_another_plant_is_asked(
        monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    """The key (or an earlier sheet's named drawings: ``source``) shows how the player
    draws a lettuce; a cell read as a sure O whose look (to the sketch network) is within
    reach of that lettuce (the distance those drawings name a group at) is asked, as a
    letter. An O far from every such drawing, or nearer their own onion, stands, and so
    does every letter when the drawings were read by another network."""
    from companion.paper.model import FieldKind
    from companion.vision.sheet import settle
    from companion.vision.sheet.constants_sketches import VEGETABLE_PLANTS
    from companion.vision.sheet.drawing_groups import GroupRule
    from companion.vision.sheet.field_reading import FieldReading
    from companion.vision.sheet.sketch_model import model_fingerprint

    monkeypatch.setattr(settle, "group_rule", lambda: GroupRule(0.2, 0.99, own=0.4, key=0.5))

    def letter_o(fid: str, look: np.ndarray) -> FieldReading:
        plants = tuple((v, 1 / 6) for v in VEGETABLE_PLANTS)
        ev = DrawingEvidence("vegetable", plants, 0.99, 0.99, look, letter=("onion", 0.998))
        return FieldReading(fid, FieldKind.VEGETABLE, "onion", 0.998,
                                   (("onion", 0.998),), as_drawing=ev, letter_look=look)

    # cosine 0.62 to the lettuce: 0.38 away, within the fitted reaches (0.4, 0.5) though
    # past the unfitted grouping distance: no cell here is drawn, and the fit holds
    near = np.array([0.62, np.sqrt(1 - 0.62 ** 2)])
    far = np.array([0.3, np.sqrt(1 - 0.09)])  # 0.7 away, past both reaches
    readings = {"garden.boots.r0.c0": letter_o("garden.boots.r0.c0", near),
                "garden.boots.r1.c0": letter_o("garden.boots.r1.c0", far)}
    note = settle.LIKE_KEY_NOTE if source == "key" else settle.LIKE_EARLIER_NOTE

    def settle_with(drawings: OwnDrawings) -> dict[str, Any]:
        return settle.settle_drawings(readings, "A", **{source: drawings})[0]

    named = OwnDrawings(model_fingerprint(), {"lettuce": np.stack([np.array([1.0, 0.0])])})
    settled, groups = settle.settle_drawings(readings, "A", **{source: named})
    asked = settled["garden.boots.r0.c0"]
    assert asked.review and asked.value == "onion" and asked.note == note
    assert any(g.fields == ("garden.boots.r0.c0",) and g.what == "letter" for g in groups)
    assert not settled["garden.boots.r1.c0"].review
    with_onion = OwnDrawings(named.model, {**named.looks, "onion": np.stack([near])})
    assert not settle_with(with_onion)["garden.boots.r0.c0"].review
    assert not settle_with(OwnDrawings("another network", named.looks))[
        "garden.boots.r0.c0"].review
