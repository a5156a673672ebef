"""Minimum-cost assignment (the Hungarian method) for naming a block's dice by family.

Our own short implementation rather than ``scipy.optimize.linear_sum_assignment``: SciPy
is not among the reader's dependencies, and the problems here are tiny (35 dice against
35 family places, 5 colour groups against 5 families), where the O(n^3) shortest
augmenting path below runs in a millisecond or two.
"""

from __future__ import annotations

import numpy as np


def min_cost_assignment(cost: np.ndarray) -> np.ndarray:
    """For an (n, m) cost matrix with n <= m, the column given to each row (all columns
    different) with the least total cost. Jonker-Volgenant's shortest augmenting paths
    with row and column potentials, one row added at a time."""
    c = np.asarray(cost, np.float64)
    n, m = c.shape
    if n > m:
        raise ValueError("more rows than columns: not every row can have its own column")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    owner = np.zeros(m + 1, np.intp)  # owner[j]: the row (1-based) holding column j; 0 free
    way = np.zeros(m + 1, np.intp)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        least = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            free = ~used[1:]
            reduced = c[i0 - 1] - u[i0] - v[1:]
            better = free & (reduced < least[1:])
            least[1:][better] = reduced[better]
            way[1:][better] = j0
            cand = np.where(free, least[1:], np.inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            u[owner[used]] += delta
            v[used] -= delta
            least[1:][free] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    out = np.full(n, -1, np.intp)
    for j in range(1, m + 1):
        if owner[j]:
            out[owner[j] - 1] = j - 1
    return out


def balanced_labels(cost: np.ndarray, per_group: int) -> np.ndarray:
    """Each row's group (a column of ``cost``, rows x groups) with at most ``per_group``
    rows in any group, least total cost: the assignment over each group's places."""
    rows, groups = cost.shape
    if rows > groups * per_group:
        raise ValueError("more rows than places")
    places = np.repeat(cost, per_group, axis=1)  # group k's places are k*per_group...
    return min_cost_assignment(places) // per_group
