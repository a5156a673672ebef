"""Final scoring: the egg-and-field tiebreak and the solo title table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import InputError
from companion.games.dulce import DulceRules, FinalPlayer, Tiebreak, rank, solo_title


def test_most_points_wins_without_a_tiebreak():
    s = rank([FinalPlayer("a", 30, 0, 0), FinalPlayer("b", 31, 0, 0)])
    assert [x.player.name for x in s] == ["b", "a"] and [x.place for x in s] == [1, 2]


def test_tied_players_count_eggs_from_chicken_steps_plus_field_cubes():
    # Ana: 7 steps -> 2 eggs, + 3 cubes = 5. Bo: 4 steps -> 1 egg, + 5 cubes = 6.
    ana, bo = FinalPlayer("Ana", 41, 7, 3), FinalPlayer("Bo", 41, 4, 5)
    s = rank([ana, bo])
    assert [x.player.name for x in s] == ["Bo", "Ana"]
    assert s[0].eggs == 1 and s[1].eggs == 2
    # Read as eggs first, then cubes, Ana wins instead: a one-line change of reading.
    other = rank([ana, bo], DulceRules(tiebreak=Tiebreak.EGGS_FIRST))
    assert other[0].player.name == "Ana"


def test_a_full_tie_is_shared():
    s = rank([FinalPlayer("a", 20, 6, 1), FinalPlayer("b", 20, 8, 1), FinalPlayer("c", 5, 0, 0)])
    assert [x.place for x in s] == [1, 1, 3]


def test_no_players_is_bad_input():
    with pytest.raises(InputError):
        rank([])


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (0, "Baking Beginner"),
        (34, "Baking Beginner"),
        (35, "Kneading Novice"),
        (44, "Kneading Novice"),
        (45, "Pastry Professional"),
        (54, "Pastry Professional"),
        (55, "Macaron Master"),
        (90, "Macaron Master"),
    ],
)
def test_solo_titles(score, title):
    assert solo_title(score) == title


player_st = st.builds(
    FinalPlayer,
    st.sampled_from("abcdef"),
    st.integers(0, 60),
    st.integers(0, 20),
    st.integers(0, 16),
)


@given(st.lists(player_st, min_size=1, max_size=6))
def test_places_never_invert_points(players):
    s = rank(players)
    assert s[0].place == 1
    for above, below in zip(s, s[1:], strict=False):
        assert above.player.points >= below.player.points
        assert below.place >= above.place
        if below.place == above.place:
            assert (above.player.points, *above.tiebreak) == (below.player.points, *below.tiebreak)
