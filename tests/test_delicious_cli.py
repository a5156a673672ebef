"""``companion delicious`` through click's CliRunner: contracts, output, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import invoke, write_doc
from tests.test_delicious_support import all_choices, rows


def run(*args: str):
    return invoke("delicious", *args)


def write(tmp_path: Path, name: str, doc) -> str:
    return write_doc(tmp_path, name, doc)


@pytest.mark.parametrize("variant", ["A", "B"])
def test_garden_json_contract(variant):
    res = run("garden", "--variant", variant, "--json")
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert doc["variant"] == variant
    assert {c["id"] for c in doc["containers"]} == {
        "wheelbarrow", "boots", "watering-can", "bathtub", "crate", "teapot"}
    c = doc["containers"][0]
    assert {"id", "area", "kind", "rows", "pairs", "first_potter"} <= set(c)
    assert {"cells", "points"} <= set(c["rows"][0])
    assert len(doc["planter"]["cells"]) == 20 and len(doc["planter"]["lines"]) == 9
    assert doc["honey"] == "garden.honey"
    assert set(doc["play"]["choices"]) == {"1-as-is", "1-reverse", "2-as-is", "2-anywhere"}


def test_garden_text_is_readable():
    res = run("garden")
    assert res.exit_code == 0
    assert "wheelbarrow" in res.stdout and "Planter" in res.stdout
    assert "{" not in res.stdout


def test_simulate_json_is_reproducible(tmp_path):
    a = run("simulate", "--seed", "3", "--players", "2", "--json")
    b = run("simulate", "--seed", "3", "--players", "2", "--json")
    assert a.exit_code == 0 and a.stdout == b.stdout
    doc = json.loads(a.stdout)
    assert doc["seed"] == 3 and len(doc["players"]) == 2
    p = doc["players"][0]
    assert {"fields", "score"} <= set(p)
    assert {"total", "breakdown"} <= set(p["score"])
    other = json.loads(run("simulate", "--seed", "4", "--players", "2", "--json").stdout)
    assert other["players"][0]["fields"] != p["fields"]


def test_demo_simulate_then_score(tmp_path):
    out = tmp_path / "demo"
    res = run("simulate", "--seed", "7", "--players", "3", "-o", str(out))
    assert res.exit_code == 0
    files = sorted(out.glob("player*.json"))
    assert [f.name for f in files] == ["player1.json", "player2.json", "player3.json"]
    res = run("score", *map(str, files))
    assert res.exit_code == 0, res.output
    assert "Ranking" in res.stdout and "TOTAL" in res.stdout and "wheelbarrow" in res.stdout
    res = run("score", "--json", *map(str, files))
    doc = json.loads(res.stdout)
    assert len(doc["players"]) == 3 and len(doc["ranking"]) == 3
    assert [r["place"] for r in doc["ranking"]] == sorted(r["place"] for r in doc["ranking"])
    for p in doc["players"]:
        assert p["violations"] == []
        assert {"total", "breakdown", "violations"} <= set(p)


def test_score_one_map_prints_the_score_object(tmp_path):
    fm = {"game": "delicious", "variant": "A",
          "fields": {**all_choices(), **rows("boots", ["carrot", "carrot"])}}
    res = run("score", "--json", write(tmp_path, "a.json", fm))
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert doc["total"] == 2 and doc["breakdown"]["containers"]["boots"] == 2
    assert doc["violations"] == []


def test_score_with_a_violation_still_scores_and_exits_1(tmp_path):
    fm = {"game": "delicious", "variant": "A",
          "fields": {**all_choices(), **rows("boots", ["carrot", "onion"])}}
    path = write(tmp_path, "bad.json", fm)
    res = run("score", "--json", path)
    assert res.exit_code == 1
    doc = json.loads(res.stdout)
    assert [v["code"] for v in doc["violations"]] == ["same-mixed"]
    res = run("score", path)
    assert res.exit_code == 1 and "same-mixed" in res.stdout


def test_score_cross_sheet_check(tmp_path):
    full = rows("boots", ["carrot", "carrot"], ["carrot", "carrot"], ["carrot"])
    a = {"fields": {**all_choices(), **full, "garden.boots.first-potter": "check",
                    "garden.boots.tool.r2": "cross"}}
    b = {"fields": {**all_choices(), **full, "garden.boots.tool.r2": "cross"}}
    res = run("score", "--json", write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    assert res.exit_code == 1
    doc = json.loads(res.stdout)
    assert doc["players"][0]["violations"] == []
    assert [v["code"] for v in doc["players"][1]["violations"]] == [
        "table-first-potter-not-crossed"]
    assert doc["ranking"][0]["player"] == "a"


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('{"fields": {"garden.nowhere": "carrot"}}', "unknown field id 'garden.nowhere'"),
        ('{"fields": {"garden.planter.r0.c0": "carrot"}}', "'carrot' is not one of"),
        ('{"fields": {"garden.boots.r0.c0": "tomato"}}', "'tomato' is not one of"),
        ('{"variant": "Z", "fields": {}}', "unknown variant 'Z'"),
        ('{"game": "dulce", "fields": {}}', "not 'delicious'"),
        ('["a list"]', "JSON object"),
        ('{"variant": "A"}', 'missing "fields"'),
    ],
)
def test_bad_field_maps_give_one_line_and_exit_2(tmp_path, content, needle):
    res = run("score", write(tmp_path, "x.json", content))
    assert res.exit_code == 2
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: error: ")
    assert needle in lines[0]
    assert "Traceback" not in res.output


def test_missing_file_and_bad_variant_options_exit_2(tmp_path):
    res = run("score", str(tmp_path / "nope.json"))
    assert res.exit_code == 2 and "no such file" in res.stderr
    for args in (["garden", "--variant", "C", "--json"],
                 ["simulate", "--seed", "1", "--variant", "C"],
                 ["simulate", "--seed", "1", "--players", "0"]):
        res = run(*args)
        assert res.exit_code == 2, args
        assert res.stderr.count("\n") == 1 and "companion: error:" in res.stderr


def test_example_field_maps_score_cleanly():
    examples = sorted(Path(__file__).parent.parent.glob("examples/delicious/seed*-player*.json"))
    assert len(examples) >= 2
    res = run("score", *map(str, examples))
    assert res.exit_code == 0, res.output
    assert "Ranking" in res.stdout
