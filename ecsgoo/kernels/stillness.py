"""Sleeping's per-frame arithmetic (``sleeping.update``): speeds over the frame, still
counts, whether everything that can move sleeps.

One pass each over the rows, so a frame's look costs a few calls whatever the count
(as numpy expressions on small tables it was ~30 calls, most of a small game's frame
end). Units: px, rad, s, px/s.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def particle_speeds(n, pos, prev, then, known, h, dt, out):
    """Each particle row's speed (px/s) into ``out``: from ``then`` (its position as the
    frame began) over ``dt`` where ``known``, else over its last substep (``pos − prev``
    over ``h``). ``known`` of length 0: every row is known."""
    every = len(known) == 0
    for i in range(n):
        if every or known[i]:
            out[i] = math.hypot(pos[i, 0] - then[i, 0], pos[i, 1] - then[i, 1]) / dt
        else:
            out[i] = math.hypot(pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]) / h


@njit(cache=True)
def body_speeds(m, pos, prev, angle, prev_angle, extent, then, known, h, dt, out):
    """``particle_speeds`` for bodies, their rim's turning speed added (``|Δangle| ×
    extent``); ``then`` rows are ``(x, y, angle)``."""
    every = len(known) == 0
    for i in range(m):
        if every or known[i]:
            out[i] = (math.hypot(pos[i, 0] - then[i, 0], pos[i, 1] - then[i, 1])
                      + abs(angle[i] - then[i, 2]) * extent[i]) / dt
        else:
            out[i] = (math.hypot(pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1])
                      + abs(angle[i] - prev_angle[i]) * extent[i]) / h


@njit(cache=True)
def count_still(n, speed, asleep, still, slow):
    """One more still frame for each awake row slower than ``slow`` (px/s), none for a
    faster one (NaN counts as fast); a sleeping row keeps its count."""
    for i in range(n):
        if not asleep[i]:
            still[i] = still[i] + 1 if speed[i] < slow else 0


@njit(cache=True)
def moved_asleep(n, speed, asleep, slow):
    """Whether a sleeping row went at ``slow`` px/s or faster (it was hit), and whether any
    row sleeps at all: ``(hit, any_asleep)``."""
    hit = False
    sleeps = False
    for i in range(n):
        if asleep[i]:
            sleeps = True
            if speed[i] >= slow:
                hit = True
    return hit, sleeps


@njit(cache=True)
def all_asleep(n, pinned, mass, asleep, m, bpinned, basleep):
    """Whether something can move (a particle not pinned and of finite mass, a body not
    pinned) and everything that can is asleep (``derived.resting``)."""
    some = False
    for i in range(n):
        if not pinned[i] and mass[i] < math.inf:
            if not asleep[i]:
                return False
            some = True
    for i in range(m):
        if not bpinned[i]:
            if not basleep[i]:
                return False
            some = True
    return some


@njit(cache=True)
def any_ready(n, pinned, mass, still, m, bpinned, bstill, frames):
    """Whether some row that can move (``all_asleep``'s) has been still for ``frames``
    frames: else no island can fall asleep (``sleeping.update`` skips its look)."""
    for i in range(n):
        if not pinned[i] and mass[i] < math.inf and still[i] >= frames:
            return True
    for i in range(m):
        if not bpinned[i] and bstill[i] >= frames:
            return True
    return False


@njit(cache=True)
def fastest_awake(n, pos, prev, w, force, pinned, mass, asleep, m, bpos, bprev, angle,
                  prev_angle, extent, bw, bforce, bpinned, basleep, h, dt, g, grabbed, pull):
    """The fastest awake row's reach speed this frame (px/s: its last substep's speed plus
    what gravity ``g`` and its force add over ``dt``; the ``grabbed`` row, particle rows
    then body rows, ``pull`` px/s more), or −1 when nothing that can move is awake
    (``sleeping.freeze``: then nothing is frozen)."""
    fastest = -1.0
    for i in range(n):
        if not asleep[i] and not pinned[i] and mass[i] < math.inf:
            s = (math.hypot(pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]) / h
                 + (g + math.hypot(force[i, 0], force[i, 1]) * w[i]) * dt)
            if i == grabbed:
                s += pull
            fastest = max(fastest, s)
    for i in range(m):
        if not basleep[i] and not bpinned[i]:
            s = ((math.hypot(bpos[i, 0] - bprev[i, 0], bpos[i, 1] - bprev[i, 1])
                  + abs(angle[i] - prev_angle[i]) * extent[i]) / h
                 + (g + math.hypot(bforce[i, 0], bforce[i, 1]) * bw[i]) * dt)
            if n + i == grabbed:
                s += pull
            fastest = max(fastest, s)
    return fastest


@njit(cache=True)
def frame_stillness(n, pos, prev, then, asleep, still, m, bpos, bprev, angle, prev_angle,
                    extent, bthen, basleep, bstill, h, dt, slow, speed, bspeed):
    """A frame's speeds from where every row began (``then``, ``bthen``: the same rows
    as now) into ``speed`` and ``bspeed`` (``particle_speeds``, ``body_speeds``), and,
    unless a sleeping row was hit (went ``slow`` px/s or faster), the rest of
    ``sleeping.update``'s look: the sleeping rows back where the frame began, at rest, and
    the awake rows' still counts (``count_still``), in one call. Returns ``(hit, sleeps)``
    of particles and bodies together (``moved_asleep``); when hit nothing was written."""
    particle_speeds(n, pos, prev, then, asleep[:0], h, dt, speed)
    body_speeds(m, bpos, bprev, angle, prev_angle, extent, bthen, basleep[:0], h, dt, bspeed)
    hit, sleeps = moved_asleep(n, speed, asleep, slow)
    bhit, bsleeps = moved_asleep(m, bspeed, basleep, slow)
    if hit or bhit:
        return True, True
    for i in range(n):  # nothing that sleeps creeps
        if asleep[i]:
            pos[i, 0] = prev[i, 0] = then[i, 0]
            pos[i, 1] = prev[i, 1] = then[i, 1]
    for i in range(m):
        if basleep[i]:
            bpos[i, 0] = bprev[i, 0] = bthen[i, 0]
            bpos[i, 1] = bprev[i, 1] = bthen[i, 1]
            angle[i] = prev_angle[i] = bthen[i, 2]
    count_still(n, speed, asleep, still, slow)
    count_still(m, bspeed, basleep, bstill, slow)
    return False, sleeps or bsleeps
