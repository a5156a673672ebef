"""Wild Gardens final scoring, the six-step tiebreak chain, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import InputError
from companion.games.wild_gardens import TIEBREAKS, Player, check, final_score, rank, rank_key
from companion.games.wild_gardens.parse import players

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "wild-gardens" / "score.json"


def test_final_score_adds_tracks_wraps_guests_and_ingredients():
    # Pollinator flipped once at 3 -> 63; jar 16; game-end guests 4; 11 ingredients -> 2.
    p = Player("x", pollinator=3, pollinator_wraps=1, jar=16, guest_vp=4, ingredients=11)
    b = final_score(p)
    assert (b.pollinator, b.jar, b.guests, b.ingredients, b.total) == (63, 16, 4, 2, 85)
    assert final_score(Player("y", 0, 50, jar_wraps=1)).jar == 110


@pytest.mark.parametrize(("ingredients", "vp"), [(0, 0), (3, 0), (4, 1), (7, 1), (8, 2)])
def test_one_vp_per_four_ingredients(ingredients, vp):
    assert final_score(Player("x", 0, 0, ingredients=ingredients)).ingredients == vp


def base(name: str, **kw) -> Player:
    """Everyone on 40 VP with the same chain values unless told otherwise."""
    fields = dict(
        pollinator=30,
        jar=10,
        guests=2,
        cooked_recipes=2,
        ingredients=3,
        skill_tokens=4,
        reserved_recipes=1,
    )
    fields.update(kw)
    return Player(name, **fields)


@pytest.mark.parametrize(
    ("step", "better"),
    [
        ("guests", dict(guests=3)),
        ("cooked_recipes", dict(cooked_recipes=3)),
        ("ingredients", dict(ingredients=2)),  # 2 and 3 both give 0 VP: a real tiebreak
        ("jar", dict(jar=11, pollinator=29)),  # same total, jar further on
        ("skill_tokens", dict(skill_tokens=5)),
        ("reserved_recipes", dict(reserved_recipes=2)),
    ],
)
def test_each_step_of_the_chain_breaks_a_tie(step, better):
    winner = base("w", **better)
    if step == "ingredients":
        winner, loser = base("w", ingredients=3), base("l", ingredients=2)
    else:
        loser = base("l")
    assert final_score(winner).total == final_score(loser).total
    s = rank([loser, winner])
    assert [x.player.name for x in s] == ["w", "l"]
    assert s[1].decided_by == step and s[1].place == 2


def test_earlier_steps_outrank_later_ones():
    # More guests beats more of everything later in the chain.
    a = base("a", guests=3, cooked_recipes=0, skill_tokens=0, reserved_recipes=0)
    b = base("b", cooked_recipes=9, skill_tokens=9, reserved_recipes=3)
    assert rank([b, a])[0].player.name == "a"


def test_a_tie_through_all_six_steps_is_shared_among_many_players():
    s = rank([base("a"), base("b"), base("c"), base("d", pollinator=10)])
    assert [x.place for x in s] == [1, 1, 1, 4]
    assert s[3].decided_by == "total"


def test_the_chain_is_the_rulebook_order():
    assert TIEBREAKS == (
        "guests",
        "cooked_recipes",
        "ingredients",
        "jar",
        "skill_tokens",
        "reserved_recipes",
    )


player_st = st.builds(
    Player,
    st.uuids().map(str),
    st.integers(0, 59),
    st.integers(0, 54),
    st.integers(0, 1),
    st.integers(0, 1),
    st.integers(0, 4),
    st.integers(0, 8),
    st.integers(0, 4),
    st.integers(0, 9),
    st.integers(0, 9),
    st.integers(0, 3),
)


@given(st.lists(player_st, min_size=1, max_size=7), st.randoms())
def test_ranking_is_a_total_preorder_independent_of_seating(ps, rnd):
    s = rank(ps)
    shuffled = list(ps)
    rnd.shuffle(shuffled)
    again = {x.player.name: x.place for x in rank(shuffled)}
    assert {x.player.name: x.place for x in s} == again
    for x in s:
        for y in s:
            # Places agree with comparing keys: a total preorder on players.
            kx, ky = rank_key(x.player), rank_key(y.player)
            assert (x.place < y.place) == (kx > ky)
            assert (x.place == y.place) == (kx == ky)


def test_checks_flag_impossible_states():
    codes = {
        v.code
        for v in check(Player("x", 60, 55, reserved_recipes=2, reserved_guests=2, skill_tokens=10))
    }
    assert codes == {"pollinator-range", "jar-range", "reserve-limit", "skill-slots"}
    assert check(base("ok")) == []


def test_parse_accepts_guest_lists_counts_and_flipped():
    ps = players(json.loads(EXAMPLE.read_text()))
    assert ps[0].guests == 3 and ps[0].guest_vp == 4
    assert ps[1].pollinator_wraps == 1 and ps[1].guests == 2


@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"players": []},
        {"players": [{"name": "a"}]},
        {"players": [{"name": "a", "pollinator": -1}]},
        {"players": [{"name": "a", "pollinator": 3, "guests": "many"}]},
        {"players": [{"name": "a", "pollinator": 3, "pollinator_flipped": "yes"}]},
        {"game": "dulce", "players": [{"name": "a", "pollinator": 3}]},
    ],
)
def test_bad_input_raises_input_error(doc):
    with pytest.raises(InputError):
        players(doc)


def test_duplicate_names_are_bad_input():
    with pytest.raises(InputError):
        rank([base("a"), base("a")])


def test_cli_score_example():
    r = CliRunner().invoke(main, ["wild-gardens", "score", str(EXAMPLE)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].startswith("1. Jada: 69 VP")
    assert "who is ahead on skill tokens" in r.output
    doc = json.loads(
        CliRunner().invoke(main, ["wild-gardens", "score", str(EXAMPLE), "--json"]).output
    )
    assert doc["winners"] == ["Jada"]
    assert doc["standings"][1]["decided_by"] == "skill_tokens"
    assert doc["standings"][2]["breakdown"]["pollinator"] == 63


def test_cli_violation_exits_1_and_bad_input_exits_2():
    bad = {"players": [{"name": "a", "pollinator": 70, "jar": 0, "guests": 0, "ingredients": 0}]}
    r = CliRunner().invoke(main, ["wild-gardens", "score", "-", "--json"], input=json.dumps(bad))
    assert r.exit_code == 1
    r2 = CliRunner().invoke(main, ["wild-gardens", "score", "-"], input='{"players": 3}')
    assert r2.exit_code == 2 and len(r2.output.strip().splitlines()) == 1


def test_jar_step_compares_positions_with_wraps():
    a = base("a", pollinator=0, pollinator_wraps=0, jar=5, jar_wraps=1)  # jar 65
    b = base("b", pollinator=11, jar=54)  # same total, jar 54 < 65
    assert final_score(a).total == final_score(b).total
    s = rank([b, a])
    assert s[0].player.name == "a" and s[1].decided_by == "jar"


def seat(name: str, **kw) -> dict:
    doc = {"name": name, "pollinator": 10, "jar": 4, "guests": 1, "guest_vp": 0,
           "ingredients": 2}
    doc.update(kw)
    return doc


def score_cli(*players: dict, args: tuple[str, ...] = ("--json",)):
    doc = json.dumps({"game": "wild-gardens", "players": list(players)})
    return CliRunner().invoke(main, ["wild-gardens", "score", "-", *args], input=doc)


@pytest.mark.parametrize("key", ["pollinator", "jar", "guests", "ingredients"])
def test_cli_missing_score_key_is_one_line_exit_2(key):
    p = seat("Jada", pollinator=30)
    del p[key]
    r = score_cli(p, seat("Harold"), args=())
    assert r.exit_code == 2, r.output
    assert f"players[0].{key}: required" in r.output
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_cli_tied_players_need_the_chain_keys_others_do_not():
    # Not tied: the chain is never consulted, so its counts may be left out.
    assert score_cli(seat("Jada", pollinator=30), seat("Harold")).exit_code == 0
    tied = score_cli(seat("Jada"), seat("Harold"), args=())
    assert tied.exit_code == 2 and "cooked_recipes: required" in tied.output
    full = dict(cooked_recipes=1, skill_tokens=2, reserved_recipes=0)
    ok = score_cli(seat("Jada", **full), seat("Harold", **{**full, "skill_tokens": 3}))
    assert ok.exit_code == 0 and json.loads(ok.output)["winners"] == ["Harold"]


def test_cli_five_players_is_an_impossible_table_exit_1():
    five = [seat(f"p{i}", pollinator=10 + i) for i in range(5)]
    r = score_cli(*five)
    assert r.exit_code == 1, r.output
    doc = json.loads(r.output)
    assert [v["code"] for v in doc["violations"]] == ["player-count"]
    assert doc["violations"][0]["player"] == "table"
    assert score_cli(*five[:4]).exit_code == 0 and score_cli(five[0]).exit_code == 0


def test_cli_duplicate_names_differing_in_case_are_exit_2():
    r = score_cli(seat("Jada", pollinator=30), seat("jada "), args=())
    assert r.exit_code == 2 and "share the name" in r.output
