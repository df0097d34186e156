"""Slow, obviously-correct references that the numba kernels are checked against.

Plain Python loops, no numba: each function mirrors one kernel and says which.
"""

from __future__ import annotations

import math

import numpy as np

# --- graph analysis (ecsgoo.kernels.graph) and geometry (ecsgoo.kernels.segments,
# ecsgoo.geometry). Imports are local so that appending here never needs the header.


def components_naive(n, a, b):
    """Mirrors ``graph.component_labels``: breadth-first search from each unlabelled vertex.

    Vertices are scanned in increasing order, so components are numbered by their
    smallest vertex, the same canonical labelling as the kernel.
    """
    from collections import deque

    neighbours = [[] for _ in range(n)]
    for u, v in zip(a, b, strict=True):
        neighbours[int(u)].append(int(v))
        neighbours[int(v)].append(int(u))
    labels = [-1] * n
    count = 0
    for s in range(n):
        if labels[s] != -1:
            continue
        labels[s] = count
        queue = deque([s])
        while queue:
            u = queue.popleft()
            for v in neighbours[u]:
                if labels[v] == -1:
                    labels[v] = count
                    queue.append(v)
        count += 1
    return np.array(labels, dtype=np.int64)


def bridges_naive(n, a, b):
    """Mirrors ``graph.bridge_mask``: remove each edge in turn and recount components. O(E²)."""
    a, b = list(a), list(b)
    base = len(set(components_naive(n, a, b).tolist()))
    mask = np.zeros(len(a), dtype=bool)
    for i in range(len(a)):
        rest_a, rest_b = a[:i] + a[i + 1 :], b[:i] + b[i + 1 :]
        mask[i] = len(set(components_naive(n, rest_a, rest_b).tolist())) > base
    return mask


def _exact(p):
    from fractions import Fraction

    return Fraction(p[0]), Fraction(p[1])


def _cross(ox, oy, ax, ay, bx, by):
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def orient_naive(a, b, c):
    """Mirrors ``segments.orient``: the exact sign of ``(b − a) × (c − a)`` in Fractions."""
    cross = _cross(*_exact(a), *_exact(b), *_exact(c))
    return (cross > 0) - (cross < 0)


def segments_intersect_naive(p1, p2, q1, q2):
    """Mirrors ``segments.segments_intersect`` by exact parametric solving (Fractions).

    ``p1 + s r = q1 + t d`` with ``r = p2 − p1``, ``d = q2 − q1``; a hit needs s, t in
    [0, 1]. Parallel or degenerate cases fall back to projecting onto the common line.
    """
    p1x, p1y = _exact(p1)
    p2x, p2y = _exact(p2)
    q1x, q1y = _exact(q1)
    q2x, q2y = _exact(q2)
    rx, ry, dx, dy = p2x - p1x, p2y - p1y, q2x - q1x, q2y - q1y
    wx, wy = q1x - p1x, q1y - p1y
    denom = rx * dy - ry * dx
    if denom != 0:
        s = (wx * dy - wy * dx) / denom
        t = (wx * ry - wy * rx) / denom
        return 0 <= s <= 1 and 0 <= t <= 1
    if (rx, ry) == (0, 0) and (dx, dy) == (0, 0):
        return (p1x, p1y) == (q1x, q1y)
    if (rx, ry) == (0, 0):
        return _on_naive(q1x, q1y, dx, dy, p1x, p1y)
    if (dx, dy) == (0, 0):
        return _on_naive(p1x, p1y, rx, ry, q1x, q1y)
    if wx * ry - wy * rx != 0:
        return False  # parallel, on different lines
    rr = rx * rx + ry * ry
    t0 = (wx * rx + wy * ry) / rr
    t1 = ((q2x - p1x) * rx + (q2y - p1y) * ry) / rr
    return max(min(t0, t1), 0) <= min(max(t0, t1), 1)


def _on_naive(ox, oy, dx, dy, px, py):
    """Whether point p lies on the segment ``o + s d``, s in [0, 1] (exact)."""
    wx, wy = px - ox, py - oy
    if wx * dy - wy * dx != 0:
        return False
    return 0 <= wx * dx + wy * dy <= dx * dx + dy * dy


def polygon_area_naive(xy):
    """Mirrors ``geometry.polygon_area``: exact signed area as a fan of triangles from vertex 0."""
    from fractions import Fraction

    pts = [_exact(p) for p in xy]
    total = Fraction(0)
    for i in range(1, len(pts) - 1):
        total += _cross(*pts[0], *pts[i], *pts[i + 1]) / 2
    return total


def point_in_polygon_naive(pt, xy):
    """Mirrors ``geometry.point_in_polygon`` by the exact winding number (simple polygons)."""
    px, py = _exact(pt)
    pts = [_exact(p) for p in xy]
    winding = 0
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1], strict=True):
        side = _cross(ax, ay, bx, by, px, py)
        if ay <= py < by and side > 0:
            winding += 1
        elif by <= py < ay and side < 0:
            winding -= 1
    return winding != 0


