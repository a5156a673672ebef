"""``companion dice cuts|check|score`` through click's CliRunner."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InputError
from companion.fileio import read_json_object
from companion.games.diced_veggies.cut import Cut
from companion.games.diced_veggies.model import Block
from tests.conftest import invoke, one_line_error, write_doc

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "dice"
FULL = str(EXAMPLES / "block-full.json")


def run(*args: str):
    return invoke("dice", *args)


def write(tmp_path: Path, name: str, doc) -> str:
    return write_doc(tmp_path, name, doc)



# ---- cuts -------------------------------------------------------------------------------


def test_cuts_json_shape_on_the_full_block():
    result = run("cuts", FULL, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["take_all"] is False
    assert len(doc["cuts"]) == 15
    block = Block.from_json(read_json_object(FULL))
    seen = set()
    for entry in doc["cuts"]:
        assert set(entry) >= {"seam", "index", "from", "depth", "push", "taken", "sum"}
        assert entry["seam"] in ("vertical", "horizontal")
        assert entry["from"] in ("top", "bottom", "left", "right")
        assert entry["push"] in ("left", "right", "up", "down")
        assert entry["depth"] is None or entry["depth"] >= 1
        taken = frozenset(tuple(c) for c in entry["taken"])
        assert taken not in seen
        seen.add(taken)
        assert entry["sum"] == sum(block.values[c] for c in taken) <= 10


def test_cuts_human_output_and_options():
    result = run("cuts", FULL)
    assert result.exit_code == 0
    assert "15 legal cuts:" in result.stdout
    assert "V1T1L" in result.stdout
    full = json.loads(run("cuts", FULL, "--json", "--full-only").stdout)
    assert all(c["depth"] is None for c in full["cuts"])
    kids = json.loads(run("cuts", FULL, "--json", "--kids").stdout)
    assert all(len(c["taken"]) <= 3 for c in kids["cuts"])


def test_cuts_take_all():
    path = str(EXAMPLES / "block-take-all.json")
    doc = json.loads(run("cuts", path, "--json").stdout)
    assert doc == {"take_all": True, "cuts": [], "dice": 3, "total": 9}
    assert "Take the whole block" in run("cuts", path).stdout


def test_overlay_needs_a_photo(tmp_path):
    line = one_line_error(run("cuts", FULL, "--overlay", str(tmp_path / "o.png")))
    assert "--overlay needs a photo" in line


# ---- check ------------------------------------------------------------------------------


def test_check_a_legal_cut():
    result = run("check", FULL, "--cut", "V2T1L", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["legal"] is True and doc["reasons"] == []
    assert doc["taken"] == [[0, 0], [0, 1]] and doc["sum"] == 4
    human = run("check", FULL, "--cut", "v2-t1-l")
    assert human.exit_code == 0 and human.stdout.startswith("legal: V2T1L takes (0,0) (0,1)")


def test_check_an_illegal_cut_exits_1():
    result = run("check", FULL, "--cut", "V3L", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["legal"] is False
    assert doc["reasons"] == ["over the limit: the pushed dice total 48 pips, more than 10"]
    human = run("check", FULL, "--cut", "V3L")
    assert human.exit_code == 1 and "  - over the limit" in human.stdout


def test_check_before_after():
    before, after = str(EXAMPLES / "before.json"), str(EXAMPLES / "after.json")
    result = run("check", before, after, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["legal"] and doc["taken"] == [[4, 0]] and doc["offset"] == [0, -1]
    assert doc["cut"]["spec"] == "V1B1L"


def test_check_before_after_illegal_and_split_after(tmp_path):
    before = write(tmp_path, "before.json", {"dice": [
        {"row": 0, "col": c, "ingredient": "carrot", "value": 5} for c in range(3)]})
    after = write(tmp_path, "after.json", {"dice": [
        {"row": 0, "col": c, "ingredient": "carrot", "value": 5} for c in (0, 2)]})
    result = run("check", before, after)
    assert result.exit_code == 1
    assert result.stdout.startswith("illegal: (0,1) taken (5 pips)")
    assert "not a straight push from an edge" in result.stdout


def test_check_usage_errors():
    assert run("check", FULL).exit_code == 2
    assert run("check", FULL, FULL, "--cut", "V1L").exit_code == 2


# ---- bad input: one line, exit 2 --------------------------------------------------------


@pytest.mark.parametrize("spec", ["V3X", "", "Q", "V3T0L", "H2L", "V" + "9" * 5000 + "L",
                                  "V3T" + "9" * 5000 + "R"])
def test_malformed_cut_spec(spec):
    line = one_line_error(run("check", FULL, "--cut", spec))
    assert "malformed cut spec" in line and len(line) < 200


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="VHTBLRUD0123456789٣-: x", max_size=6000))
def test_any_cut_spec_is_a_cut_or_one_line(spec):
    try:
        Cut.parse(spec)
    except InputError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot", "value": 2},
                   {"row": 0, "col": 0, "ingredient": "tomato", "value": 6}]},
         "two dice overlap at (0,0)"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot", "value": 2},
                   {"row": 2, "col": 0, "ingredient": "tomato", "value": 6}]},
         "not one connected block"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "kale", "value": 2}]},
         "unknown ingredient 'kale'"),
        ({"dice": [{"row": 0, "col": 0, "ingredient": "carrot", "value": 9}]},
         "value 9 is not a die face"),
        ("{not json", "not valid JSON"),
        ({"blocks": []}, 'a "dice" list'),
        # past 1,000 dice no game's block (160,000 of them, a 10 MB file, were searched
        # for cuts for minutes)
        ({"dice": [{"row": r, "col": c, "ingredient": "carrot", "value": 1}
                   for r in range(7) for c in range(143)]}, "1,001 dice is no game's"),
    ],
)
@pytest.mark.parametrize("command", ["cuts", "check"])
def test_bad_block_files(tmp_path, doc, needle, command):
    path = write(tmp_path, "bad.json", doc)
    args = [command, path] + (["--cut", "V1L"] if command == "check" else [])
    line = one_line_error(run(*args))
    assert needle in line and path in line


def test_missing_file():
    line = one_line_error(run("cuts", "/nonexistent/block.json"))
    assert "no such file" in line


# ---- photos go through the vision reader ------------------------------------------------


@pytest.fixture
def fake_vision(monkeypatch):
    """Stand-ins for companion.vision.dice.reader / .overlay, recording their calls."""
    calls: dict[str, object] = {}

    class Reading:
        def block_json(self):
            return json.loads(Path(FULL).read_text())

    def read_dice_photo(path):
        calls["read"] = path
        return Reading()

    def draw_cuts(photo_path, reading, cuts_json, out_path):
        calls["draw"] = (photo_path, type(reading).__name__, len(cuts_json["cuts"]), out_path)

    reader = types.ModuleType("companion.vision.dice.reader")
    reader.read_dice_photo = read_dice_photo  # type: ignore[attr-defined]
    overlay = types.ModuleType("companion.vision.dice.overlay")
    overlay.draw_cuts = draw_cuts  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.vision.dice.reader", reader)
    monkeypatch.setitem(sys.modules, "companion.vision.dice.overlay", overlay)
    return calls


def test_cuts_from_a_photo_with_overlay(fake_vision, tmp_path):
    out = str(tmp_path / "cuts.png")
    result = run("cuts", "block.jpg", "--json", "--overlay", out)
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["cuts"]) == 15
    assert fake_vision["read"] == "block.jpg"
    assert fake_vision["draw"] == ("block.jpg", "Reading", 15, out)


def test_check_photo_pair(fake_vision):
    result = run("check", "before.heic", "after.jpg", "--json")
    assert result.exit_code == 1  # same block twice: nothing was taken
    assert json.loads(result.stdout)["reasons"] == ["no dice were taken"]


# ---- score ------------------------------------------------------------------------------


def test_score_example():
    result = run("score", str(EXAMPLES / "final-state.json"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    ana = doc["players"][0]
    # the rulebook's first three recipes: 15 + 8 + 13 = 36
    assert [r["points"] for r in ana["recipes"][:3]] == [15, 8, 13]
    assert doc["winners"] == ["Ana"] and doc["shared"] is False
    assert [r["rank"] for r in doc["ranking"]] == [1, 2, 3]
    assert "Ana wins." in run("score", str(EXAMPLES / "final-state.json")).stdout


def test_score_violation_exits_1(tmp_path):
    path = write(tmp_path, "state.json", {"players": [
        {"name": "A", "recipes": [{"stars": 4}]}, {"name": "B", "recipes": [{"stars": 4}]}]})
    result = run("score", path)
    assert result.exit_code == 1
    assert "A and B share the victory." in result.stdout
    assert "nobody has cooked 7 recipes" in result.stdout


def test_score_bad_state(tmp_path):
    path = write(tmp_path, "state.json", {"players": [{"name": "A", "recipes": [{}]}]})
    line = one_line_error(run("score", path))
    assert 'missing "stars"' in line


def test_empty_block_says_restock(tmp_path):
    path = write(tmp_path, "empty.json", {"dice": []})
    result = run("cuts", path)
    assert result.exit_code == 0 and "The block is empty: restock." in result.stdout
    result = run("check", path, "--cut", "V1L", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["reasons"] == ["the block is empty: restock"]
