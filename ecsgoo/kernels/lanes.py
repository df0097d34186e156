"""The rigid contacts' solve and relax passes in lanes: a colour's manifolds side by side.

A pass over the frame's contacts between bodies (``rigid_solver._sweep_bodies``) was
~16 ns a contact on the pyramid, one contact after another: each is a chain of ~25
dependent multiply-adds, and the CPU overlaps only two or three such chains. Within a
colour of ``coloring.color_runs`` no two contacts share a body that can move, so a
colour's contacts can be solved side by side, as Box2D v3 solves its colours in SIMD
lanes: the bodies' velocities are gathered into rows of a chunk, the chunk solved by
one loop LLVM vectorises (``_solve_chunk``: four or eight contacts an instruction, by
the CPU's vector width), and the velocities scattered back. The same bits as one
contact at a time (tested). BENCHMARKS.md (issue 24, stops 52 and 64) has the figures.

A lane holds a *manifold*: one or two consecutive rows of the same two bodies (a box
resting on another touches it at two points; ``rigid_find._solve_order`` makes them),
as Box2D v3's constraints do. The gather and the scatter, two thirds of a pass, are then
made once for both points, and a manifold's second point is solved by a second loop
over the chunk after the first (the same arithmetic a body sees one contact at a
time: its first point, then its second). A colour's manifolds of two rows come first,
so that the second loop runs over the chunk's first lanes.

What the passes read of a contact stays the same for the frame (its normal, anchors,
arms, effective masses and its ends' inverse masses), so it is packed once, when the
frame's contacts are found and ordered (``pack_lanes``), a row per field in colour order
— contiguous for the vector loop — with the accumulated impulses. Nothing but these
passes changes those until the frame's last substep; they are written back to ``cf``
where something reads them there (``impulses_out``, when ``rigid_solver._sweep_lanes``
is told ``to_cf``: restitution, the events, next frame's warm start, and each substep's
warm start of contacts with particles).

``lanes``: ``LANES`` rows × one column per manifold (at least ``CHUNK``): the first
point's rows, the second's from ``_P2`` on (the same fields), the ends' inverse masses,
then from ``_VAX`` on the chunk's scratch. ``ends``: row 0 body a, row 1 body b (-1: the
static world), row 3 the manifold's rows (1 or 2), each in colour order; row 2 the
colours' runs of manifolds (``coloring.color_runs``: ``COLORS + 1`` entries, the last
the manifolds' count), row 4 how many of each colour's have two rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.compiler import Compiler

from . import FMA
from .coloring import COLORS
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
    MU,
    NX,
    NY,
    OM,
    RAX,
    RAY,
    RBX,
    RBY,
    TOUCHED,
    VX,
    VY,
    _arm_point,
    _normal_then_friction_of,
)

#: ``lanes``' rows of a point: ``cf``'s columns as packed (in this order), the separation
#: (px, ``_gather``); the second point's the same from ``_P2`` on; then the ends' inverse
#: masses and inertias (packed), then the chunk's scratch: the ends' velocities.
_PACKED = (NX, NY, JAX, JAY, JBX, JBY, RAX, RAY, RBX, RBY, MN, MT, MU, LN, LT, LMAX)
(_NX, _NY, _JAX, _JAY, _JBX, _JBY, _RAX, _RAY, _RBX, _RBY, _MN, _MT, _MU, _LN, _LT,
 _LMAX, _S) = range(17)
_P2 = 17
_W, _IW, _WB, _IWB, _VAX, _VAY, _OMA, _VBX, _VBY, _OMB = range(2 * _P2, 2 * _P2 + 10)
LANES = 2 * _P2 + 10
#: Manifolds solved side by side (a colour's run is cut into chunks of this many).
CHUNK = 64
#: ``ends``' rows (see above), and its row of the colours' runs.
ENDS = 5
RUNS = 2


class NoAlias(Compiler):
    """numba's pipeline with each array argument marked as sharing no memory with the
    others (LLVM's ``noalias``): without it LLVM must assume a store into one row may
    change another and does not vectorise the loop (the check for it at run time would
    be ~500 comparisons). Only for kernels that are handed distinct rows."""

    def __init__(self, typingctx, targetctx, library, args, return_type, flags, locals):
        flags.noalias = True
        super().__init__(typingctx, targetctx, library, args, return_type, flags, locals)


@njit(cache=True, _nrt=False, inline="always")
def manifolds(ends):
    """How many manifolds ``ends`` holds (the end of its colours' runs)."""
    return ends[RUNS, COLORS]


@njit(cache=True, _nrt=False)
def pack_lanes(order, ci, cf, w, iw, lanes, ends):
    """The frame's contacts in ``order`` into ``lanes``, a manifold a column, with their
    ends' inverse masses ``w`` and inertias ``iw`` (the same all frame). ``ends`` holds
    the manifolds already (``rigid_find._solve_order``)."""
    kk = 0
    for q in range(manifolds(ends)):
        k = order[kk]
        a, b = ci[k, 0], ci[k, 1]
        for r in range(len(_PACKED)):
            lanes[r, q] = cf[k, _PACKED[r]]
        if ends[3, q] == 2:
            k2 = order[kk + 1]
            for r in range(len(_PACKED)):
                lanes[_P2 + r, q] = cf[k2, _PACKED[r]]
        kk += ends[3, q]
        lanes[_W, q], lanes[_IW, q] = w[a], iw[a]
        lanes[_WB, q], lanes[_IWB, q] = (w[b], iw[b]) if b >= 0 else (0.0, 0.0)


@njit(cache=True, _nrt=False)
def impulses_out(order, cf, lanes, ends):
    """The accumulated impulses of the manifolds' rows from the lanes into ``cf``."""
    kk = 0
    for q in range(manifolds(ends)):
        for p in range(ends[3, q]):
            k, o = order[kk + p], _P2 * p
            cf[k, LN], cf[k, LT], cf[k, LMAX] = lanes[o + _LN, q], lanes[o + _LT, q], \
                lanes[o + _LMAX, q]
        kk += ends[3, q]


@njit(cache=True, _nrt=False)
def touch_ends(ends, pose):
    """Mark every end of the manifolds as changed (``pose``'s ``TOUCHED``): a solve or
    relax changes each, so the lane passes need not mark them one by one."""
    for q in range(manifolds(ends)):
        pose[np.uint64(ends[0, q]), TOUCHED] = 1.0
        if ends[1, q] >= 0:
            pose[np.uint64(ends[1, q]), TOUCHED] = 1.0


@njit(cache=True, _nrt=False, fastmath=FMA)
def lane_warm(ends, lanes, pose):
    """The warm start (``rigid_solver._pass_of(0)``'s) read from the lanes: each contact's
    accumulated impulses applied again to its ends' velocities, in the same order (the
    same bits), a manifold's ends read and written once for its points. The ends are
    marked changed apart (``touch_ends``)."""
    for q in range(manifolds(ends)):
        a, b = np.uint64(ends[0, q]), ends[1, q]
        bu = np.uint64(max(b, 0))
        two = ends[3, q] == 2
        if (lanes[_LN, q] == 0.0 and lanes[_LT, q] == 0.0) and not (
                two and (lanes[_P2 + _LN, q] != 0.0 or lanes[_P2 + _LT, q] != 0.0)):
            continue
        v = (pose[a, VX], pose[a, VY], pose[a, OM], pose[bu, VX], pose[bu, VY], pose[bu, OM])
        v = _warm_point(0, q, lanes, v)
        if two:
            v = _warm_point(_P2, q, lanes, v)
        pose[a, VX], pose[a, VY], pose[a, OM] = v[0], v[1], v[2]
        if b >= 0:
            pose[bu, VX], pose[bu, VY], pose[bu, OM] = v[3], v[4], v[5]


@njit(cache=True, _nrt=False, fastmath=FMA, inline="always")
def _warm_point(o, q, lanes, v):
    """Velocities ``v`` (a's, then b's) after the warm start of manifold ``q``'s point of
    rows ``o..o + _P2`` (none if it has no impulse)."""
    dn, dt = lanes[o + _LN, q], lanes[o + _LT, q]
    if dn == 0.0 and dt == 0.0:
        return v
    nx, ny = lanes[o + _NX, q], lanes[o + _NY, q]
    jx, jy = dn * nx + dt * ny, dn * ny - dt * nx
    wa, iwa, wb, iwb = lanes[_W, q], lanes[_IW, q], lanes[_WB, q], lanes[_IWB, q]
    ta = lanes[o + _JAX, q] * jy - lanes[o + _JAY, q] * jx
    tb = lanes[o + _JBX, q] * jy - lanes[o + _JBY, q] * jx
    return (v[0] - jx * wa, v[1] - jy * wa, v[2] - iwa * ta, v[3] + jx * wb, v[4] + jy * wb,
            v[5] + iwb * tb)


@njit(cache=True, _nrt=False, fastmath=FMA)
def lane_pass(ends, lanes, inv_h, pose):
    """One solve (or relax: the same, at other poses) of the manifolds, colour by colour,
    a chunk of a colour at a time: its first points side by side, then the second points
    of those that have two (a colour's first ``ends[4, c]``); the last colour (ends
    shared) one manifold at a time. Velocities are ``pose``'s
    (``rigid_solver._sweep_bodies``); the ends are marked changed apart (``touch_ends``)."""
    nm = manifolds(ends)
    for c in range(COLORS):
        lo, hi = ends[RUNS, c], ends[RUNS, c + 1]
        if lo >= nm:  # this colour and those after it are empty
            break
        step = 1 if c == COLORS - 1 else CHUNK
        twos_end = lo + ends[4, c]
        for off in range(lo, hi, step):
            m = min(step, hi - off)
            _gather(off, m, ends, lanes, pose)
            _solve_points(0, off, m, inv_h, lanes)
            if twos_end > off:
                _solve_points(_P2, off, min(m, twos_end - off), inv_h, lanes)
            _scatter(off, m, ends, lanes, pose)


@njit(cache=True, _nrt=False, inline="always")
def _solve_points(o, off, m, inv_h, lanes):
    """The points of rows ``o..o + _P2`` of manifolds ``off..off + m`` (``_solve_chunk``)."""
    e = off + m
    _solve_chunk(m, inv_h, lanes[o + _NX, off:e], lanes[o + _NY, off:e],
                 lanes[o + _JAX, off:e], lanes[o + _JAY, off:e], lanes[o + _JBX, off:e],
                 lanes[o + _JBY, off:e], lanes[o + _MN, off:e], lanes[o + _MT, off:e],
                 lanes[o + _MU, off:e], lanes[o + _LN, off:e], lanes[o + _LT, off:e],
                 lanes[o + _LMAX, off:e], lanes[o + _S, off:e], lanes[_W, off:e],
                 lanes[_IW, off:e], lanes[_WB, off:e], lanes[_IWB, off:e], lanes[_VAX, :m],
                 lanes[_VAY, :m], lanes[_OMA, :m], lanes[_VBX, :m], lanes[_VBY, :m],
                 lanes[_OMB, :m])


@njit(cache=True, _nrt=False, fastmath=FMA)
def _gather(off, m, ends, lanes, pose):
    """Manifolds ``off..off + m``: their points' separations (px) at the bodies' ``pose``
    (see ``rigid_solver.poses``) into rows ``_S`` and ``_P2 + _S``, their ends' velocities
    into the scratch (a body's pose and velocity share a cache line: read together)."""
    for i in range(m):
        k = off + i
        a, b = np.uint64(ends[0, k]), ends[1, k]
        at = pose[a, 0], pose[a, 1], pose[a, 2], pose[a, 3]
        lanes[_VAX, i], lanes[_VAY, i], lanes[_OMA, i] = pose[a, VX], pose[a, VY], pose[a, OM]
        if b >= 0:
            bu = np.uint64(b)
            bt = pose[bu, 0], pose[bu, 1], pose[bu, 2], pose[bu, 3]
            lanes[_VBX, i], lanes[_VBY, i] = pose[bu, VX], pose[bu, VY]
            lanes[_OMB, i] = pose[bu, OM]
        else:  # the static world: b's anchors are where they are
            bt = 0.0, 0.0, 1.0, 0.0
            lanes[_VBX, i] = lanes[_VBY, i] = lanes[_OMB, i] = 0.0
        _separation(0, k, lanes, at, bt, b >= 0)
        if ends[3, k] == 2:
            _separation(_P2, k, lanes, at, bt, b >= 0)


@njit(cache=True, _nrt=False, fastmath=FMA, inline="always")
def _separation(o, k, lanes, at, bt, moves):
    """Manifold ``k``'s point of rows ``o..o + _P2``: its separation (px) with a at pose
    ``at`` and b at ``bt`` (``moves``: else b's anchor is in world coordinates)."""
    pax, pay = _arm_point(at[0], at[1], at[2], at[3], lanes[o + _RAX, k], lanes[o + _RAY, k])
    if moves:
        pbx, pby = _arm_point(bt[0], bt[1], bt[2], bt[3], lanes[o + _RBX, k],
                              lanes[o + _RBY, k])
    else:
        pbx, pby = lanes[o + _RBX, k], lanes[o + _RBY, k]
    lanes[o + _S, k] = (pbx - pax) * lanes[o + _NX, k] + (pby - pay) * lanes[o + _NY, k]


@njit(cache=True, _nrt=False)
def _scatter(off, m, ends, lanes, pose):
    """The scratch's velocities back to the bodies (the static world's left alone)."""
    for i in range(m):
        a, b = np.uint64(ends[0, off + i]), ends[1, off + i]
        pose[a, VX], pose[a, VY], pose[a, OM] = lanes[_VAX, i], lanes[_VAY, i], lanes[_OMA, i]
        if b >= 0:
            bu = np.uint64(b)
            pose[bu, VX], pose[bu, VY] = lanes[_VBX, i], lanes[_VBY, i]
            pose[bu, OM] = lanes[_OMB, i]


@njit(cache=True, _nrt=False, fastmath=FMA, pipeline_class=NoAlias)
def _solve_chunk(m, inv_h, nx_, ny_, jax_, jay_, jbx_, jby_, mn_, mt_, mu_, ln_, lt_, lmax_,
                 s_, wa_, iwa_, wb_, iwb_, vax_, vay_, oma_, vbx_, vby_, omb_):
    """``m`` contacts side by side (``contact_rows._normal_then_friction_of`` each, then
    the friction impulse applied): rows in, the impulses and velocities written back."""
    for i in range(m):
        wa, iwa, wb, iwb = wa_[i], iwa_[i], wb_[i], iwb_[i]
        jax, jay, jbx, jby = jax_[i], jay_[i], jbx_[i], jby_[i]
        nx, ny = nx_[i], ny_[i]
        vax, vay, oma, vbx, vby, omb, ln, lt, lmax, dt = _normal_then_friction_of(
            nx, ny, ln_[i], lt_[i], lmax_[i], mn_[i], mt_[i], mu_[i], s_[i], inv_h,
            vax_[i], vay_[i], oma_[i], vbx_[i], vby_[i], omb_[i], jax, jay, jbx, jby, wa,
            iwa, wb, iwb)
        ln_[i], lt_[i], lmax_[i] = ln, lt, lmax
        jx, jy = dt * ny, -dt * nx
        vax_[i] = vax - jx * wa
        vay_[i] = vay - jy * wa
        oma_[i] = oma - iwa * (jax * jy - jay * jx)
        vbx_[i] = vbx + jx * wb
        vby_[i] = vby + jy * wb
        omb_[i] = omb + iwb * (jbx * jy - jby * jx)