def quadratic_bezier_naive(t, p0, p1, p2):
    """Mirrors ``geometry.quadratic_bezier`` by de Casteljau: lerp the lerps."""

    def lerp(u, v):
        return [u[k] + (v[k] - u[k]) * t for k in range(2)]

    return lerp(lerp(p0, p1), lerp(p1, p2))


# -- solver kernels (ecsgoo/kernels/integrate, distance, area, shape, breaking, grid, pairs) --


def integrate_naive(pos, prev, w, pinned, pin, g, damp, h):
    """Mirrors ``kernels.integrate.integrate`` (no forces, no grab) on lists of points."""
    pos, prev = [list(p) for p in pos], [list(p) for p in prev]
    for i in range(len(pos)):
        if pinned[i]:
            pos[i], prev[i] = list(pin[i]), list(pin[i])
        elif w[i] == 0:
            prev[i] = list(pos[i])
        else:
            new = [pos[i][k] + (pos[i][k] - prev[i][k]) * damp + g[k] * h * h for k in (0, 1)]
            prev[i], pos[i] = pos[i], new
    return pos, prev


def distance_naive(pos, w, springs, h):
    """Mirrors ``kernels.distance.solve_distance``: one XPBD pass, springs in order.

    ``springs`` is a list of dicts with a, b, rest, compliance, lam (updated in place).
    """
    pos = [list(p) for p in pos]
    for s in springs:
        i, j = s["a"], s["b"]
        if w[i] + w[j] == 0:
            continue
        d = math.dist(pos[i], pos[j])
        n = [(pos[j][k] - pos[i][k]) / d for k in (0, 1)]
        alpha = s["compliance"] / (h * h)
        dlam = (s["rest"] - d - alpha * s["lam"]) / (w[i] + w[j] + alpha)
        s["lam"] += dlam
        for k in (0, 1):
            pos[i][k] -= w[i] * dlam * n[k]
            pos[j][k] += w[j] * dlam * n[k]
    return pos


def measure_rest_naive(pos, a, b, rest, shortest):
    """Mirrors ``kernels.distance.measure_rest``: NaN rests become the ends' distance."""
    out = []
    for i, j, r in zip(a, b, rest, strict=True):
        d = math.dist(pos[i], pos[j]) if math.isnan(r) else r
        out.append(0.0 if math.isnan(r) and d < shortest else d)
    return out


def area_naive(pos, w, ring, target, stiffness=1.0):
    """Mirrors ``kernels.area.solve_area`` for one ring: gradients first, then one move."""
    pos = [list(p) for p in pos]
    k = len(ring)
    area = 0.5 * sum(pos[ring[t]][0] * pos[ring[(t + 1) % k]][1]
                     - pos[ring[(t + 1) % k]][0] * pos[ring[t]][1] for t in range(k))
    grads = []
    for t in range(k):
        nxt, prv = pos[ring[(t + 1) % k]], pos[ring[t - 1]]
        grads.append((0.5 * (nxt[1] - prv[1]), 0.5 * (prv[0] - nxt[0])))
    denom = sum(w[ring[t]] * (gx * gx + gy * gy) for t, (gx, gy) in enumerate(grads))
    lam = -(area - target) / denom * stiffness
    for t, (gx, gy) in enumerate(grads):
        pos[ring[t]][0] += lam * w[ring[t]] * gx
        pos[ring[t]][1] += lam * w[ring[t]] * gy
    return pos


def shape_naive(pos, w, mass, members, rest, alpha, scale=1.0):
    """Mirrors ``kernels.shape.solve_shape`` for one group, by brute-force best angle.

    Instead of the closed form, it searches the angle that minimises
    ``Σ m |q_i − s R r_i|²`` (``s = scale``) on a fine grid and refines it, then
    moves each movable particle ``alpha`` of the way to its goal ``c + s R r_i``.
    """
    pos = [list(p) for p in pos]
    msum = sum(mass[i] for i in members)
    c = [sum(mass[i] * pos[i][k] for i in members) / msum for k in (0, 1)]

    def cost(th):
        cs, sn = math.cos(th), math.sin(th)
        return sum(mass[i] * ((pos[i][0] - c[0] - scale * (cs * r[0] - sn * r[1])) ** 2
                              + (pos[i][1] - c[1] - scale * (sn * r[0] + cs * r[1])) ** 2)
                   for i, r in zip(members, rest, strict=True))

    best = min((2 * math.pi * k / 3600 for k in range(3600)), key=cost)
    lo, hi = best - 2 * math.pi / 3600, best + 2 * math.pi / 3600
    for _ in range(60):  # golden-section refine around the best grid angle
        m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        lo, hi = (lo, m2) if cost(m1) < cost(m2) else (m1, hi)
    best = (lo + hi) / 2
    cs, sn = math.cos(best), math.sin(best)
    for i, r in zip(members, rest, strict=True):
        if w[i] == 0:
            continue
        goal = (c[0] + scale * (cs * r[0] - sn * r[1]), c[1] + scale * (sn * r[0] + cs * r[1]))
        for k in (0, 1):
            pos[i][k] += (goal[k] - pos[i][k]) * alpha
    return pos


