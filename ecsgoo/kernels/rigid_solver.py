"""The contact solver of rigid bodies: Box2D's substepped solver on Verlet state.

DESIGN. The first try was XPBD contacts (Müller et al. 2020), which fits the
position-based particles; it let two stacked boxes walk sideways at 0.3–1
px/s whatever the friction, because each substep's Gauss–Seidel residual
turns into rotation about a corner and static friction measured from the
start of the substep keeps it. A velocity solver with *warm starting* (each
contact starts from the impulses it needed last time) converges across
frames instead: that is why Box2D and pymunk stack. So contacts follow Box2D
v3's soft step (erincatto/box2d ``contact_solver.c``): per substep, warm
start, solve, then *relax* (solve again, changing only velocities); after the
last substep, restitution. Speculative contacts (separation > 0 allows
closing at s/h) keep fast bodies from tunnelling. Unlike v3 the contacts are
hard, not soft springs: a soft contact's stiffness is relative to the light
body's mass, and a 1:100 load pressed a column of discs 5 px per contact;
overlaps are taken out in position instead (``separate``, Box2D v2's position
solver), which holds a 1:1000 load and stands the pyramid straighter.

Speed. The frame's contacts between bodies are swept in graph-colour order
(``coloring.color_order``, as Box2D v3 colours its constraint graph): still
Gauss–Seidel, but no contact waits on the one before it, so the CPU overlaps
them — a third off each pass on a pyramid. They go through a lean loop
(``_sweep_bodies``) that knows no particle ends and never writes an end that
cannot move; the rest (contacts with particles and outline edges, fast bodies'
per-substep contacts) through ``_sweep``.

On Verlet state (velocity = (pos − prev) / h) "integrate positions with the
solved velocity" and "change the velocity only" are two ways of applying one
impulse: ``into_pos`` moves ``pos`` (warm start, biased solve: the substep's
move changes), otherwise ``prev`` moves (relax, restitution: only the
velocity changes). Particles take part as bodies without rotation. The lean loop
over bodies alone reads each body's velocity once a call and writes its positions back
once (``_velocities_in``/``_out``, Box2D v3's solver bodies): a tenth off the pyramid's
frame, where each contact had turned positions into velocities and back. The passes
fuse multiply-adds (``fastmath=FMA``, see ``kernels``): a quarter off a pass.

Contacts are rows of ``ci`` (body a, body b or -1, particle b or -1, the particle
after it along a soft body's outline or -1: then b is the point ``t`` of that edge)
and ``cf`` (columns below); anchors are in a's and b's body coordinates (an
offset from particle b's centre; world coordinates for the static world).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from . import FMA
from .contact_rows import (
    JAX,
    JAY,
    JBX,
    JBY,
    LMAX,
    LN,
    LT,
    MN,
    MT,
    NX,
    NY,
    OM,
    RAX,
    RAY,
    RBX,
    RBY,
    TOUCHED,
    UN0,
    VX,
    VY,
    E,
    T,
    _arm_point,
    _normal_then_friction,
    _rel,
)
from .lanes import impulses_out, lane_pass, lane_warm, touch_ends

#: Overlap a contact may keep, px, and the fraction of the rest ``separate`` takes back
#: per substep (Box2D v2's linear slop and Baumgarte factor).
SLOP_PX, SEPARATE = 0.5, 0.2


#: The frame's contacts between bodies ``_sweep_bodies`` solves in lanes from this many on
#: (below, the colours' runs are too short for a chunk's fixed cost: pyramids against
#: pymunk, lanes of manifolds / one at a time: 15 boxes, 50 rows, 1.75× / 1.68×; 21 boxes,
#: 72 rows, 1.38× / ~1.5×; 28 boxes, 98 rows, 1.34× / 1.47× — BENCHMARKS.md, stop 64).
LANES_FROM = 64

#: Below this turn (rad) ``turn_trig`` sums Taylor series; above it, libm's cos and sin.
SMALL_TURN = 0.25


@njit(cache=True, inline="always")
def turn_trig(t):
    """``(cos t, sin t)`` of a turn since the frame's contacts were found (rad): for
    ``|t| < SMALL_TURN`` — a frame's turn, nearly always — the Taylor series to t¹⁴ and
    t¹⁵ (the first term left out below 10⁻²⁰), within 2 units in the last place of libm's
    and a quarter of its time; libm's beyond. libm's ``sincos`` was a sixth of the
    pyramid's frame, twice a substep for every body."""
    if abs(t) >= SMALL_TURN:
        return math.cos(t), math.sin(t)
    u = t * t
    c = 1.0 + u * (-1.0 / 2 + u * (1.0 / 24 + u * (-1.0 / 720 + u * (1.0 / 40320 + u * (
        -1.0 / 3628800 + u * (1.0 / 479001600 + u * (-1.0 / 87178291200)))))))
    s = t * (1.0 + u * (-1.0 / 6 + u * (1.0 / 120 + u * (-1.0 / 5040 + u * (1.0 / 362880 + u * (
        -1.0 / 39916800 + u * (1.0 / 6227020800 + u * (-1.0 / 1307674368000))))))))
    return c, s


