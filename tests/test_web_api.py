"""The web app without a browser: JSON API parity with the CLI, errors, caps, the token
and the same-origin rule, pads and printing (Starlette's TestClient, in process)."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from starlette.testclient import TestClient

from companion.cli.delicious_read import read_cmd
from companion.cli.dice import dice as dice_group
from companion.cli.dice_read import read as dice_read_cmd
from companion.errors import ImageError
from companion.store import Store
from companion.web import printing
from companion.web.app import create_app
from companion.web.constants import MAX_UPLOAD_BYTES
from companion.web.readers import ReaderPool
from companion.web.uploads import label_of, sniff_image
from tools.example_photos import photo_with_a_field_to_review

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
COMBO = EXAMPLES / "delicious/photos/combo-good-light.jpg"
BLOCK = EXAMPLES / "dice/photos/table-full.jpg"


def _files(*paths: Path) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("photo", (p.name, p.read_bytes(), "image/jpeg")) for p in paths]


def _cli_json(cmd: object, args: list[str], cwd: Path) -> dict[str, object]:
    result = CliRunner().invoke(cmd, args)  # type: ignore[arg-type]
    return json.loads(result.stdout)  # type: ignore[no-any-return]  # warnings go to stderr


def _no_seconds(doc: dict[str, object]) -> dict[str, object]:
    for entry in [*doc.get("players", [doc]), *doc.get("unpaired", [])]:  # type: ignore[misc]
        entry.pop("seconds")
    return doc


@pytest.mark.slow
def test_delicious_api_prints_what_the_cli_prints(client: TestClient, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole players, lone halves and a code on two gardens: the API's document is the
    command line's, pairing problems and unpaired sheets included."""
    photos = EXAMPLES / "delicious/photos"
    for name in ("combo-good-light.jpg", "garden-player3.jpg", "play-player3.jpg"):
        shutil.copy(photos / name, tmp_path / name)
    # another photo of that garden (a copy's bytes are refused as one photo, not two sheets)
    (tmp_path / "garden-again.jpg").write_bytes((photos / "garden-player3.jpg").read_bytes()
                                               + b"\0")
    monkeypatch.chdir(tmp_path)
    cases = [["combo-good-light.jpg"],
             ["combo-good-light.jpg", "garden-player3.jpg", "play-player3.jpg"],
             ["garden-player3.jpg", "play-player3.jpg"],
             ["play-player3.jpg"],
             ["garden-player3.jpg"],
             ["garden-player3.jpg", "garden-again.jpg"],
             ["combo-good-light.jpg", "garden-player3.jpg"]]
    seen = set()
    for names in cases:
        r = client.post("/api/delicious/read", files=_files(*(tmp_path / n for n in names)))
        assert r.status_code == 200, r.text
        api = _no_seconds(r.json())
        cli = _no_seconds(_cli_json(read_cmd, [*names, "--json"], tmp_path))
        assert api == cli, names
        seen |= {pr["code"] for pr in api["pairing"]}  # type: ignore[attr-defined]
        if len(names) == 1 and names[0].startswith(("garden", "play")):
            (lone,) = api["unpaired"]  # type: ignore[misc]
            assert api["players"] == [] and "missing" in lone["not_scored"]
    assert seen == {"missing-play-sheet", "missing-garden-sheet", "same-code-twice"}


@pytest.mark.slow
def test_dice_api_prints_what_the_cli_prints(client: TestClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BLOCK.parent)
    read = client.post("/api/dice/read", files=_files(BLOCK)).json()
    cli = _cli_json(dice_read_cmd, [BLOCK.name, "--json"], BLOCK.parent)
    read.pop("seconds")
    cli.pop("seconds")
    assert read == cli
    for query, flags in (("?full_only=1", ["--full-only"]), ("?kids=true", ["--kids"])):
        cuts = client.post("/api/dice/cuts" + query, files=_files(BLOCK)).json()
        assert cuts == _cli_json(dice_group, ["cuts", BLOCK.name, "--json", *flags], BLOCK.parent)


