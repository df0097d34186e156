"""The rigid-body narrow phase (kernels.manifold) against closed forms and tests/naive.py."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from ecsgoo.kernels.manifold import collide_convex, collide_convex_in, halfplane_convex_in

BOX = np.array([[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]])
GROUND = np.array([[-200.0, 0.0], [200.0, 0.0]])
DOT = np.array([[0.0, 0.0]])
LEVEL = (0.0, 0.0, 1.0, 0.0)


def halfplane_convex(va, ka, ra, x, y, c, s, nx, ny, d, margin, out):
    """``halfplane_convex_in`` in room made for the call."""
    return halfplane_convex_in(va, ka, ra, x, y, c, s, nx, ny, d, margin, out, np.empty((ka, 2)))


def _pose(x, y, angle=0.0):
    return (x, y, math.cos(angle), math.sin(angle))


def _collide(va, ra, pa, vb, rb, pb, margin=0.0):
    out = np.full((2, 7), np.nan)
    m = collide_convex(va, len(va), ra, *pa, vb, len(vb), rb, *pb, margin, out)
    return out[:m]


def _check_points(points, va, ra, pa, vb, rb, pb, tol):
    for nx, ny, pax, pay, pbx, pby, sep in points:
        assert math.hypot(nx, ny) == pytest.approx(1.0, abs=1e-12)
        assert (pbx - pax) * nx + (pby - pay) * ny == pytest.approx(sep, abs=1e-9)
    assert np.all(points[:, :2] == points[0, :2])  # one normal for the manifold
    # the deepest point lies on both rounded surfaces; with no radius every point does
    for j, (_, _, pax, pay, pbx, pby, _) in enumerate(points):
        if j == np.argmin(points[:, 6]) or ra == 0.0:
            assert naive.rounded_surface_distance_naive((pax, pay), va, ra, pa) < tol
        if j == np.argmin(points[:, 6]) or rb == 0.0:
            assert naive.rounded_surface_distance_naive((pbx, pby), vb, rb, pb) < tol


# --- hand-made cases


def test_box_resting_on_box_gets_two_points_across_the_shared_face():
    points = _collide(BOX, 0.0, _pose(0, 0), BOX, 0.0, _pose(10, 39.99))
    assert len(points) == 2
    assert np.allclose(points[:, :2], [0.0, 1.0])
    assert np.allclose(points[:, 6], -0.01)
    assert sorted(points[:, 2]) == pytest.approx([-10.0, 20.0])  # the overlap in x
    assert np.allclose(points[:, 3], 20.0) and np.allclose(points[:, 5], 19.99)


@pytest.mark.parametrize("ground_first", [True, False])
def test_box_on_a_ground_segment_gets_two_points(ground_first):
    a, b = (GROUND, 0.0, LEVEL), (BOX, 0.0, _pose(5, 19.99))
    points = _collide(*a, *b) if ground_first else _collide(*b, *a)
    assert len(points) == 2
    assert np.allclose(points[:, :2], [0.0, 1.0 if ground_first else -1.0])
    assert np.allclose(points[:, 6], -0.01)
    assert sorted(points[:, 2]) == pytest.approx([-15.0, 25.0])


def test_rotated_box_corner_into_a_box_is_one_point_at_its_depth():
    tilted = _pose(3, 20 + 20 * math.sqrt(2.0) - 0.5, math.pi / 4)  # corner 0.5 deep
    points = _collide(BOX, 0.0, _pose(0, 0), BOX, 0.0, tilted, margin=1.0)
    assert len(points) == 1
    nx, ny, pax, pay, pbx, pby, sep = points[0]
    assert (nx, ny) == pytest.approx((0.0, 1.0))
    assert sep == pytest.approx(-0.5)
    assert (pbx, pby) == pytest.approx((3.0, 19.5))
    assert (pax, pay) == pytest.approx((3.0, 20.0))


@pytest.mark.parametrize(
    ("centre", "normal", "sep"),
    [
        ((0.0, 25.0), (0.0, -1.0), -1.0),  # above the top face
        ((30.0, 0.0), (-1.0, 0.0), 4.0),  # beside the right face, apart
        ((23.0, 24.0), (-0.6, -0.8), -1.0),  # off the corner: 3-4-5
        ((0.0, 17.0), (0.0, -1.0), -9.0),  # centre inside: out through the top face
    ],
)
def test_circle_against_box_closed_forms(centre, normal, sep):
    points = _collide(DOT, 6.0, _pose(*centre), BOX, 0.0, LEVEL, margin=5.0)
    assert len(points) == 1
    nx, ny, pax, pay, pbx, pby, s = points[0]
    assert (nx, ny) == pytest.approx(normal) and s == pytest.approx(sep)
    assert (pax, pay) == pytest.approx((centre[0] + 6 * nx, centre[1] + 6 * ny))
    _check_points(points, DOT, 6.0, _pose(*centre), BOX, 0.0, LEVEL, 1e-9)


def test_circles_and_coincident_centres():
    points = _collide(DOT, 3.0, _pose(0, 0), DOT, 4.0, _pose(6, 8))
    assert len(points) == 0
    points = _collide(DOT, 3.0, _pose(0, 0), DOT, 8.0, _pose(6, 8))
    assert points[0] == pytest.approx([0.6, 0.8, 1.8, 2.4, 1.2, 1.6, -1.0])
    points = _collide(DOT, 3.0, _pose(1, 1), DOT, 4.0, _pose(1, 1))
    assert points[0] == pytest.approx([0.0, 1.0, 1.0, 4.0, 1.0, -3.0, -7.0])


def test_capsules_end_to_end_use_the_true_gap():
    cap = np.array([[-10.0, 0.0], [10.0, 0.0]])
    points = _collide(cap, 2.0, _pose(0, 0), cap, 2.0, _pose(25, 0), margin=2.0)
    assert len(points) == 1
    assert points[0] == pytest.approx([1.0, 0.0, 12.0, 0.0, 13.0, 0.0, 1.0])
    # corner to corner, apart: the capsule gap along the diagonal, not SAT's shorter one
    points = _collide(cap, 1.0, _pose(0, 0), cap, 1.0, _pose(13, 14, math.pi / 2), margin=5.0)
    assert len(points) == 1
    assert points[0] == pytest.approx([0.6, 0.8, 10.6, 0.8, 12.4, 3.2, 3.0])


@pytest.mark.parametrize("margin", [5.0, 2.0])
def test_margin_reports_speculative_points(margin):
    points = _collide(BOX, 0.0, _pose(0, 0), BOX, 0.0, _pose(0, 43), margin=margin)
    if margin > 3.0:
        assert len(points) == 2 and np.allclose(points[:, 6], 3.0)
    else:
        assert len(points) == 0


def test_degenerate_inputs_stay_finite():
    point_seg = np.array([[1.0, 1.0], [1.0, 1.0]])
    flat = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    for va, vb in [(point_seg, BOX), (BOX, point_seg), (point_seg, point_seg), (flat, BOX),
                   (BOX, BOX), (GROUND, GROUND), (flat, flat), (DOT, GROUND)]:
        points = _collide(va, 0.5, LEVEL, vb, 0.5, LEVEL, margin=1.0)
        assert len(points) >= 1 and np.all(np.isfinite(points))


def test_only_the_first_k_rows_are_read():
    buffer = np.vstack([BOX, np.full((4, 2), 1e9)])
    out = np.zeros((2, 7))
    m = collide_convex(buffer, 4, 0.0, *LEVEL, buffer[:], 4, 0.0, 10.0, 39.99, 1.0, 0.0, 0.0, out)
    assert m == 2 and np.allclose(out[:, 6], -0.01)


# --- half-planes


def test_halfplane_box_on_the_floor_and_a_tilted_one():
    out = np.zeros((2, 7))
    m = halfplane_convex(BOX, 4, 0.0, 0.0, 19.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5, out)
    assert m == 2
    assert np.allclose(out[:, 6], -1.0) and np.allclose(out[:, :2], [0.0, 1.0])
    assert sorted(out[:, 4]) == pytest.approx([-20.0, 20.0])
    assert np.allclose(out[:, 3], 0.0) and np.allclose(out[:, 5], -1.0)
    # a right wall x ≤ 100 seen from inside (n = −x, d = −100), box tilted: one corner only
    c, s = math.cos(0.3), math.sin(0.3)
    m = halfplane_convex(BOX, 4, 0.0, 80.0, 0.0, c, s, -1.0, 0.0, -100.0, 0.5, out)
    corner = max(80 + c * x - s * y for x, y in BOX)
    assert m == 1 and out[0, 6] == pytest.approx(100.0 - corner)
    assert out[0, 2] == pytest.approx(100.0) and out[0, 4] == pytest.approx(corner)


def test_halfplane_circle_and_rounded_segment():
    out = np.zeros((2, 7))
    m = halfplane_convex(DOT, 1, 5.0, 3.0, 4.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, out)
    assert m == 1 and out[0] == pytest.approx([0.0, 1.0, 3.0, 0.0, 3.0, -1.0, -1.0])
    m = halfplane_convex(GROUND, 2, 1.0, 0.0, 5.5, 1.0, 0.0, 0.0, 1.0, 0.0, 5.0, out)
    assert m == 2 and np.allclose(out[:, 6], 4.5)


# --- random pairs against the naive signed distance


def _shape(draw, k, size):
    """A convex CCW core: k points in angular order on a random ellipse, rotated."""
    gaps = draw(st.lists(st.floats(0.2, 1.0), min_size=k, max_size=k))
    start = draw(st.floats(0.0, 2 * math.pi))
    sx, sy = draw(st.floats(0.3, 1.0)), draw(st.floats(0.3, 1.0))
    total, angle, verts = sum(gaps), start, []
    for g in gaps:
        verts.append((size * sx * math.cos(angle), size * sy * math.sin(angle)))
        angle += 2 * math.pi * g / total
    return np.array(verts)


@st.composite
def pairs(draw, rounded):
    shapes = []
    for _ in range(2):
        k = draw(st.integers(1 if rounded else 2, 8))
        verts = _shape(draw, k, draw(st.floats(5.0, 40.0)))
        r = draw(st.floats(0.5, 8.0)) if rounded or k == 1 else 0.0
        pose = _pose(draw(st.floats(-60, 60)), draw(st.floats(-60, 60)),
                     draw(st.floats(-math.pi, math.pi)))
        shapes.append((verts, r, pose))
    return shapes


def _check_pair(shapes, tol):
    (va, ra, pa), (vb, rb, pb) = shapes
    margin = 1e6
    points = _collide(va, ra, pa, vb, rb, pb, margin)
    expected = naive.convex_distance_naive(va, ra, pa, vb, rb, pb)
    assert 1 <= len(points) <= 2
    assert points[:, 6].min() == pytest.approx(expected, abs=tol)
    _check_points(points, va, ra, pa, vb, rb, pb, tol)
    if np.array_equal(va, vb) and ra == rb and pa == pb:
        return  # swapping is the same call: no order-free choice can mirror it
    swapped = _collide(vb, rb, pb, va, ra, pa, margin)
    assert len(swapped) == len(points)
    mirrored = np.column_stack([-points[:, :2], points[:, 4:6], points[:, 2:4], points[:, 6]])
    assert swapped == pytest.approx(mirrored, abs=1e-9)


@settings(deadline=None, max_examples=150)
@given(pairs(rounded=False))
def test_sharp_polygons_match_the_naive_signed_distance(shapes):
    _check_pair(shapes, 1e-9)


@settings(deadline=None, max_examples=150)
@given(pairs(rounded=True))
def test_rounded_shapes_match_the_naive_signed_distance(shapes):
    _check_pair(shapes, 1e-6)


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 8), st.integers(1, 8), st.floats(0, 6), st.floats(0, 6),
       st.floats(-60, 60), st.floats(-60, 60), st.floats(-3.2, 3.2), st.integers(0, 2**31))
def test_the_narrow_phase_in_room_given_is_the_same_as_in_room_made(ka, kb, ra, rb, x, y, turn,
                                                                     seed):
    """``collide_convex_in`` / ``halfplane_convex_in`` in room larger than the shapes, left
    dirty from another call (as the fused frame's is): the same rows to the bit."""
    rng = np.random.default_rng(seed)
    va, vb = (np.sort(rng.uniform(-1, 1, (k, 2)) * 25, axis=0) for k in (ka, kb))
    va, vb = (v[np.argsort(np.arctan2(v[:, 1], v[:, 0]))].copy() for v in (va, vb))
    pa, pb = _pose(0.0, 0.0, 0.3), _pose(x, y, turn)
    made, given_ = np.full((2, 7), np.nan), np.full((2, 7), np.nan)
    room = [rng.normal(size=(10, c)) for c in (2, 2, 3, 3)]  # (dirty)
    m = collide_convex(va, ka, ra, *pa, vb, kb, rb, *pb, 1.0, made)
    assert collide_convex_in(va, ka, ra, *pa, vb, kb, rb, *pb, 1.0, given_, *room) == m
    assert made[:m].tobytes() == given_[:m].tobytes()
    m = halfplane_convex(vb, kb, rb, *pb, 0.0, 1.0, -5.0, 1.0, made)  # (room made)
    assert halfplane_convex_in(vb, kb, rb, *pb, 0.0, 1.0, -5.0, 1.0, given_, room[0]) == m
    assert made[:m].tobytes() == given_[:m].tobytes()
