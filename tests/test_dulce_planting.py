"""Planting fields: the rulebook's card 6 / card 24 example, rotation, legality."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalMoveError, InputError
from companion.games.dulce import Bean, Cell, PlayerState, plant, plant_card, rotate
from companion.games.dulce.model import empty_board
from companion.games.dulce.parse import player_state
from companion.games.dulce.planting import legal_positions

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dulce" / "plant.json"
P, C, V, F = Bean.PEANUT, Bean.CACAO, Bean.VANILLA, Bean.COFFEE
CARD6 = ((P, P), (C, C))
CARD24 = ((P, V), (F, V))


def test_christina_plants_card_6_then_card_24_on_top():
    # Card 6 on an empty corner of the board: one cube per field.
    first = plant(PlayerState((), empty_board()), CARD6, 0, 0)
    assert dict(first.gained) == {P: 2, C: 2} and first.chicken == 0
    # Later the top-right peanut was harvested; card 24 goes one square to the right.
    board = [list(r) for r in first.board]
    board[0][1] = Cell(P, 0)
    second = plant(PlayerState((), tuple(map(tuple, board))), CARD24, 0, 1)
    # It covers the cacao cube at (1, 1): discarded, chicken +1.
    assert second.chicken == 1
    # Its top-left peanut lies on a peanut field: one extra peanut, though that field
    # held no cube.
    assert second.bonus_cells == ((0, 1),)
    assert second.board[0][1] == Cell(P, 2)
    assert second.board[1][1] == Cell(F, 1)
    assert second.board[1][0] == Cell(C, 1)  # the uncovered part of card 6 stays


def test_example_file_reproduces_the_rulebook_outcome():
    state = player_state(json.loads(EXAMPLE.read_text()))
    result = plant_card(state, 24, 0, 1)
    assert result.chicken == 1 and result.bonus_cells == ((0, 1),)


def test_rotation_turns_clockwise_and_four_turns_are_identity():
    assert rotate(CARD24, 90) == ((F, P), (V, V))
    assert rotate(CARD24, 180) == ((V, F), (V, P))
    assert rotate(rotate(CARD24, 270), 90) == CARD24
    with pytest.raises(InputError):
        rotate(CARD24, 45)


def test_off_board_and_used_cards_are_illegal():
    state = player_state(json.loads(EXAMPLE.read_text()))
    with pytest.raises(IllegalMoveError, match="off the board"):
        plant_card(state, 24, 3, 0)
    with pytest.raises(IllegalMoveError, match="already been played"):
        plant_card(state, 6, 2, 2)
    with pytest.raises(InputError, match="not among"):
        plant_card(state, 99, 0, 0)


def test_covering_a_starting_cafe_makes_it_unusable():
    state = player_state(
        {
            "cafes": [
                {
                    "name": "SE",
                    "corner": "bottom-right",
                    "spaces": [{"type": "vanilla", "level": 1, "holds": "vanilla"}],
                }
            ]
        }
    )
    assert state.cafes[0].covered is False
    result = plant(state, CARD24, 2, 2)
    assert result.covered_cafes == ("SE",) and result.lost_from_cafes == 1


cell_st = st.one_of(
    st.just(Cell()), st.builds(Cell, st.sampled_from(list(Bean)), st.integers(0, 2))
)
board_st = st.lists(
    st.lists(cell_st, min_size=4, max_size=4).map(tuple), min_size=4, max_size=4
).map(tuple)
card_st = st.tuples(
    st.tuples(st.sampled_from(list(Bean)), st.sampled_from(list(Bean))),
    st.tuples(st.sampled_from(list(Bean)), st.sampled_from(list(Bean))),
)


@settings(max_examples=100, deadline=None)
@given(board_st, card_st, st.sampled_from(legal_positions()), st.sampled_from([0, 90, 180, 270]))
def test_planting_conserves_what_the_rules_say(board, card, pos, turn):
    r, c = pos
    result = plant(PlayerState((), board), card, r, c, turn)
    covered = [(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
    assert result.chicken == sum(board[a][b].cubes for a, b in covered)
    assert sum(n for _, n in result.gained) == 4 + len(result.bonus_cells)
    for a, b in covered:
        new = result.board[a][b]
        assert new.cubes == (2 if board[a][b].field is new.field else 1)
    untouched = [(a, b) for a in range(4) for b in range(4) if (a, b) not in covered]
    assert all(result.board[a][b] == board[a][b] for a, b in untouched)
