"""Rigid bodies: integration, the broad and narrow phase of their contacts, and the
particles' positional contacts with static bodies.

DESIGN. Bodies are Verlet like the particles (velocity = last substep's move),
so a body, a particle and a soft body's outline meet in one set of contact rows.
Those rows are solved by ``rigid_solver`` the way Box2D v3 solves contacts —
warm-started normal and friction impulses, a solve from where the substep
began, a relax to where it ends, restitution after the frame's last substep,
then a position pass (``separate``) that takes overlaps out without making
velocity — and the joints by ``joints`` in Project, before the contacts.
Particles that meet a *static* body are pushed out of it in position, exactly,
as out of a level polygon (``particles_on_static``). Contact geometry is found
from the poses at the start of the substep (or, for slow pairs, once a frame),
with a speculative margin of the distance the bodies can close — so a fast body
meets a thin segment instead of passing it (continuous collision without a time
of impact) — and a resting pair keeps last frame's contacts (``_keep``).

Contacts are rows of ``ci`` (int: body a, body b or -1, particle b or -1;
both -1: the static world) and ``cf`` (float, ``CF`` columns below). The
normal points from a to b; anchors are in a's body coordinates, b's body
coordinates, as an offset from particle b's centre, or world coordinates.
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
    LAX,
    LAY,
    LBX,
    LBY,
    LMAX,
    LN,
    LNX,
    LNY,
    LT,
    MU,
    NX,
    NY,
    RAX,
    RAY,
    RBX,
    RBY,
    RPA,
    RPX,
    RPY,
    UN0,
    E,
    T,
)
from .contacts import resolve_static
from .manifold import (
    collide_convex,
    collide_convex_in,
    halfplane_convex_in,
    to_world_point,
)
from .rigid_solver import turn_trig
from .rows import copy_rows

#: A body is fast when its substep's motion passes this fraction of its thinnest piece's
#: half thickness (``inner_radius``): then ``kernels.continuous`` sweeps it against static
#: geometry, and the contacts' speculative margin with static shapes stops there (a
#: margin of a fast body's whole motion meets shapes far off its path, and deflects it).
FAST = 0.5

@njit(cache=True, _nrt=False)
def integrate_bodies(n, pos, prev, angle, prev_angle, force, w, gx, gy, damp, h):
    """Verlet-advance every moving body one substep under gravity and its force."""
    h2 = h * h
    for i in range(n):
        if w[i] == 0.0:  # static: at rest where it was put
            prev[i, 0], prev[i, 1], prev_angle[i] = pos[i, 0], pos[i, 1], angle[i]
            continue
        for k in range(2):
            g = gx if k == 0 else gy
            step = (pos[i, k] - prev[i, k]) * damp + (g + force[i, k] * w[i]) * h2
            prev[i, k] = pos[i, k]
            pos[i, k] += step
        turn = (angle[i] - prev_angle[i]) * damp
        prev_angle[i] = angle[i]
        angle[i] += turn


@njit(cache=True, _nrt=False)
def _filters(ga, la, ma, gb, lb, mb):
    """Whether two things collide: groups differ (or are 0) and each mask holds the other."""
    if ga != 0 and ga == gb:
        return False
    return (ma & lb) != 0 and (mb & la) != 0


@njit(cache=True, _nrt=False)
def body_pairs(n, pos, prev, extent, w, group, layer, mask, margin, frames, out, order,
               swept):
    """Pairs of bodies whose swept bounding boxes overlap (sweep and prune along x).

    Returns the number of pairs; only the first ``len(out)`` are written (the
    caller grows ``out`` and calls again when there were more). ``order`` (at least
    ``n + 1`` rows, kept from call to call: ``ContactGraph.sap``) holds the bodies in
    the order of their boxes' low x as the last call left them, and its last row the
    count it was made for; bodies move little between frames, so sorting it again
    takes about one pass (``_sort_boxes``) where a fresh sort took ~1 µs and four
    arrays for 30 bodies. Ties go by row, so the order, and the pairs, are those of a
    stable sort of the rows 0..n, whatever order the last call left. ``swept`` (at least
    ``n`` rows of 4: scratch) gets each body's swept box in that order, low x, high x, low
    y, high y, made once: the sweep then reads them in a row (a hanging chain's 465 box
    tests were ~11 ns each, each box made again at each).
    """
    _sort_boxes(n, pos, prev, extent, margin, frames, order)
    for oi in range(n):
        i = order[oi]
        g = _grow(i, pos, prev, extent, margin, frames)
        swept[oi, 0], swept[oi, 1] = prev[i, 0] - g, prev[i, 0] + g
        swept[oi, 2], swept[oi, 3] = prev[i, 1] - g, prev[i, 1] + g
    count = 0
    for oi in range(n):
        i = order[oi]
        hix, ylo_i, yhi_i = swept[oi, 1], swept[oi, 2], swept[oi, 3]
        for oj in range(oi + 1, n):
            if swept[oj, 0] > hix:
                break
            if swept[oj, 2] > yhi_i or swept[oj, 3] < ylo_i:
                continue
            j = order[oj]
            if w[i] == 0.0 and w[j] == 0.0:
                continue
            if not _filters(group[i], layer[i], mask[i], group[j], layer[j], mask[j]):
                continue
            if count < len(out):
                out[count, 0], out[count, 1] = min(i, j), max(i, j)
            count += 1
    return count


@njit(cache=True, _nrt=False)
def _grow(i, pos, prev, extent, margin, frames):
    """How far body ``i``'s box reaches from its centre: its extent, the margin and as far
    as it may move in ``frames`` substeps at its speed (px)."""
    return extent[i] + margin + (abs(pos[i, 0] - prev[i, 0])
                                 + abs(pos[i, 1] - prev[i, 1])) * frames


@njit(cache=True, _nrt=False)
def _low(i, pos, prev, extent, margin, frames):
    """The low x of body ``i``'s swept box (px): what the broad phase sorts by."""
    return prev[i, 0] - _grow(i, pos, prev, extent, margin, frames)


