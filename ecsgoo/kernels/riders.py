"""Particles riding on links (the goo game's crawlers): where they sit, how they move, what
they weigh on the link's ends.

The same bits as the numpy form it replaced (``tests/naive.py``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def ride_links(pos, prev, h, pinned, mass, rows, a, b, t, load, gx, gy, wind, where,
               speed, force, touched):
    """Riders (particle ``rows``) at ``t`` along links from rows ``a`` to ``b``.

    ``where = (1 − t)·x_a + t·x_b`` (px) and ``speed`` likewise of the ends' velocities
    ``(pos − prev) / h`` (px/s); with ``load`` > 0 each rider of mass ``m`` weighs
    ``load·m·(gx + wind, gy)`` on its link's unpinned ends, split ``1 − t`` to ``a`` and
    ``t`` to ``b``, added to ``force`` (mass·px/s², per row, rider after rider, its ``a``
    end first) and flagged in ``touched``."""
    for k in range(len(rows)):
        u, v = 1.0 - t[k], t[k]
        ra, rb = a[k], b[k]
        for d in range(2):
            where[k, d] = u * pos[ra, d] + v * pos[rb, d]
            speed[k, d] = (u * ((pos[ra, d] - prev[ra, d]) / h)
                           + v * ((pos[rb, d] - prev[rb, d]) / h))
        if load > 0.0:
            m = mass[rows[k]]
            fx, fy = load * m * (gx + wind), load * m * gy
            if not pinned[ra]:
                force[ra, 0] += u * fx
                force[ra, 1] += u * fy
                touched[ra] = True
            if not pinned[rb]:
                force[rb, 0] += v * fx
                force[rb, 1] += v * fy
                touched[rb] = True


@njit(cache=True)
def _network(n, order, s_a, s_b, valid):
    """The valid links at each particle row, in spring-entity order (``order``): row ``r``'s
    are ``spring[start[r]:start[r + 1]]``, their other ends ``other[…]``."""
    start = np.zeros(n + 1, np.int64)
    for i in range(len(order)):
        s = order[i]
        if valid[s]:
            start[s_a[s] + 1] += 1
            start[s_b[s] + 1] += 1
    for r in range(n):
        start[r + 1] += start[r]
    fill = start[:n].copy()
    spring = np.empty(start[n], np.int64)
    other = np.empty(start[n], np.int64)
    for i in range(len(order)):
        s = order[i]
        if valid[s]:
            for end, far in ((s_a[s], s_b[s]), (s_b[s], s_a[s])):
                spring[fill[end]] = s
                other[fill[end]] = far
                fill[end] += 1
    return start, spring, other


@njit(cache=True)
def _hops(n, target, start, other):
    """Links from each row to row ``target`` along the network (breadth first; ``2**30``
    where it is out of reach)."""
    hops = np.full(n, 1 << 30, np.int64)
    queue = np.empty(n, np.int64)
    hops[target], queue[0] = 0, target
    head, tail = 0, 1
    while head < tail:
        node = queue[head]
        head += 1
        for i in range(start[node], start[node + 1]):
            far = other[i]
            if hops[far] == 1 << 30:
                hops[far] = hops[node] + 1
                queue[tail] = far
                tail += 1
    return hops


@njit(cache=True)
def crawl_links(pos, s_entity, s_a, s_b, valid, entity, link, t, heading, speed, dt, frame,
                target, a, b, on):
    """One frame along their links for crawlers (ball entities ``entity``) on springs ``link``
    (entities) at ``t`` heading ``heading`` (±1), updated in place; ``a``, ``b`` get the
    rows of their links' ends and ``on`` whether they still ride (the link is one of the
    ``valid`` ones: unbroken, both ends in the structure).

    A crawler moves ``speed·dt`` px along its link (of the ends' distance, at least 1 px).
    Past an end (``node``) it takes another link there, not the one it came by unless
    there is no other: with a ``target`` row (the open pipe's ball) the one whose far end
    is fewest links from it (then the lower spring entity), else the
    ``(entity·7919 + frame·104729) mod count``-th by spring entity; it starts at the node's
    end of it (``t`` 0 or 1), heading away."""
    n = len(pos)
    # (of a copy: numba sorts a read-only array with a quicksort compiled for it alone)
    order = np.argsort(s_entity.copy())
    keys = s_entity[order]
    start = spring = other = hops = np.empty(0, np.int64)
    made = False
    for j in range(len(link)):
        at = np.searchsorted(keys, link[j])
        s = order[at] if at < len(keys) and keys[at] == link[j] else -1
        on[j] = s >= 0 and valid[s]
        if not on[j]:
            continue
        ra, rb = s_a[s], s_b[s]
        length = math.hypot(pos[rb, 0] - pos[ra, 0], pos[rb, 1] - pos[ra, 1])
        tj = t[j] + heading[j] * speed * dt / max(length, 1.0)
        if not (0.0 < tj < 1.0):
            if not made:
                start, spring, other = _network(n, order, s_a, s_b, valid)
                if target >= 0:
                    hops = _hops(n, target, start, other)
                made = True
            node = rb if tj >= 1.0 else ra
            lo, hi = start[node], start[node + 1]
            count = 0
            for i in range(lo, hi):
                count += spring[i] != s
            nth = (entity[j] * 7919 + frame * 104729) % (count if count > 0 else hi - lo)
            pick, best, k = -1, 1 << 62, 0
            for i in range(lo, hi):  # in spring-entity order: the first best is the lowest
                if count > 0 and spring[i] == s:
                    continue
                if target >= 0:
                    if hops[other[i]] < best:
                        pick, best = spring[i], hops[other[i]]
                elif k == nth:
                    pick = spring[i]
                k += 1
            s = pick
            at_a = s_a[s] == node
            link[j], tj, heading[j] = s_entity[s], 0.0 if at_a else 1.0, 1 if at_a else -1
            ra, rb = s_a[s], s_b[s]
        t[j], a[j], b[j] = tj, ra, rb


@njit(cache=True)
def walk_to_nodes(pos, prev, h, radius, rows, entity, nodes, climb, sense, speed, rate, frame,
                  ground, near, vx):
    """Loose balls (particle ``rows``, of ``entity``) walking on the ground toward the
    structure's balls (rows ``nodes``): ``ground[j]`` whether it is on the ground (its
    vertical speed at most 15 px/s: in the air it does nothing); ``near[j]`` the nearest
    node when within ``climb`` radii (it climbs on there), else ``-1``; ``vx[j]`` (px/s)
    the walk it takes if it does not climb: ``speed`` toward the nearest node within
    ``sense`` px (0 within 1 px of it sideways), else a wander of
    ``speed·sin(rate·frame + 1.7·entity)``. The first of equally near nodes is taken."""
    for j in range(len(rows)):
        r = rows[j]
        near[j] = -1
        ground[j] = not (abs((pos[r, 1] - prev[r, 1]) / h) > 15.0)
        x, y = pos[r, 0], pos[r, 1]
        vx[j] = speed * math.sin(rate * frame + 1.7 * entity[j])
        if not ground[j] or len(nodes) == 0:
            continue
        best, at = math.inf, 0
        for i in range(len(nodes)):
            d = math.hypot(pos[nodes[i], 0] - x, pos[nodes[i], 1] - y)
            if d < best:
                best, at = d, i
        node = nodes[at]
        if best <= climb * radius[r]:
            near[j] = node
        if best <= sense:
            dx = pos[node, 0] - x
            vx[j] = speed * (1.0 if dx > 0.0 else -1.0) if abs(dx) > 1.0 else 0.0


#: What ``crawl_frame`` says a ball does this frame.
STILL, RIDE, DROP, WALK, CLIMB = 0, 1, 2, 3, 4


@njit(cache=True)
def structure_links(n, s_a, s_b, broken, rows, structure):
    """Which springs are links of the structure (unbroken, both ends ``structure`` balls:
    particle ``rows``), and the structure's balls with such a link (rows, by their first
    link's spring row, ``a`` end first)."""
    mask = np.zeros(n, np.bool_)
    for k in range(len(rows)):
        if structure[k]:
            mask[rows[k]] = True
    valid = np.empty(len(s_a), np.bool_)
    seen = np.zeros(n, np.bool_)
    nodes = np.empty(2 * len(s_a), np.int64)
    count = 0
    for s in range(len(s_a)):
        valid[s] = not broken[s] and mask[s_a[s]] and mask[s_b[s]]
        if valid[s]:
            for end in (s_a[s], s_b[s]):
                if not seen[end]:
                    seen[end] = True
                    nodes[count] = end
                    count += 1
    return valid, nodes[:count]


@njit(cache=True)
def crawl_frame(pos, prev, h, pinned, mass, radius, s_entity, s_a, s_b, broken, rows, entity,
                structure, mine, link, t, heading, grabbed, speed, dt, frame, target, climb,
                sense, rate, load, gx, gy, wind, near, vx, where, velocity, force, touched):
    """One frame of the goo balls (particle ``rows`` of ``entity``, by entity) that crawl
    (``mine``: free, not held): those off the structure (``link`` 0) walk
    (``walk_to_nodes``: WALK with ``vx``, or CLIMB at ``near`` when it reaches a node, else
    STILL in the air), those on it crawl (``crawl_links``, updating ``link``,
    ``t`` and ``heading``: DROP when the link is gone, else RIDE at ``where`` with
    ``velocity``, weighing ``load`` on its link's ends: ``ride_links``); then the ``wind``
    (px/s²) pushes every unpinned ball but the ``grabbed`` one. ``force`` and ``touched``
    per particle row, as the stage adds them (the crawlers' weights, then the wind).
    ``target``: the open pipe's ball's row (``-1``: shut). Returns the balls grouped by
    what they do (``_by_state``)."""
    n = len(pos)
    valid, nodes = structure_links(n, s_a, s_b, broken, rows, structure)
    walkers = np.flatnonzero(mine & (link == 0))
    ground = np.empty(len(walkers), np.bool_)
    w_near = np.empty(len(walkers), np.int64)
    w_vx = np.empty(len(walkers))
    walk_to_nodes(pos, prev, h, radius, rows[walkers], entity[walkers], nodes, climb, sense,
                  speed, rate, frame, ground, w_near, w_vx)
    state = np.full(len(rows), STILL, np.int64)
    for j in range(len(walkers)):
        k = walkers[j]
        near[k], vx[k] = w_near[j], w_vx[j]
        if ground[j]:
            state[k] = CLIMB if w_near[j] >= 0 else WALK
    crawlers = np.flatnonzero(mine & (link != 0))
    c_link, c_t, c_heading = link[crawlers], t[crawlers], heading[crawlers]
    a = np.empty(len(crawlers), np.int64)
    b = np.empty(len(crawlers), np.int64)
    on = np.empty(len(crawlers), np.bool_)
    crawl_links(pos, s_entity, s_a, s_b, valid, entity[crawlers], c_link, c_t, c_heading,
                speed, dt, frame, target, a, b, on)
    riding = np.flatnonzero(on)
    for j in range(len(crawlers)):
        k = crawlers[j]
        state[k] = RIDE if on[j] else DROP
        link[k], t[k], heading[k] = c_link[j], c_t[j], c_heading[j]
    ks = crawlers[riding]
    ride_links(pos, prev, h, pinned, mass, rows[ks], a[riding], b[riding], c_t[riding], load,
               gx, gy, wind, where[: len(ks)], velocity[: len(ks)], force, touched)
    if wind != 0.0:
        for k in range(len(rows)):
            r = rows[k]
            if not pinned[r] and entity[k] != grabbed:
                force[r, 0] += mass[r] * wind
                touched[r] = True
    return _by_state(state)


@njit(cache=True)
def _by_state(state):
    """The balls grouped by ``state`` (each group in ball order), and where each group
    starts: ``order[start[c]:start[c + 1]]`` are those of state ``c``."""
    start = np.zeros(CLIMB + 2, np.int64)
    for c in state:
        start[c + 1] += 1
    for c in range(CLIMB + 1):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    order = np.empty(len(state), np.int64)
    for k in range(len(state)):
        order[fill[state[k]]] = k
        fill[state[k]] += 1
    return order, start
