"""``companion delicious read`` through the real root command (CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.fileio import read_json_object
from companion.games.delicious.fieldmap import load_field_map
from companion.games.delicious.simulate import simulate_game
from tests.conftest import one_line_error
from tools.synth.camera import CameraOptions
from tools.synth.sheet_photo import render_sheet_photo

pytestmark = pytest.mark.usefixtures("read_each_photo_once")
CAMERA = CameraOptions.good_light().sized(2600)
CONTRACT_KEYS = {"photo", "sheet", "variant", "fields", "confidence", "review", "violations",
                 "score", "seconds"}


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two players' combo sheets from one simulated game, as JPEG files."""
    out = tmp_path_factory.mktemp("photos")
    game = simulate_game(3, 2, "A")
    paths = {}
    for i, name in enumerate(("ann", "bob")):
        shot = render_sheet_photo("delicious-combo", game.field_maps[i], 30 + i, camera=CAMERA,
                                  code=f"AB1{i}")
        path = out / f"{name}.jpg"
        path.write_bytes(shot.photo.jpeg)
        paths[name] = path
        (out / f"{name}.truth.json").write_text(json.dumps(shot.truth))
    return paths


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["delicious", "read", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_contract(photos: dict[str, Path]) -> None:
    code, out, _ = _run(str(photos["ann"]), "--json")
    doc = json.loads(out)
    assert CONTRACT_KEYS <= set(doc)
    assert doc["sheet"] == "delicious-combo" and doc["variant"] == "A"
    assert set(doc["review"]) <= set(doc["confidence"])
    assert set(doc["fields"]) <= set(doc["confidence"])
    assert doc["score"]["total"] == sum(doc["score"]["breakdown"]["containers"].values()) + sum(
        doc["score"]["breakdown"][k]
        for k in ("planter", "veg_bonus", "fruit_bonus", "honey", "first_potter"))
    assert code == (1 if doc["violations"] else 0)
    truth = json.loads(photos["ann"].with_suffix(".truth.json").read_text())
    wrong = [f for f in doc["confidence"] if doc["fields"].get(f) != truth.get(f)]
    assert set(wrong) <= set(doc["review"])  # never a silent error


def test_set_corrects_and_out_writes_a_field_map(photos: dict[str, Path], tmp_path: Path) -> None:
    out_map = tmp_path / "reading.json"
    code, out, _ = _run(str(photos["ann"]), "--json", "-o", str(out_map),
                        "--set", "garden.honey=circled", "--set", "play.veg-bonus=")
    doc = json.loads(out)
    assert doc["fields"]["garden.honey"] == "circled"
    assert "play.veg-bonus" not in doc["fields"]
    assert doc["confidence"]["garden.honey"] == 1.0 and "garden.honey" not in doc["review"]
    fm = load_field_map(read_json_object(out_map))
    assert fm.fields == doc["fields"] and fm.variant == "A"
    score = CliRunner().invoke(main, ["delicious", "score", str(out_map), "--json"])
    assert json.loads(score.stdout)["total"] == doc["score"]["total"]


def test_two_photos_give_a_ranking_and_overlays(photos: dict[str, Path], tmp_path: Path) -> None:
    code, out, _ = _run(str(photos["ann"]), str(photos["bob"]), "--json",
                        "--overlay", str(tmp_path / "ov"))
    doc = json.loads(out)
    assert [p["player"] for p in doc["players"]] == ["ann", "bob"]
    assert sorted(s["player"] for s in doc["ranking"]) == ["ann", "bob"]
    assert (tmp_path / "ov" / "ann.overlay.png").stat().st_size > 10_000
    assert (tmp_path / "ov" / "bob.overlay.png").is_file()


def test_overlay_to_a_file_for_one_photo(photos: dict[str, Path], tmp_path: Path) -> None:
    """--overlay is a file when it ends in .png or .jpg (as for dice read), else a folder."""
    out = tmp_path / "ann-sheet.png"
    code, _, err = _run(str(photos["ann"]), "--overlay", str(out))
    assert code in (0, 1), err
    assert out.stat().st_size > 10_000
    code, _, err = _run(str(photos["ann"]), str(photos["bob"]), "--overlay", str(out))
    assert code == 2 and "give a folder" in err


def test_human_output(photos: dict[str, Path]) -> None:
    code, out, _ = _run(str(photos["bob"]))
    assert "TOTAL" in out and "Read " in out
    assert code in (0, 1)


def test_not_an_image_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    code, out, err = _run(str(bad))
    assert code == 2 and out == ""
    assert err.startswith("companion: error:") and err.count("\n") == 1


def test_missing_file_and_truncated_exit_2(tmp_path: Path, photos: dict[str, Path]) -> None:
    code, _, err = _run(str(tmp_path / "nope.jpg"))
    assert code == 2 and "no such file" in err
    cut = tmp_path / "cut.jpg"
    data = photos["ann"].read_bytes()
    cut.write_bytes(data[: len(data) // 3])
    code, _, err = _run(str(cut))
    assert code == 2 and "truncated" in err and "Traceback" not in err


def test_photo_without_a_sheet_exit_2(tmp_path: Path) -> None:
    import numpy as np
    from PIL import Image

    path = tmp_path / "table.png"
    Image.fromarray(np.full((600, 800, 3), 128, np.uint8)).save(path)
    code, _, err = _run(str(path))
    assert code == 2 and "found 0 of 4 corner markers" in err


def test_two_sheets_in_one_photo_exit_2(photos: dict[str, Path], tmp_path: Path) -> None:
    """Two players' sheets in one photo: refused in one line, not one of them read."""
    import cv2
    import numpy as np

    ann, bob = (cv2.imread(str(photos[n])) for n in ("ann", "bob"))
    path = tmp_path / "both.jpg"
    cv2.imwrite(str(path), np.hstack([ann, bob]))
    result = CliRunner().invoke(main, ["delicious", "read", str(path), "--json"])
    assert one_line_error(result).endswith(
        "both.jpg: this photo shows more than one sheet; photograph each sheet on its own")
    assert result.stdout == ""


def test_a_sheet_scanned_to_pdf_reads_as_its_photo(photos: dict[str, Path],
                                                   tmp_path: Path) -> None:
    from PIL import Image

    scan = tmp_path / "ann.pdf"
    Image.open(photos["ann"]).save(scan, "PDF", resolution=150.0)
    by_photo, by_scan = (json.loads(_run(str(p), "--json")[1]) for p in (photos["ann"], scan))
    assert by_scan["score"]["total"] == by_photo["score"]["total"]
    assert by_scan["code"] == "AB10"


def test_bad_set_exit_2(photos: dict[str, Path]) -> None:
    code, _, err = _run(str(photos["ann"]), "--set", "garden.nowhere=carrot")
    assert code == 2 and "garden.nowhere" in err
    code, _, err = _run(str(photos["ann"]), "--set", "no-equals-sign")
    assert code == 2 and "FIELD=VALUE" in err


def test_set_says_what_was_set_by_hand_not_read_with_confidence(photos: dict[str, Path]
                                                                ) -> None:
    _, out, _ = _run(str(photos["bob"]), "--set", "garden.honey=")
    assert "Every field was read with confidence" not in out
    assert "Nothing left to check (1 field set by hand)." in out or "Please check" in out


def test_a_field_to_check_is_named_in_words_too(tmp_path: Path) -> None:
    from tools.example_photos import photo_with_a_field_to_review

    _, out, _ = _run(str(photo_with_a_field_to_review(tmp_path)))
    # the erased letter, and any letter the sketch gate asks about as one question
    assert re.search(r"Please check \d+ fields? \(least certain first\):", out)
    assert "garden.planter.r0.c1" in out  # the id --set takes
    assert "(Planter, top row, second from the left)" in out


def test_the_dice_mat_is_named_for_people() -> None:
    mat = Path(__file__).resolve().parent.parent / "examples/dice/photos/mat-full.jpg"
    code, _, err = _run(str(mat))
    assert code == 2
    assert "That's the Diced Veggies dice mat, not a Delicious sheet" in err
    assert "Dice page" in err and "diced-veggies-mat" not in err


def test_save_with_player_names_ranks_by_those_names(photos: dict[str, Path],
                                                     tmp_path: Path) -> None:
    code, out, err = _run(str(photos["ann"]), str(photos["bob"]), "--save", "--player", "Zoe",
                          "--player", "Yan", "--data", str(tmp_path / "data"))
    assert code == 0, err
    ranking = out[out.index("Ranking"):].splitlines()[2:4]
    assert sorted(line.split()[1] for line in ranking) == ["Yan", "Zoe"]  # not ann, bob
