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
