"""Which sleeping islands something awake can reach this frame (``sleeping.freeze``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .queries import near_cells
from .stillness import fastest_awake


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


@njit(cache=True)
def _root(parent, x):
    """Root of ``x``'s set, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _link(parent, movable, a, b):
    """Join ``a``'s and ``b``'s sets, when both can move (static things carry no island:
    two piles on one floor are two)."""
    if movable[a] and movable[b]:
        ra, rb = _root(parent, a), _root(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)


@njit(cache=True)
def _link_members(parent, movable, off, idx):
    """Consecutive members of each constraint (``off``/``idx``: a ring's or a shape's rows)."""
    for c in range(len(off) - 1):
        for k in range(off[c], off[c + 1] - 1):
            _link(parent, movable, idx[k], idx[k + 1])


@njit(cache=True)
def _link_ends(parent, movable, n, a_body, a_part, b_body, b_part, broken):
    """Each unbroken joint's or tether's two ends (a body row is ``n + row``)."""
    for k in range(len(broken)):
        if not broken[k]:
            a = n + a_body[k] if a_body[k] >= 0 else a_part[k]
            b = n + b_body[k] if b_body[k] >= 0 else b_part[k]
            _link(parent, movable, a, b)


@njit(cache=True)
def _movable(n, m, pinned, mass, bpinned):
    """Per particle row, then per body row: whether it can move (not pinned, finite mass;
    ``derived.movable``)."""
    movable = np.empty(n + m, dtype=np.bool_)
    for i in range(n):
        movable[i] = not pinned[i] and mass[i] < np.inf
    for j in range(m):
        movable[n + j] = not bpinned[j]
    return movable


@njit(cache=True)
def island_labels(n, m, s_a, s_b, s_broken, area_off, area_idx, shape_off, shape_idx, pos,
                  radius, slop, x0, y0, cell, nx, ny, start, items, j_a_body, j_a_part,
                  j_b_body, j_b_part, j_broken, t_a_body, t_a_part, t_b_body, t_b_part,
                  t_broken, pairs, nap, bnap, pinned, mass, bpinned):
    """``sleeping.islands`` in one call: an island label per particle row, then per body
    row, of what links them — unbroken springs, consecutive members of an area or shape
    constraint, particles at most ``r1 + r2 + slop`` apart (through the particles' grid),
    unbroken joints and tethers, the bodies' contact ``pairs`` (label pairs), and rows
    asleep in one island (one ``nap``) — between rows that can move (not pinned, finite
    mass). Labels are canonical (``graph.component_labels``'): islands numbered in order
    of their least row, whatever the order of the links."""
    total = n + m
    movable = _movable(n, m, pinned, mass, bpinned)
    parent = np.arange(total)
    for k in range(len(s_broken)):
        if not s_broken[k]:
            _link(parent, movable, s_a[k], s_b[k])
    _link_members(parent, movable, area_off, area_idx)
    _link_members(parent, movable, shape_off, shape_idx)
    for i in range(n):
        gx0, gx1, gy0, gy1 = near_cells(pos[i, 0], pos[i, 1], x0, y0, cell, nx, ny)
        for gy in range(gy0, gy1 + 1):
            for gx in range(gx0, gx1 + 1):
                c = gx + gy * nx
                for u in range(start[c], start[c + 1]):
                    j = items[u]
                    if j <= i:
                        continue  # each pair once, from its lower row
                    reach = radius[i] + radius[j] + slop
                    dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
                    if dx * dx + dy * dy <= reach * reach:
                        _link(parent, movable, i, j)
    _link_ends(parent, movable, n, j_a_body, j_a_part, j_b_body, j_b_part, j_broken)
    _link_ends(parent, movable, n, t_a_body, t_a_part, t_b_body, t_b_part, t_broken)
    for k in range(len(pairs)):
        _link(parent, movable, pairs[k, 0], pairs[k, 1])
    names = np.empty(total, dtype=np.int64)
    for k in range(total):  # (a loop: numba's array copy links its shape error's text)
        names[k] = nap[k] if k < n else bnap[k - n]
    order = np.argsort(names)
    for t in range(1, total):  # what fell asleep together stays one island while it sleeps
        a, b = order[t - 1], order[t]
        if names[a] >= 0 and names[a] == names[b]:
            _link(parent, movable, a, b)
    labels = np.empty(total, dtype=np.int64)
    root_label = np.full(total, -1, dtype=np.int64)
    count = 0
    for v in range(total):
        r = _root(parent, v)
        if root_label[r] < 0:
            root_label[r] = count
            count += 1
        labels[v] = root_label[r]
    return labels


@njit(cache=True)
def sleepers(island, n, still, bstill, frames, pinned, mass, bpinned, asleep, basleep, nap,
             bnap):
    """Which rows sleep after an island look (particle rows, then body rows): those that
    can move in an island whose every movable row has been still ``frames`` frames. When
    that is what sleeps already, the awake rows' ``nap`` is cleared (as ``sleeping._set``
    would) and ``(rows, True)`` returned: nothing else changes."""
    total = len(island)
    movable = _movable(n, total - n, pinned, mass, bpinned)
    ready = np.empty(total, dtype=np.bool_)
    for i in range(n):
        ready[i] = still[i] >= frames
    for j in range(total - n):
        ready[n + j] = bstill[j] >= frames
    count = 0
    for v in range(total):
        count = max(count, island[v] + 1)
    restless = np.zeros(count, dtype=np.bool_)
    for v in range(total):
        if movable[v] and not ready[v]:
            restless[island[v]] = True
    out = np.empty(total, dtype=np.bool_)
    same = True
    for v in range(total):
        out[v] = movable[v] and not restless[island[v]]
        now = asleep[v] if v < n else basleep[v - n]
        same = same and out[v] == now
    if same:
        for i in range(n):
            if not out[i]:
                nap[i] = -1
        for j in range(total - n):
            if not out[n + j]:
                bnap[j] = -1
    return out, same


@njit(cache=True)
def freeze_look(n, pos, prev, w, force, pinned, mass, asleep, nap, radius, m, bpos, bprev,
                angle, prev_angle, extent, bw, bforce, bpinned, basleep, bnap, h, dt, g,
                grabbed, pull, margin, cold):
    """``sleeping.freeze``'s look in one call: the fastest awake row's reach speed
    (``stillness.fastest_awake``), then, if anything that can move is awake, which
    sleeping rows no awake row reaches (``frozen_rows``, into ``cold``). Returns
    ``(fastest, some)``: ``fastest`` < 0 when nothing that can move is awake (``cold``
    then unwritten), ``some`` whether any row is cold."""
    fastest = fastest_awake(n, pos, prev, w, force, pinned, mass, asleep, m, bpos, bprev,
                            angle, prev_angle, extent, bw, bforce, bpinned, basleep, h, dt,
                            g, grabbed, pull)
    if fastest < 0.0:
        return fastest, False
    return fastest, frozen_rows(n, nap, asleep, pinned, mass, pos, radius, m, bnap, basleep,
                                bpinned, bpos, extent, fastest, dt, margin, cold)
