"""Heavy on light: shock propagation for the contacts of stacks with large mass ratios.

One Gauss–Seidel solve and relax a substep (``rigid_solver.contact_substep``) cannot
hold a box a thousand times heavier than the one it rests on: each pass pushes the
light box down by the heavy one's weight and the ground pushes it back, and what
is left over lets the heavy one sink through it and squeeze it out sideways
(measured: 1:1000 fell off within 100 frames; 1:400 overlapped 2 px). Shock
propagation (Guendelman, Bridson & Fedkiw 2003) ends each substep with one more pass
over such contacts, lowest first along gravity, in which the lower body counts as
immovable: the upper one alone gives up its speed into the lower and its overlap past
``SLOP_PX``. Only support contacts (the normal within 45° of gravity) whose upper body
is at least ``HEAVIER`` times the lower one's mass are taken (``stacked``), so scenes of
like masses keep their bits; a light body's hits on a heavy one are never reversed,
and impacts (closing faster than ``RESTING``) are left to the solver.
Units: px, px/s, mass units.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .contact_rows import (
    JAX,
    JAY,
    JBX,
    JBY,
    NX,
    NY,
    RAX,
    RAY,
    RBX,
    RBY,
    T,
    _arm_point,
    _rel,
)
from .rigid_solver import SLOP_PX, poses, turn_trig

#: How many times heavier than what it rests on a body must be for its contact to get the
#: shock pass: a column each 10× heavier than the box below squeezed its bottom box out
#: at 20; like masses (pyramids, columns) never reach it and keep their bits.
HEAVIER = 4.0
#: px/s: a contact closing faster is an impact, left to the solver (a heavy stone
#: landing on crates pushes them down as its mass says; resting, it stays on top).
RESTING = 50.0
#: Support contacts only: |n · down| at least this (45°).
UPRIGHT = math.sqrt(0.5)


@njit(cache=True, inline="always")
def _depth_along(pos, i, ux, uy):
    return pos[i, 0] * ux + pos[i, 1] * uy


@njit(cache=True, inline="always")
def _on_edge(xy, ci, cf, k):
    """Row ``ci[k, 2]`` of ``xy`` (a particle's position or velocity), or, for an outline
    edge's point (``ci[k, 3] >= 0``), the blend of its two ends by ``t``."""
    p, q = ci[k, 2], ci[k, 3]
    x, y = xy[p, 0], xy[p, 1]
    if q >= 0:
        t = cf[k, T]
        x, y = x + t * (xy[q, 0] - x), y + t * (xy[q, 1] - y)
    return x, y


@njit(cache=True)
def stacked(nc, nb, ci, cf, bpos, bw, ppos, pw, gx, gy, out):
    """The contacts that get the shock pass, lowest first along gravity ``(gx, gy)``, into
    ``out``; returns how many. Rows ``0..nb`` are between bodies; rows ``nb..nc`` a body's
    with a particle or an outline's edge (``ci[k, 2] >= 0``), whose particle side is the
    lower one when the body rests on it."""
    g = math.sqrt(gx * gx + gy * gy)
    if g == 0.0:
        return 0
    ux, uy = gx / g, gy / g
    key = np.empty(nc)
    m = 0
    for k in range(nc):
        a, b, p = ci[k, 0], ci[k, 1], ci[k, 2]
        if bw[a] == 0.0 or (b < 0 and (k < nb or p < 0)) or (b >= 0 and bw[b] == 0.0):
            continue
        if abs(cf[k, NX] * ux + cf[k, NY] * uy) < UPRIGHT:
            continue
        da = _depth_along(bpos, a, ux, uy)
        if b >= 0:
            db, wb = _depth_along(bpos, b, ux, uy), bw[b]
        else:  # the particle end: the body must be above it, and heavier
            db, wb = _depth_along(ppos, p, ux, uy), pw[p]
            if ci[k, 3] >= 0:
                wb = min(wb, pw[ci[k, 3]])
            if db <= da or wb == 0.0:
                continue
        w_lower, w_upper = (bw[a], wb) if da > db else (wb, bw[a])
        if w_lower < HEAVIER * w_upper:  # inverse masses: the upper one is heavier
            continue
        out[m] = k
        key[m] = -max(da, db)  # the lower end's height: lowest first
        m += 1
    if m < 2:  # (in order already: no sort, no arrays made)
        return m
    order = np.argsort(key[:m], kind="mergesort")
    picked = out[:m].copy()
    for q in range(m):
        out[q] = picked[order[q]]
    return m


@njit(cache=True, _nrt=False)
def before_solve(m, rows, ci, cf, pv, out):
    """The particle ends' velocities (px/s) of contacts ``rows[:m]`` where the frame began
    (``pv``: each particle's), into ``out[:m]`` (body rows: left): what says whether an
    end rests, and the speed the shock pass holds a heavy body to. Not this substep's: a
    light end moves as the heavy one pushes it, and a ball in flight squashed by a hit
    passes through rest on its way back."""
    for q in range(m):
        k = rows[q]
        if ci[k, 1] < 0:
            out[q, 0], out[q, 1] = _on_edge(pv, ci, cf, k)


@njit(cache=True, _nrt=False)
def shock(m, rows, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, n, angle0, pose,
          ppos, before, gx, gy, h):
    """The shock pass over contacts ``rows[:m]`` (``stacked``'s order): the upper body's
    speed into the lower end taken out (its ``prev`` moves) and its overlap past
    ``SLOP_PX`` too (``pos`` and ``prev`` alike: no speed from it); the lower end (a
    body, a particle or an outline's edge) stays. A particle end's speed is the one it
    had when the frame began (``before``), and only one that was resting (slower than
    ``RESTING`` along gravity) takes part, impacts included: what holds it up holds the
    body. One in flight holds nothing up: there the solver's exchange stands (a loose
    disc that no contact holds up is in flight however slow: ``systems.collide``'s
    ``_in_flight`` gives it a speed far past ``RESTING``)."""
    g = math.sqrt(gx * gx + gy * gy)
    ux, uy = gx / g, gy / g
    inv_h = 1.0 / h
    poses(n, bpos, bangle, angle0, pose)
    for q in range(m):
        k = rows[q]
        a, b = ci[k, 0], ci[k, 1]
        nx, ny = cf[k, NX], cf[k, NY]
        vax, vay = (bpos[a, 0] - bprev[a, 0]) * inv_h, (bpos[a, 1] - bprev[a, 1]) * inv_h
        oma = (bangle[a] - bprev_angle[a]) * inv_h
        pax, pay = _arm_point(pose[a, 0], pose[a, 1], pose[a, 2], pose[a, 3], cf[k, RAX],
                              cf[k, RAY])
        if b >= 0:
            up_is_b = _depth_along(bpos, a, ux, uy) > _depth_along(bpos, b, ux, uy)
            vbx, vby = (bpos[b, 0] - bprev[b, 0]) * inv_h, (bpos[b, 1] - bprev[b, 1]) * inv_h
            omb = (bangle[b] - bprev_angle[b]) * inv_h
            pbx, pby = _arm_point(pose[b, 0], pose[b, 1], pose[b, 2], pose[b, 3],
                                  cf[k, RBX], cf[k, RBY])
        else:  # a particle or an edge below body a (``stacked``)
            vbx, vby = before[q, 0], before[q, 1]
            if abs(vbx * ux + vby * uy) >= RESTING:
                continue  # a particle in flight holds nothing up: the solver's exchange
            up_is_b, omb = False, 0.0
            pbx, pby = _on_edge(ppos, ci, cf, k)
            pbx, pby = pbx + cf[k, RBX], pby + cf[k, RBY]
        rx, ry = _rel(vax, vay, oma, cf[k, JAX], cf[k, JAY], vbx, vby, omb, cf[k, JBX],
                      cf[k, JBY])
        vn = rx * nx + ry * ny  # < 0: closing
        depth = -((pbx - pax) * nx + (pby - pay) * ny) - SLOP_PX
        if vn < -RESTING and b >= 0:
            continue  # an impact: the masses' own exchange, which breaks what it should
        i = b if up_is_b else a
        away = 1.0 if up_is_b else -1.0  # along n, the way that parts i from the other
        arm_x, arm_y = (cf[k, JBX], cf[k, JBY]) if up_is_b else (cf[k, JAX], cf[k, JAY])
        rn = arm_x * ny - arm_y * nx
        inv = bw[i] + biw[i] * rn * rn
        if vn < 0.0:
            j = -vn / inv * away
            bprev[i, 0] -= j * nx * bw[i] * h
            bprev[i, 1] -= j * ny * bw[i] * h
            bprev_angle[i] -= j * biw[i] * rn * h
        if depth > 0.0:
            d = depth / inv * away
            for t in (bpos, bprev):
                t[i, 0] += d * nx * bw[i]
                t[i, 1] += d * ny * bw[i]
            bangle[i] += d * biw[i] * rn
            bprev_angle[i] += d * biw[i] * rn
        turn = bangle[i] - angle0[i]
        pose[i, 0], pose[i, 1] = bpos[i, 0], bpos[i, 1]
        pose[i, 2], pose[i, 3] = turn_trig(turn)