#: π/8 = _PI8_HI + _PI8_LO to 90 bits, the first of 30 bits (``rotation``)
_PI8_HI, _PI8_LO = 0.39269908145070076, 2.480233949201351e-10
#: cos and sin of the sixteen multiples of π/8 a turn (``rotation``), exact to the last place
_EIGHTHS = np.array([[math.cos(k * math.pi / 8), math.sin(k * math.pi / 8)] for k in range(16)])
_EIGHTHS[[0, 4, 8, 12]] = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]


@njit(cache=True, inline="always")
def rotation(angle):
    """``(cos, sin)`` of ``angle`` (rad) without libm: the nearest multiple ``k π/8``
    from a table, turned by the rest (at most π/16: ``turn_trig``'s series). Within a few
    units in the last place of libm's (tested), and a function of ``angle`` alone, so any
    path to the same angle gets the same bits."""
    k = round(angle * (8.0 / math.pi))
    # π/8 in two parts (Cody and Waite): k × the first, of 30 bits, is exact below 2²²
    # turns of π/8, so the rest keeps its digits however far the body turned
    ct, st = turn_trig((angle - k * _PI8_HI) - k * _PI8_LO)
    c0, s0 = _EIGHTHS[int(k) % 16, 0], _EIGHTHS[int(k) % 16, 1]
    return c0 * ct - s0 * st, s0 * ct + c0 * st


@njit(cache=True, _nrt=False)
def poses(n, pos, angle, angle0, out):
    """Each body's ``(x, y, cos, sin)`` of its turn since the frame's contacts were found.

    A contact's anchor on a body is ``pos + R(turn) · r`` with ``r`` its arm then,
    so the solver needs no trigonometry per contact.
    """
    for i in range(n):
        c, s = turn_trig(angle[i] - angle0[i])
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = pos[i, 0], pos[i, 1], c, s


@njit(cache=True, inline="always")
def _particles_get(ci, cf, k, dx, dy, target, pw):
    """Particle end b of contact ``k`` (or its outline edge's two ends, by ``t``) gets the
    move ``(dx, dy)`` × its inverse mass (``target``: positions or previous positions)."""
    p, q = ci[k, 2], ci[k, 3]
    share = 1.0
    if q >= 0:
        t = cf[k, T]
        share = 1.0 - t
        target[q, 0] += dx * t * pw[q]
        target[q, 1] += dy * t * pw[q]
    target[p, 0] += dx * share * pw[p]
    target[p, 1] += dy * share * pw[p]


