"""companion.games.ranking: the one place rule behind every game's final standings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games.diced_veggies.scoring import CookedRecipe, PlayerTally, score
from companion.games.dulce.final import FinalPlayer, rank
from companion.games.ranking import ranked

keys = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=8)


def test_hand_worked_example():
    # 7, 9, 7, 5: the 9 wins, both 7s share second, the 5 is fourth (not third)
    assert ranked(["a7", "b9", "c7", "d5"], key=lambda s: int(s[1])) == [
        (1, "b9"), (2, "a7"), (2, "c7"), (4, "d5")]


@given(keys)
def test_place_is_one_more_than_those_who_beat_you(items):
    out = ranked(list(enumerate(items)), key=lambda ik: ik[1])
    assert sorted(i for _, (i, _) in out) == list(range(len(items)))
    for place, (_, k) in out:
        assert place == 1 + sum(other > k for other in items)
    tied = [[i for _, (i, k2) in out if k2 == k] for k in set(items)]
    assert all(group == sorted(group) for group in tied)  # entry order kept among ties


@given(st.lists(st.integers(0, 40), min_size=1, max_size=6))
def test_games_agree_with_the_rule(points):
    dulce = rank([FinalPlayer(f"p{i}", n, 0, 0) for i, n in enumerate(points)])
    dice = score([PlayerTally(f"p{i}", (CookedRecipe(n),)) for i, n in enumerate(points)])
    for place, name, total in [(s.place, s.player.name, s.player.points) for s in dulce] + [
            (r, p.name, p.total) for r, p in dice.ranking]:
        assert place == 1 + sum(n > total for n in points), name
