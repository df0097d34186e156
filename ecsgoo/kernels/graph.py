"""Graph kernels for the analyze stage: connected components and bridges.

Pure ``@njit(cache=True)`` functions over edge lists ``a[i] -- b[i]`` (integer vertex
indices in ``[0, n)``). Parallel edges and self-loops are allowed. No fastmath, no
parallelism: results are deterministic and independent of thread count.

Internal index arrays are int32 (so n and the edge count must stay below 2**31): on
large random graphs these kernels are bound by memory latency, and halving the
working set halves the time.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _find(parent, x):
    """Root of ``x``'s set, compressing the path so that later finds are O(α(V))."""
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root


@njit(cache=True)
def component_labels(n, a, b):
    """Connected-component label of every vertex, by union–find.

    Union by rank plus path compression: O(E α(V)). Labels are canonical: components
    are numbered 0, 1, 2, … in increasing order of their smallest vertex, so the
    result depends only on the partition, not on the edge order.
    """
    parent = np.arange(n, dtype=np.int32)
    rank = np.zeros(n, np.int8)  # rank <= log2(n) < 31
    for i in range(a.shape[0]):
        ra = _find(parent, a[i])
        rb = _find(parent, b[i])
        if ra == rb:
            continue
        if rank[ra] < rank[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        if rank[ra] == rank[rb]:
            rank[ra] += 1
    labels = np.empty(n, np.int64)
    root_label = np.full(n, -1, np.int32)
    count = 0
    for v in range(n):
        r = _find(parent, v)
        if root_label[r] == -1:
            root_label[r] = count
            count += 1
        labels[v] = root_label[r]
    return labels


@njit(cache=True)
def _csr(n, a, b):
    """Adjacency of the undirected multigraph as CSR, by counting sort: O(V + E).

    Returns ``(start, node, edge)``: the neighbours of ``v`` are
    ``node[start[v]:start[v+1]]``, reached through edge ids ``edge[...]``. Self-loops
    are left out: they lie on no path between two vertices, so they never matter.
    """
    start = np.zeros(n + 1, np.int32)
    for i in range(a.shape[0]):
        u, v = a[i], b[i]
        if u != v:
            start[u + 1] += 1
            start[v + 1] += 1
    for v in range(n):
        start[v + 1] += start[v]
    fill = start[:-1].copy()
    node = np.empty(start[n], np.int32)
    edge = np.empty(start[n], np.int32)
    for i in range(a.shape[0]):
        u, v = a[i], b[i]
        if u != v:
            k = fill[u]
            node[k], edge[k], fill[u] = v, i, k + 1
            k = fill[v]
            node[k], edge[k], fill[v] = u, i, k + 1
    return start, node, edge


@njit(cache=True)
def _low_link_dfs(root, timer, start, node, edge, disc, low, came_by, cursor, stack, is_bridge):
    """One depth-first search from ``root`` filling ``disc``, ``low`` and ``is_bridge``.

    Iterative, with an explicit ``stack`` and a per-vertex adjacency ``cursor`` (no
    recursion, so a 200,000-vertex path is fine). Only the edge *id* a vertex was
    reached by (``came_by``) is skipped, not the parent vertex, so a parallel edge
    back to the parent counts as a cycle. Returns the next free visit time.
    """
    disc[root] = low[root] = timer
    came_by[root] = -1
    stack[0] = root
    top = 1
    while top > 0:
        v = stack[top - 1]
        k, low_v, arrived = cursor[v], low[v], came_by[v]
        while k < start[v + 1]:  # scan v's links with its state kept in registers
            u, e = node[k], edge[k]
            k += 1
            if e != arrived:
                if disc[u] == -1:
                    break
                low_v = min(low_v, disc[u])
        else:  # v is finished: pass its low-link to its parent
            low[v] = low_v
            top -= 1
            if top > 0:
                p = stack[top - 1]
                low[p] = min(low[p], low_v)
                is_bridge[arrived] = low_v > disc[p]
            continue
        cursor[v], low[v] = k, low_v
        timer += 1
        disc[u] = low[u] = timer
        came_by[u] = e
        stack[top] = u
        top += 1
    return timer + 1


@njit(cache=True)
def bridge_mask(n, a, b):
    """Which edges are bridges (their removal adds a component): Tarjan low-link, O(V + E).

    ``disc[v]`` is v's depth-first visit time and ``low[v]`` the smallest visit time
    reachable from v's subtree through one non-tree edge; tree edge ``p -- v`` is a
    bridge iff ``low[v] > disc[p]``. Self-loops are never bridges; a doubled link is
    not a bridge (the two copies form a cycle).
    """
    start, node, edge = _csr(n, a, b)
    disc = np.full(n, -1, np.int32)
    low = np.empty(n, np.int32)
    came_by = np.empty(n, np.int32)
    is_bridge = np.zeros(a.shape[0], np.bool_)
    cursor = start[:-1].copy()
    stack = np.empty(n, np.int32)
    timer = 0
    for root in range(n):
        if disc[root] == -1:
            timer = _low_link_dfs(
                root, timer, start, node, edge, disc, low, came_by, cursor, stack, is_bridge
            )
    return is_bridge