def test_api_errors_are_one_line_json(client: TestClient, tmp_path: Path) -> None:
    cases = [
        client.post("/api/delicious/read", files=[("photo", ("a.jpg", b"GIF89a nope", "x"))]),
        client.post("/api/delicious/read", files=[("other", ("a.jpg", b"x", "image/jpeg"))]),
        client.post("/api/dice/read",
                    files=_files(BLOCK, BLOCK.with_name("table-after-cuts.jpg"))),
        client.post("/api/nothing-here"),
    ]
    for r in cases:
        assert 400 <= r.status_code < 500
        body = r.json()
        assert set(body) == {"error"} and "\n" not in body["error"] and body["error"]
        assert "Traceback" not in r.text


def test_one_photo_under_two_names_is_refused_naming_both(client: TestClient,
                                                         store: Store) -> None:
    """A table's upload holding one photo twice (``cp a.jpg b.jpg``) is one sheet, never
    two players who tie: refused before any of it is read or kept."""
    files = [("photo", (name, COMBO.read_bytes(), "image/jpeg")) for name in ("a.jpg", "b.jpg")]
    line = ("a.jpg and b.jpg are copies of one photo (the same bytes): each sheet is its "
            "own photo; give each once")
    r = client.post("/api/delicious/read", files=files)
    assert r.status_code == 400 and r.json() == {"error": line}
    r = client.post("/delicious/upload", files=files)
    assert r.status_code == 400 and 'class="error"' in r.text and line in r.text
    assert store.scorings(store.current_night().id) == []
    assert list(store.photo_dir.iterdir()) == []


def test_an_image_that_is_not_a_sheet(client: TestClient) -> None:
    buf = io.BytesIO()
    Image.new("RGB", (640, 480), (200, 40, 40)).save(buf, "PNG")
    r = client.post("/api/delicious/read", files=[("photo", ("red.png", buf.getvalue(),
                                                             "image/png"))])
    assert r.status_code == 400 and r.json()["error"].startswith("red.png")


def test_a_photo_of_two_sheets_is_refused_not_read_as_one(client: TestClient) -> None:
    one = Image.open(COMBO)
    both = Image.new("RGB", (2 * one.width, one.height))
    both.paste(one, (0, 0))
    both.paste(one.rotate(180), (one.width, 0))
    buf = io.BytesIO()
    both.save(buf, "JPEG", quality=92)
    r = client.post("/api/delicious/read", files=[("photo", ("table.jpg", buf.getvalue(),
                                                             "image/jpeg"))])
    assert r.status_code == 400
    assert r.json()["error"] == ("table.jpg: this photo shows more than one sheet; "
                                 "photograph each sheet on its own")


def test_caps_in_bytes_and_pixels_and_content_not_name() -> None:
    with pytest.raises(ImageError, match="limit"):
        sniff_image(b"\xff" * (MAX_UPLOAD_BYTES + 1), "big.jpg")
    buf = io.BytesIO()
    Image.new("L", (10_000, 9_000)).save(buf, "PNG")  # 90 MP of nothing, a small file
    with pytest.raises(ImageError, match="MP limit"):
        sniff_image(buf.getvalue(), "huge.png")
    buf = io.BytesIO()
    Image.new("RGB", (20, 20)).save(buf, "GIF")
    with pytest.raises(ImageError, match="GIF"):
        sniff_image(buf.getvalue(), "photo.jpg")
    png = io.BytesIO()
    Image.new("RGB", (20, 20)).save(png, "PNG")
    assert sniff_image(png.getvalue(), "named.jpg").media_type == "image/png"


def test_labels_never_carry_a_path() -> None:
    assert label_of("../../etc/passwd", 0) == "passwd"
    assert label_of("C:\\Users\\me\\IMG 1.JPG", 0) == "IMG 1.JPG"
    assert label_of("..", 2) == "photo3.jpg"
    assert label_of("<script>.jpg", 0) == "script_.jpg"
    assert label_of("写真.jpg", 0) == "写真.jpg"  # not "jpg": letters of any script stay
    assert label_of("Zoë\u202e\u0000.png", 0) == "Zoë_.png"  # no bidi mark, no NUL


def test_stored_photos_get_server_names(client: TestClient, store: Store) -> None:
    r = client.post("/dice/upload", data={"role": "block"},
                    files=[("photo", ("../../evil.jpg", BLOCK.read_bytes(), "image/jpeg"))],
                    follow_redirects=False)
    assert r.status_code == 303
    photos = list(store.photo_dir.iterdir())
    assert len(photos) == 1 and "evil" not in photos[0].name
    assert not (store.root.parent / "evil.jpg").exists()
    assert not list((store.root / "tmp").iterdir())