def springs_naive(pos, springs, break_frames):
    """Mirrors ``kernels.breaking.update_springs``; returns the rows that broke."""
    out = []
    for row, s in enumerate(springs):
        st = math.dist(pos[s["a"]], pos[s["b"]]) / s["rest"]
        s["stretch"] = st
        s["buckled"] = st < 0.5 and not s["broken"]
        if s["broken"]:
            continue
        if st > s["max_stretch"]:
            s["over"] += 1
            if s["over"] >= break_frames:
                s["broken"] = True
                out.append(row)
        else:
            s["over"] = 0
    return out


def overlapping_pairs_naive(pos, radius, group):
    """All pairs (i < j) of circles that overlap and may collide: the O(n²) truth."""
    out = set()
    for i in range(len(pos)):
        for j in range(i + 1, len(pos)):
            if group[i] != 0 and group[i] == group[j]:
                continue
            if math.dist(pos[i], pos[j]) < radius[i] + radius[j]:
                out.add((i, j))
    return out


def separate_naive(pos, w, radius, pairs):
    """Push each listed pair apart by inverse mass until they just touch (positions only)."""
    pos = [list(p) for p in pos]
    for i, j in sorted(pairs):
        d = math.dist(pos[i], pos[j])
        n = [(pos[j][k] - pos[i][k]) / d for k in (0, 1)]
        pen = radius[i] + radius[j] - d
        for k in (0, 1):
            pos[i][k] -= pen * w[i] / (w[i] + w[j]) * n[k]
            pos[j][k] += pen * w[j] / (w[i] + w[j]) * n[k]
    return pos


# --- structure analysis (ecsgoo.systems.analyze) and fruit merging (ecsgoo.kernels.merge)


def structure_naive(n, a, b, broken, pinned, stretch, max_stretch):
    """Mirrors ``Analyze.analyze``: BFS components over unbroken springs, O(E²) bridges.

    Returns a dict with ``connected``, ``debris``, ``components``, ``grounded``,
    ``in_structure`` and ``critical_rows`` (bridge spring rows by slack, then
    breakable before unbreakable, then row).
    """
    live = [s for s in range(len(a)) if not broken[s]]
    la, lb = [int(a[s]) for s in live], [int(b[s]) for s in live]
    labels = components_naive(n, la, lb)
    anchored = {int(labels[v]) for v in range(n) if pinned[v]}
    grounded = [int(labels[v]) in anchored for v in range(n)]
    in_structure = [False] * n
    for s in range(len(a)):
        in_structure[int(a[s])] = in_structure[int(b[s])] = True
    members = [v for v in range(n) if in_structure[v]]
    bridge = bridges_naive(n, la, lb)

    def danger(s):
        limit = max_stretch[s]
        slack = 1.0 if math.isinf(limit) else (limit - stretch[s]) / limit
        return (slack, math.isinf(limit), s)

    return {
        "connected": sum(grounded[v] for v in members),
        "debris": sum(not grounded[v] for v in members),
        "components": len({int(labels[v]) for v in members}),
        "grounded": grounded,
        "in_structure": in_structure,
        "critical_rows": sorted((live[k] for k in range(len(live)) if bridge[k]), key=danger),
    }


def merge_pairs_naive(pos, radius, kind, entity, slop, fresh=None):
    """Mirrors ``merge.merge_pairs`` in O(n²): oldest fruit first takes its nearest partner.

    Fruits are the rows with ``kind >= 0``; a partner must be unpaired, of the same
    kind and touching (``d ≤ r_i + r_j + slop``), and one of the two ``fresh`` if
    that mask is given; ties go to the older entity. Returns ``[(first_row,
    second_row), ...]`` in the order the pairs were made.
    """
    fresh = [True] * len(kind) if fresh is None else fresh
    fruits = sorted((i for i in range(len(kind)) if kind[i] >= 0), key=lambda i: entity[i])
    used, pairs = set(), []
    for i in fruits:
        if i in used:
            continue
        options = [(math.dist(pos[i], pos[j]), entity[j], j) for j in fruits
                   if j != i and j not in used and kind[j] == kind[i] and (fresh[i] or fresh[j])
                   and math.dist(pos[i], pos[j]) <= radius[i] + radius[j] + slop]
        if options:
            j = min(options)[2]
            used.update((i, j))
            pairs.append((i, j))
    return pairs


# --- contact friction (ecsgoo.kernels.pairs)


