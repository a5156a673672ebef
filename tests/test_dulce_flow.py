"""The max-flow network under the Dulce point ceilings, alone, on small networks worked
out by hand; then the café networks built on it, on a one-café kitchen."""

from __future__ import annotations

import pytest

from companion.games.dulce.kitchen import Kitchen
from companion.games.dulce.model import DEFAULT_RULES, Bean, Cafe, Content, Level, Space
from companion.games.dulce.search.flow import SINK, SOURCE, FlowNetwork
from companion.games.dulce.search.networks import EggNetwork, MatchingNetwork
from companion.games.dulce.search.tables import Tables

UNLIMITED = 1 << 20


def _flow_on(room: list[int], arc: int) -> int:
    """What an arc carries: its reverse's residual capacity (reverses start at zero)."""
    return room[arc ^ 1]


def test_a_bipartite_matching():
    # Cafés a, b, c against spaces x, y, z: a-x, a-y, b-x, c-y, c-z. A perfect matching
    # exists (a-y, b-x, c-z), but only with a away from x.
    net = FlowNetwork()
    a, b, c, x, y, z = (net.node() for _ in range(6))
    caps: dict[int, int] = {}
    for left in (a, b, c):
        caps[net.arc(SOURCE, left)] = 1
    for right in (x, y, z):
        caps[net.arc(right, SINK)] = 1
    edges = {(a, x): net.arc(a, x), (a, y): net.arc(a, y), (b, x): net.arc(b, x),
             (c, y): net.arc(c, y), (c, z): net.arc(c, z)}
    for arc in edges.values():
        caps[arc] = 1
    room = net.room()
    for arc, cap in caps.items():
        room[arc] = cap
    assert net.augment(room) == 3
    matched = {pair for pair, arc in edges.items() if _flow_on(room, arc)}
    assert matched == {(a, y), (b, x), (c, z)}


def test_a_matching_that_cannot_be_perfect():
    # Three cafés all wanting the one space x, and one more space y only c can take.
    net = FlowNetwork()
    a, b, c, x, y = (net.node() for _ in range(5))
    room_of = {}
    for left in (a, b, c):
        room_of[net.arc(SOURCE, left)] = 1
    for right in (x, y):
        room_of[net.arc(right, SINK)] = 1
    for left in (a, b, c):
        room_of[net.arc(left, x)] = 1
    room_of[net.arc(c, y)] = 1
    room = net.room()
    for arc, cap in room_of.items():
        room[arc] = cap
    assert net.augment(room) == 2


def _egg_network(stock: int) -> tuple[FlowNetwork, list[int], dict[str, int]]:
    """Two cafés, each of two spaces and one item held (a private supply of one), that
    can each take two fills, and a stock of eggs either may draw on."""
    net = FlowNetwork()
    eggs, cafe_a, cafe_b = net.node(), net.node(), net.node()
    arcs = {
        "stock": net.arc(SOURCE, eggs),
        "eggs to a": net.arc(eggs, cafe_a),
        "eggs to b": net.arc(eggs, cafe_b),
        "held a": net.arc(SOURCE, cafe_a),
        "held b": net.arc(SOURCE, cafe_b),
        "a": net.arc(cafe_a, SINK),
        "b": net.arc(cafe_b, SINK),
    }
    room = net.room()
    caps = {"stock": stock, "eggs to a": UNLIMITED, "eggs to b": UNLIMITED,
            "held a": 1, "held b": 1, "a": 2, "b": 2}
    for name, cap in caps.items():
        room[arcs[name]] = cap
    return net, room, arcs


@pytest.mark.parametrize(("stock", "fills"), [(0, 2), (1, 3), (2, 4), (5, 4)])
def test_a_b_matching_with_a_shared_egg_stock(stock, fills):
    # Each egg fills one café only: the stock lifts the total by one per egg until both
    # cafés are full, never by one per café.
    net, room, arcs = _egg_network(stock)
    assert net.augment(room) == fills
    assert _flow_on(room, arcs["stock"]) == min(stock, 2)
    assert _flow_on(room, arcs["a"]) <= 2 and _flow_on(room, arcs["b"]) <= 2