def test_bad_upload_page_changes_nothing(client: TestClient, store: Store) -> None:
    r = client.post("/delicious/upload", files=[("photo", ("x.jpg", b"no", "image/jpeg"))])
    assert r.status_code == 400
    assert 'class="error"' in r.text and "not a photo" in r.text
    assert store.scorings(store.current_night().id) == []
    assert list(store.photo_dir.iterdir()) == []


def test_cross_site_post_refused(client: TestClient, store: Store) -> None:
    for headers in ({"origin": "http://evil.example"}, {"sec-fetch-site": "cross-site"},
                    {"referer": "http://evil.example/page"}, {"origin": "null"}):
        r = client.post("/players/add", data={"name": "Mallory"}, headers=headers)
        assert r.status_code == 403
    assert store.players() == []
    ok = client.post("/players/add", data={"name": "Ann"},
                     headers={"origin": "http://testserver"}, follow_redirects=False)
    assert ok.status_code == 303 and [p.name for p in store.players()] == ["Ann"]


def test_token_required_in_lan_mode(store: Store, readers: ReaderPool) -> None:
    app = create_app(store, token="s3cret-token", join_url="http://x/?t=s3cret-token",
                     readers=readers)
    with TestClient(app) as c:
        assert c.get("/").status_code == 403
        assert c.get("/static/app.css").status_code == 403
        assert c.post("/api/dice/read").status_code == 403
        assert c.get("/?t=s3cret-tokeX").status_code == 403
        page = c.get("/?t=s3cret-token")
        assert page.status_code == 200 and "<svg" in page.text
        assert c.get("/print").status_code == 200  # the cookie now carries it
    with TestClient(app) as c:
        assert c.get("/", headers={"authorization": "Bearer s3cret-token"}).status_code == 200


def test_tonight_players_and_pads(client: TestClient, store: Store) -> None:
    client.post("/players/add", data={"name": "Ava"})
    client.post("/players/add", data={"name": "Ben"})
    ben = store.player("Ben")
    client.post(f"/players/{ben.id}/rename", data={"name": "Benny"})
    form = {"rows": "2", "name0": "Ava", "points0": "41", "chicken0": "7",
            "field_cubes0": "3", "name1": "Benny", "points1": "41", "chicken1": "4",
            "field_cubes1": "5"}
    shown = client.post("/pads/dulce", data={**form, "action": "score"})
    assert shown.status_code == 200 and "Benny: 41 points" in shown.text
    assert store.plays() == []
    client.post("/pads/dulce", data={**form, "action": "save"})
    (play,) = store.plays()
    assert play.game == "dulce" and play.winners == ["Benny"]
    assert play.tiebreak and "eggs" in play.tiebreak
    page = client.get("/")
    assert "won by Benny" in page.text
    bad = client.post("/pads/dulce", data={**form, "points0": "many", "action": "score"})
    assert bad.status_code == 400 and "whole number" in bad.text
    for game, extra in (("wild-gardens", {"pollinator0": "47", "jar0": "16"}),
                        ("deli-duel", {"completed_orders0": "5"}),
                        ("diced-veggies", {"recipes0": "9+6, 8, 7+3+3"})):
        r = client.post(f"/pads/{game}", data={"rows": "2", "name0": "Ava", "name1": "Ben",
                                               **extra, "action": "score"})
        assert r.status_code == 200 and 'id="result"' in r.text, game
    assert client.get("/pads/chess").status_code == 404


def test_dulce_advice_on_the_pad(client: TestClient) -> None:
    state = (EXAMPLES / "dulce/score-order.json").read_text()
    r = client.post("/pads/dulce", data={"rows": "2", "state": state, "action": "score-order"})
    assert r.status_code == 200 and 'id="advice"' in r.text
    bad = client.post("/pads/dulce", data={"rows": "2", "state": "{", "action": "best-harvest"})
    assert bad.status_code == 400 and "not valid JSON" in bad.text


def test_print_gives_a_pdf_with_a_set_per_player(client: TestClient) -> None:
    import pypdfium2 as pdfium

    r = client.post("/print", data={"sheet": ["delicious-combo", "dulce-scorepad"],
                                    "paper": "a4", "colour": "bw", "variant": "B",
                                    "players": "3"})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert len(pdfium.PdfDocument(r.content)) == 6
    assert client.post("/print", data={"sheet": "nope"}).status_code == 400



