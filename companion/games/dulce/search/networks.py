"""The two flow networks of a kitchen's b-matching ceilings: cafés against (bean, level)
classes, and the same with a shared stock of eggs.

Each café is an edge between its two classes (a loop when both spaces are of one class,
a pendant edge for a single space) taking its scarcest count at most; each class takes
the beans that may still come down into it (``arriving``, shared by its cafés) plus what
each café's own spaces of that class hold now (``ready``), which only that café can use.
That is a b-matching with private supplies, whose fractional optimum is half the maximum
flow in its bipartite double cover (a loop counts twice at its node, so its arc takes
twice the count; the average of the two directions' flows is feasible, as the excess
over a private supply is convex). Cafés of another shape (more than two spaces) have no
arcs: ``odd_shapes`` tells the callers to keep their greedy count.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from companion.games.dulce.search.flow import SINK, SOURCE, FlowNetwork, augment
from companion.games.dulce.search.masks import UNBOUNDED
from companion.games.dulce.search.tables import Tables

# (scarcest count, café) of each café that may score, as the ceilings work them out.
Counts = Iterable[tuple[int, int]]
Row = tuple[tuple[int, int, int, int, int, int, int, int], ...]  # a café's arcs, unnamed


class CafeArc(NamedTuple):
    """A café's arc in ``MatchingNetwork``, from its tail class's "out" node to its head
    class's "in" node; -1 where the end is the source or the sink."""

    arc: int
    times: int  # fills of the class per scoring: 2 for a café of two like spaces
    feed: int  # the shared arc into the tail class (the beans that may come down)
    drain: int  # the shared arc out of the head class
    own_tail: int  # the café's private supply at the tail, skipping the tail's shared arc
    own_head: int  # the same at the head
    tail_spots: int  # the café's spaces of the tail class, as a slot mask
    head_spots: int


class EggArc(NamedTuple):
    """A café's arc in ``EggNetwork``, between a tail and a head node of its own; -1
    where the end is the source or the sink."""

    arc: int
    times: int
    tail_held: int  # from the source: what the café's tail-class spaces hold
    tail_egg: int  # from the egg stock: eggs for its empty tail-class spaces
    tail_spots: int  # the café's spaces of the tail class, as a slot mask (0: none)
    head_held: int
    head_egg: int
    head_spots: int