# The kernels below load each contact's two ends into local variables, change their
# velocities and store them back, rather than passing arrays to helpers: numba counts
# references of every array argument of a call, and that cost 10× the arithmetic.
@njit(cache=True, _nrt=False, fastmath=FMA)
def _sweep(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h, mode,
           pose, pp, threshold, first=0):
    """One pass of ``mode`` over contacts ``first..nc``: 0 warm start, 1 solve (biased,
    moves), 2 relax (velocities only), 3 restitution (velocities only)."""
    inv_h = 1.0 / h
    into_pos = mode <= 1
    for k in range(first, nc):
        a, b, p, q = ci[k, 0], ci[k, 1], ci[k, 2], ci[k, 3]
        nx, ny = cf[k, NX], cf[k, NY]
        if mode == 0 and cf[k, LN] == 0.0 and cf[k, LT] == 0.0:
            continue
        if mode == 3 and (cf[k, E] == 0.0 or cf[k, UN0] > -threshold or cf[k, LMAX] == 0.0):
            continue
        # end a: a body
        wa, iwa = bw[a], biw[a]
        vax, vay = (bpos[a, 0] - bprev[a, 0]) * inv_h, (bpos[a, 1] - bprev[a, 1]) * inv_h
        oma = (bangle[a] - bprev_angle[a]) * inv_h
        jax, jay = cf[k, JAX], cf[k, JAY]
        # end b: a body, a particle or the static world
        wb, iwb, vbx, vby, omb = 0.0, 0.0, 0.0, 0.0, 0.0
        jbx, jby = cf[k, JBX], cf[k, JBY]
        if b >= 0:
            wb, iwb = bw[b], biw[b]
            vbx, vby = (bpos[b, 0] - bprev[b, 0]) * inv_h, (bpos[b, 1] - bprev[b, 1]) * inv_h
            omb = (bangle[b] - bprev_angle[b]) * inv_h
        elif p >= 0:
            wb = pw[p]
            vbx, vby = (ppos[p, 0] - pprev[p, 0]) * inv_h, (ppos[p, 1] - pprev[p, 1]) * inv_h
            if q >= 0:  # a point of an outline's edge: inverse mass and velocity blend
                t = cf[k, T]
                wb = (1.0 - t) ** 2 * pw[p] + t * t * pw[q]
                vbx = (1.0 - t) * vbx + t * (ppos[q, 0] - pprev[q, 0]) * inv_h
                vby = (1.0 - t) * vby + t * (ppos[q, 1] - pprev[q, 1]) * inv_h
        jbx_sum, jby_sum = 0.0, 0.0  # the impulse b got, for a particle or edge end
        # the impulse (mass·px/s) on b along n and t = (ny, −nx); −that on a
        dn, dt = 0.0, 0.0
        if mode == 0:
            dn, dt = cf[k, LN], cf[k, LT]
        elif mode == 3:
            ux, uy = _rel(vax, vay, oma, jax, jay, vbx, vby, omb, jbx, jby)
            new = max(cf[k, LN] - cf[k, MN] * (ux * nx + uy * ny + cf[k, E] * cf[k, UN0]), 0.0)
            dn = new - cf[k, LN]
            cf[k, LN] = new
        else:
            # separation where the substep started (solve) or ends (relax)
            pax, pay = _arm_point(pose[a, 0], pose[a, 1], pose[a, 2], pose[a, 3], cf[k, RAX],
                                  cf[k, RAY])
            if b >= 0:
                pbx, pby = _arm_point(pose[b, 0], pose[b, 1], pose[b, 2], pose[b, 3],
                                      cf[k, RBX], cf[k, RBY])
            elif p >= 0:
                pbx, pby = pp[p, 0] + cf[k, RBX], pp[p, 1] + cf[k, RBY]
                if q >= 0:
                    t = cf[k, T]
                    pbx += t * (pp[q, 0] - pp[p, 0])
                    pby += t * (pp[q, 1] - pp[p, 1])
            else:
                pbx, pby = cf[k, RBX], cf[k, RBY]
            s = (pbx - pax) * nx + (pby - pay) * ny
            vax, vay, oma, vbx, vby, omb, jbx_sum, jby_sum, dt = _normal_then_friction(
                k, cf, s, inv_h, vax, vay, oma, vbx, vby, omb, jax, jay, jbx, jby, wa, iwa,
                wb, iwb)
            dn = 0.0
        jx, jy = dn * nx + dt * ny, dn * ny - dt * nx
        vax, vay, oma = vax - jx * wa, vay - jy * wa, oma - iwa * (jax * jy - jay * jx)
        vbx, vby, omb = vbx + jx * wb, vby + jy * wb, omb + iwb * (jbx * jy - jby * jx)
        jbx_sum, jby_sum = jbx_sum + jx, jby_sum + jy
        # store: the substep's move (pos) or only the velocity (prev) changes
        if into_pos:
            bpos[a, 0], bpos[a, 1] = bprev[a, 0] + vax * h, bprev[a, 1] + vay * h
            bangle[a] = bprev_angle[a] + oma * h
            if b >= 0:
                bpos[b, 0], bpos[b, 1] = bprev[b, 0] + vbx * h, bprev[b, 1] + vby * h
                bangle[b] = bprev_angle[b] + omb * h
            elif p >= 0:
                _particles_get(ci, cf, k, jbx_sum * h, jby_sum * h, ppos, pw)
        else:
            bprev[a, 0], bprev[a, 1] = bpos[a, 0] - vax * h, bpos[a, 1] - vay * h
            bprev_angle[a] = bangle[a] - oma * h
            if b >= 0:
                bprev[b, 0], bprev[b, 1] = bpos[b, 0] - vbx * h, bpos[b, 1] - vby * h
                bprev_angle[b] = bangle[b] - omb * h
            elif p >= 0:
                _particles_get(ci, cf, k, -jbx_sum * h, -jby_sum * h, pprev, pw)


