"""The contact solver of rigid bodies: Box2D v3's soft step on Verlet state.

DESIGN. The first try was XPBD contacts (Müller et al. 2020), which fits the
position-based particles; it let two stacked boxes walk sideways at 0.3–1
px/s whatever the friction, because each substep's Gauss–Seidel residual
turns into rotation about a corner and static friction measured from the
start of the substep keeps it. A velocity solver with *warm starting* (each
contact starts from the impulses it needed last time) converges across
frames instead: that is why Box2D and pymunk stack. So contacts use Box2D
v3's soft step (erincatto/box2d ``contact_solver.c``): per substep, warm
start, solve with a soft bias (a spring of ``hertz`` with damping ratio
``zeta`` pushes overlaps out, at most ``push`` px/s), then *relax* (solve
again without the bias, so the push does not stay as velocity); after the
last substep, restitution. Speculative contacts (separation > 0 allows
closing at s/h) keep fast bodies from tunnelling.

On Verlet state (velocity = (pos − prev) / h) "integrate positions with the
solved velocity" and "change the velocity only" are two ways of applying one
impulse: ``into_pos`` moves ``pos`` (warm start, biased solve: the substep's
move changes), otherwise ``prev`` moves (relax, restitution: only the
velocity changes). Particles take part as bodies without rotation.

Contacts are rows of ``ci`` (body a, body b or -1, particle b or -1, unused)
and ``cf`` (columns below); anchors are in a's and b's body coordinates (an
offset from particle b's centre; world coordinates for the static world).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

# cf columns: normal (a → b), anchors, friction, restitution, normal impulse,
# tangent impulse (both accumulated, mass·px/s), approach speed at the start of the
# frame (px/s), largest normal impulse of the frame
NX, NY, RAX, RAY, RBX, RBY, MU, E, LN, LT, UN0, LMAX = range(12)
CF = 12


@njit(cache=True)
def _point(i, rx, ry, pos, angle):
    """Body ``i``'s anchor ``r`` (body coordinates) in world coordinates, and its arm."""
    c, s = math.cos(angle[i]), math.sin(angle[i])
    ax, ay = c * rx - s * ry, s * rx + c * ry
    return pos[i, 0] + ax, pos[i, 1] + ay, ax, ay


@njit(cache=True)
def _ends(ci, cf, k, bp, ba, pp):
    """Contact ``k``'s anchor points (world) on a and b, and their arms, in pose ``bp, ba``
    (bodies) and ``pp`` (particles)."""
    pax, pay, rax, ray = _point(ci[k, 0], cf[k, RAX], cf[k, RAY], bp, ba)
    b, p = ci[k, 1], ci[k, 2]
    if b >= 0:
        pbx, pby, rbx, rby = _point(b, cf[k, RBX], cf[k, RBY], bp, ba)
    elif p >= 0:
        pbx, pby, rbx, rby = pp[p, 0] + cf[k, RBX], pp[p, 1] + cf[k, RBY], 0.0, 0.0
    else:
        pbx, pby, rbx, rby = cf[k, RBX], cf[k, RBY], 0.0, 0.0
    return pax, pay, rax, ray, pbx, pby, rbx, rby


@njit(cache=True)
def _mass(ci, k, rax, ray, rbx, rby, dx, dy, bw, biw, pw):
    """Effective mass of contact ``k`` along direction ``d`` (0 if both ends are fixed)."""
    a, b, p = ci[k, 0], ci[k, 1], ci[k, 2]
    ta = rax * dy - ray * dx
    inv = bw[a] + biw[a] * ta * ta
    if b >= 0:
        tb = rbx * dy - rby * dx
        inv += bw[b] + biw[b] * tb * tb
    elif p >= 0:
        inv += pw[p]
    return 1.0 / inv if inv > 0.0 else 0.0


@njit(cache=True)
def _relative(ci, k, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle, ppos, pprev, h):
    """Velocity of b's contact point relative to a's, px/s."""
    a, b, p = ci[k, 0], ci[k, 1], ci[k, 2]
    om = (bangle[a] - bprev_angle[a]) / h
    vax = (bpos[a, 0] - bprev[a, 0]) / h - om * ray
    vay = (bpos[a, 1] - bprev[a, 1]) / h + om * rax
    vbx, vby = 0.0, 0.0
    if b >= 0:
        om = (bangle[b] - bprev_angle[b]) / h
        vbx = (bpos[b, 0] - bprev[b, 0]) / h - om * rby
        vby = (bpos[b, 1] - bprev[b, 1]) / h + om * rbx
    elif p >= 0:
        vbx, vby = (ppos[p, 0] - pprev[p, 0]) / h, (ppos[p, 1] - pprev[p, 1]) / h
    return vbx - vax, vby - vay


@njit(cache=True)
def _nudge(i, jx, jy, rx, ry, pos, angle, w, iw, sign):
    pos[i, 0] += sign * jx * w[i]
    pos[i, 1] += sign * jy * w[i]
    angle[i] += sign * iw[i] * (rx * jy - ry * jx)


@njit(cache=True)
def _apply(ci, k, jx, jy, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle, bw, biw,
           ppos, pprev, pw, h, into_pos):
    """Impulse ``j`` (mass·px/s) on b, ``−j`` on a. ``into_pos``: it changes this substep's
    move (``pos``); else only the velocity (``prev``)."""
    a, b, p = ci[k, 0], ci[k, 1], ci[k, 2]
    jx, jy = jx * h, jy * h
    if into_pos:
        _nudge(a, jx, jy, rax, ray, bpos, bangle, bw, biw, -1.0)
        if b >= 0:
            _nudge(b, jx, jy, rbx, rby, bpos, bangle, bw, biw, 1.0)
        elif p >= 0:
            ppos[p, 0] += jx * pw[p]
            ppos[p, 1] += jy * pw[p]
    else:
        _nudge(a, jx, jy, rax, ray, bprev, bprev_angle, bw, biw, 1.0)
        if b >= 0:
            _nudge(b, jx, jy, rbx, rby, bprev, bprev_angle, bw, biw, -1.0)
        elif p >= 0:
            pprev[p, 0] -= jx * pw[p]
            pprev[p, 1] -= jy * pw[p]


