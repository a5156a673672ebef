"""``companion dulce`` through click's CliRunner: examples, --json, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main

EX = Path(__file__).resolve().parent.parent / "examples" / "dulce"
HARVEST = (EX / "best-harvest.json").read_text()


def run(*args: str):
    return CliRunner().invoke(main, ["dulce", *args])


def test_score_order_prints_the_rulebook_steps():
    r = run("score-order", str(EX / "score-order.json"))
    assert r.exit_code == 0, r.output
    assert "1. Score Fudge" in r.output and "2. Score Brownies" in r.output
    assert "Total: 2 points, chicken +2" in r.output


def test_score_order_json_is_one_document():
    r = run("score-order", str(EX / "score-order.json"), "--json")
    doc = json.loads(r.output)
    assert doc["points"] == 2 and doc["chicken"] == 2 and doc["proven_best"] is True
    assert [s["score"] for s in doc["steps"]] == ["Fudge", "Brownies"]
    assert doc["steps"][0]["byproducts"][0]["to"]["name"] == "Brownies"
    # cafes_after is valid input again: nothing more scores.
    again = {"cafes": doc["cafes_after"]}
    r2 = CliRunner().invoke(main, ["dulce", "score-order", "-", "--json"], input=json.dumps(again))
    assert json.loads(r2.output)["points"] == 0


def test_best_harvest_example():
    r = run("best-harvest", str(EX / "best-harvest.json"), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["line"] == {"kind": "column", "index": 2}
    assert doc["points"] == 9 and len(doc["per_line"]) == 8
    assert all(
        cell is None or cell["cubes"] == 0 for cell in [row[2] for row in doc["board_after"]]
    )
    text = run("best-harvest", str(EX / "best-harvest.json"))
    assert "Harvest column 2" in text.output


def test_plant_legal_and_illegal():
    ok = run("plant", str(EX / "plant.json"), "--card", "24", "--at", "0,1", "--json")
    assert ok.exit_code == 0
    doc = json.loads(ok.output)
    assert doc["legal"] and doc["chicken"] == 1 and doc["bonus_cells"] == [[0, 1]]
    off = run("plant", str(EX / "plant.json"), "--card", "24", "--at", "3,3", "--json")
    assert off.exit_code == 1 and json.loads(off.output)["legal"] is False
    used = run("plant", str(EX / "plant.json"), "--card", "6", "--at", "2,2")
    assert used.exit_code == 1 and "already been played" in used.output
    fields = run(
        "plant",
        str(EX / "plant.json"),
        "--fields",
        "cacao,cacao,vanilla,coffee",
        "--at",
        "1,0",
        "--rotate",
        "90",
    )
    assert fields.exit_code == 0 and "Legal" in fields.output


def test_final_ranks_with_tiebreak():
    r = run("final", str(EX / "final.json"), "--json")
    doc = json.loads(r.output)
    assert doc["winners"] == ["Marco"]
    assert [s["place"] for s in doc["standings"]] == [1, 2, 3]
    solo = CliRunner().invoke(
        main, ["dulce", "final", "-"], input='{"players": [{"name": "me", "points": 47}]}'
    )
    assert "Pastry Professional" in solo.output


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["score-order", "/no/such/file.json"], None, "cannot read"),
        (["score-order", "-"], "{not json", "not valid JSON"),
        (
            ["score-order", "-"],
            '{"cafes": [{"spaces": [{"type": "tea", "level": 1}]}]}',
            "unknown bean",
        ),
        (
            ["score-order", "-"],
            '{"cafes": [{"spaces": [{"type": "cacao", "level": 4}]}]}',
            "level must be",
        ),
        (
            ["score-order", "-"],
            '{"cafes": [{"spaces": [{"type": "cacao", "level": 1, "holds": "peanut"}]}]}',
            "can hold cacao",
        ),
        (["best-harvest", "-"], '{"board": [[null]], "cafes": [], "chicken": 0}', "4 rows of 4"),
        # cubes int() cannot take: a superscript, past Python's digit limit
        (["best-harvest", "-"], HARVEST.replace('"coffee:1"', '"coffee:\u00b2"'), "bean:cubes"),
        # a corner that is not a name at all (a list or an object cannot be looked up)
        (["best-harvest", "-"], HARVEST.replace('"top-left"', "[]"), "corner: use one of"),
        (["best-harvest", "-"], HARVEST.replace('"top-left"', "{}"), "corner: use one of"),
        (["best-harvest", "-"], HARVEST.replace('"coffee:1"', '"coffee:' + "9" * 5000 + '"'),
         "bean:cubes"),
        (["plant", "-", "--at", "x"], "{}", "two whole numbers"),
        (["plant", "-", "--at", "0,0"], "{}", "exactly one of"),
        (
            ["plant", "-", "--at", "0,0", "--fields", "cacao,cacao,cacao,cacao", "--rotate", "45"],
            '{"board": null, "cafes": []}',
            "rotation must be",
        ),
        (["final", "-"], '{"players": []}', "at least one player"),
        (["final", "-"], '{"game": "deli-duel", "players": []}', "not a Dulce state"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, stdin, needle):
    r = CliRunner().invoke(main, ["dulce", *args], input=stdin)
    assert r.exit_code == 2, r.output
    assert needle in r.output
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_every_json_example_in_docs_formats_is_accepted():
    """The documented examples of all three games parse, the supply example is what the
    command deals, and the dice colours example is a colours file (docs/formats.md)."""
    from companion.games.deli_duel import parse as dd
    from companion.games.dulce import parse as du
    from companion.games.wild_gardens import parse as wg

    text = (EX.parent.parent / "docs" / "formats.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    assert len(blocks) >= 5
    for block in blocks:
        doc = json.loads(block)
        game = doc.get("game")
        if "orders" in doc:
            assert [dd.order(o) for o in doc["orders"]] and dd.cards(doc["play"])
        elif game == "deli-duel":
            assert dd.seats(doc)
        elif game == "wild-gardens":
            assert wg.players(doc)
        elif game == "delicious":  # supply --json's output, as the command prints it
            from companion.games.delicious.supply import supply

            dealt = supply(doc["seed"]).to_json()
            assert doc["rounds"] == dealt["rounds"][:len(doc["rounds"])]
            assert {k: v for k, v in doc.items() if k != "rounds"} == {
                k: v for k, v in dealt.items() if k != "rounds"}
        elif doc.get("format") == "companion-drawings":  # delicious read --save-drawings
            from companion.vision.sheet.own_drawings import OwnDrawings

            assert OwnDrawings.from_json(doc).to_json() == doc
        elif doc.get("format") == "companion-dice-colours":  # dice read --save-colours
            from companion.vision.dice.colours import DiceColours

            assert DiceColours.from_json(doc).to_json() == doc
        elif "players" in doc:
            assert du.final_players(doc)
        else:
            assert du.player_state(doc).cafes


def dulce(*args: str, doc: dict | None = None):
    return CliRunner().invoke(
        main, ["dulce", *args], input=None if doc is None else json.dumps(doc)
    )


def example(name: str) -> dict:
    return json.loads((EX / name).read_text())


@pytest.mark.parametrize(
    ("command", "drop"),
    [
        ("score-order", "cafes"),
        ("best-harvest", "board"),
        ("best-harvest", "cafes"),
        ("best-harvest", "chicken"),
        ("plant", "board"),
        ("plant", "cafes"),
        ("plant", "cards"),
    ],
)
def test_missing_required_key_is_one_line_exit_2(command, drop):
    doc = example("plant.json" if command == "plant" else "best-harvest.json")
    del doc[drop]
    extra = ["--card", "24", "--at", "0,1"] if command == "plant" else []
    r = dulce(command, "-", *extra, doc=doc)
    assert r.exit_code == 2, r.output
    assert f"{drop}: required" in r.output
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_final_needs_points_and_the_tiebreak_keys_of_tied_players():
    no_points = dulce("final", "-", doc={"players": [{"name": "a"}]})
    assert no_points.exit_code == 2 and "players[0].points: required" in no_points.output
    # Not tied: chicken and cubes are never compared, so they may be left out.
    untied = {"players": [{"name": "a", "points": 30}, {"name": "b", "points": 31}]}
    assert dulce("final", "-", doc=untied).exit_code == 0
    tied = {"players": [{"name": "a", "points": 30}, {"name": "b", "points": 30, "chicken": 3}]}
    r = dulce("final", "-", doc=tied)
    assert r.exit_code == 2 and "players[0].chicken: required" in r.output
    tied["players"][0]["chicken"] = 0
    r = dulce("final", "-", doc=tied)
    assert r.exit_code == 2 and "field_cubes: required" in r.output


def test_five_players_in_final_is_an_impossible_table_exit_1():
    players = [{"name": f"p{i}", "points": 20 + i} for i in range(5)]
    r = dulce("final", "-", doc={"players": players})
    assert r.exit_code == 1 and "1-4 players" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert dulce("final", "-", doc={"players": players[:4]}).exit_code == 0


def test_card_numbers_outside_the_deck_are_exit_1():
    doc = example("plant.json")
    r = dulce("plant", "-", "--card", "25", "--at", "0,0", doc=doc)
    assert r.exit_code == 1 and "numbered 1-24" in r.output
    doc["cards"].append({"number": 25, "fields": ["cacao"] * 4})
    r = dulce("plant", "-", "--card", "24", "--at", "0,1", doc=doc)
    assert r.exit_code == 1 and "cards[2].number: card 25" in r.output
    built = example("score-order.json")
    built["cafes"][1]["card"] = 5  # Fudge now claims Brownies' card
    r = dulce("score-order", "-", doc=built)
    assert r.exit_code == 1 and "card 5 is built twice" in r.output


def test_more_cubes_than_the_supply_is_refused_at_once():
    doc = example("best-harvest.json")
    doc["board"][0][0] = {"field": "peanut", "cubes": 100_000}
    r = dulce("best-harvest", "-", doc=doc)
    assert r.exit_code == 1 and "supply has 25" in r.output
    eggs = {"cafes": [{"spaces": [{"type": "cacao", "level": 1, "holds": "egg"}]}] * 16}
    r = dulce("score-order", "-", doc=eggs)
    assert r.exit_code == 1 and "16 eggs" in r.output


def test_a_state_at_the_supply_limit_is_fine():
    doc = {
        "chicken": 0,
        "board": [["cacao:5"] * 4, ["cacao:1"] * 4, [None] * 4, [None] * 4],
        "cafes": [{"name": "A", "spaces": [{"type": "cacao", "level": 3, "holds": "cacao"}]}],
    }
    assert dulce("best-harvest", "-", doc=doc).exit_code == 0  # 24 + 1 = 25 cacao


def test_tiebreak_readings_differ_on_the_example_and_are_named():
    sums = json.loads(dulce("final", str(EX / "final.json"), "--json").output)
    eggs = json.loads(
        dulce("final", str(EX / "final.json"), "--tiebreak", "eggs-first", "--json").output
    )
    # Christina: 7 steps = 2 eggs + 3 cubes = 5; Marco: 1 egg + 5 cubes = 6.
    assert (sums["tiebreak_reading"], sums["winners"]) == ("sum", ["Marco"])
    assert (eggs["tiebreak_reading"], eggs["winners"]) == ("eggs-first", ["Christina"])
    assert sums["standings"][1]["decided_by"] == "tiebreak"
    assert sums["standings"][2]["decided_by"] == "points"
    text = dulce("final", str(EX / "final.json"), "--tiebreak", "eggs-first").output
    assert "Tiebreak reading eggs-first" in text
    assert "Tiebreak reading sum" in dulce("final", str(EX / "final.json")).output
    bad = dulce("final", str(EX / "final.json"), "--tiebreak", "coin-toss")
    assert bad.exit_code == 2
