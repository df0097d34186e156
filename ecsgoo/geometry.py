"""Plane geometry helpers: segment tests, polygons, Bézier ropes. Units are pixels.

Points are ``(x, y)`` pairs (tuples, lists or arrays); point sets are (n, 2) arrays.
Polygons are rings of vertices without the first vertex repeated at the end.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ecsgoo.kernels.segments import crossed_segments
from ecsgoo.kernels.segments import segments_intersect as _segments_intersect
from ecsgoo.polygons import first_crossing

__all__ = [
    "crossed",
    "is_simple",
    "point_in_polygon",
    "polygon_area",
    "quadratic_bezier",
    "segments_intersect",
    "smooth_polyline",
]

ArrayLike = npt.ArrayLike


def _point(p: ArrayLike, name: str) -> tuple[float, float]:
    """``p`` as two Python floats, or a ValueError naming ``name``."""
    arr = np.asarray(p, dtype=np.float64)
    if arr.shape != (2,):
        raise ValueError(f"{name} must be a point (x, y), got shape {arr.shape}")
    return float(arr[0]), float(arr[1])


def _points(xy: ArrayLike, name: str) -> np.ndarray:
    """``xy`` as a contiguous (n, 2) float64 array, or a ValueError naming ``name``."""
    arr = np.asarray(xy, dtype=np.float64)
    if arr.size == 0:
        return np.zeros((0, 2), np.float64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name} must have shape (n, 2), got {arr.shape}")
    return np.ascontiguousarray(arr)


def _indices(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a contiguous 1-D int64 array, or a ValueError naming ``name``."""
    arr = np.asarray(values).reshape(-1)
    if arr.size and arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer indices, got dtype {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def segments_intersect(p1: ArrayLike, p2: ArrayLike, q1: ArrayLike, q2: ArrayLike) -> bool:
    """Whether closed segments ``p1 p2`` and ``q1 q2`` share a point.

    Decided by orientation signs. Touching end points, T-junctions and collinear
    overlap count as intersecting; parallel or collinear-but-disjoint segments do not.
    """
    return bool(
        _segments_intersect(
            *_point(p1, "p1"), *_point(p2, "p2"), *_point(q1, "q1"), *_point(q2, "q2")
        )
    )


def crossed(
    pos: ArrayLike, a: ArrayLike, b: ArrayLike, skip: ArrayLike | None, p: ArrayLike, q: ArrayLike
) -> np.ndarray:
    """Bool mask of the segments ``pos[a[i]] -- pos[b[i]]`` that the swipe ``p q`` touches.

    ``pos`` is (n, 2) positions in pixels, ``a``/``b`` index it (e.g. spring end
    points), ``skip`` is a bool mask of segments to ignore (e.g. broken springs) or
    None. Used by the cut helper: every spring a mouse swipe crosses is cut.
    """
    pos_arr = _points(pos, "pos")
    a_arr, b_arr = _indices(a, "a"), _indices(b, "b")
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"a and b must have the same length, got {a_arr.size} and {b_arr.size}")
    for name, arr in (("a", a_arr), ("b", b_arr)):
        if arr.size and (arr.min() < 0 or arr.max() >= len(pos_arr)):
            raise ValueError(f"{name} holds indices outside [0, {len(pos_arr)})")
    if skip is None:
        skip_arr = np.zeros(a_arr.size, np.bool_)
    else:
        skip_arr = np.ascontiguousarray(skip, dtype=np.bool_).reshape(-1)
        if skip_arr.shape != a_arr.shape:
            raise ValueError(f"skip must have length {a_arr.size}, got {skip_arr.size}")
    return crossed_segments(pos_arr, a_arr, b_arr, skip_arr, *_point(p, "p"), *_point(q, "q"))


def polygon_area(xy: ArrayLike) -> float:
    """Signed area of the polygon ring ``xy`` (square pixels); counter-clockwise is positive.

    Shoelace formula ``A = ½ Σ (x_i y_{i+1} − x_{i+1} y_i)``. Fewer than 3 vertices give 0.
    """
    ring = _points(xy, "xy")
    if len(ring) < 3:
        return 0.0
    x, y = ring[:, 0], ring[:, 1]
    x_next, y_next = np.roll(x, -1), np.roll(y, -1)
    return float(0.5 * np.sum(x * y_next - x_next * y))


def is_simple(xy: ArrayLike) -> bool:
    """Whether the polygon ring ``xy`` (px) is simple: no two non-adjacent edges meet.

    Touching and collinear overlap count as meeting (a vertex pressed onto another
    edge, an edge doubling back along itself). Either winding is simple; a folded
    or knotted soft-body outline is not. All edge pairs, O(k²) in numpy.
    """
    ring = _points(xy, "xy")
    return len(ring) >= 3 and first_crossing(ring) is None


