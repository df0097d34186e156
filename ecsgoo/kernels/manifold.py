"""Narrow phase for rigid bodies: contact points between rounded convex polygons.

A shape is a convex core, ``verts`` (k, 2) in local px, counter-clockwise, 1 ≤ k ≤ 8,
grown by a radius ``r ≥ 0``: k = 1 is a circle, k = 2 a capsule (or, with r = 0, a
thin segment), k ≥ 3 a polygon. A pose ``(x, y, c, s)`` maps local to world as
``(x, y) + R · local`` with ``R = [[c, -s], [s, c]]``.

A contact here is only geometry (the solver, ``rigid_solver``, adds the impulses): up
to two points, each
``out[j] = (nx, ny, pax, pay, pbx, pby, sep)`` with the unit normal ``n`` from A to B
(the same for both points), ``pa`` on A's rounded surface, ``pb`` on B's, and
``sep = (pb − pa)·n``: negative is depth, positive a gap. Only points with
``sep < margin`` are reported (``margin`` is the speculative distance), so a
resting contact is seen a little before it touches.

Polygons follow Box2D v3's ``b2CollidePolygons``: the separating-axis test over
both shapes' edge normals picks the reference face, the other shape's edge most
against it is clipped to the face's side planes, which gives a resting box its
two points. Only when the cores are apart and the closest features are two
corners (a gap along no face normal, which SAT would underestimate) is the
contact one point along the true closest direction. Circles take the closest
point of the other core, or leave a polygon through its nearest face.

Swapping A and B gives the same points with ``n`` negated and ``pa``, ``pb``
swapped: every choice (reference face, ties) depends on the pair, not on the
order. Degenerate input stays finite: coincident centres take ``n = (0, 1)``,
zero-length edges are skipped, no division is by zero.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

EPS = 1e-9  # px: shorter edges count as points, closer centres as coincident
TOL = 1e-10  # px: what counts as a tie between separations (rounding, not geometry)


@njit(cache=True, inline="always")
def to_world_point(x, y, c, s, v, i):
    """World coordinates (px) of local vertex ``v[i]`` of a body at ``(x, y)`` turned by
    ``(c, s)``, the cosine and sine of its angle."""
    return x + c * v[i, 0] - s * v[i, 1], y + s * v[i, 0] + c * v[i, 1]


@njit(cache=True, _nrt=False)
def _to_world(v, k, x, y, c, s, w):
    """World coordinates of the first ``k`` local vertices, into ``w``'s first rows."""
    for i in range(k):
        w[i, 0], w[i, 1] = to_world_point(x, y, c, s, v, i)


@njit(cache=True, _nrt=False)
def _normals(w, k, nrm):
    """Outward unit normals of the edges ``i → i+1`` into ``nrm``'s first ``k`` rows
    (column 2: 1 if the edge has length, else the row is zeros).

    For CCW vertices the outward normal is the right perpendicular. A k = 2
    segment gets both sides this way: edge 0 runs v0 → v1, edge 1 back.
    """
    for i in range(k):
        j = (i + 1) % k
        ex, ey = w[j, 0] - w[i, 0], w[j, 1] - w[i, 1]
        ln = math.sqrt(ex * ex + ey * ey)
        if ln > EPS:
            nrm[i, 0], nrm[i, 1], nrm[i, 2] = ey / ln, -ex / ln, 1.0
        else:
            nrm[i, 0] = nrm[i, 1] = nrm[i, 2] = 0.0


@njit(cache=True)
def _has_edge(nrm, k):
    for i in range(k):
        if nrm[i, 2] > 0.0:
            return True
    return False


@njit(cache=True)
def _max_separation(w1, k1, n1, w2, k2):
    """Largest gap of core 2 in front of one of core 1's faces, and that face.

    ``min_j n_i·(w2_j − w1_i)`` per face: positive means the face separates.
    """
    best, edge = -np.inf, -1
    for i in range(k1):
        if n1[i, 2] == 0.0:
            continue
        sep = np.inf
        for j in range(k2):
            d = n1[i, 0] * (w2[j, 0] - w1[i, 0]) + n1[i, 1] * (w2[j, 1] - w1[i, 1])
            sep = min(sep, d)
        if sep > best:
            best, edge = sep, i
    return best, edge


