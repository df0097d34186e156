"""Structure kernels for the analyze stage: the live spring graph and who is grounded.

The graph algorithms themselves (union–find, Tarjan bridges) are in ``graph.py``;
these kernels gather their input from the store's columns and turn their output
into per-particle answers, all in O(V + E).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def live_springs(m, a, b, broken):
    """The unbroken springs among the first ``m`` rows, as an edge list.

    Returns ``(ea, eb, rows)``: end-point particle rows and the spring row of each edge.
    """
    k = 0
    for s in range(m):
        if not broken[s]:
            k += 1
    ea = np.empty(k, np.int64)
    eb = np.empty(k, np.int64)
    rows = np.empty(k, np.int64)
    k = 0
    for s in range(m):
        if not broken[s]:
            ea[k], eb[k], rows[k] = a[s], b[s], s
            k += 1
    return ea, eb, rows


@njit(cache=True)
def live_max(m, broken, stretch):
    """The largest ``stretch`` among the unbroken springs of the first ``m`` rows (0 if none)."""
    top = 0.0
    for s in range(m):
        if not broken[s]:
            top = max(top, stretch[s])
    return top


@njit(cache=True)
def classify(n, labels, pinned, m, a, b, entity, was_grounded):
    """Which of the ``n`` particles are grounded, in a structure, newly detached.

    A component (``labels``, over unbroken springs) is *anchored* if it holds a
    pinned particle; its particles are ``grounded``. ``in_structure``: the
    particle is an end of any of the ``m`` springs, broken or not. A particle is
    *detached* if ``was_grounded[entity]`` (grounded and in a structure at the
    previous analysis) and now it is in a structure but not grounded.
    Returns ``(grounded, in_structure, now_grounded, connected, debris,
    components, detached)``; ``now_grounded`` is the next ``was_grounded``,
    indexed by entity id (size ``max entity + 1``).
    """
    count = 0
    for v in range(n):
        count = max(count, labels[v] + 1)
    anchored = np.zeros(count, np.bool_)
    counted = np.zeros(count, np.bool_)
    in_structure = np.zeros(n, np.bool_)
    for s in range(m):
        in_structure[a[s]] = True
        in_structure[b[s]] = True
    top = 0
    for v in range(n):
        if pinned[v]:
            anchored[labels[v]] = True
        top = max(top, entity[v] + 1)
    grounded = np.empty(n, np.bool_)
    now_grounded = np.zeros(top, np.bool_)
    connected = debris = components = detached = 0
    for v in range(n):
        c = labels[v]
        grounded[v] = anchored[c]
        if not in_structure[v]:
            continue
        if not counted[c]:
            counted[c] = True
            components += 1
        if anchored[c]:
            connected += 1
            now_grounded[entity[v]] = True
        else:
            debris += 1
            e = entity[v]
            if e < was_grounded.shape[0] and was_grounded[e]:
                detached += 1
    return grounded, in_structure, now_grounded, connected, debris, components, detached


@njit(cache=True)
def _first(va, ua, vb, ub):
    """Whether a key ``(slack, unbreakable)`` sorts before another (NaN slack last)."""
    if va != va or vb != vb:
        if (va != va) != (vb != vb):
            return vb != vb
    elif va != vb:
        return va < vb
    return ub and not ua


@njit(cache=True)
def danger_rows(stretch, max_stretch, rows):
    """``rows`` (springs) most dangerous first: ``analysis.danger_order`` of them, to the
    bit (slack ``(max − stretch) / max``, 1 for an unbreakable spring, least first, NaN
    last; ties breakable first, then in ``rows``' order), as a stable merge sort."""
    k = len(rows)
    value = np.empty(k)
    unbreakable = np.empty(k, np.bool_)
    for i in range(k):
        limit = max_stretch[rows[i]]
        finite = np.isfinite(limit)
        value[i] = (limit - stretch[rows[i]]) / limit if finite else 1.0
        unbreakable[i] = not finite
    order, spare = np.arange(k), np.empty(k, np.int64)
    width = 1
    while width < k:
        for lo in range(0, k, 2 * width):
            mid, hi = min(lo + width, k), min(lo + 2 * width, k)
            i, j, out = lo, mid, lo
            while i < mid and j < hi:
                a, b = order[i], order[j]
                if _first(value[b], unbreakable[b], value[a], unbreakable[a]):
                    spare[out] = b
                    j += 1
                else:
                    spare[out] = a
                    i += 1
                out += 1
            while i < mid:
                spare[out] = order[i]
                i, out = i + 1, out + 1
            while j < hi:
                spare[out] = order[j]
                j, out = j + 1, out + 1
        order, spare = spare, order
        width *= 2
    return rows[order]


@njit(cache=True)
def members(p_entity, pinned, s_a, s_b, broken, grounded, entities):
    """Of the particles of ``entities`` (each has a row in ``p_entity``): their rows, and
    whether each is ``linked`` (pinned, or an end of an unbroken spring) and grounded
    (``grounded`` per row, as Analyze found it, and linked): a game's pieces of the
    structure (the goo balls) in one call."""
    # (of a copy: numba sorts a read-only array with a quicksort compiled for it alone)
    order = np.argsort(p_entity.copy())
    keys = p_entity[order]
    k = len(entities)
    rows = np.empty(k, np.int64)
    for i in range(k):
        rows[i] = order[np.searchsorted(keys, entities[i])]
    degree = np.zeros(len(p_entity), np.int64)
    for s in range(len(s_a)):
        if not broken[s]:
            degree[s_a[s]] += 1
            degree[s_b[s]] += 1
    linked = np.empty(k, np.bool_)
    held = np.empty(k, np.bool_)
    for i in range(k):
        r = rows[i]
        linked[i] = degree[r] > 0 or pinned[r]
        held[i] = grounded[r] and linked[i]
    return rows, linked, held
