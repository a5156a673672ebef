"""Maximum flow on a small network, the shape behind the café matchings' ceilings.

The arcs are fixed once per kitchen; their capacities are a separate ``room`` list per
query (residual capacities, updated in place), so one network serves every state.
"""

from __future__ import annotations

SOURCE = 0
SINK = 1


class FlowNetwork:
    """Nodes 0 (``SOURCE``) and 1 (``SINK``) and any added; arcs in pairs, ``arc ^ 1``
    being an arc's reverse (its residual twin)."""

    def __init__(self, nodes: int = 2) -> None:
        self.to: list[int] = []  # per arc, its head
        self.adj: list[list[int]] = [[] for _ in range(max(nodes, 2))]  # per node, arcs out

    def node(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def arc(self, u: int, v: int) -> int:
        """A new arc from ``u`` to ``v`` (and its reverse, the arc returned plus one)."""
        self.adj[u].append(len(self.to))
        self.to.append(v)
        self.adj[v].append(len(self.to))
        self.to.append(u)
        return len(self.to) - 2

    def room(self) -> list[int]:
        """Residual capacities of every arc, all zero, for a query to fill in."""
        return [0] * len(self.to)

    def augment(self, room: list[int], flow: int = 0, goal: int | None = None) -> int:
        """The flow from ``SOURCE`` to ``SINK`` after shortest augmenting paths
        (Edmonds-Karp) on ``room``, starting from ``flow`` already sent and stopping once
        it reaches ``goal`` (the last path may overshoot it) or no path is left."""
        return augment(self.to, self.adj, room, flow, goal)


def augment(
    to: list[int], adj: list[list[int]], room: list[int], flow: int, goal: int | None
) -> int:
    """``FlowNetwork.augment`` on bare lists (the hot loop: no attribute look-ups)."""
    nodes = len(adj)
    while goal is None or flow < goal:
        back = [-1] * nodes
        back[SOURCE] = -2
        queue = [SOURCE]
        for x in queue:
            for a in adj[x]:
                if room[a]:
                    y = to[a]
                    if back[y] == -1:
                        back[y] = a
                        queue.append(y)
            if back[SINK] != -1:
                break
        if back[SINK] == -1:
            break
        a = back[SINK]
        push = room[a]
        y = to[a ^ 1]
        while y:
            a = back[y]
            if room[a] < push:
                push = room[a]
            y = to[a ^ 1]
        y = SINK
        while y:
            a = back[y]
            room[a] -= push
            room[a ^ 1] += push
            y = to[a ^ 1]
        flow += push
    return flow