def test_an_augmenting_path_that_must_reroute():
    # a reaches x and y, b only x. A first unit already sent s-a-x-t blocks b; the only
    # augmenting path, s-b-x-a-y-t, undoes a-x over its reverse arc.
    net = FlowNetwork()
    a, b, x, y = (net.node() for _ in range(4))
    s_a, s_b = net.arc(SOURCE, a), net.arc(SOURCE, b)
    a_x, a_y, b_x = net.arc(a, x), net.arc(a, y), net.arc(b, x)
    x_t, y_t = net.arc(x, SINK), net.arc(y, SINK)
    room = net.room()
    for arc in (s_a, s_b, a_x, a_y, b_x, x_t, y_t):
        room[arc] = 1
    for arc in (s_a, a_x, x_t):  # the greedy first unit
        room[arc] -= 1
        room[arc ^ 1] += 1
    assert net.augment(room, flow=1) == 2
    assert _flow_on(room, a_x) == 0  # rerouted
    assert _flow_on(room, a_y) == _flow_on(room, b_x) == 1


def test_an_infeasible_demand_stops_at_the_max_flow():
    # The goal asks for three units; one cut of capacity two (x-t and y-t) allows two.
    net = FlowNetwork()
    a, x, y = net.node(), net.node(), net.node()
    arcs = [net.arc(SOURCE, a), net.arc(a, x), net.arc(a, y), net.arc(x, SINK),
            net.arc(y, SINK)]
    room = net.room()
    for arc, cap in zip(arcs, (5, 5, 5, 1, 1), strict=True):
        room[arc] = cap
    assert net.augment(room, goal=3) == 2
    assert net.augment(room, goal=3) == 0  # nothing left to send


def test_no_path_to_the_sink_carries_nothing():
    net = FlowNetwork()
    feed = net.arc(SOURCE, net.node())  # that node has no way on
    room = net.room()
    room[feed] = 4
    assert net.augment(room) == 0


def test_the_flow_stops_once_it_reaches_the_goal():
    # Three disjoint unit paths; a goal of two leaves the third unsent.
    net = FlowNetwork()
    room_of = {}
    for _ in range(3):
        mid = net.node()
        room_of[net.arc(SOURCE, mid)] = 1
        room_of[net.arc(mid, SINK)] = 1
    room = net.room()
    for arc, cap in room_of.items():
        room[arc] = cap
    assert net.augment(room, goal=2) == 2
    assert net.augment(room, flow=2) == 3


def _twin_kitchen() -> Tables:
    """One café of two coffee 2-ring spaces, both empty: each scoring takes two fills."""
    space = Space(Bean.COFFEE, Level.GROUND)
    cafe = Cafe("Twin", (space, space), (Content.EMPTY, Content.EMPTY))
    return Tables(Kitchen.of([cafe]), DEFAULT_RULES)


@pytest.mark.parametrize(("arriving", "scorings"), [(0, 0), (1, 0), (3, 1), (4, 2)])
def test_the_matching_sees_that_a_twin_cafe_takes_two_fills(arriving, scorings):
    # The greedy cover lets each space take every arriving bean (the scarcest space
    # count); the matching shares them between the two spaces.
    tables = _twin_kitchen()
    (kl,) = tables.class_slots
    network = MatchingNetwork(tables)
    assert network.scorings([(arriving, 0)], {kl: arriving}, 0, arriving) == scorings


@pytest.mark.parametrize(
    ("arriving", "stock", "scorings"), [(1, 0, 0), (1, 1, 1), (1, 2, 1), (2, 2, 2), (0, 2, 1)]
)
def test_the_egg_matching_draws_on_one_stock(arriving, stock, scorings):
    # Both spaces may take an egg; beans still to come and eggs fill them together.
    tables = _twin_kitchen()
    (kl,) = tables.class_slots
    network = EggNetwork(tables)
    # The scarcest space: one egg or item now plus the beans still to come.
    least = 1 + arriving
    assert network.scorings([(least, 0)], {kl: arriving}, 0, 0b11, stock) == scorings