@njit(cache=True)
def _point_segment(px, py, ax, ay, bx, by):
    """Closest point to ``p`` on segment ``a b`` (a point if ``a = b``) and its squared distance."""
    ex, ey = bx - ax, by - ay
    ee = ex * ex + ey * ey
    t = 0.0
    if ee > 0.0:
        t = min(1.0, max(0.0, ((px - ax) * ex + (py - ay) * ey) / ee))
    qx, qy = ax + t * ex, ay + t * ey
    return qx, qy, (px - qx) ** 2 + (py - qy) ** 2


@njit(cache=True)
def _closest(wa, ka, wb, kb):
    """Closest points ``p`` on core A's boundary and ``q`` on B's, by every vertex–edge pair.

    At most 2 · 8 · 8 point–segment distances: cheaper than GJK at these sizes and exact.
    """
    best, px, py, qx, qy = np.inf, 0.0, 0.0, 0.0, 0.0
    for i in range(ka):
        for j in range(kb):
            e = (j + 1) % kb
            x, y, d2 = _point_segment(wa[i, 0], wa[i, 1], wb[j, 0], wb[j, 1], wb[e, 0], wb[e, 1])
            if d2 < best:
                best, px, py, qx, qy = d2, wa[i, 0], wa[i, 1], x, y
    for j in range(kb):
        for i in range(ka):
            e = (i + 1) % ka
            x, y, d2 = _point_segment(wb[j, 0], wb[j, 1], wa[i, 0], wa[i, 1], wa[e, 0], wa[e, 1])
            if d2 < best:
                best, px, py, qx, qy = d2, x, y, wb[j, 0], wb[j, 1]
    return px, py, qx, qy, math.sqrt(best)


@njit(cache=True)
def _emit(out, m, flip, nx, ny, pax, pay, pbx, pby, sep):
    """Write point ``m`` (computed with the first shape as A); ``flip`` turns it back to B → A."""
    if flip:
        nx, ny, pax, pay, pbx, pby = -nx, -ny, pbx, pby, pax, pay
    out[m, 0], out[m, 1] = nx, ny
    out[m, 2], out[m, 3] = pax, pay
    out[m, 4], out[m, 5] = pbx, pby
    out[m, 6] = sep
    return m + 1


@njit(cache=True)
def _clip(wr, kr, nr, rr, face, wi, ki, ni, ri, margin, flip, out):
    """Points of the incident edge in front of reference face ``face`` (the reference is A).

    The incident edge is the other core's edge most against the face normal; it is
    cut to the face's side planes. ``pa`` is the point's foot on the face (clamped to
    it, so it stays on the surface), grown by the radii along ``n``.
    """
    v1x, v1y = wr[face, 0], wr[face, 1]
    f2 = (face + 1) % kr
    nx, ny = nr[face, 0], nr[face, 1]
    tx, ty = -ny, nx
    length = tx * (wr[f2, 0] - v1x) + ty * (wr[f2, 1] - v1y)
    inc, most = -1, np.inf
    for j in range(ki):
        if ni[j, 2] > 0.0:
            d = ni[j, 0] * nx + ni[j, 1] * ny
            if d < most:
                inc, most = j, d
    i2 = (inc + 1) % ki
    w1x, w1y, w2x, w2y = wi[inc, 0], wi[inc, 1], wi[i2, 0], wi[i2, 1]
    a1 = tx * (w1x - v1x) + ty * (w1y - v1y)
    da = tx * (w2x - v1x) + ty * (w2y - v1y) - a1
    # the part u in [lo, hi] of w1 + u (w2 − w1) whose foot lies on the face
    lo, hi = 0.0, 1.0
    if da > 0.0:
        lo, hi = max(lo, -a1 / da), min(hi, (length - a1) / da)
    elif da < 0.0:
        lo, hi = max(lo, (length - a1) / da), min(hi, -a1 / da)
    elif a1 < 0.0 or a1 > length:
        lo, hi = 1.0, 0.0
    if lo > hi:
        # wholly beside the face (thin or grazing shapes): keep the deeper end alone
        s1 = nx * (w1x - v1x) + ny * (w1y - v1y)
        s2 = nx * (w2x - v1x) + ny * (w2y - v1y)
        lo = hi = 0.0 if s1 <= s2 else 1.0
    ex, ey = w2x - w1x, w2y - w1y
    if (hi - lo) * math.sqrt(ex * ex + ey * ey) <= EPS:
        hi = lo  # one point, not two on top of each other
    m = 0
    for u in (lo, hi):
        qx, qy = w1x + u * ex, w1y + u * ey
        sep = nx * (qx - v1x) + ny * (qy - v1y) - rr - ri
        if sep < margin:
            a = min(length, max(0.0, tx * (qx - v1x) + ty * (qy - v1y)))
            pax, pay = v1x + a * tx + rr * nx, v1y + a * ty + rr * ny
            m = _emit(out, m, flip, nx, ny, pax, pay, qx - ri * nx, qy - ri * ny, sep)
        if hi == lo:
            break
    return m


