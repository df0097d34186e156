"""Rigid-body polygon geometry: outline checks, convex decomposition, mass properties.

This is what ``RigidBody.polygon(x, y, points)`` runs once when a body is made, so it is
plain numpy (no numba): clarity beats speed here. Units: positions in px, areas in px²,
second moments of area in px⁴, moments of inertia in mass·px². The y axis points up, so a
counter-clockwise (CCW) outline has positive signed (shoelace) area.

Polygons are (k, 2) float64 arrays of vertices, without the first vertex repeated at the end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ecsgoo.errors import WorldError
from ecsgoo.limits import MAX_OUTLINE_POINTS

__all__ = [
    "MAX_COORD",
    "MIN_AREA",
    "body_mass",
    "box_inertia",
    "circle_inertia",
    "convex_pieces",
    "outline",
    "polygon_mass",
    "segments_meet",
]

MAX_COORD = 1e6
"""Largest accepted |x| or |y| of an outline point, px."""

MIN_AREA = 1e-6
"""Smallest accepted |area| of an outline, px²."""

# A vertex whose turn is below this (as the sine of the turning angle) is treated as lying
# on the line through its neighbours. Exactly collinear points give 0; the tolerance only
# absorbs the rounding of points like (0, 0), (0.1, 0.1), (0.3, 0.3), which would otherwise
# survive as near-flat vertices and turn into zero-area sliver triangles.
_FLAT = 1e-12

# Rows per block in the all-pairs edge test: bounds memory at _BLOCK × k per temporary.
_BLOCK = 256


# --- small vector helpers


def _orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Twice the signed area of triangles ``a b c`` (positive when CCW), px²; broadcasts."""
    return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (
        c[..., 0] - a[..., 0]
    )


