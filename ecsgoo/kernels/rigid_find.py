"""The bodies' contacts found in one call: boxes, the pairs' narrow phase (or last
frame's contacts kept), the level and the walls, effective masses and warm starts.

One kernel rather than six: each call from Python passes a score of arrays, and
the six calls and the glue between them cost as much as finding the contacts of
a resting pyramid (see ``physics.contacts._find``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .coloring import COLORS, color_runs
from .lanes import RUNS, pack_lanes
from .rigid import body_boxes, body_contacts, pair_index, world_contacts
from .rigid_solver import LANES_FROM, carry_impulses, prepare_contacts


@njit(cache=True)
def find_contacts(pairs, n, pos, prev, angle, prev_angle, w, iw, extent, friction,
                  restitution, piece_off, vert_off, verts, radius, segs, seg_friction, walls,
                  use_bounds, slop, h, frames, linked, angle0, ci, cf, first, oci, ocf, old_n,
                  otable, still, boxes, trig, fast, want, pw, carry_tol, order, lanes, ends,
                  surf, layers, mask, inner):
    """Contacts of the body ``pairs`` and of the bodies whose ``fast`` flag is ``want``
    with the level ``segs`` and the ``walls`` (if ``use_bounds``), appended from row
    ``first`` with the speculative margin of ``frames`` substeps; a pair at rest
    (``still`` px > 0) keeps last frame's (``oci``/``ocf``, ``old_n`` rows, indexed
    by pair in ``otable``: see ``pair_index``). Then
    the new rows' effective masses and, if ``carry_tol`` > 0 px, the impulses of last
    frame's contacts within that distance (warm starting). From row 0 (the frame's
    contacts), ``order`` gets the order the solver takes them in (``_solve_order``) and
    ``lanes`` and ``ends`` what its passes read of them (``lanes.pack_lanes``, when there
    are enough: ``rigid_solver.LANES_FROM``).
    Returns the end row; if it passes ``len(ci)``, nothing after the count is valid:
    grow and call again. (``contact_rows`` and ``order_contacts`` in room made here; the
    fused frame gives its own.)
    """
    k = most_vertices(vert_off)
    count = contact_rows(pairs, n, pos, prev, angle, prev_angle, w, iw, extent, friction,
                         restitution, piece_off, vert_off, verts, radius, segs, seg_friction,
                         walls, use_bounds, slop, h, frames, linked, angle0, ci, cf, first,
                         oci, ocf, old_n, otable, still, boxes, trig, fast, want, pw, surf,
                         layers, mask, inner, np.empty((2, 7)), np.empty((2, 2)),
                         np.empty((k, 2)), np.empty((k, 2)), np.empty((k, 3)),
                         np.empty((k, 3)))
    if count > len(ci):
        return count
    order_contacts(count, first, ci, cf, w, iw, pw, n, old_n, oci, ocf, carry_tol, order,
                   lanes, ends)
    return count


@njit(cache=True, _nrt=False)
def most_vertices(vert_off):
    """The most vertices a body's piece has, and at least 2 (a level segment's): the
    narrow phase's room (``contact_rows``)."""
    k = 2
    for p in range(len(vert_off) - 1):
        k = max(k, vert_off[p + 1] - vert_off[p])
    return k


@njit(cache=True, _nrt=False)
def contact_rows(pairs, n, pos, prev, angle, prev_angle, w, iw, extent, friction,
                 restitution, piece_off, vert_off, verts, radius, segs, seg_friction, walls,
                 use_bounds, slop, h, frames, linked, angle0, ci, cf, first, oci, ocf, old_n,
                 otable, still, boxes, trig, fast, want, pw, surf, layers, mask, inner, out,
                 seg, wa, wb, na, nb):
    """``find_contacts``' rows and their effective masses, in the narrow phase's room given
    (``out`` 2 rows of 7, ``seg`` 2 of 2, ``wa``/``wb`` ``most_vertices`` rows of 2,
    ``na``/``nb`` of 3): nothing is made, so numba counts no reference (an array argument
    of a kernel with its runtime is counted at each call: ~80 a frame in the three calls
    this was)."""
    body_boxes(n, prev, prev_angle, piece_off, vert_off, verts, radius, boxes, trig)
    if still > 0.0:
        pair_index(oci, old_n, otable)
    count = body_contacts(pairs, len(pairs), pos, prev, angle, prev_angle, w, extent, friction,
                          restitution, piece_off, vert_off, verts, radius, slop, h, frames,
                          linked, angle0, ci, cf, first, oci, ocf, otable, still, boxes,
                          trig, inner, out, wa, wb, na, nb)
    count = world_contacts(n, pos, prev, angle, prev_angle, w, extent, friction, restitution,
                           piece_off, vert_off, verts, radius, segs, seg_friction, walls,
                           use_bounds, slop, h, frames, fast, want, angle0, ci, cf, count, surf,
                           layers, mask, inner, out, seg, wa, wb, na, nb)
    if count > len(ci):
        return count
    prepare_contacts(first, count, ci, cf, w, iw, pw)
    return count


@njit(cache=True)
def order_contacts(count, first, ci, cf, w, iw, pw, n, old_n, oci, ocf, carry_tol, order,
                   lanes, ends):
    """``find_contacts``' end for rows ``first..count``: last frame's impulses carried
    (``carry_tol`` > 0 px), and from row 0 the solver's order and lanes."""
    if carry_tol > 0.0:
        carry_impulses(count - first, ci[first:], cf[first:], old_n, oci, ocf, carry_tol)
    if first == 0:
        _solve_order(count, ci, w, iw, n, order, ends)
        if count >= LANES_FROM:
            pack_lanes(order, ci, cf, w, iw, lanes, ends)


@njit(cache=True)
def _solve_order(count, ci, w, iw, n, order, ends):
    """The frame's contacts ``0..count`` as manifolds (one or two consecutive rows of the
    same two bodies: the narrow phase writes a pair's points together) in colour order
    (``color_runs``: no two of a colour share a body that can move — ends that cannot are
    left out, nothing is written to them), so consecutive manifolds do not wait on each
    other; within a colour those of two rows first. ``order`` gets the rows, a manifold's
    together; ``ends`` the manifolds' ends, rows and colours' runs (``kernels.lanes``)."""
    a, b = np.empty(count, dtype=np.int64), np.empty(count, dtype=np.int64)
    start = np.empty(count + 1, dtype=np.int64)
    nm = 0
    k = 0
    while k < count:
        i, j = ci[k, 0], ci[k, 1]
        start[nm] = k
        a[nm] = i if w[i] != 0.0 or iw[i] != 0.0 else -1
        b[nm] = j if j >= 0 and (w[j] != 0.0 or iw[j] != 0.0) else -1
        nm += 1
        k += 2 if k + 1 < count and ci[k + 1, 0] == i and ci[k + 1, 1] == j else 1
    start[nm] = count
    runs = ends[RUNS, :COLORS + 1]
    by_colour = color_runs(nm, a, b, n, runs)
    kk = q = 0
    for c in range(COLORS):  # each colour's manifolds of two rows, then those of one
        ends[4, c] = 0
        for size in (2, 1):
            for u in by_colour[runs[c]:runs[c + 1]]:
                if start[u + 1] - start[u] != size:
                    continue
                ends[0, q], ends[1, q], ends[3, q] = ci[start[u], 0], ci[start[u], 1], size
                ends[4, c] += 1 if size == 2 else 0
                q += 1
                for r in range(start[u], start[u + 1]):
                    order[kk] = r
                    kk += 1