@njit(cache=True)
def _a_leads(wa, ka, ra, wb, kb, rb):
    """Order-free tie-break: whether A, not B, gives the reference face when both could.

    Compares the shapes themselves (vertex count, then world vertices, then radius),
    so swapping the arguments picks the same body.
    """
    if ka != kb:
        return ka > kb
    for i in range(ka):
        for d in range(2):
            if wa[i, d] != wb[i, d]:
                return wa[i, d] < wb[i, d]
    return ra <= rb


@njit(cache=True)
def _polygons(wa, ka, na, ra, wb, kb, nb, rb, margin, out):
    """Both cores have edges: SAT, then corner–corner closest points or face clipping."""
    sep_a, face_a = _max_separation(wa, ka, na, wb, kb)
    sep_b, face_b = _max_separation(wb, kb, nb, wa, ka)
    s = max(sep_a, sep_b)
    if s - ra - rb >= margin:
        return 0  # every point of B is at least s beyond the face: nothing within margin
    if s > -EPS:
        # apart (or just touching): SAT only sees gaps along face normals; a corner–corner
        # gap is longer, and for rounded shapes that length is the contact
        px, py, qx, qy, d = _closest(wa, ka, wb, kb)
        if d > max(s, 0.0) + TOL:
            nx, ny = (qx - px) / d, (qy - py) / d
            sep = d - ra - rb
            if sep >= margin:
                return 0
            return _emit(out, 0, False, nx, ny, px + ra * nx, py + ra * ny,
                         qx - rb * nx, qy - rb * ny, sep)
    if sep_b > sep_a + TOL:
        flip = True
    elif sep_a > sep_b + TOL:
        flip = False
    else:
        flip = not _a_leads(wa, ka, ra, wb, kb, rb)
    if flip:
        return _clip(wb, kb, nb, rb, face_b, wa, ka, na, ra, margin, True, out)
    return _clip(wa, ka, na, ra, face_a, wb, kb, nb, rb, margin, False, out)


@njit(cache=True)
def _point_polygon(cx, cy, rp, w, k, nrm, rw, margin, flip, out):
    """A circle (centre ``c``, radius ``rp``) as A against a core with edges as B.

    Outside the core: along the closest point. Inside (or on it): out through the
    face it is least deep behind, which is also SAT's answer.
    """
    best, face = -np.inf, -1
    for i in range(k):
        if nrm[i, 2] > 0.0:
            d = nrm[i, 0] * (cx - w[i, 0]) + nrm[i, 1] * (cy - w[i, 1])
            if d > best:
                best, face = d, i
    qx, qy, d2 = 0.0, 0.0, np.inf
    for i in range(k):
        j = (i + 1) % k
        x, y, e2 = _point_segment(cx, cy, w[i, 0], w[i, 1], w[j, 0], w[j, 1])
        if e2 < d2:
            qx, qy, d2 = x, y, e2
    d = math.sqrt(d2)
    if best >= 0.0 and d > EPS:
        nx, ny = (qx - cx) / d, (qy - cy) / d
        sep = d - rp - rw
    else:
        nx, ny = -nrm[face, 0], -nrm[face, 1]
        qx, qy = cx + best * nx, cy + best * ny  # the centre's foot on that face
        sep = best - rp - rw
    if sep >= margin:
        return 0
    return _emit(out, 0, flip, nx, ny, cx + rp * nx, cy + rp * ny, qx - rw * nx, qy - rw * ny,
                 sep)


@njit(cache=True)
def _points(ax, ay, ra, bx, by, rb, margin, out):
    """Two circles: along the centre line, or straight up if the centres coincide."""
    dx, dy = bx - ax, by - ay
    d = math.sqrt(dx * dx + dy * dy)
    nx, ny = 0.0, 1.0
    if d > EPS:
        nx, ny = dx / d, dy / d
    sep = dx * nx + dy * ny - ra - rb
    if sep >= margin:
        return 0
    return _emit(out, 0, False, nx, ny, ax + ra * nx, ay + ra * ny, bx - rb * nx, by - rb * ny,
                 sep)


