"""The rigid contacts' solve and relax passes in lanes: a colour's contacts side by side.

A pass over the frame's contacts between bodies (``rigid_solver._sweep_bodies``) was
~16 ns a contact on the pyramid, one contact after another: each is a chain of ~25
dependent multiply-adds, and the CPU overlaps only two or three such chains. Within a
colour of ``coloring.color_runs`` no two contacts share a body that can move, so a
colour's contacts can be solved side by side, as Box2D v3 solves its colours in SIMD
lanes: the bodies' velocities are gathered into rows of a chunk, the chunk solved by
one loop LLVM vectorises (``_solve_chunk``: four or eight contacts an instruction, by
the CPU's vector width), and the velocities scattered back. The same bits as one
contact at a time (tested). BENCHMARKS.md (issue 24, stop 52) has the figures.

What the passes read of a contact stays the same for the frame (its normal, anchors,
arms, effective masses and its ends' inverse masses), so it is packed once, when the
frame's contacts are found and ordered (``pack_lanes``), a row per field in colour order
— contiguous for the vector loop — with the accumulated impulses. Nothing but these
passes changes those until the frame's last substep; they are written back to ``cf``
where something reads them there (``impulses_out``, when ``rigid_solver._sweep_lanes``
is told ``to_cf``: restitution, the events, next frame's warm start, and each substep's
warm start of contacts with particles).

``lanes``: ``LANES`` rows × one column per contact (at least ``CHUNK``); rows ``_VAX``
on are the chunk's scratch. ``ends``: row 0 body a, row 1 body b (-1: the static
world), both in colour order; row 2 the colours' runs (``coloring.color_runs``).
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

#: ``lanes``' rows: ``cf``'s columns as packed (in this order), the separation (px,
#: ``_gather``), the ends' inverse masses and inertias (packed), then the chunk's
#: scratch: the ends' velocities.
_PACKED = (NX, NY, JAX, JAY, JBX, JBY, RAX, RAY, RBX, RBY, MN, MT, MU, LN, LT, LMAX)
(_NX, _NY, _JAX, _JAY, _JBX, _JBY, _RAX, _RAY, _RBX, _RBY, _MN, _MT, _MU, _LN, _LT,
 _LMAX, _S) = range(17)
_W, _IW, _WB, _IWB, _VAX, _VAY, _OMA, _VBX, _VBY, _OMB = range(17, 27)
LANES = 27
#: Contacts solved side by side (a colour's run is cut into chunks of this many).
CHUNK = 64
#: ``ends``' rows.
ENDS = 3


class NoAlias(Compiler):
    """numba's pipeline with each array argument marked as sharing no memory with the
    others (LLVM's ``noalias``): without it LLVM must assume a store into one row may
    change another and does not vectorise the loop (the check for it at run time would
    be ~500 comparisons). Only for kernels that are handed distinct rows."""

    def __init__(self, typingctx, targetctx, library, args, return_type, flags, locals):
        flags.noalias = True
        super().__init__(typingctx, targetctx, library, args, return_type, flags, locals)


@njit(cache=True, _nrt=False)
def pack_lanes(count, order, ci, cf, w, iw, lanes, ends):
    """The frame's contacts ``0..count`` in ``order`` into ``lanes`` (with their ends'
    inverse masses ``w`` and inertias ``iw``: the same all frame) and ``ends`` (rows 0
    and 1; ``coloring.color_runs`` wrote row 2)."""
    for kk in range(count):
        k = order[kk]
        a, b = ci[k, 0], ci[k, 1]
        ends[0, kk], ends[1, kk] = a, b
        for r in range(len(_PACKED)):
            lanes[r, kk] = cf[k, _PACKED[r]]
        lanes[_W, kk], lanes[_IW, kk] = w[a], iw[a]
        lanes[_WB, kk], lanes[_IWB, kk] = (w[b], iw[b]) if b >= 0 else (0.0, 0.0)


@njit(cache=True, _nrt=False)
def impulses_out(nc, order, cf, lanes):
    """The accumulated impulses of the first ``nc`` contacts from the lanes into ``cf``."""
    for kk in range(nc):
        k = order[kk]
        cf[k, LN], cf[k, LT], cf[k, LMAX] = lanes[_LN, kk], lanes[_LT, kk], lanes[_LMAX, kk]


@njit(cache=True, _nrt=False)
def touch_ends(nc, ends, pose):
    """Mark every end of the first ``nc`` contacts as changed (``pose``'s ``TOUCHED``): a
    solve or relax changes each, so the lane passes need not mark them one by one."""
    for kk in range(nc):
        pose[np.uint64(ends[0, kk]), TOUCHED] = 1.0
        if ends[1, kk] >= 0:
            pose[np.uint64(ends[1, kk]), TOUCHED] = 1.0


@njit(cache=True, _nrt=False, fastmath=FMA)
def lane_warm(nc, ends, lanes, pose):
    """The warm start (``rigid_solver._pass_of(0)``'s) read from the lanes: each contact's
    accumulated impulses applied again to its ends' velocities, in the same order (the
    same bits), the rows read one after another instead of ``cf``'s rows by ``order``.
    The ends are marked changed apart (``touch_ends``)."""
    for kk in range(nc):
        dn, dt = lanes[_LN, kk], lanes[_LT, kk]
        if dn == 0.0 and dt == 0.0:
            continue
        a, b = np.uint64(ends[0, kk]), ends[1, kk]
        nx, ny = lanes[_NX, kk], lanes[_NY, kk]
        jx, jy = dn * nx + dt * ny, dn * ny - dt * nx
        wa, iwa, jax, jay = lanes[_W, kk], lanes[_IW, kk], lanes[_JAX, kk], lanes[_JAY, kk]
        pose[a, VX] = pose[a, VX] - jx * wa
        pose[a, VY] = pose[a, VY] - jy * wa
        pose[a, OM] = pose[a, OM] - iwa * (jax * jy - jay * jx)
        if b >= 0:
            bu = np.uint64(b)
            wb, iwb, jbx, jby = lanes[_WB, kk], lanes[_IWB, kk], lanes[_JBX, kk], lanes[_JBY, kk]
            pose[bu, VX] = pose[bu, VX] + jx * wb
            pose[bu, VY] = pose[bu, VY] + jy * wb
            pose[bu, OM] = pose[bu, OM] + iwb * (jbx * jy - jby * jx)


@njit(cache=True, _nrt=False, fastmath=FMA)
def lane_pass(nc, ends, lanes, inv_h, pose):
    """One solve (or relax: the same, at other poses) of the first ``nc`` contacts, colour
    by colour, a chunk of a colour at a time; the last colour (ends shared) one contact
    at a time. Velocities are ``pose``'s (``rigid_solver._sweep_bodies``); the ends are
    marked changed apart (``touch_ends``)."""
    for c in range(COLORS):
        lo, hi = ends[2, c], ends[2, c + 1]
        if lo >= nc:  # this colour and those after it are empty
            break
        step = 1 if c == COLORS - 1 else CHUNK
        for off in range(lo, hi, step):
            m = min(step, hi - off)
            _gather(off, m, ends, lanes, pose)
            e = off + m
            _solve_chunk(m, inv_h, lanes[_NX, off:e], lanes[_NY, off:e], lanes[_JAX, off:e],
                         lanes[_JAY, off:e], lanes[_JBX, off:e], lanes[_JBY, off:e],
                         lanes[_MN, off:e], lanes[_MT, off:e], lanes[_MU, off:e],
                         lanes[_LN, off:e], lanes[_LT, off:e], lanes[_LMAX, off:e],
                         lanes[_S, off:e], lanes[_W, off:e], lanes[_IW, off:e],
                         lanes[_WB, off:e], lanes[_IWB, off:e], lanes[_VAX, :m],
                         lanes[_VAY, :m], lanes[_OMA, :m], lanes[_VBX, :m], lanes[_VBY, :m],
                         lanes[_OMB, :m])
            _scatter(off, m, ends, lanes, pose)


@njit(cache=True, _nrt=False, fastmath=FMA)
def _gather(off, m, ends, lanes, pose):
    """Contacts ``off..off + m``: their separation (px) at the bodies' ``pose`` (see
    ``rigid_solver.poses``) into row ``_S``, their ends' velocities into the scratch (a
    body's pose and velocity share a cache line: read together)."""
    for i in range(m):
        k = off + i
        a, b = np.uint64(ends[0, k]), ends[1, k]
        pax, pay = _arm_point(pose[a, 0], pose[a, 1], pose[a, 2], pose[a, 3],
                              lanes[_RAX, k], lanes[_RAY, k])
        lanes[_VAX, i], lanes[_VAY, i], lanes[_OMA, i] = pose[a, VX], pose[a, VY], pose[a, OM]
        if b >= 0:
            bu = np.uint64(b)
            pbx, pby = _arm_point(pose[bu, 0], pose[bu, 1], pose[bu, 2], pose[bu, 3],
                                  lanes[_RBX, k], lanes[_RBY, k])
            lanes[_VBX, i], lanes[_VBY, i] = pose[bu, VX], pose[bu, VY]
            lanes[_OMB, i] = pose[bu, OM]
        else:
            pbx, pby = lanes[_RBX, k], lanes[_RBY, k]
            lanes[_VBX, i] = lanes[_VBY, i] = lanes[_OMB, i] = 0.0
        lanes[_S, k] = (pbx - pax) * lanes[_NX, k] + (pby - pay) * lanes[_NY, k]


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