@njit(cache=True, _nrt=False)
def _before(i, j, lo_i, lo_j):
    """Whether body ``i`` (box low x ``lo_i``) goes before ``j``: by low x, a NaN after every
    number (numpy's order), then by row (a stable sort's order)."""
    if lo_i < lo_j:
        return True
    if lo_j < lo_i:
        return False
    nan_i, nan_j = lo_i != lo_i, lo_j != lo_j
    if nan_i != nan_j:
        return nan_j
    return i < j


@njit(cache=True, _nrt=False)
def _sort_boxes(n, pos, prev, extent, margin, frames, order):
    """``order[:n]`` sorted by ``_before``: by insertion from the last call's order
    (``order[-1]`` the count it was for: another count starts from the rows 0..n), or
    by heapsort once insertion has moved more than ``4 n + 64`` rows (bodies that swapped
    places far apart: a teleport, a new scene) — the same order either way."""
    if order[len(order) - 1] != n:
        for k in range(n):
            order[k] = k
        order[len(order) - 1] = n
    budget = 4 * n + 64
    for k in range(1, n):
        x = order[k]
        lo_x = _low(x, pos, prev, extent, margin, frames)
        q = k - 1
        while q >= 0:
            y = order[q]
            if not _before(x, y, lo_x, _low(y, pos, prev, extent, margin, frames)):
                break
            order[q + 1] = y
            q -= 1
        order[q + 1] = x
        budget -= k - 1 - q
        if budget < 0:
            _heapsort_boxes(n, pos, prev, extent, margin, frames, order)
            return