def resolve_pair_naive(xi, xj, pi, pj, wi, wj, mu, hold):
    """Mirrors ``pairs.resolve_pair`` for a slow contact (nothing quiet, no bounce).

    Positions separate along ``n`` by inverse mass; then Coulomb friction takes up to
    ``mu · pen`` off the tangential slip ``u = (xj − pj) − (xi − pi)``: the first
    ``hold`` px of it back in position, the rest from the previous positions (velocity).
    Returns the new ``xi, xj, pi, pj``.
    """
    xi, xj, pi, pj = (np.array(v, dtype=float) for v in (xi, xj, pi, pj))
    d = math.dist(xi, xj)
    n = (xj - xi) / d
    pen = 2.0 * 10.0 - d  # both radii are 10
    u = (xj - pj) - (xi - pi)
    ut = u - (u @ n) * n
    vt = math.hypot(*ut)
    t = ut / vt
    jt = min(vt, mu * pen)
    held = min(jt, hold)
    fi, fj = -wi / (wi + wj), wj / (wi + wj)
    move, follow = pen * n - held * t, (jt - held) * t
    return xi + fi * move, xj + fj * move, pi + fi * follow, pj + fj * follow


def outline_clearance_naive(p, ri, ring, radii):
    """Mirrors ``outlines.outline_contact``'s depth: how far disc ``(p, ri)`` must move off
    the ring, whose edges are capsules as thick as their end discs (linearly between).

    The edge is the one nearest the centre; sampled densely rather than solved.
    """
    k = len(ring)
    s = np.linspace(0.0, 1.0, 2001)
    best = (math.inf, 0.0, 0.0)
    for t in range(k):
        a, b = np.asarray(ring[t], float), np.asarray(ring[(t + 1) % k], float)
        q = a + s[:, None] * (b - a)  # the edge's samples
        dist = np.hypot(q[:, 0] - p[0], q[:, 1] - p[1])
        at = int(np.argmin(dist))  # its first nearest sample
        if dist[at] < best[0]:
            best = (dist[at], radii[t] * (1 - s[at]) + radii[(t + 1) % k] * s[at], s[at])
    d, half, _ = best
    inside = point_in_polygon_naive(p, np.asarray(ring, float))
    return d + ri + half if inside else ri + half - d


def corner_push_naive(c, rc, ring, radii, w):
    """Mirrors ``outlines.collide_corners`` for one immovable disc ``(c, rc)`` and one ring at
    rest: the ring after its nearest edge (every edge's projection tried) is pushed off it.

    The edge point moves the whole depth along the normal; its ends share it by
    barycentric weight and inverse mass: ``lam = depth / ((1−t)² w_a + t² w_b)``.
    """
    ring = np.array(ring, float)
    k = len(ring)
    best = (math.inf, 0, 0.0)
    for u in range(k):
        a, b = ring[u], ring[(u + 1) % k]
        s = min(1.0, max(0.0, float(np.dot(c - a, b - a) / np.dot(b - a, b - a))))
        d = math.dist(c, a + s * (b - a))
        if d < best[0]:
            best = (d, u, s)
    d, u, t = best
    a, b = u, (u + 1) % k
    q = ring[a] + t * (ring[b] - ring[a])
    half = (1 - t) * radii[a] + t * radii[b]
    inside = point_in_polygon_naive(c, ring)
    n = (q - c) / d if inside else (c - q) / d  # the way the disc would leave
    depth = d + rc + half if inside else rc + half - d
    if depth <= 0:
        return ring
    lam = depth / ((1 - t) ** 2 * w[a] + t ** 2 * w[b])
    ring[a] -= (1 - t) * w[a] * lam * n
    ring[b] -= t * w[b] * lam * n
    return ring


def raycast_discs_naive(p, q, centres, radii):
    """Mirrors ``queries.ray_particles`` + ``ray_circle``: every disc the segment meets and
    the fraction, by solving the quadratic for each disc in turn (no grid)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    d = q - p
    out = []
    for k, (c, r) in enumerate(zip(np.asarray(centres, float), radii, strict=True)):
        f = p - c
        a, b, cc = d @ d, 2 * (f @ d), f @ f - r * r
        if cc <= 0:
            out.append((k, 0.0))
            continue
        disc = b * b - 4 * a * cc
        if disc < 0 or a == 0:
            continue
        t = (-b - math.sqrt(disc)) / (2 * a)
        if 0 <= t <= 1:
            out.append((k, t))
    return sorted(out, key=lambda kt: kt[1])


def discs_in_box_naive(centres, radii, x0, y0, x1, y1):
    """Mirrors ``queries.box_particles``: discs whose nearest point to the box's is within r."""
    out = []
    for k, ((cx, cy), r) in enumerate(zip(np.asarray(centres, float), radii, strict=True)):
        qx, qy = min(max(cx, x0), x1), min(max(cy, y0), y1)
        if (cx - qx) ** 2 + (cy - qy) ** 2 <= r * r:
            out.append(k)
    return out


# --- rigid-body narrow phase (ecsgoo.kernels.manifold)


