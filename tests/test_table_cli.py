"""A table of photos through the CLI: pairing by code only, a batch read photo by photo,
one verdict for a photo-wide reason, ``--set`` checked like a field map, missing
Tesseract, and the smaller problems a new user met (issue: a table of photos)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from companion.fileio import read_json_object
from companion.games.delicious.fieldmap import load_field_map
from companion.games.delicious.simulate import simulate_game
from companion.vision.register import sheet_label
from companion.vision.sheet.constants import OVERLAY_RED_BGR
from tests.conftest import Invoke, one_line_error
from tools.synth.camera import CameraOptions
from tools.synth.shared_data import shared_data
from tools.synth.sheet_photo import render_sheet_photo

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "examples" / "delicious" / "photos"
GARDEN = str(PHOTOS / "garden-player3.jpg")  # player code R8WN
PLAY = str(PHOTOS / "play-player3.jpg")
COMBO = str(PHOTOS / "combo-good-light.jpg")
DICE_MAT = str(ROOT / "examples" / "dice" / "photos" / "mat-full.jpg")
REAL_NEGATIVES = shared_data("photos", "omrchecker")
CAMERA = CameraOptions.good_light().sized(2600)

pytestmark = pytest.mark.usefixtures("read_each_photo_once")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Two players' garden and play sheets, printed with ``--players 2``-style codes."""
    out = tmp_path_factory.mktemp("table")
    game = simulate_game(11, 2, "A")
    paths: dict[str, str] = {}
    for i, (name, code) in enumerate((("ann", "AN12"), ("bob", "BO34"))):
        for sheet in ("garden", "play"):
            shot = render_sheet_photo(f"delicious-{sheet}", game.field_maps[i], 50 + 2 * i +
                                      (sheet == "play"), camera=CAMERA, code=code)
            path = out / f"{sheet}-{name}.jpg"
            path.write_bytes(shot.photo.jpeg)
            paths[f"{sheet}-{name}"] = str(path)
    return paths