@njit(cache=True)
def collide_convex(va, ka, ra, xa, ya, ca, sa, vb, kb, rb, xb, yb, cb, sb, margin, out):
    """Contact points between rounded convex shapes A and B; returns how many (0..2).

    ``va``, ``vb``: local vertices, only the first ``ka``, ``kb`` rows used; ``ra``, ``rb``
    radii; ``(x, y, c, s)`` the poses. ``out`` (≥ 2, 7) receives per point
    ``(nx, ny, pax, pay, pbx, pby, sep)``, normal from A to B, ``sep = (pb − pa)·n``;
    only points with ``sep < margin`` are written, rows ``0..m-1``.
    """
    return collide_convex_in(va, ka, ra, xa, ya, ca, sa, vb, kb, rb, xb, yb, cb, sb, margin,
                             out, np.empty((ka, 2)), np.empty((kb, 2)), np.empty((ka, 3)),
                             np.empty((kb, 3)))


@njit(cache=True, _nrt=False)
def collide_convex_in(va, ka, ra, xa, ya, ca, sa, vb, kb, rb, xb, yb, cb, sb, margin, out,
                      wa, wb, na, nb):
    """``collide_convex`` in room given: ``wa``, ``wb`` (≥ ``ka``, ``kb`` rows of 2) for the
    vertices in world coordinates, ``na``, ``nb`` (of 3) for the edges' normals — nothing
    made, so a kernel without numba's runtime may call it."""
    _to_world(va, ka, xa, ya, ca, sa, wa)
    _to_world(vb, kb, xb, yb, cb, sb, wb)
    _normals(wa, ka, na)
    _normals(wb, kb, nb)
    edges_a, edges_b = _has_edge(na, ka), _has_edge(nb, kb)
    if edges_a and edges_b:
        return _polygons(wa, ka, na, ra, wb, kb, nb, rb, margin, out)
    if edges_b:
        return _point_polygon(wa[0, 0], wa[0, 1], ra, wb, kb, nb, rb, margin, False, out)
    if edges_a:
        return _point_polygon(wb[0, 0], wb[0, 1], rb, wa, ka, na, ra, margin, True, out)
    return _points(wa[0, 0], wa[0, 1], ra, wb[0, 0], wb[0, 1], rb, margin, out)


@njit(cache=True, _nrt=False)
def halfplane_convex_in(va, ka, ra, x, y, c, s, nx, ny, d, margin, out, w):
    """A wall against a rounded convex shape; returns the number of points (0..2).

    The wall is the solid ``{p : n·p ≤ d}`` (``n`` unit, pointing out of the wall),
    the shape belongs in ``n·p ≥ d``. The wall is A and the shape B, so the normal is
    ``n`` itself, ``pb = v − r n`` the shape's point at a core vertex ``v``, ``pa`` its foot
    on the wall line, ``sep = n·v − r − d``. The two deepest vertices with
    ``sep < margin`` are reported, deepest first (one for a circle). In room given: ``w``
    (≥ ``ka`` rows of 2) for the vertices in world coordinates (nothing made: a kernel
    without numba's runtime may call it; every caller has its room).
    """
    _to_world(va, ka, x, y, c, s, w)
    first, second = -1, -1
    s1, s2 = np.inf, np.inf
    for i in range(ka):
        sep = nx * w[i, 0] + ny * w[i, 1] - ra - d
        if sep < s1:
            second, s2 = first, s1
            first, s1 = i, sep
        elif sep < s2:
            second, s2 = i, sep
    m = 0
    for i, sep in ((first, s1), (second, s2)):
        if i < 0 or sep >= margin:
            break
        if m == 1:
            gx, gy = w[i, 0] - w[first, 0], w[i, 1] - w[first, 1]
            if gx * gx + gy * gy <= EPS * EPS:
                break  # the same corner twice (a zero-length segment)
        pbx, pby = w[i, 0] - ra * nx, w[i, 1] - ra * ny
        m = _emit(out, m, False, nx, ny, pbx - sep * nx, pby - sep * ny, pbx, pby, sep)
    return m