@njit(cache=True)
def warm_start(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h):
    """Apply every contact's accumulated impulses (the solver starts near last time's)."""
    for k in range(nc):
        ln, lt = cf[k, LN], cf[k, LT]
        if ln == 0.0 and lt == 0.0:
            continue
        nx, ny = cf[k, NX], cf[k, NY]
        _, _, rax, ray, _, _, rbx, rby = _ends(ci, cf, k, bprev, bprev_angle, pprev)
        jx, jy = ln * nx + lt * ny, ln * ny - lt * nx  # tangent = (ny, −nx)
        _apply(ci, k, jx, jy, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle, bw, biw,
               ppos, pprev, pw, h, True)


@njit(cache=True)
def solve(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h,
          use_bias, soft, push):
    """One pass over the contacts: non-penetration, then Coulomb friction.

    ``use_bias``: push overlaps out softly (``soft`` = bias rate, mass scale and
    impulse scale for contacts between two moving things, then the same for
    contacts with something fixed), at most ``push`` px/s, changing the
    substep's move; else only velocities change (the relax pass).
    """
    for k in range(nc):
        a, b, p = ci[k, 0], ci[k, 1], ci[k, 2]
        nx, ny = cf[k, NX], cf[k, NY]
        # separation where the substep started (solve) or where it ends (relax)
        if use_bias:
            pax, pay, rax, ray, pbx, pby, rbx, rby = _ends(ci, cf, k, bprev, bprev_angle,
                                                           pprev)
        else:
            pax, pay, rax, ray, pbx, pby, rbx, rby = _ends(ci, cf, k, bpos, bangle, ppos)
            _, _, rax, ray, _, _, rbx, rby = _ends(ci, cf, k, bprev, bprev_angle, pprev)
        s = (pbx - pax) * nx + (pby - pay) * ny
        fixed = (b < 0 and p < 0) or (b >= 0 and bw[b] == 0.0) or (p >= 0 and pw[p] == 0.0) \
            or bw[a] == 0.0
        q = 3 if fixed else 0
        bias, mass_scale, impulse_scale = 0.0, 1.0, 0.0
        if s > 0.0:
            bias = s / h  # speculative: may close the gap, no more
        elif use_bias:
            bias = max(soft[q] * s, -push)
            mass_scale, impulse_scale = soft[q + 1], soft[q + 2]
        ux, uy = _relative(ci, k, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle, ppos,
                           pprev, h)
        vn = ux * nx + uy * ny
        mn = _mass(ci, k, rax, ray, rbx, rby, nx, ny, bw, biw, pw)
        dj = -mn * mass_scale * (vn + bias) - impulse_scale * cf[k, LN]
        new = max(cf[k, LN] + dj, 0.0)
        dj = new - cf[k, LN]
        cf[k, LN] = new
        cf[k, LMAX] = max(cf[k, LMAX], dj)
        _apply(ci, k, dj * nx, dj * ny, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle,
               bw, biw, ppos, pprev, pw, h, use_bias)
        # friction along t = (ny, −nx), bounded by μ × the normal impulse
        ux, uy = _relative(ci, k, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle, ppos,
                           pprev, h)
        vt = ux * ny - uy * nx
        mt = _mass(ci, k, rax, ray, rbx, rby, ny, -nx, bw, biw, pw)
        limit = cf[k, MU] * cf[k, LN]
        new = min(max(cf[k, LT] - mt * vt, -limit), limit)
        dj = new - cf[k, LT]
        cf[k, LT] = new
        _apply(ci, k, dj * ny, -dj * nx, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle,
               bw, biw, ppos, pprev, pw, h, use_bias)


@njit(cache=True)
def restitution(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h,
                threshold):
    """Give back ``e ×`` the approach speed of impacts faster than ``threshold`` px/s."""
    for k in range(nc):
        e, un0 = cf[k, E], cf[k, UN0]
        if e == 0.0 or un0 > -threshold or cf[k, LMAX] == 0.0:
            continue
        nx, ny = cf[k, NX], cf[k, NY]
        _, _, rax, ray, _, _, rbx, rby = _ends(ci, cf, k, bprev, bprev_angle, pprev)
        ux, uy = _relative(ci, k, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle, ppos,
                           pprev, h)
        vn = ux * nx + uy * ny
        mn = _mass(ci, k, rax, ray, rbx, rby, nx, ny, bw, biw, pw)
        new = max(cf[k, LN] - mn * (vn + e * un0), 0.0)
        dj = new - cf[k, LN]
        cf[k, LN] = new
        _apply(ci, k, dj * nx, dj * ny, rax, ray, rbx, rby, bpos, bprev, bangle, bprev_angle,
               bw, biw, ppos, pprev, pw, h, False)


@njit(cache=True)
def carry_impulses(nc, ci, cf, no, oci, ocf, tol):
    """Warm starting across frames: each new body contact takes the impulses of last
    frame's contact of the same two bodies whose anchor on a is within ``tol`` px.

    Last frame's contacts are sorted by their pair, so each lookup is a binary search.
    """
    if no == 0:
        return
    okey = oci[:no, 0] * 4294967296 + oci[:no, 1] + 1
    order = np.argsort(okey, kind="mergesort")
    keys = okey[order]
    for k in range(nc):
        if ci[k, 2] >= 0:  # a particle's contact: fresh every substep
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
