"""A solve order for springs in which neighbours in the sequence share no particle."""

from __future__ import annotations

import numpy as np
from numba import njit

#: Colours ``color_order`` gives (the last, 64, shared by what found all 64 taken).
COLORS = 65


@njit(cache=True)
def color_order(m, a, b, n):
    """Greedy edge colouring of ``m`` springs over ``n`` particles; rows sorted by colour.

    Each spring takes the lowest colour not yet used at either end (a 64-bit
    mask per particle; springs that find all 64 taken share colour 64; an end
    -1 counts for nothing — the rigid solver's contacts pass their ends that
    cannot move so, see ``rigid_find``). Within
    a colour no two springs touch the same particle, so the CPU can overlap
    consecutive projections instead of waiting on each one (the Gauss–Seidel
    pass is latency-bound otherwise). Stable and deterministic.
    """
    return color_runs(m, a, b, n, np.empty(COLORS + 1, dtype=np.int64))


@njit(cache=True)
def color_runs(m, a, b, n, runs):
    """``color_order``, and where each colour's run of rows starts in it: colour ``c``'s
    rows are ``order[runs[c]:runs[c + 1]]`` (``runs``: ``COLORS + 1`` entries)."""
    used = np.zeros(n, dtype=np.uint64)
    color = np.empty(m, dtype=np.int64)
    count = np.zeros(66, dtype=np.int64)
    for s in range(m):
        taken = np.uint64(0)
        if a[s] >= 0:
            taken |= used[a[s]]
        if b[s] >= 0:
            taken |= used[b[s]]
        c = 0
        while c < 64 and (taken >> np.uint64(c)) & np.uint64(1):
            c += 1
        if c < 64:
            bit = np.uint64(1) << np.uint64(c)
            if a[s] >= 0:
                used[a[s]] |= bit
            if b[s] >= 0:
                used[b[s]] |= bit
        color[s] = c
        count[c + 1] += 1
    for c in range(65):
        count[c + 1] += count[c]
    for c in range(COLORS + 1):
        runs[c] = count[c]
    order = np.empty(m, dtype=np.int64)
    for s in range(m):
        order[count[color[s]]] = s
        count[color[s]] += 1
    return order