@njit(cache=True, _nrt=False)
def _velocities_in(n, bpos, bprev, bangle, bprev_angle, inv_h, pose):
    """The ``n`` bodies' velocities from their Verlet state into ``pose``."""
    for i in range(n):
        pose[i, VX] = (bpos[i, 0] - bprev[i, 0]) * inv_h
        pose[i, VY] = (bpos[i, 1] - bprev[i, 1]) * inv_h
        pose[i, OM] = (bangle[i] - bprev_angle[i]) * inv_h
        pose[i, TOUCHED] = 0.0


@njit(cache=True, _nrt=False)
def _velocities_out(n, bpos, bprev, bangle, bprev_angle, bw, biw, h, pose, into_pos):
    """The velocities in ``pose`` back into the Verlet state of each body a contact
    changed that can move: its substep's move (``into_pos``: ``pos`` from ``prev``) or its
    velocity alone (``prev`` from ``pos``). The others keep their bits (a body in free
    flight moves as the integrator moved it, not by a round trip through its velocity)."""
    for i in range(n):
        if pose[i, TOUCHED] == 0.0 or (bw[i] == 0.0 and biw[i] == 0.0):
            continue
        vx, vy, om = pose[i, VX] * h, pose[i, VY] * h, pose[i, OM] * h
        if into_pos:
            bpos[i, 0], bpos[i, 1], bangle[i] = bprev[i, 0] + vx, bprev[i, 1] + vy, \
                bprev_angle[i] + om
        else:
            bprev[i, 0], bprev[i, 1], bprev_angle[i] = bpos[i, 0] - vx, bpos[i, 1] - vy, \
                bangle[i] - om


@njit(cache=True, _nrt=False)
def _sweep_bodies(nc, order, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, h, first,
                  last, pose, n, angle0, lanes, ends, to_cf, posed):
    """``_sweep``'s warm start (mode 0), solve (1) and relax (2), modes ``first`` to
    ``last``, over the frame's contacts between two bodies or a body and the static world,
    in ``order`` (``coloring.color_runs``), the particle ends left out. The passes work
    on the bodies' velocities (in ``pose``, read once, written back once: Box2D v3's
    solver bodies), not per contact on their positions. From ``LANES_FROM`` contacts on,
    the solve and the relax in lanes, a colour's contacts side by side
    (``_sweep_lanes``; ``lanes`` and ``ends`` packed when the contacts were found, the
    impulses written back to ``cf`` when ``to_cf``); fewer, one after another
    (``_pass_of``: the same bits). Before a solve and a relax the ``n`` bodies' ``pose``
    is made (``poses``: where the substep started, then where they are now; the first
    not when ``posed``: ``pose`` holds it already); the warm start reads none."""
    if nc >= LANES_FROM and last >= 1:
        _sweep_lanes(order, cf, bpos, bprev, bangle, bprev_angle, bw, biw, h, first, last,
                     pose, n, angle0, lanes, ends, to_cf, posed)
        return
    inv_h = 1.0 / h
    _velocities_in(n, bpos, bprev, bangle, bprev_angle, inv_h, pose)
    if first <= 0 <= last:
        _warm_pass(nc, order, ci, cf, bw, biw, inv_h, pose)
    if first <= 1 <= last:
        if not posed:
            poses(n, bprev, bprev_angle, angle0, pose)
        _solve_pass(nc, order, ci, cf, bw, biw, inv_h, pose)
    if first <= 1:  # the warm start's and the solve's move (the relax starts where it ends)
        _velocities_out(n, bpos, bprev, bangle, bprev_angle, bw, biw, h, pose, True)
    if last <= 1:
        return
    poses(n, bpos, bangle, angle0, pose)
    _relax_pass(nc, order, ci, cf, bw, biw, inv_h, pose)
    _velocities_out(n, bpos, bprev, bangle, bprev_angle, bw, biw, h, pose, False)