def _turns(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per vertex of ring ``p``: turn (cross of in and out edge), its flatness scale, and dot.

    ``cross > _FLAT * scale`` means a strict left (convex) turn; ``|cross| <= _FLAT * scale``
    means flat; ``dot < 0`` on a flat vertex means the outline goes back the way it came.
    """
    e_in = p - np.roll(p, 1, axis=0)
    e_out = np.roll(p, -1, axis=0) - p
    cross = e_in[:, 0] * e_out[:, 1] - e_in[:, 1] * e_out[:, 0]
    dot = e_in[:, 0] * e_out[:, 0] + e_in[:, 1] * e_out[:, 1]
    scale = np.hypot(e_in[:, 0], e_in[:, 1]) * np.hypot(e_out[:, 0], e_out[:, 1])
    return cross, scale, dot


def _signed_area(p: np.ndarray) -> float:
    """Shoelace signed area of ring ``p``, px² (positive when CCW)."""
    q = p - p[0]  # shifting to a vertex keeps the products small and the sum accurate
    nxt = np.roll(q, -1, axis=0)
    return 0.5 * float(np.sum(q[:, 0] * nxt[:, 1] - nxt[:, 0] * q[:, 1]))


# --- outline validation


def _as_pairs(points: object, who: str, field: str) -> np.ndarray:
    """``points`` as an (n, 2) float64 array, or a WorldError saying why not."""
    if isinstance(points, (str, bytes)) or not isinstance(points, (Sequence, np.ndarray)):
        raise WorldError(f"{who}: field {field} must be a sequence of (x, y) pairs, "
                         f"got {type(points).__name__}")
    try:
        arr = np.array(points, dtype=np.float64)
    except (TypeError, ValueError):
        raise WorldError(f"{who}: field {field} must be a sequence of (x, y) pairs "
                         f"of numbers") from None
    if arr.ndim == 1 and arr.size == 0:
        arr = arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise WorldError(f"{who}: field {field} must be a sequence of (x, y) pairs, "
                         f"got an array of shape {arr.shape}")
    return arr


def _check_numbers(arr: np.ndarray, who: str, field: str) -> None:
    """Reject NaN, infinite and out-of-range coordinates, naming the first bad point."""
    bad = ~np.isfinite(arr).all(axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        raise WorldError(f"{who}: field {field} point {i} is not finite ({arr[i].tolist()})")
    far = (np.abs(arr) > MAX_COORD).any(axis=1)
    if far.any():
        i = int(np.argmax(far))
        raise WorldError(f"{who}: field {field} point {i} is beyond ±{MAX_COORD:g} px "
                         f"({arr[i].tolist()})")


def _drop_repeats(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop points equal to their predecessor (cyclically); return them and input indices.

    The first point is the one kept, so a closing copy of it at the end is what goes.
    """
    same = np.zeros(len(arr), dtype=bool)
    same[1:] = (arr[1:] == arr[:-1]).all(axis=1)
    keep = np.flatnonzero(~same)
    if len(keep) > 1 and (arr[keep[-1]] == arr[0]).all():
        keep = keep[:-1]
    return arr[keep], keep


def _check_no_revisit(p: np.ndarray, idx: np.ndarray, who: str, field: str) -> None:
    """Reject a vertex that occurs twice (never consecutively: those are already dropped)."""
    order = np.lexsort((p[:, 1], p[:, 0]))
    srt = p[order]
    dup = (srt[1:] == srt[:-1]).all(axis=1)
    if dup.any():
        k = int(np.argmax(dup))
        i, j = sorted((int(idx[order[k]]), int(idx[order[k + 1]])))
        raise WorldError(f"{who}: field {field} visits the same place twice "
                         f"(point {j} repeats point {i})")


def _drop_flat(p: np.ndarray, idx: np.ndarray, who: str,
               field: str) -> tuple[np.ndarray, np.ndarray]:
    """Drop vertices lying on the line between their neighbours; reject doubling back."""
    while len(p) >= 3:
        cross, scale, dot = _turns(p)
        flat = np.abs(cross) <= _FLAT * scale
        back = flat & (dot < 0)
        if back.any():
            i = int(idx[int(np.argmax(back))])
            raise WorldError(f"{who}: field {field} doubles back on itself at point {i} "
                             f"(its two edges overlap)")
        if not flat.any():
            break
        # Dropping one at a time keeps the neighbours' turns right for the next round.
        k = int(np.argmax(flat))
        p, idx = np.delete(p, k, axis=0), np.delete(idx, k)
    return p, idx


def _on_segment(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Whether ``c``, known to be collinear with ``a b``, lies within the segment's box."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return ((lo <= c) & (c <= hi)).all(axis=-1)


def segments_meet(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Whether closed segments ``a b`` and ``c d`` share a point (touching and collinear
    overlap count), by orientation signs; the (…, 2) arrays broadcast against each other."""
    d1, d2 = np.sign(_orient(c, d, a)), np.sign(_orient(c, d, b))
    d3, d4 = np.sign(_orient(a, b, c)), np.sign(_orient(a, b, d))
    meet = (d1 * d2 < 0) & (d3 * d4 < 0)
    meet |= (d1 == 0) & _on_segment(c, d, a)
    meet |= (d2 == 0) & _on_segment(c, d, b)
    meet |= (d3 == 0) & _on_segment(a, b, c)
    meet |= (d4 == 0) & _on_segment(a, b, d)
    return meet


def first_crossing(p: np.ndarray) -> tuple[int, int] | None:
    """The first pair (i, j), i < j, of non-adjacent edges of ring ``p`` that share a point.

    Edge i runs from vertex i to vertex i + 1. Touching and collinear overlap count.
    """
    k = len(p)
    a, b = p, np.roll(p, -1, axis=0)
    j = np.arange(k)
    for start in range(0, k, _BLOCK):
        i = np.arange(start, min(start + _BLOCK, k))[:, None]
        # Only pairs j > i + 1 and not the closing pair (0, k - 1): those share a vertex.
        pairs = (j > i + 1) & ~((i == 0) & (j == k - 1))
        meet = segments_meet(a[i], b[i], a[None, :], b[None, :])
        hits = np.argwhere(meet & pairs)
        if len(hits):
            return start + int(hits[0, 0]), int(hits[0, 1])
    return None


def outline(points: Sequence[Sequence[float]] | np.ndarray, who: str,
            field: str = "points") -> np.ndarray:
    """Validate and normalise a simple polygon outline of (x, y) points in px.

    Returns a (k, 2) float64 array, k >= 3, in CCW order (a clockwise input is reversed),
    with consecutive duplicate points and collinear middle points (to within rounding)
    removed. The outline is closed implicitly: do not repeat the first point at the end
    (if you do, it is dropped as a duplicate).

    Raises WorldError, worded ``"{who}: field {field} ..."`` (``who`` is e.g.
    ``"RigidBody.polygon"``), when ``points`` is not a sequence of pairs of numbers, has a
    NaN/inf or a coordinate beyond ±1e6 px, has more than ``limits.MAX_OUTLINE_POINTS``
    (256) points or fewer than 3 distinct ones, lies on one line, visits a point twice,
    doubles back, crosses or touches itself, or encloses less than 1e-6 px².
    """
    arr = _as_pairs(points, who, field)
    if len(arr) < 3:
        raise WorldError(f"{who}: field {field} has {len(arr)} points (at least 3)")
    if len(arr) > MAX_OUTLINE_POINTS:  # before the checks that cost points² and more
        raise WorldError(f"{who}: field {field} has {len(arr)} points (at most "
                         f"{MAX_OUTLINE_POINTS}, limits.MAX_OUTLINE_POINTS)")
    _check_numbers(arr, who, field)
    p, idx = _drop_repeats(arr)
    if len(p) < 3:
        raise WorldError(f"{who}: field {field} has {len(p)} distinct points (at least 3)")
    cross, scale, _ = _turns(p)
    if (np.abs(cross) <= _FLAT * scale).all():
        raise WorldError(f"{who}: field {field} lies on one straight line (no area)")
    _check_no_revisit(p, idx, who, field)
    p, idx = _drop_flat(p, idx, who, field)
    hit = first_crossing(p)
    if hit is not None:
        i, j = hit
        k = len(p)
        raise WorldError(f"{who}: field {field} crosses or touches itself (edge from point "
                         f"{idx[i]} to {idx[(i + 1) % k]} meets edge from point {idx[j]} "
                         f"to {idx[(j + 1) % k]})")
    area = _signed_area(p)
    if abs(area) < MIN_AREA:
        raise WorldError(f"{who}: field {field} encloses too little area "
                         f"({abs(area):.3g} px², at least {MIN_AREA:g})")
    if area < 0:
        p = p[::-1]
    return np.ascontiguousarray(p, dtype=np.float64)


# --- convex decomposition


def _is_convex(p: np.ndarray) -> bool:
    """Whether every vertex of ring ``p`` is a strict left turn."""
    cross, scale, _ = _turns(p)
    return bool((cross > _FLAT * scale).all())


def _split_convex(k: int, max_vertices: int) -> list[list[int]]:
    """Vertex lists splitting a convex k-gon into balanced fans around vertex 0."""
    triangles = k - 2
    count = -(-triangles // (max_vertices - 2))  # ceil: fewest pieces that fit
    base, extra = divmod(triangles, count)
    pieces, start = [], 0
    for n in range(count):
        size = base + (1 if n < extra else 0)  # triangles in this piece
        pieces.append([0, *range(start + 1, start + size + 2)])
        start += size
    return pieces


def _ear_scores(p: np.ndarray) -> np.ndarray:
    """Per vertex of ring ``p``: ear shape quality, or -inf when it is not a usable ear.

    Quality is the triangle's area over its summed squared side lengths, largest for an
    equilateral triangle, so slivers are clipped last (and usually merged away later).
    """
    prev, nxt = np.roll(p, 1, axis=0), np.roll(p, -1, axis=0)
    cross, scale, _ = _turns(p)
    convex = cross > _FLAT * scale
    sides = (np.sum((p - prev) ** 2, axis=1) + np.sum((nxt - p) ** 2, axis=1)
             + np.sum((prev - nxt) ** 2, axis=1))
    score = np.where(convex, cross / sides, -np.inf)
    cand = np.flatnonzero(convex)
    blockers = np.flatnonzero(~convex)
    if len(cand) and len(blockers):
        # Only a reflex vertex can lie in a convex vertex's triangle and spoil the ear; one on
        # the triangle's boundary spoils it too (the cut would pass through it).
        r = p[blockers][None, :, :]
        a, b, c = prev[cand][:, None, :], p[cand][:, None, :], nxt[cand][:, None, :]
        inside = (_orient(a, b, r) >= 0) & (_orient(b, c, r) >= 0) & (_orient(c, a, r) >= 0)
        k = len(p)
        corner = ((blockers[None, :] == (cand[:, None] - 1) % k)
                  | (blockers[None, :] == (cand[:, None] + 1) % k))
        spoiled = (inside & ~corner).any(axis=1)
        score[cand[spoiled]] = -np.inf
    return score


def _ear_clip(ccw: np.ndarray) -> list[tuple[int, int, int]]:
    """Triangulate a simple CCW polygon by ear clipping; CCW vertex-index triples."""
    ring = list(range(len(ccw)))
    triangles: list[tuple[int, int, int]] = []
    while len(ring) >= 3:
        p = ccw[ring]
        cross, scale, _ = _turns(p)
        flat = np.abs(cross) <= _FLAT * scale
        if flat.any():
            # Clipping can leave a vertex on the line between its new neighbours; a triangle
            # there would have no area, so just drop it (its neighbours' edge covers it).
            del ring[int(np.argmax(flat))]
            continue
        if len(ring) == 3:
            triangles.append((ring[0], ring[1], ring[2]))
            break
        score = _ear_scores(p)
        if not np.isfinite(score).any():
            # Only rounding on nearly degenerate input gets here: fall back to the best convex
            # vertex, ignoring blockers, so that the loop always ends.
            cross_ok = np.where(cross > _FLAT * scale, cross, -np.inf)
            if not np.isfinite(cross_ok).any():
                break  # what is left has no area
            score = cross_ok
        k = int(np.argmax(score))  # the first best ear: deterministic
        n = len(ring)
        triangles.append((ring[k - 1], ring[k], ring[(k + 1) % n]))
        del ring[k]
    return triangles


def _merged(a: list[int], b: list[int], u: int, v: int) -> list[int]:
    """Join piece ``a`` (with edge u→v) and piece ``b`` (with edge v→u) across that edge."""
    ia, ib = a.index(v), b.index(u)
    a_rot = a[ia:] + a[:ia]  # v ... u
    b_rot = b[ib:] + b[:ib]  # u ... v
    return a_rot + b_rot[1:-1]


def _merge_pieces(ccw: np.ndarray, triangles: list[tuple[int, int, int]],
                  max_vertices: int) -> list[list[int]]:
    """Hertel–Mehlhorn: remove diagonals while the joined piece stays convex and small."""
    pieces: list[list[int] | None] = [list(t) for t in triangles]
    owner: dict[tuple[int, int], int] = {}
    for n, tri in enumerate(triangles):
        for s in range(3):
            owner[(tri[s], tri[(s + 1) % 3])] = n
    diagonals = [(u, v) for (u, v) in owner if u < v and (v, u) in owner]
    # Longest cuts first: removing them tends to leave fewer, rounder pieces. Ties break on
    # the indices so the order (and the result) never depends on dict or float quirks.
    diagonals.sort(key=lambda e: (-float(np.sum((ccw[e[0]] - ccw[e[1]]) ** 2)), e))
    for u, v in diagonals:
        na, nb = owner[(u, v)], owner[(v, u)]
        a, b = pieces[na], pieces[nb]
        if a is None or b is None:
            continue
        joined = _merged(a, b, u, v)
        if len(joined) > max_vertices or not _is_convex(ccw[joined]):
            continue
        pieces[na], pieces[nb] = joined, None
        del owner[(u, v)], owner[(v, u)]
        for s in range(len(joined)):
            owner[(joined[s], joined[(s + 1) % len(joined)])] = na
    return [piece for piece in pieces if piece is not None]


def convex_pieces(ccw: np.ndarray, max_vertices: int = 8) -> list[np.ndarray]:
    """Split a simple CCW polygon (px) into convex CCW pieces of 3..max_vertices vertices.

    ``ccw`` should come from :func:`outline`. A convex polygon with at most ``max_vertices``
    vertices comes back as one piece equal to it; a larger convex one is split into
    balanced fans. Any other polygon is triangulated by ear clipping (best-shaped ear first)
    and the triangles are merged across diagonals, Hertel–Mehlhorn style, while the merged
    piece stays strictly convex and within ``max_vertices``. Pieces use only the input's
    vertices, tile the polygon exactly and have no zero-area slivers. Deterministic.
    """
    ccw = np.ascontiguousarray(ccw, dtype=np.float64)
    if ccw.ndim != 2 or ccw.shape[1] != 2 or len(ccw) < 3:
        raise ValueError(f"convex_pieces needs a (k >= 3, 2) array, got shape {ccw.shape}")
    if max_vertices < 3:
        raise ValueError(f"convex_pieces: max_vertices must be at least 3, got {max_vertices}")
    if _is_convex(ccw):
        if len(ccw) <= max_vertices:
            return [ccw.copy()]
        groups = _split_convex(len(ccw), max_vertices)
    else:
        groups = _merge_pieces(ccw, _ear_clip(ccw), max_vertices)
    return [ccw[group] for group in groups]


# --- mass properties


def polygon_mass(ccw: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Area (px²), centroid ((2,) px) and polar second moment of area about it (px⁴).

    Shoelace formulas for a simple CCW polygon; the second moment is ∫ |r - c|² dA, which
    times the density (mass / area) is the moment of inertia about the centroid.
    """
    p = np.asarray(ccw, dtype=np.float64)
    origin = p.mean(axis=0)  # work near the polygon so large coordinates do not cancel
    q = p - origin
    x0, y0 = q[:, 0], q[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    cross = x0 * y1 - x1 * y0
    area = 0.5 * float(np.sum(cross))
    cx = float(np.sum((x0 + x1) * cross)) / (6.0 * area)
    cy = float(np.sum((y0 + y1) * cross)) / (6.0 * area)
    j_origin = float(np.sum((x0 * x0 + x0 * x1 + x1 * x1 + y0 * y0 + y0 * y1 + y1 * y1)
                            * cross)) / 12.0
    j_centroid = j_origin - area * (cx * cx + cy * cy)  # parallel-axis theorem, backwards
    return area, np.array([cx, cy]) + origin, j_centroid


def body_mass(pieces: list[np.ndarray], mass: float) -> tuple[np.ndarray, float]:
    """Centroid ((2,) px) and moment of inertia (mass·px²) of the union of ``pieces``.

    The pieces (CCW, not overlapping) share a uniform density that makes their total mass
    ``mass``; the inertia is about the returned centroid.
    """
    if not pieces:
        raise ValueError("body_mass needs at least one piece")
    if not (math.isfinite(mass) and mass > 0):
        raise ValueError(f"body_mass: mass must be finite and positive, got {mass!r}")
    props = [polygon_mass(piece) for piece in pieces]
    areas = np.array([a for a, _, _ in props])
    centroids = np.array([c for _, c, _ in props])
    total = float(areas.sum())
    centroid = (areas[:, None] * centroids).sum(axis=0) / total
    offsets = np.sum((centroids - centroid) ** 2, axis=1)
    second = float(sum(j for _, _, j in props) + np.sum(areas * offsets))
    return centroid, mass / total * second


def circle_inertia(radius: float, mass: float) -> float:
    """Moment of inertia of a uniform disc about its centre, mass·px²: m r² / 2."""
    return mass * radius * radius / 2.0


def box_inertia(w: float, h: float, mass: float) -> float:
    """Moment of inertia of a uniform w × h px box about its centre, mass·px²: m (w²+h²)/12."""
    return mass * (w * w + h * h) / 12.0
