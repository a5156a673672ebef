"""End to end: the reader on the committed synthetic photos in examples/delicious/photos.

Each photo has a truth file (a field map plus how it was made). The reader must get every
field right, or at least put a field it gets wrong in ``review``: never a silent error.
Remake the photos with ``python -m tools.bench_reader --examples`` when the sheets'
artwork changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games.delicious.fieldmap import load_field_map
from companion.games.delicious.scoring import score
from companion.games.delicious.state import SheetState
from tests.conftest import SheetReadings, read_sheet_once

PHOTOS = Path(__file__).resolve().parent.parent / "examples" / "delicious" / "photos"
TRUTHS = sorted(PHOTOS.glob("*.truth.json"))
MAX_PHOTO_BYTES = 600 * 1024
MAX_REVIEW_FRACTION = 0.25  # a reader that doubts everything is no help either

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("read_each_photo_once")]


def _invoke(args: list[str]) -> Any:
    """Run ``companion delicious read ARGS`` through the root command."""
    return CliRunner().invoke(main, ["delicious", "read", *args])


def _photo(truth_path: Path) -> Path:
    return truth_path.with_name(truth_path.name.removesuffix(".truth.json") + ".jpg")


def _truth(truth_path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(truth_path.read_text())
    return doc


@pytest.fixture(scope="module")
def readings(sheet_readings: SheetReadings) -> dict[str, Any]:
    """Read every example once (with our reader) for the tests below, the command's
    included."""
    return {p.name: read_sheet_once(sheet_readings, str(_photo(p))) for p in TRUTHS}


def test_the_examples_are_there() -> None:
    names = {p.name.removesuffix(".truth.json") for p in TRUTHS}
    assert len(names) >= 4
    sheets = {_truth(p)["sheet"] for p in TRUTHS}
    assert sheets == {"delicious-combo", "delicious-garden", "delicious-play"}
    for p in TRUTHS:
        photo = _photo(p)
        assert photo.exists(), f"{photo} is missing"
        assert photo.stat().st_size < MAX_PHOTO_BYTES
        load_field_map(_truth(p))  # a truth file is a valid field map as it stands


@pytest.mark.parametrize("truth_path", TRUTHS, ids=lambda p: p.name.split(".")[0])
def test_reader_is_right_or_says_so(truth_path: Path, readings: dict[str, Any]) -> None:
    truth = _truth(truth_path)
    reading = readings[truth_path.name]
    assert reading.sheet == truth["sheet"]
    assert reading.variant == truth["variant"]
    assert reading.code == truth["code"]
    want: dict[str, str] = truth["fields"]
    got: dict[str, str] = reading.fields
    on_sheet = set(reading.readings)
    assert set(want) <= on_sheet
    wrong = sorted(f for f in on_sheet if want.get(f) != got.get(f))
    silent = [f"{f}: true={want.get(f)} read={got.get(f)}" for f in wrong
              if f not in reading.review]
    assert not silent, "silent errors: " + "; ".join(silent)
    assert len(reading.review) <= MAX_REVIEW_FRACTION * len(on_sheet), reading.review


def _check_contract(doc: dict[str, Any]) -> None:
    """The shape docs/contracts.md promises for one photo read with --json."""
    for key in ("photo", "sheet", "variant", "fields", "confidence", "review", "violations",
                "score", "seconds"):
        assert key in doc, f"missing {key!r}"
    assert isinstance(doc["fields"], dict)
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in doc["fields"].items())
    assert isinstance(doc["confidence"], dict)
    assert all(0.0 <= float(c) <= 1.0 for c in doc["confidence"].values())
    assert set(doc["fields"]) <= set(doc["confidence"])
    assert isinstance(doc["review"], list) and set(doc["review"]) <= set(doc["confidence"])
    assert isinstance(doc["violations"], list)
    for v in doc["violations"]:
        assert {"code", "fields", "message"} <= set(v)
    assert isinstance(doc["score"]["total"], int)
    assert "breakdown" in doc["score"]
    assert float(doc["seconds"]) >= 0


@pytest.mark.parametrize("name", ["combo-good-light", "combo-tilted-shadow"])
def test_read_json_matches_the_contract_and_the_score(name: str) -> None:
    photo = PHOTOS / f"{name}.jpg"
    result = _invoke([str(photo), "--json"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    _check_contract(doc)
    assert doc["photo"].endswith(photo.name)
    truth = _truth(PHOTOS / f"{name}.truth.json")
    if not doc["review"]:  # an empty review list is a promise: the score must be exact
        assert doc["fields"] == truth["fields"]
        expected = score(SheetState.from_field_map(truth["fields"], truth["variant"]))
        assert doc["score"]["total"] == expected.total


def test_garden_and_play_photos_of_one_player_merge() -> None:
    """Two photos sharing a player code read as one player's paper."""
    garden, play = PHOTOS / "garden-player3.jpg", PHOTOS / "play-player3.jpg"
    result = _invoke([str(garden), str(play), "--json"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    players = doc if isinstance(doc, list) else doc.get("players", [doc])
    merged = [p for p in players if isinstance(p, dict) and "fields" in p]
    assert len(merged) == 1, "garden and play of one code should give one player"
    fields = merged[0]["fields"]
    truth = {**_truth(PHOTOS / "garden-player3.truth.json")["fields"],
             **_truth(PHOTOS / "play-player3.truth.json")["fields"]}
    review = set(merged[0].get("review", []))
    wrong = {f for f in set(truth) | set(fields) if truth.get(f) != fields.get(f)}
    assert wrong <= review, f"silent errors in the merged reading: {sorted(wrong - review)}"


def test_unreadable_photo_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-photo.jpg"
    bad.write_bytes(b"this is not a JPEG")
    result = _invoke([str(bad), "--json"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.output.strip().startswith("companion: error:")
    assert len(result.output.strip().splitlines()) == 1