def point_in_polygon(pt: ArrayLike, xy: ArrayLike) -> bool | np.ndarray:
    """Whether ``pt`` lies inside the polygon ring ``xy`` (any winding, convex or not).

    Ray crossing (even–odd): count the edges crossing the horizontal ray from ``pt``
    to +x; odd means inside. Half-open edge rule ``(y_i > y) != (y_j > y)`` so a ray
    through a vertex counts once. Points exactly on the boundary may go either way.
    ``pt`` may also be (k, 2): the result is then a bool array of length k.
    """
    ring = _points(xy, "xy")
    pts = np.asarray(pt, dtype=np.float64)
    if pts.shape[-1:] != (2,) or pts.ndim > 2:
        raise ValueError(f"pt must be (x, y) or (k, 2), got shape {pts.shape}")
    if len(ring) < 3:
        return False if pts.ndim == 1 else np.zeros(len(pts), np.bool_)
    px, py = pts[..., 0, None], pts[..., 1, None]
    xi, yi = ring[:, 0], ring[:, 1]
    xj, yj = np.roll(xi, -1), np.roll(yi, -1)
    spans = (yi > py) != (yj > py)
    # Only spanning edges are evaluated, so yj - yi is never 0 where it matters.
    with np.errstate(divide="ignore", invalid="ignore"):
        x_cross = xi + (py - yi) * (xj - xi) / (yj - yi)
    inside = np.count_nonzero(spans & (px < x_cross), axis=-1) % 2 == 1
    return bool(inside) if pts.ndim == 1 else inside


def quadratic_bezier(
    t: ArrayLike, p0: ArrayLike, p1: ArrayLike, p2: ArrayLike
) -> np.ndarray:
    """Point(s) of the quadratic Bézier curve at parameter ``t`` in [0, 1].

    ``B(t) = (1 − t)² p0 + 2 (1 − t) t p1 + t² p2``: starts at ``p0``, ends at ``p2``,
    pulled toward the control point ``p1``. A scalar ``t`` gives shape (2,); an array
    ``t`` of shape (k,) gives (k, 2). The points may also be (k, 2) arrays (one curve
    per row), broadcast against ``t``.
    """
    t_col = np.asarray(t, dtype=np.float64)[..., None]
    s = 1.0 - t_col
    p0_arr, p1_arr, p2_arr = (np.asarray(p, dtype=np.float64) for p in (p0, p1, p2))
    return s * s * p0_arr + 2.0 * s * t_col * p1_arr + t_col * t_col * p2_arr


def smooth_polyline(xy: ArrayLike, samples: int = 8) -> np.ndarray:
    """A smooth rope curve along the node polyline ``xy``, as an (m, 2) array of points.

    Quadratic Bézier pieces, one per interior node: node ``k`` is the control point
    and the piece runs between the midpoints of its two links, except that the first
    piece starts at the first node and the last ends at the last node. Pieces meet
    with a common tangent (C¹), and the curve stays within the nodes' convex hull.
    Each piece contributes ``samples`` points, plus the final node: m = pieces ·
    samples + 1 for n ≥ 2 nodes (two nodes give a straight piece; 0 or 1 nodes are
    returned as they are).
    """
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    nodes = _points(xy, "xy")
    if len(nodes) < 2:
        return nodes.copy()
    if len(nodes) == 2:
        starts, controls, ends = nodes[:1], nodes.mean(axis=0)[None], nodes[1:]
    else:
        joints = 0.5 * (nodes[:-1] + nodes[1:])
        joints[0], joints[-1] = nodes[0], nodes[-1]
        starts, controls, ends = joints[:-1], nodes[1:-1], joints[1:]
    t = np.arange(samples, dtype=np.float64) / samples
    curve = quadratic_bezier(t[None, :], starts[:, None], controls[:, None], ends[:, None])
    return np.concatenate([curve.reshape(-1, 2), nodes[-1:]])


# --- the cut interaction helper (acts on a World; the functions above are pure) ---

__all__ += ["cut"]


def cut(world: ecsgoo.World, p: ArrayLike, q: ArrayLike) -> list[int]:
    """Cut every unbroken spring whose segment the swipe ``p q`` (px) crosses.

    Touching and collinear overlap count (see :func:`segments_intersect`). Sets
    each cut spring's ``broken`` flag (Project then ignores it, Analyze sees the
    piece detach), dispatches ``spring_cut(world, spring_entity)`` for each, in
    spring-row order, and returns their entities. O(springs), one kernel pass.
    """
    springs = world.store.springs
    hit = crossed(world.store.particles.pos, springs.a, springs.b, springs.broken, p, q)
    rows = np.flatnonzero(hit)
    springs.broken[rows] = True
    entities = springs.entity[rows].tolist()
    for entity in entities:
        world.dispatch("spring_cut", world, entity)
    return entities


# Kept with cut, below the pure helpers; it could move to the top with the other imports.
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:  # only for the annotation: geometry does not need the World at runtime
    import ecsgoo