@njit(cache=True, _nrt=False)
def _sweep_lanes(order, cf, bpos, bprev, bangle, bprev_angle, bw, biw, h, first, last,
                 pose, n, angle0, lanes, ends, to_cf, posed):
    """``_sweep_bodies`` with its passes over the lanes (``lanes.lane_warm``, ``lane_pass``):
    the same passes and the same bits, a fifth less time on the pyramid's 802 contacts (a
    call of its own, so that the few contacts' sweep compiles as it did). The lanes hold
    the frame's impulses from when they are packed with the contacts: nothing but these
    passes changes a body row's impulses until the last substep's restitution, which,
    like the warm start of contacts with particles and the frame's end, reads them in
    ``cf``: they are written back there (``lanes.impulses_out``) when ``to_cf``."""
    inv_h = 1.0 / h
    _velocities_in(n, bpos, bprev, bangle, bprev_angle, inv_h, pose)
    touch_ends(ends, pose)  # the solve or the relax changes every end
    if first <= 0:
        lane_warm(ends, lanes, pose)
    if first <= 1:
        if not posed:
            poses(n, bprev, bprev_angle, angle0, pose)
        lane_pass(ends, lanes, inv_h, pose)
        _velocities_out(n, bpos, bprev, bangle, bprev_angle, bw, biw, h, pose, True)
    if last >= 2:
        poses(n, bpos, bangle, angle0, pose)
        lane_pass(ends, lanes, inv_h, pose)
        _velocities_out(n, bpos, bprev, bangle, bprev_angle, bw, biw, h, pose, False)
    if to_cf:
        impulses_out(order, cf, lanes, ends)


def _pass_of(mode: int) -> Any:
    """One pass of ``_sweep_bodies`` of ``mode`` (0 warm start, 1 solve, 2 relax), compiled
    with the mode fixed (a constant of the closure): the loop takes no branch on it, 6 %
    faster on the pyramid's 802 contacts, the same bits. Velocities are ``pose``'s."""

    @njit(cache=True, _nrt=False, fastmath=FMA)
    def one_pass(nc, order, ci, cf, bw, biw, inv_h, pose):
        for kk in range(nc):
            # rows and bodies as unsigned indices: numba then leaves out the wrap-around
            # of negative ones at every access (4 % of a pass); b < 0 is the static world
            k = np.uint64(order[kk])
            a, b = np.uint64(ci[k, 0]), ci[k, 1]
            nx, ny = cf[k, NX], cf[k, NY]
            if mode == 0 and cf[k, LN] == 0.0 and cf[k, LT] == 0.0:
                continue
            wa, iwa = bw[a], biw[a]
            vax, vay, oma = pose[a, VX], pose[a, VY], pose[a, OM]
            jax, jay = cf[k, JAX], cf[k, JAY]
            wb, iwb, vbx, vby, omb = 0.0, 0.0, 0.0, 0.0, 0.0
            jbx, jby = cf[k, JBX], cf[k, JBY]
            bu = np.uint64(max(b, 0))
            if b >= 0:
                wb, iwb = bw[bu], biw[bu]
                vbx, vby, omb = pose[bu, VX], pose[bu, VY], pose[bu, OM]
            if mode == 0:
                dn, dt = cf[k, LN], cf[k, LT]
                jx, jy = dn * nx + dt * ny, dn * ny - dt * nx
            else:
                pax, pay = _arm_point(pose[a, 0], pose[a, 1], pose[a, 2], pose[a, 3], cf[k, RAX],
                                      cf[k, RAY])
                if b >= 0:
                    pbx, pby = _arm_point(pose[bu, 0], pose[bu, 1], pose[bu, 2], pose[bu, 3],
                                          cf[k, RBX], cf[k, RBY])
                else:
                    pbx, pby = cf[k, RBX], cf[k, RBY]
                s = (pbx - pax) * nx + (pby - pay) * ny
                vax, vay, oma, vbx, vby, omb, _, _, dt = _normal_then_friction(
                    k, cf, s, inv_h, vax, vay, oma, vbx, vby, omb, jax, jay, jbx, jby, wa, iwa,
                    wb, iwb)
                jx, jy = dt * ny, -dt * nx
            pose[a, VX] = vax - jx * wa
            pose[a, VY] = vay - jy * wa
            pose[a, OM] = oma - iwa * (jax * jy - jay * jx)
            pose[a, TOUCHED] = 1.0
            if b >= 0:
                pose[bu, VX] = vbx + jx * wb
                pose[bu, VY] = vby + jy * wb
                pose[bu, OM] = omb + iwb * (jbx * jy - jby * jx)
                pose[bu, TOUCHED] = 1.0

    return one_pass