def _world_naive(verts, pose):
    x, y, c, s = pose
    return [(x + c * px - s * py, y + s * px + c * py) for px, py in verts]


def _core_edges_naive(w):
    """A core's edges as point pairs: none for a point, one for a segment, k for a polygon."""
    if len(w) == 1:
        return []
    if len(w) == 2:
        return [(w[0], w[1])]
    return [(w[i], w[(i + 1) % len(w)]) for i in range(len(w))]


def point_segment_distance_naive(p, a, b):
    """Distance from ``p`` to segment ``a b``: the foot clamped to the segment."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    ee = ex * ex + ey * ey
    t = 0.0 if ee == 0 else min(1.0, max(0.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ee))
    return math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey)


def _inside_naive(p, w):
    """Whether ``p`` is inside (or on) the CCW polygon ``w`` (k ≥ 3): left of every edge."""
    return len(w) >= 3 and all(
        _cross(a[0], a[1], b[0], b[1], p[0], p[1]) >= 0 for a, b in _core_edges_naive(w)
    )


def convex_distance_naive(verts_a, ra, pose_a, verts_b, rb, pose_b):
    """Mirrors ``manifold.collide_convex``'s smallest ``sep``: the rounded shapes' signed distance.

    Cores apart: the smallest vertex–edge (or vertex–vertex) distance. Cores
    overlapping (an edge pair meets, or a vertex lies inside the other polygon): the
    separating-axis value, the largest gap ``min_B u·b − max_A u·a`` over every edge
    normal ``u`` of both shapes, both signs. Either way minus both radii.
    """
    a, b = _world_naive(verts_a, pose_a), _world_naive(verts_b, pose_b)
    ea, eb = _core_edges_naive(a), _core_edges_naive(b)
    dists = [math.dist(p, q) for p in a for q in b]
    dists += [point_segment_distance_naive(p, *e) for p in a for e in eb]
    dists += [point_segment_distance_naive(q, *e) for q in b for e in ea]
    crossing = any(segments_intersect_naive(*e, *f) for e in ea for f in eb)
    inside = any(_inside_naive(p, b) for p in a) or any(_inside_naive(q, a) for q in b)
    if not (crossing or inside or min(dists) == 0):
        return min(dists) - ra - rb
    best = -math.inf if ea or eb else 0.0
    for p, q in ea + eb:
        ln = math.dist(p, q)
        if ln == 0:
            continue
        for sign in (1.0, -1.0):
            ux, uy = sign * (q[1] - p[1]) / ln, -sign * (q[0] - p[0]) / ln
            gap = min(ux * x + uy * y for x, y in b) - max(ux * x + uy * y for x, y in a)
            best = max(best, gap)
    return best - ra - rb


def rounded_surface_distance_naive(p, verts, r, pose):
    """How far ``p`` is from the rounded shape's boundary (0 on the surface)."""
    w = _world_naive(verts, pose)
    edges = _core_edges_naive(w) or [(w[0], w[0])]
    core = min(point_segment_distance_naive(p, *e) for e in edges)
    if _inside_naive(p, w):
        return core + r
    return abs(core - r)


# --- rigid bodies (ecsgoo.kernels.rigid, ecsgoo.kernels.joints) -------------------------


def body_pairs_naive(pos, prev, extent, w, group, layer, mask, margin, frames):
    """Mirrors ``rigid.body_pairs``: every pair (i < j) whose swept boxes overlap, by
    checking all pairs — each box is the start position ± (extent + margin + the move
    per substep × frames), as a set (the kernel's order is its sweep's)."""
    n = len(pos)
    grow = [extent[i] + margin + (abs(pos[i][0] - prev[i][0]) + abs(pos[i][1] - prev[i][1]))
            * frames for i in range(n)]
    out = set()
    for i in range(n):
        for j in range(i + 1, n):
            if w[i] == 0 and w[j] == 0:
                continue
            if group[i] != 0 and group[i] == group[j]:
                continue
            if not (mask[i] & layer[j] and mask[j] & layer[i]):
                continue
            if (abs(prev[i][0] - prev[j][0]) <= grow[i] + grow[j]
                    and abs(prev[i][1] - prev[j][1]) <= grow[i] + grow[j]):
                out.add((i, j))
    return out


def integrate_bodies_naive(pos, prev, angle, prev_angle, force, w, g, damp, h):
    """Mirrors ``rigid.integrate_bodies`` on lists: Verlet with damping for each moving
    body (static ones are put at rest), returning new (pos, prev, angle, prev_angle)."""
    pos, prev = [list(p) for p in pos], [list(p) for p in prev]
    angle, prev_angle = list(angle), list(prev_angle)
    for i in range(len(pos)):
        if w[i] == 0:
            prev[i], prev_angle[i] = list(pos[i]), angle[i]
            continue
        for k in range(2):
            step = (pos[i][k] - prev[i][k]) * damp + (g[k] + force[i][k] * w[i]) * h * h
            prev[i][k] = pos[i][k]
            pos[i][k] += step
        turn = (angle[i] - prev_angle[i]) * damp
        prev_angle[i] = angle[i]
        angle[i] += turn
    return pos, prev, angle, prev_angle


