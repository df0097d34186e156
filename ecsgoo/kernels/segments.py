"""Segment kernels: orientation, segment intersection, and a swipe-vs-springs test.

Pure ``@njit(cache=True)`` functions on float64 scalars and arrays (pixels). The
predicates are exact whenever the cross products are (e.g. integer coordinates
below ~1e7); otherwise they carry float64 rounding like any float geometry.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def orient(ax, ay, bx, by, cx, cy):
    """Turn direction of ``a -> b -> c``: +1 counter-clockwise, -1 clockwise, 0 collinear.

    The sign of the cross product ``(b - a) × (c - a) = (bx-ax)(cy-ay) - (by-ay)(cx-ax)``.
    """
    cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    if cross > 0.0:
        return 1
    if cross < 0.0:
        return -1
    return 0


@njit(cache=True)
def _within_box(ax, ay, bx, by, cx, cy):
    """Whether ``c`` lies in the bounding box of segment ``a b`` (edges included).

    For a point already known to be collinear with ``a b`` this means "on the segment".
    """
    return min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by)


@njit(cache=True)
def segments_intersect(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y):
    """Whether closed segments ``p1 p2`` and ``q1 q2`` share at least one point.

    Proper crossing: ``q1``, ``q2`` lie strictly on opposite sides of line ``p`` and
    ``p1``, ``p2`` strictly on opposite sides of line ``q`` (orientation signs differ).
    Otherwise they meet iff an end point is collinear with the other segment and
    inside its bounding box: touching end points, T-junctions and collinear overlap
    all count; collinear but disjoint and parallel segments do not. Degenerate
    (zero-length) segments behave as points.
    """
    o1 = orient(p1x, p1y, p2x, p2y, q1x, q1y)
    o2 = orient(p1x, p1y, p2x, p2y, q2x, q2y)
    o3 = orient(q1x, q1y, q2x, q2y, p1x, p1y)
    o4 = orient(q1x, q1y, q2x, q2y, p2x, p2y)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    if o1 == 0 and _within_box(p1x, p1y, p2x, p2y, q1x, q1y):
        return True
    if o2 == 0 and _within_box(p1x, p1y, p2x, p2y, q2x, q2y):
        return True
    if o3 == 0 and _within_box(q1x, q1y, q2x, q2y, p1x, p1y):
        return True
    return o4 == 0 and _within_box(q1x, q1y, q2x, q2y, p2x, p2y)


@njit(cache=True)
def crossed_segments(pos, a, b, skip, px, py, qx, qy):
    """Mask of the segments ``pos[a[i]] -- pos[b[i]]`` that the swipe ``p q`` touches.

    ``pos`` is an (n, 2) float64 array of points, ``a`` and ``b`` int64 indices into it,
    ``skip`` a bool mask of segments to ignore (e.g. springs already broken). O(E).
    """
    hit = np.zeros(a.shape[0], np.bool_)
    for i in range(a.shape[0]):
        if skip[i]:
            continue
        i0 = a[i]
        i1 = b[i]
        hit[i] = segments_intersect(
            pos[i0, 0], pos[i0, 1], pos[i1, 0], pos[i1, 1], px, py, qx, qy
        )
    return hit