_warm_pass, _solve_pass, _relax_pass = _pass_of(0), _pass_of(1), _pass_of(2)


@njit(cache=True)
def _inverse(w, iw, rx, ry, dx, dy):
    """An end's generalised inverse mass along ``d`` at arm ``r``."""
    t = rx * dy - ry * dx
    return w + iw * t * t


@njit(cache=True, _nrt=False)
def prepare_contacts(first, count, ci, cf, bw, biw, pw):
    """Effective masses of contacts ``first..count`` along normal and tangent (once, when
    they are found: the arms stay fixed for the frame, as in Box2D)."""
    for k in range(first, min(count, len(ci))):
        a, b, p = ci[k, 0], ci[k, 1], ci[k, 2]
        nx, ny = cf[k, NX], cf[k, NY]
        for col in (MN, MT):
            dx, dy = (nx, ny) if col == MN else (ny, -nx)
            inv = _inverse(bw[a], biw[a], cf[k, JAX], cf[k, JAY], dx, dy)
            if b >= 0:
                inv += _inverse(bw[b], biw[b], cf[k, JBX], cf[k, JBY], dx, dy)
            elif p >= 0 and ci[k, 3] >= 0:
                t = cf[k, T]
                inv += (1.0 - t) ** 2 * pw[p] + t * t * pw[ci[k, 3]]
            elif p >= 0:
                inv += pw[p]
            cf[k, col] = 1.0 / inv if inv > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def restitution(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h,
                threshold):
    """Give back ``e ×`` the approach speed of impacts faster than ``threshold`` px/s."""
    # ``first`` given, not left to its default: numba types an omitted argument apart,
    # and compiled all of ``_sweep`` a second time for this call (2.4 s)
    _sweep(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h, 3,
           bpos, ppos, threshold, 0)


@njit(cache=True, _nrt=False)
def contact_substep(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw,
                    h, n, angle0, pose, last, threshold, nb_rows, order, lanes, ends, posed):
    """One substep over the contacts ``0..nc`` (bodies ``0..n``): warm start, solve (from
    where the substep started), relax (to where it ends), after the frame's ``last``
    substep restitution, then the position pass. The first ``nb_rows`` contacts (the
    frame's between bodies) are taken in ``order`` (see ``rigid_find``), in lanes when
    there are ``LANES_FROM`` or more (``lanes``, ``ends``: see ``kernels.lanes``). The
    joints were solved before, in Project (``joint_substep``).

    ``posed``: ``pose`` holds where the bodies start this substep, as the last substep's
    call left it (its relax made it where they ended, ``separate`` kept it so) with
    nothing moved since but the integration (which starts a substep where the last
    ended): its solve's ``poses`` is not made again, a sixteenth of the pyramid's frame.

    Each pass sweeps the frame's rows between bodies in ``order`` (``_sweep_bodies``),
    then the other rows as they come (``_sweep``), only when there are any: a call between
    kernels costs ~0.15 µs whatever it does, and a box on the ground's substep was a
    dozen of them. With no contacts at all nothing is done (``pose`` is left as it was:
    every reader makes it first)."""
    if nc == 0:
        return  # nothing touches: nothing to solve, nothing to take out
    if nc == nb_rows:  # the frame's rows between bodies alone: the three passes in one call
        _sweep_bodies(nb_rows, order, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, h,
                      0, 2, pose, n, angle0, lanes, ends, last, posed)
    else:  # each pass of theirs, then of the others (particles', fast ones')
        for mode in range(3):
            _sweep_bodies(nb_rows, order, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw,
                          h, mode, mode, pose, n, angle0, lanes, ends, True, False)
            _sweep(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h,
                   mode, bpos if mode == 0 else pose, pprev if mode == 1 else ppos, 0.0,
                   nb_rows)
    if last:
        restitution(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h,
                    threshold)
    separate(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, n, angle0,
             pose)