@njit(cache=True, _nrt=False)
def _heapsort_boxes(n, pos, prev, extent, margin, frames, order):
    """``order[:n]`` sorted by ``_before`` in place, in O(n log n) (keys are distinct: the
    row breaks ties, so any sort gives the same order)."""
    for start in range(n // 2 - 1, -1, -1):
        _sift(start, n, pos, prev, extent, margin, frames, order)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift(0, end, pos, prev, extent, margin, frames, order)


@njit(cache=True, _nrt=False)
def _sift(root, end, pos, prev, extent, margin, frames, order):
    """Move ``order[root]`` down the max-heap ``order[:end]`` (by ``_before``)."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        a = order[child]
        lo_a = _low(a, pos, prev, extent, margin, frames)
        if child + 1 < end:
            b = order[child + 1]
            lo_b = _low(b, pos, prev, extent, margin, frames)
            if _before(a, b, lo_a, lo_b):
                child, a, lo_a = child + 1, b, lo_b
        r = order[root]
        if not _before(r, a, _low(r, pos, prev, extent, margin, frames), lo_a):
            return
        order[root], order[child] = a, r
        root = child


@njit(cache=True, inline="always")
def _velocity(i, pos, prev, angle, prev_angle, px, py, h):
    """Velocity (px/s) of the world point ``p`` riding on body ``i``."""
    om = (angle[i] - prev_angle[i]) / h
    rx, ry = px - pos[i, 0], py - pos[i, 1]
    return (pos[i, 0] - prev[i, 0]) / h - om * ry, (pos[i, 1] - prev[i, 1]) / h + om * rx


@njit(cache=True, inline="always")
def _add(ci, cf, k, a, b, p, nx, ny, jax, jay, jbx, jby, turn_a, turn_b, rbx, rby, mu, e,
         un0):
    """Write contact ``k``: arms ``ja``/``jb`` (world, now; ``jb`` 0 unless b is a body);
    ``turn_a``/``turn_b``: how far the bodies turned since ``angle0`` (anchors are kept
    in that orientation); ``rb``: b's anchor (arm, particle offset or world point)."""
    ci[k, 0], ci[k, 1], ci[k, 2], ci[k, 3] = a, b, p, -1
    rax, ray = jax, jay
    if turn_a != 0.0:  # found at the frame's first substep, nothing has turned yet
        c, s = turn_trig(turn_a)
        rax, ray = c * jax + s * jay, -s * jax + c * jay
    cf[k, NX], cf[k, NY], cf[k, RAX], cf[k, RAY] = nx, ny, rax, ray
    cf[k, JAX], cf[k, JAY], cf[k, JBX], cf[k, JBY] = jax, jay, jbx, jby
    if b >= 0 and turn_b != 0.0:
        c, s = turn_trig(turn_b)
        rbx, rby = c * rbx + s * rby, -s * rbx + c * rby
    cf[k, RBX], cf[k, RBY], cf[k, MU], cf[k, E] = rbx, rby, mu, e
    cf[k, LN], cf[k, LT], cf[k, UN0], cf[k, LMAX] = 0.0, 0.0, un0, 0.0


@njit(cache=True)
def _mix(mu_a, mu_b, e_a, e_b):
    """Friction and restitution of a contact: geometric mean and the larger (Box2D's)."""
    return math.sqrt(mu_a * mu_b), max(e_a, e_b)


@njit(cache=True, _nrt=False)
def inner_radius(i, piece_off, vert_off, verts, radius):
    """px: half the thickness of body ``i``'s thinnest piece (a circle: its radius; a
    polygon: its radius plus the least distance from its vertices' mean to an edge)."""
    best = np.inf
    for p in range(piece_off[i], piece_off[i + 1]):
        v0, v1 = vert_off[p], vert_off[p + 1]
        k = v1 - v0
        inner = 0.0
        if k >= 3:
            cx, cy = 0.0, 0.0
            for v in range(v0, v1):
                cx += verts[v, 0] / k
                cy += verts[v, 1] / k
            inner = np.inf
            for e in range(k):
                a, b = v0 + e, v0 + (e + 1) % k
                ex, ey = verts[b, 0] - verts[a, 0], verts[b, 1] - verts[a, 1]
                ln = math.sqrt(ex * ex + ey * ey)
                if ln > 0.0:
                    inner = min(inner, abs((cx - verts[a, 0]) * ey - (cy - verts[a, 1]) * ex)
                                / ln)
            if inner == np.inf:
                inner = 0.0
        best = min(best, inner + radius[p])
    return best


@njit(cache=True, _nrt=False)
def inner_radii(n, piece_off, vert_off, verts, radius, out):
    """``inner_radius`` of bodies ``0..n`` into ``out`` (the store keeps them with the
    pieces: ``Store.body_inner``; the look and the sweep read them every frame)."""
    for i in range(n):
        out[i] = inner_radius(i, piece_off, vert_off, verts, radius)


@njit(cache=True, _nrt=False)
def body_contacts(pairs, npairs, pos, prev, angle, prev_angle, w, extent, friction,
                  restitution, piece_off, vert_off, verts, radius, slop, h, frames, linked,
                  angle0, ci, cf, count, oci, ocf, otable, still, boxes, trig, inner, out, wa,
                  wb, na, nb):
    """Contacts of the body ``pairs``, from their poses at the start of the substep, with a
    speculative margin of how far they close in ``frames`` substeps at this speed.

    ``linked``: sorted keys ``a · 2³² + b`` (a < b) of bodies joined by a joint, which
    do not collide with each other (Box2D's default).

    A pair whose relative pose moved less than ``still`` px (its farthest point) since
    its contacts of last frame were found (``oci``/``ocf``, by pair in ``otable``,
    see ``pair_index``) keeps them — the anchors, the normal
    and the impulses — with no narrow phase: a resting stack costs little. ``still``
    0: always find them anew.

    ``inner``: each body's ``inner_radius`` (``inner_radii``, kept with its pieces).

    Appends from row ``count`` on; returns the new count (may exceed ``len(ci)``:
    then the caller grows the arrays and calls again). ``out`` (2 rows of 7) to ``nb``: the
    narrow phase's room (``manifold.collide_convex_in``; the sizes ``rigid_find.
    contact_rows`` says): nothing is made, so no reference is counted.
    """
    for q in range(npairs):
        a, b = pairs[q, 0], pairs[q, 1]
        if len(linked):
            key = a * 4294967296 + b
            at = np.searchsorted(linked, key)
            if at < len(linked) and linked[at] == key:
                continue
        xa, ya, aa = prev[a, 0], prev[a, 1], prev_angle[a]
        xb, yb, ab = prev[b, 0], prev[b, 1], prev_angle[b]
        # how far the two can close in one substep: the speculative margin
        dvx = (pos[b, 0] - xb) - (pos[a, 0] - xa)
        dvy = (pos[b, 1] - yb) - (pos[a, 1] - ya)
        reach = math.sqrt(dvx * dvx + dvy * dvy)
        if (w[a] == 0.0) != (w[b] == 0.0):  # against static: continuous collision does more
            reach = min(reach, FAST * inner[b if w[a] == 0.0 else a])
        margin = slop + reach * frames
        # bounding circles first: the sweep's boxes also pair diagonal neighbours
        gx, gy = xb - xa, yb - ya
        far = extent[a] + extent[b] + margin
        if gx * gx + gy * gy > far * far:
            continue
        # then the shapes' own boxes (a row of crates a hair apart need no narrow phase)
        if (boxes[a, 0] - margin > boxes[b, 2] or boxes[b, 0] - margin > boxes[a, 2]
                or boxes[a, 1] - margin > boxes[b, 3] or boxes[b, 1] - margin > boxes[a, 3]):
            continue
        ca, sa, cb, sb = trig[a, 0], trig[a, 1], trig[b, 0], trig[b, 1]
        # where b is in a's coordinates (what a kept contact must still match)
        rx, ry, rth = ca * gx + sa * gy, -sa * gx + ca * gy, ab - aa
        first = count
        mu, e = _mix(friction[a], friction[b], restitution[a], restitution[b])
        if still > 0.0:
            count = _keep(a, b, rx, ry, rth, still / max(extent[a], extent[b], 1e-9), still,
                          pos, prev, angle, prev_angle, angle0, h, ci, cf, count, oci, ocf,
                          otable, ca, sa, cb, sb)
            if count > first:
                for k in range(first, min(count, len(ci))):  # friction written since: now
                    cf[k, MU], cf[k, E] = mu, e
                continue
        for pa in range(piece_off[a], piece_off[a + 1]):
            va = verts[vert_off[pa]: vert_off[pa + 1]]
            for pb in range(piece_off[b], piece_off[b + 1]):
                vb = verts[vert_off[pb]: vert_off[pb + 1]]
                m = collide_convex_in(va, len(va), radius[pa], xa, ya, ca, sa, vb, len(vb),
                                      radius[pb], xb, yb, cb, sb, margin, out, wa, wb, na, nb)
                for j in range(m):
                    if count < len(ci):
                        nx, ny = out[j, 0], out[j, 1]
                        rax, ray = out[j, 2] - xa, out[j, 3] - ya
                        rbx, rby = out[j, 4] - xb, out[j, 5] - yb
                        vax, vay = _velocity(a, pos, prev, angle, prev_angle,
                                             out[j, 2], out[j, 3], h)
                        vbx, vby = _velocity(b, pos, prev, angle, prev_angle,
                                             out[j, 4], out[j, 5], h)
                        un0 = (vbx - vax) * nx + (vby - vay) * ny
                        _add(ci, cf, count, a, b, -1, nx, ny, rax, ray, rbx, rby,
                             aa - angle0[a], ab - angle0[b], rbx, rby, mu, e, un0)
                        _local(cf, count, ca, sa, cb, sb, nx, ny, rax, ray, rbx, rby, rx, ry,
                               rth)
                    count += 1
    return count


@njit(cache=True, _nrt=False)
def split_spinning(n, angle, prev_angle, extent, frames, spin, pairs, npairs, fast, out):
    """Flag the bodies whose farthest point sweeps more than ``spin`` px in a frame by
    turning (``fast``), and order ``pairs[:npairs]`` into ``out``: the pairs of slow
    bodies first, then those with a fast one; returns how many pairs are slow and how
    many bodies fast."""
    nfast = 0
    for i in range(n):
        fast[i] = abs(angle[i] - prev_angle[i]) * frames * extent[i] > spin
        nfast += fast[i]
    slow = 0
    for q in range(npairs):
        if not (fast[pairs[q, 0]] or fast[pairs[q, 1]]):
            out[slow, 0], out[slow, 1] = pairs[q, 0], pairs[q, 1]
            slow += 1
    k = slow
    for q in range(npairs):
        if fast[pairs[q, 0]] or fast[pairs[q, 1]]:
            out[k, 0], out[k, 1] = pairs[q, 0], pairs[q, 1]
            k += 1
    return slow, nfast


@njit(cache=True, inline="always")
def _slot(a, b, mask):
    """Where pair ``(a, b)`` starts looking in a ``pair_index`` table (``mask`` = size − 1)."""
    return (a * 73856093 ^ b * 19349663) & mask


@njit(cache=True, _nrt=False)
def pair_index(oci, n, table):
    """Last frame's body–body contacts ``oci[:n]`` by pair (for ``_keep``): an open-
    addressing table of rows ``(a · 2³² + b, first row, count)`` (-1 keys: empty; its
    length a power of two above ``2n``). A pair's contacts are consecutive rows (they
    are found together); a pair whose rows are not gets count -1 (found anew)."""
    mask = len(table) - 1
    table[:, 0] = -1
    for k in range(n):
        a, b = oci[k, 0], oci[k, 1]
        if b < 0 or oci[k, 2] >= 0:
            continue
        key = a * 4294967296 + b
        at = _slot(a, b, mask)
        while table[at, 0] != -1 and table[at, 0] != key:
            at = (at + 1) & mask
        if table[at, 0] == -1:
            table[at, 0], table[at, 1], table[at, 2] = key, k, 1
        elif table[at, 2] >= 0 and table[at, 1] + table[at, 2] == k:
            table[at, 2] += 1
        else:
            table[at, 2] = -1


@njit(cache=True, _nrt=False)
def body_boxes(n, prev, prev_angle, piece_off, vert_off, verts, radius, out, trig):
    """Each body's bounding box ``(x0, y0, x1, y1)`` px where the substep started, and
    the cosine and sine of its angle then (``trig``: the pairs' narrow phase reads them,
    so no pair computes them again)."""
    for i in range(n):
        c, s = math.cos(prev_angle[i]), math.sin(prev_angle[i])
        trig[i, 0], trig[i, 1] = c, s
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = _body_box(i, prev[i, 0], prev[i, 1], c, s,
                                                               piece_off, vert_off, verts, radius)


@njit(cache=True, inline="always")
def _local(cf, k, ca, sa, cb, sb, nx, ny, rax, ray, rbx, rby, rx, ry, rth):
    """Keep contact ``k`` in its bodies' coordinates too (see ``body_contacts``)."""
    cf[k, LAX], cf[k, LAY] = ca * rax + sa * ray, -sa * rax + ca * ray
    cf[k, LBX], cf[k, LBY] = cb * rbx + sb * rby, -sb * rbx + cb * rby
    cf[k, LNX], cf[k, LNY] = ca * nx + sa * ny, -sa * nx + ca * ny
    cf[k, RPX], cf[k, RPY], cf[k, RPA] = rx, ry, rth


@njit(cache=True, inline="always")
def _keep(a, b, rx, ry, rth, turn_limit, still, pos, prev, angle, prev_angle, angle0, h, ci,
          cf, count, oci, ocf, otable, ca, sa, cb, sb):
    """Copy last frame's contacts of pair ``(a, b)`` if b has not moved relative to a
    (``ca, sa, cb, sb``: cosines and sines of their angles); returns the new count
    (unchanged if they cannot be kept)."""
    key, mask = a * 4294967296 + b, len(otable) - 1
    at = _slot(a, b, mask)
    while otable[at, 0] != -1 and otable[at, 0] != key:
        at = (at + 1) & mask
    first, found = otable[at, 1], otable[at, 2]
    if otable[at, 0] != key or found <= 0 or count + found > len(ci):
        return count
    for r in range(first, first + found):
        if (abs(ocf[r, RPX] - rx) + abs(ocf[r, RPY] - ry) > still
                or abs(ocf[r, RPA] - rth) > turn_limit):
            return count
    aa, ab = prev_angle[a], prev_angle[b]
    for r in range(first, first + found):
        nx = ca * ocf[r, LNX] - sa * ocf[r, LNY]
        ny = sa * ocf[r, LNX] + ca * ocf[r, LNY]
        rax = ca * ocf[r, LAX] - sa * ocf[r, LAY]
        ray = sa * ocf[r, LAX] + ca * ocf[r, LAY]
        rbx = cb * ocf[r, LBX] - sb * ocf[r, LBY]
        rby = sb * ocf[r, LBX] + cb * ocf[r, LBY]
        xa, ya, xb, yb = prev[a, 0], prev[a, 1], prev[b, 0], prev[b, 1]
        vax, vay = _velocity(a, pos, prev, angle, prev_angle, xa + rax, ya + ray, h)
        vbx, vby = _velocity(b, pos, prev, angle, prev_angle, xb + rbx, yb + rby, h)
        un0 = (vbx - vax) * nx + (vby - vay) * ny
        _add(ci, cf, count, a, b, -1, nx, ny, rax, ray, rbx, rby, aa - angle0[a],
             ab - angle0[b], rbx, rby, ocf[r, MU], ocf[r, E], un0)
        for col in range(LAX, RPA + 1):
            cf[count, col] = ocf[r, col]
        cf[count, LN], cf[count, LT] = ocf[r, LN], ocf[r, LT]
        ci[count, 3] = -2  # kept: it has its impulses (no warm-start lookup)
        count += 1
    return count


@njit(cache=True)
def _static_contact(ci, cf, count, i, out, m, flip, xa, ya, aa, mu, e, pos, prev, angle,
                    prev_angle, h, turn):
    """Append ``m`` contacts of body ``i`` with the static world from ``out``.

    ``flip``: the world was shape A (so the normal and the points are swapped).
    """
    for j in range(m):
        if count < len(ci):
            nx, ny = out[j, 0], out[j, 1]
            qa, qb = 2, 4
            if flip:
                nx, ny, qa, qb = -nx, -ny, 4, 2
            rax, ray = out[j, qa] - xa, out[j, qa + 1] - ya
            vax, vay = _velocity(i, pos, prev, angle, prev_angle, out[j, qa],
                                 out[j, qa + 1], h)
            un0 = -(vax * nx + vay * ny)
            _add(ci, cf, count, i, -1, -1, nx, ny, rax, ray, 0.0, 0.0, turn, 0.0, out[j, qb],
                 out[j, qb + 1], mu, e, un0)
        count += 1
    return count


@njit(cache=True, _nrt=False)
def world_contacts(n, pos, prev, angle, prev_angle, w, extent, friction, restitution,
                   piece_off, vert_off, verts, radius, segs, seg_friction, bounds, use_bounds,
                   slop, h, frames, which, want, angle0, ci, cf, count, surf, layers, mask,
                   inner, out, seg, wa, wb, na, nb):
    """Contacts of every moving body with the level's segments and the world's bounds.

    ``segs`` (s, 4): x1, y1, x2, y2 px; ``bounds``: x0, y0, x1, y1 px; the bodies
    looked at are those whose flag in ``which`` is ``want``; ``seg_friction`` mixes with a
    segment that gives no friction of its own (``surf``, ``layers``, ``mask``: the
    segments' surfaces, as ``contacts.surface`` says). ``out`` to ``nb``: the narrow
    phase's room, as ``body_contacts`` takes it (``seg``: 2 rows of 2).
    """
    for i in range(n):
        if w[i] == 0.0 or which[i] != want:
            continue
        xa, ya, aa = prev[i, 0], prev[i, 1], prev_angle[i]
        turn = aa - angle0[i]
        vx, vy = pos[i, 0] - xa, pos[i, 1] - ya
        motion = math.sqrt(vx * vx + vy * vy) + extent[i] * abs(angle[i] - aa)
        # faster than this, continuous collision (``kernels.continuous``) takes over: a
        # margin of the whole frame's motion would meet shapes far off its path
        motion = min(motion, FAST * inner[i])  # ``inner_radius``, kept per body
        margin = slop + motion * frames
        reach = extent[i] + margin
        ca, sa = math.cos(aa), math.sin(aa)
        mu_w, e_w = _mix(friction[i], seg_friction, restitution[i], 0.0)
        for p in range(piece_off[i], piece_off[i + 1]):
            va = verts[vert_off[p]: vert_off[p + 1]]
            for s in range(len(segs)):
                mu_s, e_s = mu_w, e_w
                if s < len(layers):
                    if mask[i] & layers[s] == 0:
                        continue
                    if not math.isnan(surf[s, 0]):
                        mu_s = math.sqrt(friction[i] * surf[s, 0])
                    if not math.isnan(surf[s, 1]):
                        e_s = max(restitution[i], surf[s, 1])
                x1, y1, x2, y2 = segs[s, 0], segs[s, 1], segs[s, 2], segs[s, 3]
                if (min(x1, x2) > xa + reach or max(x1, x2) < xa - reach
                        or min(y1, y2) > ya + reach or max(y1, y2) < ya - reach):
                    continue
                seg[0, 0], seg[0, 1], seg[1, 0], seg[1, 1] = x1, y1, x2, y2
                m = collide_convex_in(va, len(va), radius[p], xa, ya, ca, sa, seg, 2, 0.0,
                                      0.0, 0.0, 1.0, 0.0, margin, out, wa, wb, na, nb)
                count = _static_contact(ci, cf, count, i, out, m, False, xa, ya, aa, mu_s,
                                        e_s, pos, prev, angle, prev_angle, h, turn)
            if not use_bounds:
                continue
            for wall in range(4):
                nx, ny, d = 0.0, 1.0, bounds[1]
                if wall == 1:
                    nx, ny, d = 0.0, -1.0, -bounds[3]
                elif wall == 2:
                    nx, ny, d = 1.0, 0.0, bounds[0]
                elif wall == 3:
                    nx, ny, d = -1.0, 0.0, -bounds[2]
                m = halfplane_convex_in(va, len(va), radius[p], xa, ya, ca, sa, nx, ny, d,
                                        margin, out, wa)
                count = _static_contact(ci, cf, count, i, out, m, True, xa, ya, aa, mu_w,
                                        e_w, pos, prev, angle, prev_angle, h, turn)
    return count


@njit(cache=True, inline="always")
def _cells_near(x, y, r, x0, y0, cell, gnx, gny):
    """The particle grid's cell range ``(cx0, cx1, cy0, cy1)`` within ``r`` px of ``(x, y)``."""
    cx0 = max(0, int((x - r - x0) / cell))
    cx1 = min(gnx - 1, int((x + r - x0) / cell))
    cy0 = max(0, int((y - r - y0) / cell))
    cy1 = min(gny - 1, int((y + r - y0) / cell))
    return cx0, cx1, cy0, cy1


@njit(cache=True)
def particle_contacts(n, pos, prev, angle, prev_angle, w, extent, group, layer, mask,
                      friction, restitution, piece_off, vert_off, verts, radius, ppos, pprev,
                      pw, pradius, pgroup, player, pmask, pfriction, prestitution, onext, x0,
                      y0, cell, gnx, gny, start, items, slop, h, angle0, linked, ci, cf, count):
    """Contacts of bodies with the particles near them (found through the particles' grid),
    from where both were at the start of the substep, with a speculative margin.

    A particle on a soft body's outline (``onext[p]``: the next particle along it, else
    -1) stands for the outline's edge to the next one, a capsule — so a crate's corner
    cannot slip between two particles of a jelly ball into it.
    """
    out = np.empty((2, 7))
    shape = np.zeros((2, 2))
    for i in range(n):
        xa, ya, aa = prev[i, 0], prev[i, 1], prev_angle[i]
        ca, sa = math.cos(aa), math.sin(aa)
        move = abs(pos[i, 0] - xa) + abs(pos[i, 1] - ya) + extent[i] * abs(angle[i] - aa)
        # a particle's radius is at most one cell and it moves less than one a substep
        cx0, cx1, cy0, cy1 = _cells_near(xa, ya, extent[i] + 2.0 * cell + move, x0, y0, cell,
                                         gnx, gny)
        for gy in range(cy0, cy1 + 1):
            for gx in range(cx0, cx1 + 1):
                g = gy * gnx + gx
                for s in range(start[g], start[g + 1]):
                    p = items[s]
                    nxt = onext[p]
                    if w[i] == 0.0:  # static bodies: particles_on_static
                        continue
                    if _linked(linked, i, p) or (nxt >= 0 and _linked(linked, i, nxt)):
                        continue  # a particle on a joint to this body does not hit it
                    if not _filters(group[i], layer[i], mask[i], pgroup[p], player[p],
                                    pmask[p]):
                        continue
                    px, py = pprev[p, 0], pprev[p, 1]
                    ux, uy = ppos[p, 0] - px, ppos[p, 1] - py
                    rp, k = pradius[p], 1
                    shape[0, 0], shape[0, 1] = px, py
                    if nxt >= 0:  # the edge to the next particle of the outline
                        shape[1, 0], shape[1, 1] = pprev[nxt, 0], pprev[nxt, 1]
                        ux = max(abs(ux), abs(ppos[nxt, 0] - pprev[nxt, 0]))
                        uy = max(abs(uy), abs(ppos[nxt, 1] - pprev[nxt, 1]))
                        rp, k = 0.5 * (rp + pradius[nxt]), 2
                    margin = slop + move + abs(ux) + abs(uy)
                    dx, dy = px - xa, py - ya
                    reach = extent[i] + rp + margin + (cell if k == 2 else 0.0)
                    if dx * dx + dy * dy > reach * reach:
                        continue
                    mu, e = _mix(friction[i], pfriction[p], restitution[i], prestitution[p])
                    for q in range(piece_off[i], piece_off[i + 1]):
                        va = verts[vert_off[q]: vert_off[q + 1]]
                        m = collide_convex(va, len(va), radius[q], xa, ya, ca, sa, shape, k,
                                           rp, 0.0, 0.0, 1.0, 0.0, margin, out)
                        for j in range(m):
                            if count < len(ci):
                                count = _particle_contact(ci, cf, count, i, p, nxt, out, j, xa,
                                                          ya, aa - angle0[i], rp, pos, prev,
                                                          angle, prev_angle, ppos, pprev, mu,
                                                          e, h)
                            else:
                                count += 1
    return count


@njit(cache=True)
def _particle_contact(ci, cf, count, i, p, nxt, out, j, xa, ya, turn, rp, pos, prev, angle,
                      prev_angle, ppos, pprev, mu, e, h):
    """Append contact ``j`` of ``out`` between body ``i`` and particle ``p`` (or the edge
    ``p``–``nxt``: where along it, ``t``, is kept with the contact)."""
    nx, ny = out[j, 0], out[j, 1]
    t = 0.0
    ex, ey = pprev[p, 0], pprev[p, 1]
    if nxt >= 0:
        cx, cy = out[j, 4] + rp * nx, out[j, 5] + rp * ny  # the point on the edge's core
        sx, sy = pprev[nxt, 0] - pprev[p, 0], pprev[nxt, 1] - pprev[p, 1]
        ln2 = sx * sx + sy * sy
        if ln2 > 0.0:
            t = min(1.0, max(0.0, ((cx - ex) * sx + (cy - ey) * sy) / ln2))
        ex, ey = ex + t * sx, ey + t * sy
    vpx = (ppos[p, 0] - pprev[p, 0]) / h
    vpy = (ppos[p, 1] - pprev[p, 1]) / h
    if nxt >= 0:
        vpx = (1.0 - t) * vpx + t * (ppos[nxt, 0] - pprev[nxt, 0]) / h
        vpy = (1.0 - t) * vpy + t * (ppos[nxt, 1] - pprev[nxt, 1]) / h
    vax, vay = _velocity(i, pos, prev, angle, prev_angle, out[j, 2], out[j, 3], h)
    un0 = (vpx - vax) * nx + (vpy - vay) * ny
    _add(ci, cf, count, i, -1, p, nx, ny, out[j, 2] - xa, out[j, 3] - ya, 0.0, 0.0, turn, 0.0,
         out[j, 4] - ex, out[j, 5] - ey, mu, e, un0)
    ci[count, 3] = nxt
    cf[count, T] = t
    return count + 1


@njit(cache=True)
def _linked(linked, body, particle):
    """Whether ``(body, particle)`` is in the sorted keys ``linked`` (joined by a joint)."""
    if len(linked) == 0:
        return False
    key = body * 4294967296 + particle
    at = np.searchsorted(linked, key)
    return at < len(linked) and linked[at] == key


@njit(cache=True)
def particles_on_static(n, pos, angle, w, extent, group, layer, mask, friction, restitution,
                        piece_off, vert_off, verts, radius, ppos, pprev, pw, pradius, pgroup,
                        player, pmask, pfriction, prestitution, x0, y0, cell, gnx, gny, start,
                        items, vmin, push, hold):
    """Push particles out of the static (anchored) bodies they overlap, exactly, the way
    the level's polygons do (``contacts.resolve_static``): a static body is level
    geometry that a game can move, and a particle never sinks into it.

    A particle clear of a body's box (its pieces' corners, rounded, now) by more than
    ``BOX_CLEAR`` px is passed over without the exact test, which would find no overlap
    there (a ground box's discs above its first layer: most of a pile)."""
    out = np.empty((2, 7))
    circle = np.zeros((1, 2))
    room = max(1, len(verts))  # the exact test's scratch (``collide_convex_in``), made once
    wa, na, wb, nb = np.empty((room, 2)), np.empty((room, 3)), np.empty((1, 2)), np.empty((1, 3))
    for i in range(n):
        if w[i] != 0.0:
            continue
        xa, ya, aa = pos[i, 0], pos[i, 1], angle[i]
        ca, sa = math.cos(aa), math.sin(aa)
        bx0, by0, bx1, by1 = _body_box(i, xa, ya, ca, sa, piece_off, vert_off, verts, radius)
        cx0, cx1, cy0, cy1 = _cells_near(xa, ya, extent[i] + 2.0 * cell, x0, y0, cell, gnx,
                                         gny)
        for gy in range(cy0, cy1 + 1):
            for gx in range(cx0, cx1 + 1):
                g = gy * gnx + gx
                for s in range(start[g], start[g + 1]):
                    p = items[s]
                    if pw[p] == 0.0 or not _filters(group[i], layer[i], mask[i], pgroup[p],
                                                    player[p], pmask[p]):
                        continue
                    px, py, pr = ppos[p, 0], ppos[p, 1], pradius[p] + BOX_CLEAR
                    if px + pr < bx0 or px - pr > bx1 or py + pr < by0 or py - pr > by1:
                        continue
                    mu, e = _mix(friction[i], pfriction[p], restitution[i], prestitution[p])
                    for q in range(piece_off[i], piece_off[i + 1]):
                        va = verts[vert_off[q]: vert_off[q + 1]]
                        m = collide_convex_in(va, len(va), radius[q], xa, ya, ca, sa, circle, 1,
                                              pradius[p], px, py, 1.0, 0.0, 0.0, out, wa, wb,
                                              na, nb)
                        if m and out[0, 6] < 0.0:
                            resolve_static(p, out[0, 0], out[0, 1], -out[0, 6], ppos, pprev,
                                           mu, e, vmin, push, hold)
                            px, py = ppos[p, 0], ppos[p, 1]  # (the next piece meets it here)


#: px: how far past a static body's box a particle is still given the exact test (the box
#: is worked out apart from the test's own arithmetic: a margin for its rounding).
BOX_CLEAR = 1.0


@njit(cache=True, _nrt=False)
def _body_box(i, x, y, c, s, piece_off, vert_off, verts, radius):
    """Body ``i``'s box ``(x0, y0, x1, y1)`` px at pose ``(x, y)`` turned by ``(c, s)``: its
    pieces' vertices, each grown by its piece's radius."""
    x0 = y0 = np.inf
    x1 = y1 = -np.inf
    for q in range(piece_off[i], piece_off[i + 1]):
        r = radius[q]
        for v in range(vert_off[q], vert_off[q + 1]):
            vx, vy = to_world_point(x, y, c, s, verts, v)
            x0, y0 = min(x0, vx - r), min(y0, vy - r)
            x1, y1 = max(x1, vx + r), max(y1, vy + r)
    return x0, y0, x1, y1


@njit(cache=True)
def static_edges(n, pos, angle, w, piece_off, vert_off, verts, out):
    """The edges ``(x1, y1, x2, y2)`` px of every static body's polygon pieces now, for the
    particles' swept test against level segments (``contacts.collide_segments``): a fast
    particle meets a static crate as it meets the level. Returns how many (writes up
    to ``len(out)``)."""
    count = 0
    for i in range(n):
        if w[i] != 0.0:
            continue
        x, y, c, s = pos[i, 0], pos[i, 1], math.cos(angle[i]), math.sin(angle[i])
        for q in range(piece_off[i], piece_off[i + 1]):
            v0, v1 = vert_off[q], vert_off[q + 1]
            k = v1 - v0
            if k < 2:
                continue  # circles: their contact pass holds them
            for e in range(k):
                f = v0 + (e + 1) % k
                if count < len(out):
                    out[count, 0], out[count, 1] = to_world_point(x, y, c, s, verts, v0 + e)
                    out[count, 2], out[count, 3] = to_world_point(x, y, c, s, verts, f)
                count += 1
    return count


@njit(cache=True)
def with_static_edges(level, n, pos, angle, w, piece_off, vert_off, verts):
    """The ``level``'s segments ((k, 4) px), then the edges of the static bodies among the
    ``n`` (``w`` 0: ``static_edges``) where they are now: what particles are swept against
    (``contacts.collide_segments``); ``level`` itself when none has an edge."""
    k = len(level)  # the edges written after the level's segments (no stacking after)
    out = np.empty((k + max(8, 2 * len(verts)), 4))
    copy_rows(level, out, k)  # (not a slice copy: numba's links its shape error's text)
    count = static_edges(n, pos, angle, w, piece_off, vert_off, verts, out[k:])
    return out[: k + min(count, len(out) - k)] if count else level


@njit(cache=True)
def static_corners(n, pos, angle, w, friction, restitution, piece_off, vert_off, verts, radius,
                   out):
    """The vertices of every static body's pieces now, as ``(x, y, radius, friction,
    restitution)`` rows of ``out`` (a circle is its centre and radius), and each one's body
    row in column 5: what soft-body outlines keep off (``outlines.collide_corners``).
    Returns how many (writes up to ``len(out)``)."""
    count = 0
    for i in range(n):
        if w[i] != 0.0:
            continue
        x, y, c, s = pos[i, 0], pos[i, 1], math.cos(angle[i]), math.sin(angle[i])
        for q in range(piece_off[i], piece_off[i + 1]):
            for v in range(vert_off[q], vert_off[q + 1]):
                if count < len(out):
                    out[count, 0], out[count, 1] = to_world_point(x, y, c, s, verts, v)
                    out[count, 2] = radius[q]
                    out[count, 3], out[count, 4] = friction[i], restitution[i]
                    out[count, 5] = i
                count += 1
    return count


@njit(cache=True)
def pull_body(i, pos, angle, w, iw, lx, ly, tx, ty, pull):
    """Move body ``i``'s point ``(lx, ly)`` (body coordinates) ``pull`` of the way to
    ``(tx, ty)`` (px), by a positional impulse at that point: off-centre, it turns too."""
    if w[i] == 0.0:
        return
    c, s = math.cos(angle[i]), math.sin(angle[i])
    rx, ry = c * lx - s * ly, s * lx + c * ly
    dx, dy = tx - (pos[i, 0] + rx), ty - (pos[i, 1] + ry)
    gap = math.sqrt(dx * dx + dy * dy)
    if gap < 1e-12:
        return
    nx, ny = dx / gap, dy / gap
    t = rx * ny - ry * nx
    lam = pull * gap / (w[i] + iw[i] * t * t)
    pos[i, 0] += w[i] * lam * nx
    pos[i, 1] += w[i] * lam * ny
    angle[i] += iw[i] * (rx * lam * ny - ry * lam * nx)
