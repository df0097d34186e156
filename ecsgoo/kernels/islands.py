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
