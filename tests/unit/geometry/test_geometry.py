"""ecsgoo.geometry and ecsgoo.kernels.segments against exact (Fraction) references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import naive
from ecsgoo import geometry
from ecsgoo.kernels.segments import orient

# Small integer grids make collinear, touching and overlapping cases common; float64
# arithmetic on them is exact, so the kernels must agree with Fractions exactly.
small = st.integers(-4, 4)
points = st.tuples(small, small)
dyadic = st.tuples(st.integers(-64, 64), st.integers(-64, 64)).map(lambda p: (p[0] / 8, p[1] / 8))


# --- orientation and segment intersection


@given(points, points, points)
@settings(max_examples=300, deadline=None)
def test_orient_matches_exact_sign(a, b, c):
    assert orient(*a, *b, *c) == naive.orient_naive(a, b, c)


def test_orient_signs():
    assert orient(0.0, 0.0, 1.0, 0.0, 0.0, 1.0) == 1
    assert orient(0.0, 0.0, 0.0, 1.0, 1.0, 0.0) == -1
    assert orient(0.0, 0.0, 1.0, 1.0, 2.0, 2.0) == 0


@given(points, points, points, points)
@settings(max_examples=1000, deadline=None)
def test_segments_intersect_matches_exact(p1, p2, q1, q2):
    expected = naive.segments_intersect_naive(p1, p2, q1, q2)
    assert geometry.segments_intersect(p1, p2, q1, q2) == expected
    # The answer cannot depend on the order of the segments or of their ends.
    assert geometry.segments_intersect(q2, q1, p2, p1) == expected


@given(dyadic, dyadic, dyadic, dyadic)
@settings(max_examples=300, deadline=None)
def test_segments_intersect_matches_exact_fractional(p1, p2, q1, q2):
    expected = naive.segments_intersect_naive(p1, p2, q1, q2)
    assert geometry.segments_intersect(p1, p2, q1, q2) == expected


@pytest.mark.parametrize(
    ("p1", "p2", "q1", "q2", "expected"),
    [
        ((0, 0), (2, 2), (0, 2), (2, 0), True),  # proper crossing
        ((0, 0), (1, 0), (1, 0), (2, 3), True),  # touching end points
        ((0, 0), (2, 0), (1, 0), (1, 5), True),  # T-junction
        ((0, 0), (3, 0), (1, 0), (5, 0), True),  # collinear overlap
        ((0, 0), (4, 0), (1, 0), (2, 0), True),  # collinear, one inside the other
        ((0, 0), (1, 0), (1, 0), (2, 0), True),  # collinear, touching at one point
        ((0, 0), (1, 0), (2, 0), (3, 0), False),  # collinear, disjoint
        ((0, 0), (1, 1), (3, 3), (2, 2), False),  # collinear diagonal, disjoint
        ((0, 0), (2, 0), (0, 1), (2, 1), False),  # parallel
        ((0, 0), (2, 0), (3, -1), (3, 1), False),  # the line crosses, the segment does not
        ((1, 0), (1, 0), (0, 0), (2, 0), True),  # a point on a segment
        ((1, 1), (1, 1), (0, 0), (2, 0), False),  # a point off it
        ((1, 1), (1, 1), (1, 1), (1, 1), True),  # the same point
    ],
)
def test_segments_intersect_cases(p1, p2, q1, q2, expected):
    assert geometry.segments_intersect(p1, p2, q1, q2) is expected
    assert naive.segments_intersect_naive(p1, p2, q1, q2) is expected


def test_segments_intersect_rejects_bad_points():
    with pytest.raises(ValueError, match="p2"):
        geometry.segments_intersect((0, 0), (1, 2, 3), (0, 1), (1, 0))


# --- crossed (the cut helper)


def test_crossed_matches_pairwise_and_skips():
    rng = np.random.default_rng(0)
    pos = rng.integers(0, 10, (30, 2)).astype(np.float64)
    a = rng.integers(0, 30, 80)
    b = rng.integers(0, 30, 80)
    skip = rng.random(80) < 0.3
    p, q = (0.0, 3.0), (9.0, 6.0)
    hit = geometry.crossed(pos, a, b, skip, p, q)
    expected = [
        not s and naive.segments_intersect_naive(pos[i], pos[j], p, q)
        for i, j, s in zip(a, b, skip, strict=True)
    ]
    np.testing.assert_array_equal(hit, expected)
    assert hit.any()
    unskipped = geometry.crossed(pos, a, b, None, p, q)
    assert (unskipped >= hit).all() and unskipped[skip].any()


def test_crossed_swipe_through_a_rope():
    pos = np.array([[0.0, 10.0], [0.0, 5.0], [0.0, 0.0], [5.0, 0.0]])
    a, b = [0, 1, 2], [1, 2, 3]
    hit = geometry.crossed(pos, a, b, None, (-1.0, 7.0), (1.0, 7.0))
    np.testing.assert_array_equal(hit, [True, False, False])
    hit = geometry.crossed(pos, a, b, [True, False, False], (-1.0, 7.0), (1.0, 7.0))
    assert not hit.any()


@pytest.mark.parametrize(
    ("a", "b", "skip", "message"),
    [
        ([0, 1], [1], None, "same length"),
        ([0, 4], [1, 2], None, "outside"),
        ([0], [1], [1, 0], "skip"),
        ([0.5], [1], None, "integer"),
    ],
)
def test_crossed_invalid(a, b, skip, message):
    pos = np.zeros((3, 2))
    with pytest.raises(ValueError, match=message):
        geometry.crossed(pos, a, b, skip, (0, 0), (1, 1))


# --- polygons


SQUARE = [(0, 0), (2, 0), (2, 2), (0, 2)]
# An L: the notch (1..2, 1..2) is outside.
L_SHAPE = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]


def test_polygon_area_orientation():
    assert geometry.polygon_area(SQUARE) == 4.0
    assert geometry.polygon_area(SQUARE[::-1]) == -4.0
    assert geometry.polygon_area(L_SHAPE) == 3.0
    assert geometry.polygon_area([(0, 0), (1, 1)]) == 0.0
    assert geometry.polygon_area(np.zeros((0, 2))) == 0.0


@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=3, max_size=12))
@settings(max_examples=200, deadline=None)
def test_polygon_area_matches_exact(ring):
    assert geometry.polygon_area(ring) == naive.polygon_area_naive(ring)


def star_polygon(rng: np.random.Generator, k: int) -> np.ndarray:
    """A random simple (star-shaped, often concave) polygon, counter-clockwise."""
    angles = np.sort(rng.uniform(0.0, 2.0 * math.pi, k))
    radii = rng.uniform(1.0, 10.0, k)
    ring = np.round(np.c_[radii * np.cos(angles), radii * np.sin(angles)] * 8) / 8
    # Rounding may reorder or merge vertices; the ring is simple only while the angles
    # around the origin still increase and no gap reaches a half turn.
    turned = np.arctan2(ring[:, 1], ring[:, 0]) % (2.0 * math.pi)
    gaps = np.diff(np.append(turned, turned[0] + 2.0 * math.pi))
    assume((gaps > 1e-9).all() and (gaps < math.pi - 1e-9).all())
    return ring


def on_boundary(pt, ring) -> bool:
    ring = [tuple(p) for p in ring]
    return any(
        naive.segments_intersect_naive(u, v, pt, pt)
        for u, v in zip(ring, ring[1:] + ring[:1], strict=True)
    )


@given(st.integers(0, 2**32 - 1), st.integers(3, 12), dyadic)
@settings(max_examples=300, deadline=None)
def test_point_in_polygon_matches_winding_number(seed, k, pt):
    ring = star_polygon(np.random.default_rng(seed), k)
    assume(not on_boundary(pt, ring))
    expected = naive.point_in_polygon_naive(pt, ring.tolist())
    assert geometry.point_in_polygon(pt, ring) == expected
    assert geometry.point_in_polygon(pt, ring[::-1]) == expected  # winding does not matter


@pytest.mark.parametrize(
    ("pt", "inside_square", "inside_l"),
    [
        ((0.5, 0.5), True, True),
        ((1.5, 1.5), True, False),  # in the L's notch
        ((1.5, 0.5), True, True),
        ((0.5, 1.5), True, True),
        ((3.0, 1.0), False, False),
        ((-1.0, 0.0), False, False),  # the ray runs along the bottom edge
        ((-1.0, 1.0), False, False),  # the ray passes through vertices of the L
    ],
)
def test_point_in_polygon_convex_and_concave(pt, inside_square, inside_l):
    assert geometry.point_in_polygon(pt, SQUARE) is inside_square
    assert geometry.point_in_polygon(pt, L_SHAPE) is inside_l


def test_point_in_polygon_many_points():
    pts = np.array([[0.5, 0.5], [1.5, 1.5], [3.0, 3.0]])
    np.testing.assert_array_equal(geometry.point_in_polygon(pts, L_SHAPE), [True, False, False])
    assert geometry.point_in_polygon((0.0, 0.0), [(0, 0), (1, 1)]) is False


# --- Bézier curves and ropes


P0, P1, P2 = np.array([0.0, 0.0]), np.array([2.0, 4.0]), np.array([6.0, 1.0])


def test_quadratic_bezier_endpoints_and_midpoint():
    np.testing.assert_array_equal(geometry.quadratic_bezier(0.0, P0, P1, P2), P0)
    np.testing.assert_array_equal(geometry.quadratic_bezier(1.0, P0, P1, P2), P2)
    np.testing.assert_allclose(geometry.quadratic_bezier(0.5, P0, P1, P2), (P0 + 2 * P1 + P2) / 4)
    assert geometry.quadratic_bezier(0.3, (0, 0), (1, 1), (2, 0)).shape == (2,)


@given(st.floats(0.0, 1.0))
def test_quadratic_bezier_matches_de_casteljau(t):
    expected = naive.quadratic_bezier_naive(t, P0.tolist(), P1.tolist(), P2.tolist())
    np.testing.assert_allclose(geometry.quadratic_bezier(t, P0, P1, P2), expected, atol=1e-12)


def test_quadratic_bezier_array_t():
    t = np.linspace(0.0, 1.0, 7)
    curve = geometry.quadratic_bezier(t, P0, P1, P2)
    assert curve.shape == (7, 2)
    for ti, point in zip(t, curve, strict=True):
        np.testing.assert_allclose(point, naive.quadratic_bezier_naive(ti, P0, P1, P2))


def convex_hull(pts: np.ndarray) -> np.ndarray:
    """Andrew's monotone chain, counter-clockwise, collinear points dropped."""
    pts = sorted(set(map(tuple, pts.tolist())))
    if len(pts) < 3:
        return np.array(pts)

    def half(seq):
        out: list = []
        for p in seq:
            while len(out) >= 2 and naive.orient_naive(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return np.array(half(pts) + half(pts[::-1]))


@given(st.integers(0, 2**32 - 1), st.integers(2, 10), st.integers(1, 12))
@settings(max_examples=200, deadline=None)
def test_smooth_polyline_ends_and_hull(seed, n, samples):
    nodes = np.random.default_rng(seed).uniform(-100.0, 100.0, (n, 2))
    curve = geometry.smooth_polyline(nodes, samples)
    assert curve.shape == (max(n - 2, 1) * samples + 1, 2)
    np.testing.assert_array_equal(curve[0], nodes[0])
    np.testing.assert_array_equal(curve[-1], nodes[-1])
    hull = convex_hull(nodes)
    if len(hull) >= 3:
        edges = np.roll(hull, -1, axis=0) - hull
        rel = curve[:, None, :] - hull[None, :, :]
        cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
        assert (cross >= -1e-9).all()


def test_smooth_polyline_joints_are_midpoints_with_a_common_tangent():
    nodes = np.array([[0.0, 0.0], [10.0, 10.0], [20.0, 0.0], [30.0, 10.0], [40.0, 0.0]])
    samples = 64
    curve = geometry.smooth_polyline(nodes, samples)
    for k in (1, 2):  # interior joints sit at the midpoints of links 1 and 2
        j = k * samples
        np.testing.assert_allclose(curve[j], (nodes[k] + nodes[k + 1]) / 2)
        before, after = curve[j] - curve[j - 1], curve[j + 1] - curve[j]
        np.testing.assert_allclose(before, after, atol=1e-2)  # C¹: no kink at the joint


def test_smooth_polyline_small_inputs():
    two = geometry.smooth_polyline([(0, 0), (4, 2)], 4)
    np.testing.assert_allclose(two, [[0, 0], [1, 0.5], [2, 1], [3, 1.5], [4, 2]])
    np.testing.assert_array_equal(geometry.smooth_polyline([(1, 2)], 4), [[1.0, 2.0]])
    assert geometry.smooth_polyline(np.zeros((0, 2)), 4).shape == (0, 2)
    three = geometry.smooth_polyline([(0, 0), (1, 1), (2, 0)], 2)
    np.testing.assert_allclose(three, [[0, 0], [1, 0.5], [2, 0]])
    with pytest.raises(ValueError, match="samples"):
        geometry.smooth_polyline([(0, 0), (1, 1)], 0)


def test_is_simple_knows_a_folded_ring_from_a_simple_one():
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert geometry.is_simple(square) and geometry.is_simple(square[::-1])
    assert not geometry.is_simple([(0, 0), (10, 10), (10, 0), (0, 10)])  # a bow tie
    assert not geometry.is_simple([(0, 0), (10, 0), (5, 0), (5, 5)])  # doubles back
    assert not geometry.is_simple([(0, 0), (10, 0), (10, 10), (5, 0), (0, 10)])  # touches
    circle = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 24, False)]
    assert geometry.is_simple(circle)
    circle[3], circle[4] = circle[4], circle[3]  # two vertices swapped: the skin crosses
    assert not geometry.is_simple(circle)
    assert not geometry.is_simple([(0, 0), (1, 1)])