def _doc(result: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


# ---- 1. a lone half is not scored --------------------------------------------------------


def test_lone_play_sheet_is_not_scored(cli: Invoke) -> None:
    r = cli("delicious", "read", PLAY)
    assert r.exit_code == 1, r.output
    assert "TOTAL" not in r.stdout and "all good" not in r.stdout
    assert "player code R8WN: the garden sheet is missing" in r.stdout
    doc = _doc(cli("delicious", "read", PLAY, "--json"))
    assert doc["players"] == [] and doc["errors"] == []
    (problem,) = doc["pairing"]
    assert problem["code"] == "missing-garden-sheet" and problem["missing"] == "delicious-garden"
    assert problem["player_code"] == "R8WN" and problem["photos"] == [PLAY]


def test_lone_garden_says_the_play_sheet_is_missing_and_the_overlay_too(
        cli: Invoke, tmp_path: Path) -> None:
    r = cli("delicious", "read", GARDEN, "--overlay", str(tmp_path))
    assert r.exit_code == 1
    assert "too-many-vegetables" not in r.stdout and "0 cards used" not in r.stdout
    assert "player code R8WN: the play sheet is missing" in r.stdout
    overlay = cv2.imread(str(tmp_path / "garden-player3.overlay.png"))
    red = np.all(overlay == np.array(OVERLAY_RED_BGR, np.uint8), axis=2)
    ys = np.nonzero(red)[0]
    # red only in the note across the top: no field painted as a rule problem
    assert red.sum() > 500 and ys.max() < overlay.shape[0] * 0.2


def test_two_photos_of_one_name_get_an_overlay_each(cli: Invoke, tmp_path: Path) -> None:
    """Two phones' IMG_0001.jpg in two folders: the second overlay no longer replaces the
    first in the --overlay folder."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(GARDEN, tmp_path / "a" / "IMG_0001.jpg")
    shutil.copy(PLAY, tmp_path / "b" / "IMG_0001.jpg")
    r = cli("delicious", "read", str(tmp_path / "a" / "IMG_0001.jpg"),
            str(tmp_path / "b" / "IMG_0001.jpg"), "--overlay", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    made = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert made == ["IMG_0001-2.overlay.png", "IMG_0001.overlay.png"]
    assert all(f"wrote {tmp_path / 'out' / m}" in r.stderr for m in made)


def test_one_photo_under_two_names_is_refused(cli: Invoke, tmp_path: Path) -> None:
    """GARDEN and ./GARDEN (or a link to it) are one sheet, not two players."""
    (tmp_path / "link.jpg").symlink_to(GARDEN)
    dotted = GARDEN.replace("/photos/", "/photos/./")
    for other in (dotted, str(tmp_path / "link.jpg")):
        line = one_line_error(cli("delicious", "read", GARDEN, other, PLAY))
        assert line.endswith(f"{GARDEN} and {other} are the same photo; give each once")


def test_one_photo_copied_under_two_names_is_refused(cli: Invoke, tmp_path: Path) -> None:
    """``cp a.jpg b.jpg``: the same bytes are one sheet, never two players who tie."""
    copy = tmp_path / "copy.jpg"
    shutil.copy(GARDEN, copy)
    for photos in ((GARDEN, str(copy), PLAY), (PLAY, GARDEN, str(copy))):
        line = one_line_error(cli("delicious", "read", *photos, "--json"))
        assert line.endswith(f"{GARDEN} and {copy} are copies of one photo (the same bytes): "
                             "each sheet is its own photo; give each once")


# ---- 2. one code on two gardens is refused, never paired by order ------------------------


def test_two_gardens_with_one_code_are_refused_naming_both(cli: Invoke, tmp_path: Path) -> None:
    second = tmp_path / "garden-copy.jpg"  # another photo of it (a copy's bytes are refused)
    second.write_bytes(Path(GARDEN).read_bytes() + b"\0")
    r = cli("delicious", "read", GARDEN, str(second), PLAY, "--json")
    assert r.exit_code == 1
    doc = _doc(r)
    assert doc["players"] == []
    (problem,) = doc["pairing"]
    assert problem["code"] == "same-code-twice"
    assert GARDEN in problem["message"] and str(second) in problem["message"]
    assert set(problem["photos"]) == {GARDEN, str(second), PLAY}
    assert "--players" in problem["message"]


def test_distinct_codes_pair_whatever_the_order(cli: Invoke, table: dict[str, str]) -> None:
    r = cli("delicious", "read", table["play-bob"], table["garden-ann"], table["play-ann"],
            table["garden-bob"], "--json")
    doc = _doc(r)
    assert r.exit_code in (0, 1) and doc["pairing"] == [] and doc["errors"] == []
    pairs = {p["code"]: p["photos"] for p in doc["players"]}
    assert pairs == {"BO34": [table["garden-bob"], table["play-bob"]],
                     "AN12": [table["garden-ann"], table["play-ann"]]}
    assert len(doc["ranking"]) == 2


def test_a_missing_half_leaves_the_rest_of_the_table_scored(
        cli: Invoke, table: dict[str, str]) -> None:
    r = cli("delicious", "read", table["garden-ann"], table["play-ann"], table["garden-bob"])
    assert r.exit_code == 1
    assert "player code BO34: the play sheet is missing" in r.stdout
    assert r.stdout.count("TOTAL") == 1


# ---- 3. one bad photo does not lose the others ------------------------------------------


def test_bad_photo_in_a_batch_is_named_and_the_rest_is_scored(
        cli: Invoke, table: dict[str, str]) -> None:
    args = [table["garden-ann"], DICE_MAT, table["play-ann"], COMBO]
    r = cli("delicious", "read", *args, "--json")
    assert r.exit_code == 2
    doc = _doc(r)
    assert [e["photo"] for e in doc["errors"]] == [DICE_MAT]
    assert "Diced Veggies dice mat" in doc["errors"][0]["error"]  # named for people
    assert len(doc["players"]) == 2 and len(doc["ranking"]) == 2
    assert r.stderr.strip().splitlines() == [
        f"companion: error: {DICE_MAT}: {doc['errors'][0]['error']}"]
    text = cli("delicious", "read", *args)
    assert text.exit_code == 2 and text.stdout.count("TOTAL") == 2
    assert DICE_MAT in text.stderr


@pytest.mark.skipif(REAL_NEGATIVES is None, reason="real photos not on this machine")
def test_real_photo_without_a_sheet_in_a_batch(cli: Invoke) -> None:
    assert REAL_NEGATIVES is not None
    real = str(sorted(REAL_NEGATIVES.glob("*.jpg"))[0])
    r = cli("delicious", "read", COMBO, real, "--json")
    doc = _doc(r)
    assert r.exit_code == 2 and [e["photo"] for e in doc["errors"]] == [real]
    assert [p["photo"] for p in doc["players"]] == [COMBO]


def test_one_unreadable_photo_alone_is_one_line_naming_it(cli: Invoke) -> None:
    line = one_line_error(cli("delicious", "read", DICE_MAT), 2)
    assert DICE_MAT in line


# ---- 4. Tesseract missing ---------------------------------------------------------------


def test_missing_tesseract_program_is_one_line(cli: Invoke,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pytesseract = pytest.importorskip("pytesseract")
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    line = one_line_error(cli("delicious", "read", COMBO, "--reader", "tesseract"), 2)
    assert "tesseract" in line and "--reader ours" in line


def test_missing_pytesseract_package_is_one_line(cli: Invoke,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pytesseract", None)
    line = one_line_error(cli("delicious", "read", COMBO, "--reader", "tesseract"), 2)
    assert "pytesseract" in line


# ---- 5. --set values are checked like a field map's --------------------------------------


@pytest.mark.parametrize("value", ["Carrot", "banana", "F"])
def test_set_refuses_what_the_field_cannot_hold(cli: Invoke, value: str) -> None:
    line = one_line_error(cli("delicious", "read", COMBO,
                              "--set", f"garden.wheelbarrow.r0.c0={value}"), 2)
    assert "broccoli, carrot, lettuce" in line and repr(value) in line


def test_set_takes_a_legend_letter_and_score_takes_the_map(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "fixed.json"
    r = cli("delicious", "read", COMBO, "--json", "-o", str(out),
            "--set", "garden.wheelbarrow.r2.c0=c", "--set", "garden.planter.r0.c0=W")
    doc = _doc(r)
    assert doc["fields"]["garden.wheelbarrow.r2.c0"] == "carrot"
    assert doc["fields"]["garden.planter.r0.c0"] == "watermelon"
    fm = load_field_map(read_json_object(out))
    assert fm.fields == doc["fields"]
    score = cli("delicious", "score", str(out), "--json")
    assert score.exit_code in (0, 1) and _doc(score)["total"] == doc["score"]["total"]
    # the letter is taken only where it names a value of that field: C is no fruit
    line = one_line_error(cli("delicious", "read", COMBO, "--set", "garden.planter.r0.c0=C"))
    assert "blueberry" in line and "one letter: B blueberry" in line


# ---- 6. a low-resolution photo gets one verdict -----------------------------------------


def test_low_resolution_photo_gets_one_verdict(cli: Invoke, tmp_path: Path) -> None:
    big = cv2.imread(COMBO)
    h, w = big.shape[:2]
    small = tmp_path / "small.jpg"
    cv2.imwrite(str(small), cv2.resize(big, (800, round(h * 800 / w)),
                                       interpolation=cv2.INTER_AREA))
    r = cli("delicious", "read", str(small))
    assert r.stdout.count("retake the photo closer or at a higher resolution") == 1
    assert "  ? " not in r.stdout  # no line per field
    doc = _doc(cli("delicious", "read", str(small), "--json"))
    (verdict,) = doc["verdicts"]
    assert verdict["code"] == "low-detail" and len(doc["review"]) >= 20
    assert verdict["fields"] == sorted(doc["review"])


def test_out_of_focus_photo_says_so_not_closer(cli: Invoke, tmp_path: Path) -> None:
    """Too little detail from a blur, not from distance: coming closer would not help."""
    blurred = tmp_path / "blurred.jpg"
    cv2.imwrite(str(blurred), cv2.GaussianBlur(cv2.imread(COMBO), (0, 0), 4))
    doc = _doc(cli("delicious", "read", str(blurred), "--json"))
    (verdict,) = doc["verdicts"]
    assert verdict["code"] == "low-detail" and verdict["fields"] == sorted(doc["review"])
    assert "out of focus: retake it holding the phone still" in verdict["message"]
    assert "closer" not in verdict["message"]


def test_dim_grainy_photo_gets_one_verdict(cli: Invoke, tmp_path: Path) -> None:
    """A dim room: the phone's gain turns the paper to grain. Every doubt is put down to the
    light, said once, and nothing wrong is trusted."""
    img = cv2.imread(COMBO).astype(np.float32) * 0.3
    img += np.random.default_rng(3).normal(0.0, 15.0, img.shape)
    dim = tmp_path / "dim.jpg"
    cv2.imwrite(str(dim), np.clip(img, 0, 255).astype(np.uint8))
    r = cli("delicious", "read", str(dim))
    assert r.stdout.count("too dark or grainy: retake the photo in better light") == 1
    doc = _doc(cli("delicious", "read", str(dim), "--json"))
    (verdict,) = doc["verdicts"]
    assert verdict["code"] == "low-light" and len(doc["review"]) >= 5
    assert verdict["fields"] == sorted(doc["review"])
    truth = read_json_object(COMBO.replace(".jpg", ".truth.json"))["fields"]
    wrong = {f for f, v in truth.items() if doc["fields"].get(f) != v}
    assert wrong <= set(doc["review"])
    assert _doc(cli("delicious", "read", COMBO, "--json"))["verdicts"] == []


def test_glare_is_one_verdict_and_no_silent_error(cli: Invoke, tmp_path: Path) -> None:
    """A reflection clipped to white over the planter: its letters are gone, so every field
    there goes to review under one verdict instead of reading empty with confidence."""
    img = cv2.imread(COMBO).astype(np.float32)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    spot = np.exp(-(((xx - 0.3 * w) / (0.12 * w)) ** 2 + ((yy - 0.75 * h) / (0.09 * h)) ** 2) ** 2)
    glared = tmp_path / "glare.jpg"
    cv2.imwrite(str(glared), np.clip(img + 1.2 * 255 * spot[..., None], 0, 255).astype(np.uint8))
    r = cli("delicious", "read", str(glared), "--json")
    doc = _doc(r)
    (verdict,) = doc["verdicts"]
    assert verdict["code"] == "glare" and "the planter" in verdict["message"]
    truth = json.loads(Path(COMBO).with_suffix(".truth.json").read_text())["fields"]
    wrong = {f for f in doc["confidence"] if doc["fields"].get(f) != truth.get(f)}
    assert wrong and wrong <= set(doc["review"])
    text = cli("delicious", "read", str(glared)).stdout
    assert text.count("glare over the planter") == 1


# ---- 7. the smaller ones ----------------------------------------------------------------


def test_out_with_several_players_says_which_file_is_whose(
        cli: Invoke, table: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "night.json"
    r = cli("delicious", "read", table["garden-ann"], table["play-ann"], table["garden-bob"],
            table["play-bob"], "-o", str(out))
    for i, name in ((1, "garden-ann"), (2, "garden-bob")):
        path = tmp_path / f"night-player{i}.json"
        assert f"wrote {path} ({name}: " in r.stderr
        assert path.is_file()
    assert "-o" in cli("delicious", "read", "--help").stdout and "OUT-player1.json" in cli(
        "delicious", "read", "--help").stdout


def test_score_from_stdin_is_named_stdin(cli: Invoke) -> None:
    doc = json.loads((ROOT / "examples" / "delicious" / "seed7-player1.json").read_text())
    doc.pop("player", None)
    r = cli("delicious", "score", "-", "--json", stdin=json.dumps(doc))
    assert _doc(r)["player"] == "stdin"


def test_dulce_illegal_plant_is_a_verdict_not_an_error(cli: Invoke) -> None:
    r = cli("dulce", "plant", str(ROOT / "examples" / "dulce" / "plant.json"),
            "--card", "6", "--at", "2,2")
    assert r.exit_code == 1
    assert r.stdout.startswith("illegal: ") and "error" not in r.output


def test_impossible_deli_duel_table_is_not_no_winner_yet(
        cli: Invoke, write: Callable[[str, Any], str]) -> None:
    state = write("s.json", {"game": "deli-duel", "players": [
        {"name": "Ava", "completed_orders": 9}, {"name": "Ben", "completed_orders": 9}]})
    r = cli("deli-duel", "winner", state)
    assert r.exit_code == 1 and "problem:" in r.stdout
    assert "No winner yet" not in r.stdout


def test_dice_overlays_say_where_they_went(cli: Invoke, tmp_path: Path) -> None:
    photo = str(ROOT / "examples" / "dice" / "photos" / "table-full.jpg")
    for command in ("read", "cuts"):
        out = tmp_path / f"{command}.png"
        r = cli("dice", command, photo, "--overlay", str(out))
        assert f"wrote {out}" in r.stderr and out.is_file()


def test_a_block_of_odd_dice_is_a_few_warnings(cli: Invoke,
                                               write: Callable[[str, Any], str]) -> None:
    kinds = ["carrot", "mushroom", "onion", "pepper", "tomato"]
    dice = [{"row": r, "col": c, "ingredient": kinds[(r * 12 + c) % 5], "value": 1}
            for r in range(12) for c in range(12)]
    r = cli("dice", "cuts", write("block.json", {"dice": dice}))
    warnings = [ln for ln in r.stderr.splitlines() if "warning" in ln]
    assert 1 <= len(warnings) <= 2 and "144 dice" in warnings[0]


def test_usage_error_is_one_line(cli: Invoke) -> None:
    line = one_line_error(cli("delicious", "read", "--jsn", COMBO), 2)
    assert "--jsn" in line and "companion delicious read --help" in line


# ---- sheets print --players ------------------------------------------------------------


def test_print_for_players_gives_each_its_own_code(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "table.pdf"
    r = cli("sheets", "print", "delicious-garden", "delicious-play", "--players", "3",
            "-o", str(out))
    assert r.exit_code == 0, r.output
    pdf = pdfium.PdfDocument(str(out))
    try:
        # The reader's own decoder: OpenCV's detector misses some codes on a clean render
        # (the play sheet coded FW72, for one), so it would make this test flaky.
        labels = [sheet_label(np.asarray(page.render(scale=150 / 72).to_pil().convert("L")))
                  for page in pdf]
    finally:
        pdf.close()
    found = [lab for lab in labels if lab is not None]  # play sheets have a tally page behind
    assert [lab.sheet for lab in found] == ["delicious-garden", "delicious-play"] * 3
    codes = [lab.code for lab in found]
    assert codes[0::2] == codes[1::2]  # each player's garden and play share a code
    assert len(set(codes)) == 3 and all(c in r.stdout for c in codes)


def test_a_code_opencv_misses_still_labels_the_play_sheet(cli: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "fw72.pdf"
    r = cli("sheets", "print", "delicious-play", "--code", "FW72", "-o", str(out))
    assert r.exit_code == 0, r.output
    pdf = pdfium.PdfDocument(str(out))
    try:
        grey = np.asarray(pdf[0].render(scale=150 / 72).to_pil().convert("L"))
    finally:
        pdf.close()
    label = sheet_label(grey)
    assert label is not None and (label.sheet, label.code) == ("delicious-play", "FW72")