def hinge_position_naive(pa, ra, wa, iwa, pb, rb, wb, iwb):
    """Mirrors the position pass of one hinge in ``joints.joint_sweep``: the impulse
    ``λ = −(J M⁻¹ Jᵀ)⁻¹ (p_b − p_a)`` with the Jacobian written out as a matrix (rows:
    the point's x and y; columns: a's x, y, angle, b's x, y, angle), and each end's
    move ``M⁻¹ Jᵀ λ``. Returns the moves (dx, dy, dangle) of a and b."""
    jac = np.array([[-1.0, 0.0, ra[1], 1.0, 0.0, -rb[1]],
                    [0.0, -1.0, -ra[0], 0.0, 1.0, rb[0]]])
    inv_m = np.diag([wa, wa, iwa, wb, wb, iwb])
    k = jac @ inv_m @ jac.T
    lam = -np.linalg.solve(k, np.array(pb, dtype=float) - np.array(pa, dtype=float))
    move = inv_m @ jac.T @ lam
    return tuple(move[:3]), tuple(move[3:])


def carried_naive(wi, wj, s):
    """Mirrors ``kernels.support.carried``, written from its rule.

    The carrier is ``j`` when ``s`` > 0, else ``i``; if it is lighter than its load
    (a larger inverse mass) and the load can move, its inverse mass goes the fraction
    ``|s|`` of the way to the load's. Returns the two inverse masses.
    """
    w = {"i": wi, "j": wj}
    carrier, load = ("j", "i") if s > 0 else ("i", "j")
    if s != 0 and w[carrier] > w[load] > 0:
        w[carrier] = (1 - abs(s)) * w[carrier] + abs(s) * w[load]
    return w["i"], w["j"]


