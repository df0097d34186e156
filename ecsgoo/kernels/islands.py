"""Which sleeping islands something awake can reach this frame (``sleeping.freeze``)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def reachable(group, asleep, awake, pos, size, speed, dt, margin, count):
    """Per sleeping group (``group`` of each row, ``count`` groups): whether an awake row
    may touch one of its rows this frame.

    A group's box holds its sleeping rows' discs (``pos`` ± ``size``: a radius or a
    body's extent, px); an awake row's disc is grown by how far anything awake can go in
    the frame: twice ``speed`` (px/s, the fastest awake thing's: an elastic hit passes
    on up to twice a speed) × ``dt`` plus ``margin`` px. The awake rows are looked up by
    x (sorted), so a group costs a binary search and the rows near it.
    """
    big = np.inf
    box = np.empty((count, 4))
    for k in range(count):
        box[k, 0] = box[k, 1] = big
        box[k, 2] = box[k, 3] = -big
    for i in range(len(group)):
        if asleep[i]:
            k, r = group[i], size[i]
            box[k, 0] = min(box[k, 0], pos[i, 0] - r)
            box[k, 1] = min(box[k, 1], pos[i, 1] - r)
            box[k, 2] = max(box[k, 2], pos[i, 0] + r)
            box[k, 3] = max(box[k, 3], pos[i, 1] + r)
    rows = np.flatnonzero(awake)
    xs = pos[rows, 0].copy()
    order = np.argsort(xs)
    rows, xs = rows[order], xs[order]
    grow = 2.0 * speed * dt + margin
    widest = 0.0
    for i in rows:
        widest = max(widest, size[i])
    out = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        if box[k, 0] == big:
            continue
        lo = np.searchsorted(xs, box[k, 0] - grow - widest)
        hi = np.searchsorted(xs, box[k, 2] + grow + widest, side="right")
        for t in range(lo, hi):
            i = rows[t]
            r = size[i] + grow
            if (pos[i, 0] - r <= box[k, 2] and box[k, 0] <= pos[i, 0] + r
                    and pos[i, 1] - r <= box[k, 3] and box[k, 1] <= pos[i, 1] + r):
                out[k] = True
                break
    return out


@njit(cache=True)
def frozen_rows(n, nap, asleep, pinned, mass, pos, radius, m, bnap, basleep, bpinned, bpos,
                extent, speed, dt, margin, cold):
    """``sleeping.freeze`` in one call: per particle row, then body row, into ``cold``,
    whether it sleeps in an island (rows of one ``nap``) that nothing awake that can move
    reaches this frame (``reachable``); returns whether any row is cold. The islands are
    numbered in ``nap`` order, as ``np.unique`` numbers them."""
    total = n + m
    names = np.empty(total, dtype=np.int64)
    sleeps = np.empty(total, dtype=np.bool_)
    awake = np.empty(total, dtype=np.bool_)
    at = np.empty((total, 2))
    size = np.empty(total)
    for i in range(n):
        names[i], sleeps[i] = nap[i], asleep[i]
        awake[i] = not pinned[i] and mass[i] < np.inf and not asleep[i]
        at[i, 0], at[i, 1], size[i] = pos[i, 0], pos[i, 1], radius[i]
    for j in range(m):
        i = n + j
        names[i], sleeps[i] = bnap[j], basleep[j]
        awake[i] = not bpinned[j] and not basleep[j]
        at[i, 0], at[i, 1], size[i] = bpos[j, 0], bpos[j, 1], extent[j]
    group = np.empty(total, dtype=np.int64)
    order = np.argsort(names)
    count = 0
    for t in range(total):
        if t and names[order[t]] != names[order[t - 1]]:
            count += 1
        group[order[t]] = count
    near = reachable(group, sleeps, awake, at, size, speed, dt, margin,
                     count + 1 if total else 0)
    some = False
    for i in range(total):
        cold[i] = sleeps[i] and not near[group[i]]
        some = some or cold[i]
    return some
