"""Best harvest: optimal against the brute force on small boards, and plans that are legal."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.dulce import ALL_LINES, Bean, Cell, Content, Level, PlayerState, best_harvest
from companion.games.dulce.harvest import LineKind, gather, harvested_board
from companion.games.dulce.parse import player_state
from companion.games.dulce.scoring import replay
from tests.test_dulce_brute import harvest_best
from tests.test_dulce_scoring import to_engine

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dulce" / "best-harvest.json"


def engine_board(board) -> tuple[tuple[Cell, ...], ...]:
    return tuple(tuple(Cell(Bean(c[0]), c[1]) if c else Cell() for c in row) for row in board)


def test_lines_cover_four_rows_and_four_columns():
    assert len(ALL_LINES) == 8
    assert {line.kind for line in ALL_LINES} == {LineKind.ROW, LineKind.COLUMN}
    for line in ALL_LINES:
        assert len(set(line.cells())) == 4


def test_gather_and_empty_the_line():
    board = engine_board([[("cacao", 2), ("peanut", 1), None, ("cacao", 0)]] + [[None] * 4] * 3)
    row0 = ALL_LINES[0]
    assert gather(board, row0) == Counter({Bean.CACAO: 2, Bean.PEANUT: 1})
    after = harvested_board(board, row0)
    assert [c.cubes for c in after[0]] == [0, 0, 0, 0]
    assert after[0][0].field is Bean.CACAO  # the field stays, only the cubes go


def test_example_plan_is_legal_and_consistent():
    state = player_state(json.loads(EXAMPLE.read_text()))
    advice = best_harvest(state)
    plan = advice.best
    k = plan.scoring.kitchen
    start = list(k.fill_of(state.cafes))
    gathered = Counter(dict(plan.gathered))
    for p in plan.placements:
        assert start[p.slot] is Content.EMPTY
        start[p.slot] = p.content
        if p.content is Content.BEAN:
            gathered[k.slots[p.slot].bean] -= 1
    assert all(n >= 0 for n in gathered.values())
    assert sum(gathered.values()) == plan.fed
    assert 3 * plan.eggs <= state.chicken + plan.fed
    assert tuple(start) == plan.scoring.start
    again = replay(k, plan.scoring.start, plan.scoring.steps)
    assert again.points == plan.points
    # The example rewards harvesting column 2 with 9 points.
    assert (str(plan.line), plan.points) == ("column 2", 9)
    assert max(q.at_most for q in advice.per_line) == plan.points
    assert {str(q.line): q.points_seen for q in advice.per_line}["column 2"] == 9
    assert advice.proven


def test_starting_cafe_under_a_field_card_gets_nothing():
    state = player_state(json.loads(EXAMPLE.read_text()))
    names = {c.name: c.covered for c in state.cafes}
    assert names["Start NW"] is True and names["Start NE"] is False
    plan = best_harvest(state).best
    k = plan.scoring.kitchen
    assert all(k.cafes[k.slots[p.slot].cafe].name != "Start NW" for p in plan.placements)


BEANS = ["cacao", "peanut"]
cell_st = st.one_of(st.none(), st.tuples(st.sampled_from(BEANS), st.integers(0, 1)))
space_st = st.tuples(
    st.sampled_from(BEANS), st.integers(1, 3), st.sampled_from([None, None, "bean"])
).map(list)


@st.composite
def small_states(draw):
    # Cubes only on the top row and left column keep the brute force fast.
    board = [[None] * 4 for _ in range(4)]
    for c in range(4):
        board[0][c] = draw(cell_st)
    for r in range(1, 3):
        board[r][0] = draw(cell_st)
    cafes = draw(st.lists(st.lists(space_st, min_size=1, max_size=2), min_size=1, max_size=3))
    chicken = draw(st.integers(0, 6))
    return board, cafes, chicken


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_states())
def test_best_harvest_matches_brute_force(sample):
    board, cafes, chicken = sample
    state = PlayerState(to_engine(cafes), engine_board(board), chicken=chicken)
    advice = best_harvest(state)
    assert advice.best.value[:2] == harvest_best(board, cafes, chicken)
    assert advice.proven


def test_an_egg_completes_a_cafe_when_it_pays():
    # Mocha needs coffee (3 rings, filled by the harvest) and cacao (1 ring, nothing to
    # fill it): with 3 chicken steps an egg makes it score.
    board = [[("coffee", 1)] + [None] * 3] + [[None] * 4] * 3
    cafes = [[["coffee", 3, None], ["cacao", 1, None]]]
    state = PlayerState(to_engine(cafes), engine_board(board), chicken=3)
    plan = best_harvest(state).best
    assert plan.eggs == 1 and plan.points == 1 and plan.chicken_after == 1  # 3 - 3 + 1 fed
    poorer = best_harvest(PlayerState(state.cafes, state.board, chicken=2)).best
    assert poorer.eggs == 0 and poorer.points == 0


def test_eggs_that_wake_cafes_count_their_chicken_steps():
    # Two cafés each wait for a cacao no bean can bring; two eggs (all 6 steps) score
    # both, and each discards its 2-ring cacao bean: 2 points, 2 steps. Harvesting row 2
    # feeds its peanut to the chicken first (no peanut space): 2 points and 3 steps. The
    # line has to be weighed with its eggs in place, not with the cafés still dead.
    board = [[None] * 4, [None] * 4, [("peanut", 1)] + [None] * 3, [None] * 4]
    cafes = [[["cacao", 2, None], ["cacao", 2, "bean"]], [["cacao", 2, None], ["cacao", 2, "bean"]]]
    state = PlayerState(to_engine(cafes), engine_board(board), chicken=6)
    advice = best_harvest(state)
    assert advice.best.value[:2] == (2, 3) == harvest_best(board, cafes, 6)
    assert str(advice.best.line) == "row 2" and advice.best.eggs == 2 and advice.proven


def test_levels_matter_for_where_a_harvested_bean_goes():
    # One cacao to place: the 3-ring space of A makes a byproduct for B's 2-ring space.
    board = [[("cacao", 1)] + [None] * 3] + [[None] * 4] * 3
    cafes = [[["cacao", 3, None]], [["cacao", 2, None], ["peanut", 1, "bean"]]]
    state = PlayerState(to_engine(cafes), engine_board(board))
    plan = best_harvest(state).best
    (placed,) = plan.placements
    assert plan.scoring.kitchen.slots[placed.slot].level is Level.PURE
    assert plan.points == 2


def test_reading_options_for_harvest():
    from companion.games.dulce import DulceRules

    # Two cacao gathered, one cacao space (1 ring) free: the second bean feeds the chicken.
    board = [[("cacao", 2)] + [None] * 3] + [[None] * 4] * 3
    cafes = [[["cacao", 1, None], ["peanut", 1, None]]]
    state = PlayerState(to_engine(cafes), engine_board(board), chicken=2)
    # Default: the leftover step (2 + 1 = 3) already buys the egg that completes the café.
    plan = best_harvest(state).best
    assert (plan.fed, plan.eggs, plan.points) == (1, 1, 1)
    strict = best_harvest(state, DulceRules(eggs_from_harvest_leftovers=False)).best
    assert (strict.eggs, strict.points) == (0, 0)
    # Optional placement lets a player keep beans out of a space on purpose (more steps).
    loose = best_harvest(
        PlayerState(state.cafes, state.board, chicken=0), DulceRules(harvest_must_place=False)
    ).best
    assert loose.points == 0 and loose.fed == 2


def test_too_many_starts_gives_a_legal_unproven_plan(monkeypatch):
    import companion.games.dulce.harvest as harvest

    monkeypatch.setattr(harvest, "START_BUDGET", 0)
    state = player_state(json.loads(EXAMPLE.read_text()))
    advice = best_harvest(state)
    assert not advice.proven and advice.best.eggs == 0
    plan = advice.best
    assert (
        replay(plan.scoring.kitchen, plan.scoring.start, plan.scoring.steps).points == plan.points
    )


@st.composite
def egg_rich_states(draw):
    # Enough chicken steps for several eggs, so egg sets are listed by group and pruned.
    board, _, _ = draw(small_states())
    cafes = draw(st.lists(st.lists(space_st, min_size=1, max_size=2), min_size=2, max_size=4))
    return board, cafes, draw(st.integers(6, 12))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(egg_rich_states())
def test_best_harvest_with_many_eggs_matches_brute_force(sample):
    board, cafes, chicken = sample
    state = PlayerState(to_engine(cafes), engine_board(board), chicken=chicken)
    advice = best_harvest(state)
    assert advice.best.value[:2] == harvest_best(board, cafes, chicken)
    assert advice.proven
    # No line is said to reach fewer points than the best plan found on it.
    for summary in advice.per_line:
        if summary.points_seen is not None:
            assert summary.at_most >= summary.points_seen