def disc_contacts_naive(pos, w, radius, group, reach, bounds, segs, track=None, ends=(0, 0)):
    """Mirrors ``discs.find_discs``: every pair whose gap is under the discs' reach and
    whose paths come near enough (below), and every disc–plane (the bounds, then each
    level segment's closest point) whose gap is under the disc's reach.

    ``track``: rows of (vx, vy, ax, ay, allow) per disc (None: at rest, allowed its
    reach); ``ends``: (A, B) at the frame's end. Disc i is at ``pos + v·A + a·B`` for A
    and B growing together from 0 to ``ends``, within ``allow`` of it: a pair is near
    enough when, with B at its largest, the offsets between them over A (sampled
    finely, then the nearest sample's neighbourhood bisected) come within the radii,
    both allowances and |Δa|·B.

    Returns ``{(i, j): gap}`` (px) with ``j`` coded as the kernel codes it (−1 − k for
    bound k, −5 − s for segment s).
    """
    out = {}
    n = len(pos)
    if track is None:
        track = [(0.0, 0.0, 0.0, 0.0, reach[i]) for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if w[i] + w[j] == 0 or (group[i] != 0 and group[i] == group[j]):
                continue
            d = math.dist(pos[i], pos[j])
            if d >= radius[i] + radius[j] + reach[i] + reach[j]:
                continue
            vi, vj = track[i], track[j]
            near = (radius[i] + radius[j] + vi[4] + vj[4]
                    + math.hypot(vj[2] - vi[2], vj[3] - vi[3]) * ends[1])
            if _nearest_on_path(pos[j][0] - pos[i][0], pos[j][1] - pos[i][1],
                                (vj[0] - vi[0]) * ends[0], (vj[1] - vi[1]) * ends[0]) < near:
                out[i, j] = d - radius[i] - radius[j]
    for i in range(n):
        if w[i] == 0:
            continue
        x, y = pos[i]
        if bounds is not None:
            x0, y0, x1, y1 = bounds
            for k, gap in enumerate((y - y0, y1 - y, x - x0, x1 - x)):
                if gap - radius[i] < reach[i]:
                    out[i, -1 - k] = gap - radius[i]
        for s, (ax, ay, bx, by) in enumerate(segs):
            d = point_segment_distance_naive((x, y), (ax, ay), (bx, by))
            if d - radius[i] < reach[i]:
                out[i, -5 - s] = d - radius[i]
    return out


def _nearest_on_path(dx, dy, ux, uy):
    """The least of |d + t·u| for t in [0, 1]: 2,001 samples, then the best one's
    neighbours bisected down to 1e-12 (the distance is convex in t)."""
    ts = [k / 2000 for k in range(2001)]
    best = min(ts, key=lambda t: math.hypot(dx + ux * t, dy + uy * t))
    lo, hi = max(best - 1 / 2000, 0.0), min(best + 1 / 2000, 1.0)
    while hi - lo > 1e-12:
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if math.hypot(dx + ux * a, dy + uy * a) <= math.hypot(dx + ux * b, dy + uy * b):
            hi = b
        else:
            lo = a
    return math.hypot(dx + ux * lo, dy + uy * lo)


def xpbd_step_naive(pos, w, springs, h):
    """Mirrors ``kernels.chains.solve_chains`` on one set of springs: the linearised XPBD
    step solved densely, ``(J W Jᵀ + α̃) Δλ = rest − d − α̃ λ`` (numpy's solve), then
    ``Δx = W Jᵀ Δλ``. ``springs``: dicts of a, b, rest, compliance, lam (updated).
    Returns the new positions (a list of [x, y])."""
    import numpy as np

    n, m = len(pos), len(springs)
    jac = np.zeros((m, 2 * n))
    rhs, alpha = np.zeros(m), np.zeros(m)
    for r, s in enumerate(springs):
        a, b = s["a"], s["b"]
        d = math.dist(pos[a], pos[b])
        u = [(pos[b][k] - pos[a][k]) / d for k in (0, 1)]
        jac[r, 2 * a:2 * a + 2], jac[r, 2 * b:2 * b + 2] = [-u[0], -u[1]], u
        alpha[r] = s["compliance"] / (h * h)
        rhs[r] = s["rest"] - d - alpha[r] * s["lam"]
    inv = np.repeat(np.asarray(w, dtype=float), 2)
    dlam = np.linalg.solve(jac @ (inv[:, None] * jac.T) + np.diag(alpha), rhs)
    moved = np.asarray(pos, dtype=float).reshape(-1) + inv * (jac.T @ dlam)
    for s, dl in zip(springs, dlam, strict=True):
        s["lam"] += dl
    return moved.reshape(-1, 2).tolist()


def unshared_edges_naive(owner, start, end):
    """Which edges have no reverse edge (b → a) in the same body: a set of the forward
    edges on a 1e-6 px grid, each edge looked up reversed."""
    q = np.round(np.concatenate([start, end], axis=1) / 1e-6).astype(np.int64).tolist()
    forward = {(int(o), *e) for o, e in zip(owner, q, strict=True)}
    return np.array([(int(o), e[2], e[3], e[0], e[1]) not in forward
                     for o, e in zip(owner, q, strict=True)], bool)


def scene_within_naive(triangles, capsules, discs, rect):
    """The rows of each kind whose shape's box meets ``rect``, one shape at a time."""
    x0, y0, x1, y1 = rect

    def meets(lo_x, lo_y, hi_x, hi_y):
        return hi_x >= x0 and lo_x <= x1 and hi_y >= y0 and lo_y <= y1

    tri = [t for t in triangles.reshape(-1, 3, triangles.shape[1])
           if meets(t[:, 0].min(), t[:, 1].min(), t[:, 0].max(), t[:, 1].max())]
    caps = [c for c in capsules
            if meets(min(c[0], c[2]) - c[4], min(c[1], c[3]) - c[4],
                     max(c[0], c[2]) + c[4], max(c[1], c[3]) + c[4])]
    disc = [d for d in discs if meets(d[0] - d[2], d[1] - d[2], d[0] + d[2], d[1] + d[2])]
    return (np.array(tri, np.float32).reshape(-1, triangles.shape[1]),
            np.array(caps, np.float32).reshape(-1, capsules.shape[1]),
            np.array(disc, np.float32).reshape(-1, discs.shape[1]))


# --- calming cut chains (ecsgoo.kernels.calm; the rope game's cut pieces)


def calm_pieces_naive(pos, prev, mass, pinned, stubs, stub_pins, tails, a, m, b, bent, down,
                      substeps, drag, buckle, damp, bend):
    """Mirrors ``calm.calm_pieces`` in numpy, a call a step (the rope game's ``calm`` as
    it was): returns the calmed previous positions (a copy of ``prev``)."""
    prev = prev.copy()
    if len(stubs):
        prev[stubs] = pos[stubs] - (pos[stubs] - prev[stubs]) * drag
        dx, dy = down
        rel = pos[stubs] - pos[stub_pins]
        above = rel[:, 0] * dx + rel[:, 1] * dy < -0.5
        across = rel[:, 0] * -dy + rel[:, 1] * dx
        side = np.where(across < 0.0, -1.0, 1.0) * above * buckle
        prev[stubs] -= side[:, None] * np.array([-dy, dx])
    if len(tails):
        p, ms = pos[tails], mass[tails]
        v = p - prev[tails]
        centre = (ms[:, None] * p).sum(axis=0) / ms.sum()
        v_cm = (ms[:, None] * v).sum(axis=0) / ms.sum()
        r = p - centre
        spin = (ms * (r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0])).sum()
        inertia = (ms * (r * r).sum(axis=1)).sum()
        omega = spin / inertia if inertia > 1e-9 else 0.0
        rigid = v_cm + omega * np.column_stack([-r[:, 1], r[:, 0]])
        prev[tails] = p - (v + damp * (rigid - v))
    if len(bent):
        chord = pos[b] - pos[a]
        span = np.hypot(*chord.T)
        slack = (np.hypot(*(pos[m] - pos[a]).T) + np.hypot(*(pos[b] - pos[m]).T)) - span
        wa = np.where(pinned[a], 0.0, 1.0 / mass[a])
        wb = np.where(pinned[b], 0.0, 1.0 / mass[b])
        share = np.where(wa + wb > 0, bend * slack / np.maximum(span, 1e-9)
                         / np.maximum(wa + wb, 1e-12), 0.0)[:, None] * chord / substeps
        push = np.zeros_like(pos)
        np.add.at(push, a, -share * wa[:, None])
        np.add.at(push, b, share * wb[:, None])
        prev[bent] = prev[bent] - push[bent]
    return prev