def test_print_refuses_a_sheet_named_twice(client: TestClient,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's boxes send each sheet once; a form naming one sheet 900 times (7,200
    pages at 8 players, minutes of the server's time) is refused before any is drawn."""
    import layouts

    def drawn(*args: object, **kwargs: object) -> None:
        raise AssertionError("nothing is drawn for a refused form")

    monkeypatch.setattr(layouts, "render_pdf", drawn)
    r = client.post("/print", data={"sheet": ["delicious-combo"] * 900, "players": "8"},
                    headers={"Accept": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": "choose each sheet once"}


def test_a_photo_wide_verdict_heads_the_players_card(client: TestClient,
                                                     tmp_path: Path) -> None:
    """A dim, grainy photo: the page says to retake it, in one line above the fields."""
    import cv2
    import numpy as np

    img = cv2.imread(str(COMBO)).astype(np.float32) * 0.3
    img += np.random.default_rng(3).normal(0.0, 15.0, img.shape)
    dim = tmp_path / "dim.jpg"
    cv2.imwrite(str(dim), np.clip(img, 0, 255).astype(np.uint8))
    page = client.post("/delicious/upload", files=_files(dim)).text
    assert page.count('data-testid="photo-verdict"') == 1
    assert "too dark or grainy: retake the photo in better light" in page


@pytest.mark.slow
def test_delicious_page_corrections_and_save(client: TestClient, store: Store,
                                             tmp_path: Path) -> None:
    photo = photo_with_a_field_to_review(tmp_path)  # an example photo, one letter half erased
    r = client.post("/delicious/upload", files=_files(photo), follow_redirects=False)
    url = r.headers["location"]
    sid = int(url.split("s=")[1])
    (reading,) = store.readings(sid)
    field = reading.doc["review"][0]
    total = reading.doc.get("score", {}).get("total")
    assert total is None  # the stored reading is the sheet's, scores are computed
    bad = client.post(f"/delicious/{sid}/correct",
                      data={"reading": reading.id, "field": field, "value": "dragonfruit"})
    assert bad.status_code == 400 and store.corrections(reading.id) == []
    client.post(f"/delicious/{sid}/correct", data={"reading": reading.id, "field": field,
                                                   "value": ""})
    assert [(c.field, c.value) for c in store.corrections(reading.id)] == [(field, None)]
    crop = client.get(f"/delicious/{sid}/crop/{reading.id}.png", params={"field": field})
    assert crop.headers["content-type"] == "image/png" and crop.content[:4] == b"\x89PNG"
    assert client.get(f"/delicious/{sid}/crop/{reading.id}.png",
                      params={"field": "../../x"}).status_code == 400
    overlay = client.get(f"/delicious/{sid}/overlay/{reading.id}.jpg")
    assert overlay.content[:2] == b"\xff\xd8"
    assert client.get(f"/delicious/{sid + 1}/overlay/{reading.id}.jpg").status_code == 404
    client.post(f"/delicious/{sid}/save")
    (play,) = store.plays()
    assert play.game == "delicious" and store.scoring(sid).play_id == play.id
    client.post(f"/delicious/{sid}/save")  # saving again replaces, never doubles
    assert len(store.plays()) == 1


@pytest.mark.slow
def test_delicious_page_names_a_lone_or_doubled_sheet_and_saves_whole_players(
        client: TestClient, store: Store) -> None:
    photos = EXAMPLES / "delicious/photos"
    garden, play = photos / "garden-player3.jpg", photos / "play-player3.jpg"
    r = client.post("/delicious/upload", files=_files(garden), follow_redirects=False)
    sid = int(r.headers["location"].split("s=")[1])
    (reading,) = store.readings(sid)
    code = reading.doc["code"]
    page = client.get(f"/delicious?s={sid}").text
    assert "not scored" in page and 'data-testid="total"' not in page
    assert f"player code {code}: the play sheet is missing" in page
    assert "Add the play sheet" in page and "Save to tonight" not in page
    overlay = client.get(f"/delicious/{sid}/overlay/{reading.id}.jpg")
    assert overlay.status_code == 200 and overlay.content[:2] == b"\xff\xd8"
    refused = client.post(f"/delicious/{sid}/save")
    assert refused.status_code == 422 and "the play sheet is missing" in refused.text
    assert store.plays() == []

    client.post("/delicious/upload", data={"s": str(sid)}, files=_files(play))
    page = client.get(f"/delicious?s={sid}").text
    assert page.count('data-testid="total"') == 1 and "not scored" not in page
    client.post(f"/delicious/{sid}/save")
    (saved,) = store.plays()
    assert [s.player.name for s in saved.seats] == ["garden-player3"]

    # two other photos of the same sheet (other bytes: the same bytes are kept once)
    again = [("photo", (name, garden.read_bytes() + b"\0" * n, "image/jpeg"))
             for n, name in ((1, garden.name), (2, "second-garden.jpg"))]
    r = client.post("/delicious/upload", files=again, follow_redirects=False)
    page = client.get(r.headers["location"]).text
    assert page.count('data-testid="not-scored-reason"') == 2
    assert (f"player code {code} is on 2 garden sheets (garden-player3.jpg and "
            "second-garden.jpg)") in page
    assert 'role="alert">no sheets' not in page and "Traceback" not in page


def test_a_bug_is_one_line_not_a_trace(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                      store: Store) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("a secret detail\nTraceback (most recent call last)")

    monkeypatch.setattr(printing, "print_pdf", broken)
    r = client.post("/print", data={"sheet": "delicious-combo"},
                    headers={"accept": "application/json"})
    assert r.status_code == 500
    assert r.json() == {"error": "internal error (RuntimeError); nothing was changed"}


def test_upload_without_length_refused(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b"--x\r\n"

    r = client.post("/api/dice/read", content=chunks(),
                    headers={"content-type": "multipart/form-data; boundary=x"})
    assert r.status_code == 400 and "Content-Length" in r.json()["error"]


def test_sizes_are_upright() -> None:
    buf = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6  # a phone held upright: stored landscape, shown portrait
    Image.new("RGB", (40, 30)).save(buf, "JPEG", exif=exif)
    info = sniff_image(buf.getvalue(), "phone.jpg")
    assert (info.media_type, info.width, info.height) == ("image/jpeg", 30, 40)


@pytest.mark.slow
def test_heic_from_a_phone(client: TestClient, store: Store) -> None:
    import pillow_heif

    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    Image.open(BLOCK).save(buf, format="HEIF", quality=90)
    r = client.post("/api/dice/read", files=[("photo", ("IMG_0001.HEIC", buf.getvalue(),
                                                          "application/octet-stream"))])
    assert r.status_code == 200 and r.json()["photo"] == "IMG_0001.HEIC"
    truth = json.loads(BLOCK.with_suffix(".json").read_text())
    assert len(r.json()["dice"]) == len(truth["dice"])


def test_forms_cannot_reach_other_scorings(client: TestClient, store: Store) -> None:
    night = store.current_night()
    dice_scoring = store.new_scoring("diced-veggies", night.id)
    other = store.new_scoring("delicious", night.id)
    _, reading = store.add_photo(BLOCK.read_bytes(), "image/jpeg", 1200, 1600,
                                 scoring_id=dice_scoring.id, role="block",
                                 reading=("dice-block", {"photo": "b.jpg", "dice": []}))
    assert reading is not None
    for path, data in ((f"/delicious/{other.id}/undo", {"reading": reading.id}),
                       (f"/delicious/{dice_scoring.id}/undo", {"reading": reading.id}),
                       (f"/dice/{other.id}/correct", {"reading": reading.id, "undo": "1"}),
                       ("/dice/upload", {"role": "after", "s": dice_scoring.id})):
        files = [("photo", ("b.jpg", BLOCK.read_bytes(), "image/jpeg"))] if "upload" in path \
            else None
        r = client.post(path, data=data, files=files)
        assert r.status_code in (400, 404), path
    assert len(store.photos(dice_scoring.id)) == 1


def test_favicon_and_the_web_app_manifest(client: TestClient) -> None:
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico.headers["content-type"] == "image/x-icon"
    assert ico.content[:4] == b"\x00\x00\x01\x00"  # an ICO file
    home = client.get("/").text
    assert 'rel="manifest"' in home and 'rel="icon"' in home
    manifest = client.get("/static/app.webmanifest")
    assert manifest.status_code == 200
    doc = manifest.json()
    assert doc["display"] == "standalone" and doc["start_url"] == "/"
    sizes = set()
    for icon in doc["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.content[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