@njit(cache=True, _nrt=False, fastmath=FMA)
def separate(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, n,
             angle0, pose):
    """Take overlaps out in position only (Box2D v2's position solver, split from the
    velocities).

    The contacts' velocity solve is hard and has no bias (a soft contact, Box2D
    v3's, is a spring relative to the light body's mass, and a 1:100 load sank a
    column 5 px a contact), so what gravity and the
    pushes leave is taken out here: the ends move apart by ``SEPARATE`` × the
    overlap beyond ``SLOP_PX`` — position and previous position alike, so no
    velocity comes of it. ``pose``: where the bodies are now (the relax's: it and the
    restitution change only the previous positions).
    """
    for k in range(nc):
        a, b, p, q = ci[k, 0], ci[k, 1], ci[k, 2], ci[k, 3]
        if q >= 0:
            continue  # outline edges: soft bodies give way anyway
        nx, ny = cf[k, NX], cf[k, NY]
        pax, pay = _arm_point(pose[a, 0], pose[a, 1], pose[a, 2], pose[a, 3], cf[k, RAX],
                              cf[k, RAY])
        wa, iwa, wb, iwb = bw[a], biw[a], 0.0, 0.0
        if b >= 0:
            pbx, pby = _arm_point(pose[b, 0], pose[b, 1], pose[b, 2], pose[b, 3], cf[k, RBX],
                                  cf[k, RBY])
            wb, iwb = bw[b], biw[b]
        elif p >= 0:
            pbx, pby = ppos[p, 0] + cf[k, RBX], ppos[p, 1] + cf[k, RBY]
            wb = pw[p]
        else:
            pbx, pby = cf[k, RBX], cf[k, RBY]
        depth = -((pbx - pax) * nx + (pby - pay) * ny) - SLOP_PX
        if depth <= 0.0 or cf[k, MN] == 0.0:
            continue
        dl = SEPARATE * depth * cf[k, MN]
        jx, jy = dl * nx, dl * ny
        ta = iwa * (cf[k, JAX] * jy - cf[k, JAY] * jx)
        for t in (bpos, bprev):
            t[a, 0] -= jx * wa
            t[a, 1] -= jy * wa
        bangle[a] -= ta
        bprev_angle[a] -= ta
        if b >= 0:
            tb = iwb * (cf[k, JBX] * jy - cf[k, JBY] * jx)
            for t in (bpos, bprev):
                t[b, 0] += jx * wb
                t[b, 1] += jy * wb
            bangle[b] += tb
            bprev_angle[b] += tb
        elif p >= 0:
            for t in (ppos, pprev):
                t[p, 0] += jx * wb
                t[p, 1] += jy * wb
        # later contacts see this one's move (Gauss–Seidel): refresh the two poses
        for i in (a, b):
            if i >= 0:
                turn = bangle[i] - angle0[i]
                pose[i, 0], pose[i, 1] = bpos[i, 0], bpos[i, 1]
                pose[i, 2], pose[i, 3] = turn_trig(turn)


@njit(cache=True)
def carry_impulses(nc, ci, cf, no, oci, ocf, tol):
    """Warm starting across frames: each new body contact takes the impulses of last
    frame's contact of the same two bodies whose anchor on a is within ``tol`` px.

    Last frame's contacts are sorted by their pair, so each lookup is a binary search.
    """
    if no == 0:
        return
    for k in range(nc):  # sorting last frame's is the cost: only if a contact looks
        if ci[k, 2] < 0 and ci[k, 3] != -2:
            break
    else:
        return
    okey = oci[:no, 0] * 4294967296 + oci[:no, 1] + 1
    order = np.argsort(okey, kind="mergesort")
    keys = okey[order]
    for k in range(nc):
        if ci[k, 2] >= 0 or ci[k, 3] == -2:  # particles': fresh; reused: have theirs
            continue
        key = ci[k, 0] * 4294967296 + ci[k, 1] + 1
        best, where = tol * tol, -1
        for s in range(np.searchsorted(keys, key), no):
            if keys[s] != key:
                break
            q = order[s]
            if oci[q, 2] >= 0:
                continue
            dx, dy = ocf[q, RAX] - cf[k, RAX], ocf[q, RAY] - cf[k, RAY]
            d = dx * dx + dy * dy
            if d < best:
                best, where = d, q
        if where >= 0:
            cf[k, LN], cf[k, LT] = ocf[where, LN], ocf[where, LT]