# --- particles riding on links (ecsgoo.kernels.riders; the goo game's crawlers)


def ride_links_naive(pos, prev, h, pinned, mass, rows, a, b, t, load, gx, gy, wind):
    """Mirrors ``riders.ride_links`` in numpy (the goo crawl as it was): returns where the
    riders sit, their velocities, and the force and touched flag per row."""
    u, v = (1.0 - t)[:, None], t[:, None]
    vel = (pos - prev) / h
    where, speed = u * pos[a] + v * pos[b], u * vel[a] + v * vel[b]
    force, touched = np.zeros_like(pos), np.zeros(len(pos), dtype=np.bool_)
    if load > 0.0:
        m = mass[rows]
        weight = np.column_stack([load * m * (gx + wind), load * m * gy])
        ends = np.column_stack([a, b]).reshape(-1)
        share = np.column_stack([u, v]).reshape(-1, 1) * np.repeat(weight, 2, axis=0)
        free = ~pinned[ends]
        np.add.at(force, ends[free], share[free])
        touched[ends[free]] = True
    return where, speed, force, touched


def crawl_links_naive(pos, s_entity, s_a, s_b, valid, entity, link, t, heading, speed, dt,
                      frame, target):
    """Mirrors ``riders.crawl_links`` as the goo crawl did it in Python (a dict network,
    hops breadth first, ``min`` over ``(hops, spring)``): returns ``link``, ``t``,
    ``heading``, ``a``, ``b`` and ``on`` per crawler."""
    from collections import deque

    at: dict[int, list[tuple[int, int]]] = {}
    row_of = {int(e): k for k, e in enumerate(s_entity)}
    for k in range(len(s_entity)):
        if valid[k]:
            at.setdefault(int(s_a[k]), []).append((int(s_entity[k]), int(s_b[k])))
            at.setdefault(int(s_b[k]), []).append((int(s_entity[k]), int(s_a[k])))
    at = {k: sorted(v) for k, v in at.items()}
    hops = None
    if target >= 0:
        hops, todo = {target: 0}, deque([target])
        while todo:
            node = todo.popleft()
            for _spring, other in at.get(node, []):
                if other not in hops:
                    hops[other] = hops[node] + 1
                    todo.append(other)
    link, t, heading = link.copy(), t.copy(), heading.copy()
    a, b = np.zeros(len(link), np.int64), np.zeros(len(link), np.int64)
    on = np.zeros(len(link), bool)
    for j in range(len(link)):
        s = row_of.get(int(link[j]), -1)
        if s < 0 or not valid[s]:
            continue
        on[j] = True
        length = np.hypot(pos[s_b[s], 0] - pos[s_a[s], 0], pos[s_b[s], 1] - pos[s_a[s], 1])
        tj = t[j] + heading[j] * speed * dt / max(length, 1.0)
        if not (0.0 < tj < 1.0):
            node = int(s_b[s] if tj >= 1.0 else s_a[s])
            options = [o for o in at[node] if o[0] != link[j]] or at[node]
            if hops is not None:
                spring, _ = min(options, key=lambda o: (hops.get(o[1], 1 << 30), o[0]))
            else:
                spring, _ = options[(int(entity[j]) * 7919 + frame * 104729) % len(options)]
            s = row_of[spring]
            at_a = s_a[s] == node
            link[j], tj, heading[j] = spring, 0.0 if at_a else 1.0, 1 if at_a else -1
        t[j], a[j], b[j] = tj, s_a[s], s_b[s]
    return link, t, heading, a, b, on


def touching_pairs_naive(pos, radius, watched, slop):
    """Every row pair ``(i, j)``, ``i < j``, with ``i`` or ``j`` watched, at most
    ``r_i + r_j + slop`` apart (centre distance), as a sorted list."""
    out = []
    for i in range(len(pos)):
        for j in range(i + 1, len(pos)):
            if not (watched[i] or watched[j]):
                continue
            reach = radius[i] + radius[j] + slop
            if math.dist(pos[i], pos[j]) <= reach:
                out.append((i, j))
    return out