def _shapes(tables: Tables, ids: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """A café's arcs as (tail class, head class, times), -1 for the source or the sink."""
    kinds = sorted(tables.klass[i] for i in ids)
    if len(kinds) == 1:  # an edge to a node without a cap, both ways
        return ((kinds[0], -1, 1), (-1, kinds[0], 1))
    if len(kinds) == 2 and kinds[0] == kinds[1]:
        return ((kinds[0], kinds[0], 2),)
    if len(kinds) == 2:
        return ((kinds[0], kinds[1], 1), (kinds[1], kinds[0], 1))
    return ()


def _spots(tables: Tables, ids: tuple[int, ...]) -> dict[int, int]:
    """A café's spaces per class, as slot masks."""
    klass = tables.klass
    return {kl: sum(1 << i for i in ids if klass[i] == kl) for kl in {klass[i] for i in ids}}


def _rows(cafe_arcs: list[tuple[CafeArc, ...]] | list[tuple[EggArc, ...]]) -> list[Row]:
    """The arcs as plain tuples, for the hot loops: a NamedTuple unpacks slower."""
    return [tuple(arc[:] for arc in arcs) for arcs in cafe_arcs]


class MatchingNetwork:
    """Node 0 the source, 1 the sink, per class an "out" and an "in" node.

    A café arc runs from its tail class's "out" node to its head class's "in" node (or
    from the source, to the sink, for a one-space café), drawing on both classes'
    shared arcs (the beans that may still come down into the class). What the café's own
    spaces hold feeds it alone: flow that is private at both ends needs no arc, and flow
    private at one end only takes an arc from the source, or to the sink, that skips
    that end's shared arc."""

    def __init__(self, tables: Tables) -> None:
        net = self.net = FlowNetwork()
        node: dict[int, int] = {}
        self.class_arcs: dict[int, tuple[int, int]] = {}  # per class: (feed, drain)
        for kl in sorted(tables.class_slots):
            n = node[kl] = net.node()
            net.node()
            self.class_arcs[kl] = (net.arc(SOURCE, n), net.arc(n + 1, SINK))

        def path(tail: int, head: int, times: int, spots: dict[int, int]) -> CafeArc:
            u = node[tail] if tail >= 0 else SOURCE
            v = node[head] + 1 if head >= 0 else SINK
            own_tail = own_head = -1
            if tail >= 0 and head >= 0:
                own_tail, own_head = net.arc(SOURCE, v), net.arc(u, SINK)
            return CafeArc(
                net.arc(u, v),
                times,
                self.class_arcs[tail][0] if tail >= 0 else -1,
                self.class_arcs[head][1] if head >= 0 else -1,
                own_tail,
                own_head,
                spots[tail] if tail >= 0 else -1,
                spots[head] if head >= 0 else -1,
            )

        self.cafe_arcs: list[tuple[CafeArc, ...]] = []  # per café
        self.odd_shapes = False
        for ids in tables.kitchen.cafe_slots:
            spots = _spots(tables, ids)
            if len(ids) > 2:
                self.odd_shapes = True
            self.cafe_arcs.append(
                tuple(path(t, h, times, spots) for t, h, times in _shapes(tables, ids))
            )
        self._rows = _rows(self.cafe_arcs)

    def scorings(self, cafes: Counts, arriving: dict[int, int], ready: int, cover: int) -> int:
        """The scorings the b-matching allows, fractionally, rounded down, or ``cover``
        (a feasible dual, such as the greedy count) if that is no more: the flow stops
        once it reaches ``2 * cover``.

        ``cafes``: (scarcest count, café) per café; ``arriving``: per class, the beans
        that may still come down into it; ``ready``: the slots holding something now."""
        if self.odd_shapes:
            return cover
        room = self.net.room()
        for k, (a, b) in self.class_arcs.items():
            room[a] = room[b] = arriving[k]
        flow = 0
        paths = self._rows
        for least, ci in cafes:
            if not least:
                continue
            for a, times, feed, drain, own_tail, own_head, t_in, h_in in paths[ci]:
                most = times * least
                # What is private at both ends flows at once (the source and the sink
                # are private to every café); whichever end still has some left takes
                # its own arc, the rest the shared arcs of both classes.
                mine = (ready & t_in).bit_count() if t_in >= 0 else most
                theirs = (ready & h_in).bit_count() if h_in >= 0 else most
                both = min(mine, theirs, most)
                flow += both
                left = most - both
                if not left:
                    continue
                if own_tail >= 0:
                    for own, pool, spare in ((own_tail, drain, mine), (own_head, feed, theirs)):
                        cap = min(spare - both, left)
                        if cap <= 0:
                            continue
                        left -= cap
                        push = min(cap, room[pool])
                        room[pool] -= push
                        room[pool ^ 1] += push
                        room[own] = cap - push
                        room[own ^ 1] = push
                        flow += push
                push = left
                if feed >= 0 and room[feed] < push:
                    push = room[feed]
                if drain >= 0 and room[drain] < push:
                    push = room[drain]
                if push > 0:
                    if feed >= 0:
                        room[feed] -= push
                        room[feed ^ 1] += push
                    if drain >= 0:
                        room[drain] -= push
                        room[drain ^ 1] += push
                    flow += push
                room[a] = left - push
                room[a ^ 1] = push
        flow = augment(self.net.to, self.net.adj, room, flow, 2 * cover)
        return min(cover, flow // 2)


class EggNetwork:
    """``MatchingNetwork`` with eggs: node 0 the source, 1 the sink, 2 and 3 the stock of
    eggs on the tail and head sides of the double cover, per class an "out" and an "in"
    node, and per café arc a tail and a head node joined by the café's arc.

    The tail node takes beans from the tail class's "out" node, what the café's own
    spaces of that class hold from the source, and eggs for its empty spaces of that
    class from the stock; the head node gives back the same three ways. Built once;
    each query sets the capacities."""

    def __init__(self, tables: Tables) -> None:
        net = self.net = FlowNetwork(4)
        self.stock = (net.arc(SOURCE, 2), net.arc(3, SINK))
        ends: dict[int, tuple[int, int]] = {}
        class_arcs: list[tuple[int, int, int]] = []  # (class, feed, drain)
        for kl in sorted(tables.class_slots):
            out, inn = net.node(), net.node()
            ends[kl] = (out, inn)
            class_arcs.append((kl, net.arc(SOURCE, out), net.arc(inn, SINK)))
        self.class_arcs = tuple(class_arcs)
        feeds = {kl: (feed, drain) for kl, feed, drain in class_arcs}
        self.cafe_arcs: list[tuple[EggArc, ...]] = []  # per café
        open_arcs: list[int] = []  # arcs of unbounded capacity
        # Per café: the routes from the source to the sink through each of its arcs, own
        # supplies first and eggs last, for a greedy first flow.
        self.routes: list[tuple[tuple[int, ...], ...]] = []
        for ids in tables.kitchen.cafe_slots:
            spots = _spots(tables, ids)
            paths = []
            routes: list[tuple[int, ...]] = []
            for tail, head, times in _shapes(tables, ids):
                a, b = net.node(), net.node()
                cafe = net.arc(a, b)
                t_held = t_egg = h_held = h_egg = -1
                if tail < 0:
                    open_arcs.append(net.arc(SOURCE, a))
                    ins: list[tuple[int, ...]] = [(open_arcs[-1],)]
                else:
                    open_arcs.append(net.arc(ends[tail][0], a))
                    t_held, t_egg = net.arc(SOURCE, a), net.arc(2, a)
                    ins = [(t_held,), (feeds[tail][0], open_arcs[-1]), (self.stock[0], t_egg)]
                if head < 0:
                    open_arcs.append(net.arc(b, SINK))
                    outs: list[tuple[int, ...]] = [(open_arcs[-1],)]
                else:
                    open_arcs.append(net.arc(b, ends[head][1]))
                    h_held, h_egg = net.arc(b, SINK), net.arc(b, 3)
                    outs = [(h_held,), (open_arcs[-1], feeds[head][1]), (h_egg, self.stock[1])]
                paths.append(
                    EggArc(
                        cafe, times, t_held, t_egg, spots.get(tail, 0),
                        h_held, h_egg, spots.get(head, 0),
                    )
                )
                routes.extend(i + (cafe,) + o for i in ins for o in outs)
            self.cafe_arcs.append(tuple(paths))
            self.routes.append(tuple(routes))
        self.open_arcs = tuple(open_arcs)
        self._rows = _rows(self.cafe_arcs)

    def scorings(
        self,
        cafes: Counts,
        arriving: dict[int, int],
        ready: int,
        eggy: int,
        stock: int,
        goal: int = UNBOUNDED,
    ) -> int:
        """The scorings that ``MatchingNetwork``'s b-matching allows, fractionally,
        rounded down, when any ``stock`` of the spaces ``eggy`` may also take an egg:
        each such space is one more private supply of its café, drawn from one stock of
        ``stock`` eggs on each side of the double cover. The flow stops once it
        reaches ``goal`` scorings (then the count is ``goal``)."""
        room = self.net.room()
        for a in self.open_arcs:
            room[a] = UNBOUNDED
        room[self.stock[0]] = room[self.stock[1]] = stock
        for kl, feed, drain in self.class_arcs:
            room[feed] = room[drain] = arriving[kl]
        counted: list[int] = []
        for least, ci in cafes:
            if not least:
                continue
            counted.append(ci)
            for cafe, times, t_held, t_egg, t_in, h_held, h_egg, h_in in self._rows[ci]:
                room[cafe] = times * least
                if t_held >= 0:
                    room[t_held] = (ready & t_in).bit_count()
                    room[t_egg] = (eggy & t_in).bit_count()
                if h_held >= 0:
                    room[h_held] = (ready & h_in).bit_count()
                    room[h_egg] = (eggy & h_in).bit_count()
        flow = 0
        target = 2 * goal if goal < UNBOUNDED else UNBOUNDED
        # A greedy first flow along each café's own routes, then shortest augmenting
        # paths (Edmonds-Karp) on what is left: a few units on a hundred nodes.
        for ci in counted:
            for route in self.routes[ci]:
                push = UNBOUNDED
                for a in route:
                    if room[a] < push:
                        push = room[a]
                if push > 0:
                    for a in route:
                        room[a] -= push
                        room[a ^ 1] += push
                    flow += push
        flow = augment(self.net.to, self.net.adj, room, flow, target)
        return min(flow, target) // 2
