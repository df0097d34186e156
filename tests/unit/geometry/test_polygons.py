"""ecsgoo.polygons: outline checks, convex decomposition and mass properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecsgoo import RigidBody, World, WorldFileError, dumps, limits, loads, polygons
from ecsgoo.errors import WorldError

WHO = "RigidBody.polygon"
L_SHAPE = [(0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)]  # area 300 px²


def signed_area(p: np.ndarray) -> float:
    """Shoelace signed area, px²."""
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def turns(p: np.ndarray) -> np.ndarray:
    """Cross product of in and out edge at each vertex (positive: left turn)."""
    e_in = p - np.roll(p, 1, axis=0)
    e_out = np.roll(p, -1, axis=0) - p
    return e_in[:, 0] * e_out[:, 1] - e_in[:, 1] * e_out[:, 0]


def inside_convex(piece: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Whether each point is strictly inside the convex CCW ``piece``."""
    a, b = piece, np.roll(piece, -1, axis=0)
    cross = ((b[None, :, 0] - a[None, :, 0]) * (pts[:, None, 1] - a[None, :, 1])
             - (b[None, :, 1] - a[None, :, 1]) * (pts[:, None, 0] - a[None, :, 0]))
    return (cross > 0).all(axis=1)


def inside_polygon(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Even-odd point-in-polygon test for each point."""
    a, b = poly[None, :, :], np.roll(poly, -1, axis=0)[None, :, :]
    x, y = pts[:, None, 0], pts[:, None, 1]
    straddle = (a[..., 1] > y) != (b[..., 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_cross = a[..., 0] + (y - a[..., 1]) * (b[..., 0] - a[..., 0]) / (b[..., 1] - a[..., 1])
    return (np.sum(straddle & (x < x_cross), axis=1) % 2) == 1


def check_pieces(poly: np.ndarray, pieces: list[np.ndarray], max_vertices: int = 8,
                 samples: int = 400, seed: int = 0) -> None:
    """Pieces are convex, CCW, 3..max_vertices, preserve the area and tile ``poly``."""
    for piece in pieces:
        assert piece.dtype == np.float64 and piece.ndim == 2 and piece.shape[1] == 2
        assert 3 <= len(piece) <= max_vertices
        assert (turns(piece) > 0).all(), piece
        assert signed_area(piece) > 0
    total = sum(signed_area(piece) for piece in pieces)
    assert total == pytest.approx(signed_area(poly), rel=1e-9)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    pts = np.random.default_rng(seed).uniform(lo, hi, size=(samples, 2))
    hits = sum(inside_convex(piece, pts).astype(int) for piece in pieces)
    inside = inside_polygon(poly, pts)
    # Inside the polygon ⇔ inside exactly one piece (random points miss the boundaries).
    assert (hits <= 1).all()
    assert np.array_equal(hits == 1, inside)


def regular(n: int, r: float = 50.0) -> np.ndarray:
    angles = np.arange(n) * 2 * math.pi / n
    return np.column_stack([r * np.cos(angles), r * np.sin(angles)])


# --- outline


def test_ccw_input_is_kept():
    p = polygons.outline(L_SHAPE, WHO)
    assert p.dtype == np.float64 and p.shape == (6, 2)
    assert np.array_equal(p, np.array(L_SHAPE, dtype=np.float64))


def test_cw_input_is_reversed():
    p = polygons.outline(L_SHAPE[::-1], WHO)
    assert signed_area(p) == pytest.approx(300.0)
    assert sorted(map(tuple, p.tolist())) == sorted(map(tuple, np.array(L_SHAPE, float).tolist()))


def test_duplicates_and_collinear_points_are_removed():
    pts = [(0, 0), (0, 0), (5, 0), (10, 0), (10, 10), (10, 10), (0, 10), (0, 0)]
    p = polygons.outline(pts, WHO)
    assert p.tolist() == [[0, 0], [10, 0], [10, 10], [0, 10]]


def test_numpy_input_and_rounded_collinear_point():
    p = polygons.outline(np.array([(0.0, 0.0), (0.1, 0.1), (0.3, 0.3), (0.0, 1.0)]), WHO)
    assert len(p) == 3


@pytest.mark.parametrize("points, words", [
    (5, "sequence of (x, y) pairs"),
    ("abc", "sequence of (x, y) pairs"),
    ([(0, 0), (1, 2, 3), (4, 5)], "sequence of (x, y) pairs"),
    ([(0, 0), ("a", 1), (4, 5)], "sequence of (x, y) pairs"),
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], "sequence of (x, y) pairs"),
    ([], "has 0 points (at least 3)"),
    ([(0, 0), (1, 0)], "has 2 points (at least 3)"),
    ([(0, 0), (1, 0), (1, 0), (0, 0)], "has 2 distinct points (at least 3)"),
    ([(math.cos(k / 50), math.sin(k / 50)) for k in range(257)], "has 257 points (at most 256"),
    ([(0, 0), (1, math.nan), (0, 1)], "point 1 is not finite"),
    ([(0, 0), (1, 0), (0, math.inf)], "point 2 is not finite"),
    ([(0, 0), (2e6, 0), (0, 1)], "point 1 is beyond ±1e+06 px"),
    ([(0, 0), (1, 1), (2, 2), (3, 3)], "lies on one straight line"),
    ([(0, 0), (1e-4, 0), (0, 1e-4)], "encloses too little area"),
    ([(0, 0), (10, 0), (0, 10), (10, 10)], "crosses or touches itself"),
    ([(0, 0), (10, 0), (10, 10), (5, 0), (0, 10)], "crosses or touches itself"),
    ([(0, 0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)], "point 5 repeats point 2"),
    ([(0, 0), (10, 0), (20, 0), (5, 0), (5, 10)], "doubles back on itself"),
])
def test_bad_outlines_raise_naming_the_field(points, words):
    with pytest.raises(WorldError) as info:
        polygons.outline(points, WHO, field="points")
    message = str(info.value)
    assert message.startswith(f"{WHO}: field points ")
    assert words in message


def test_error_uses_the_given_field_name():
    with pytest.raises(WorldError, match=r"^Thing.make: field outline has 2 points"):
        polygons.outline([(0, 0), (1, 1)], "Thing.make", field="outline")


# --- convex pieces


def test_l_shape_splits_into_convex_pieces():
    poly = polygons.outline(L_SHAPE, WHO)
    pieces = polygons.convex_pieces(poly)
    assert len(pieces) >= 2
    check_pieces(poly, pieces, samples=2000)


def test_convex_octagon_is_one_identical_piece():
    poly = polygons.outline(regular(8), WHO)
    pieces = polygons.convex_pieces(poly)
    assert len(pieces) == 1
    assert np.array_equal(pieces[0], poly)
    assert pieces[0] is not poly


def test_convex_20_gon_splits_into_small_pieces():
    poly = polygons.outline(regular(20), WHO)
    pieces = polygons.convex_pieces(poly, max_vertices=8)
    assert len(pieces) == 3  # 18 triangles, at most 6 per piece
    check_pieces(poly, pieces)


def test_max_vertices_three_gives_triangles():
    poly = polygons.outline(L_SHAPE, WHO)
    pieces = polygons.convex_pieces(poly, max_vertices=3)
    assert len(pieces) == 4
    check_pieces(poly, pieces, max_vertices=3)


def test_comb_with_collinear_teeth_bases():
    # A bar with four teeth: the teeth's reflex corners all lie on y = 10, so clipping leaves
    # flat vertices that must not become zero-area triangles.
    pts = [(0, 0), (50, 0), (50, 10), (45, 10), (45, 20), (40, 20), (40, 10), (35, 10),
           (35, 20), (30, 20), (30, 10), (25, 10), (25, 20), (20, 20), (20, 10), (15, 10),
           (15, 20), (10, 20), (10, 10), (5, 10), (5, 20), (0, 20)]
    poly = polygons.outline(pts, WHO)
    check_pieces(poly, polygons.convex_pieces(poly), samples=2000)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=3, max_size=12),
       st.integers(3, 8))
@settings(max_examples=150, deadline=None)
def test_grid_polygons_decompose_into_convex_tiles(points, max_vertices):
    # Small integer grids make collinear edges, flat vertices and touching cuts common.
    try:
        poly = polygons.outline(points, WHO)
    except WorldError:
        return  # most random point lists are not simple polygons
    pieces = polygons.convex_pieces(poly, max_vertices=max_vertices)
    check_pieces(poly, pieces, max_vertices=max_vertices, samples=200)


@st.composite
def star_polygons(draw):
    n = draw(st.integers(3, 24))
    # Each angular gap is under half a turn, so the origin sees every edge: star-shaped.
    gaps = np.array(draw(st.lists(st.floats(1.0, 1.9), min_size=n, max_size=n)))
    angles = np.cumsum(gaps) / gaps.sum() * 2 * math.pi
    radii = np.array(draw(st.lists(st.floats(5.0, 100.0), min_size=n, max_size=n)))
    return np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])


@given(star_polygons(), st.integers(3, 8))
@settings(max_examples=60, deadline=None)
def test_star_polygons_decompose_into_convex_tiles(points, max_vertices):
    poly = polygons.outline(points, WHO)
    pieces = polygons.convex_pieces(poly, max_vertices=max_vertices)
    check_pieces(poly, pieces, max_vertices=max_vertices, samples=200)


def test_decomposition_is_deterministic():
    rng = np.random.default_rng(7)
    angles = np.sort(rng.uniform(0, 2 * math.pi, 30))
    radii = rng.uniform(10, 100, 30)
    poly = polygons.outline(np.column_stack([radii * np.cos(angles), radii * np.sin(angles)]),
                            WHO)
    first = polygons.convex_pieces(poly)
    second = polygons.convex_pieces(poly.copy())
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert a.tobytes() == b.tobytes()


def test_bad_max_vertices():
    with pytest.raises(ValueError, match="max_vertices"):
        polygons.convex_pieces(polygons.outline(L_SHAPE, WHO), max_vertices=2)


# --- mass


def test_rectangle_mass_matches_box_inertia():
    w, h, mass = 30.0, 12.0, 2.5
    rect = polygons.outline([(100, 50), (100 + w, 50), (100 + w, 50 + h), (100, 50 + h)], WHO)
    area, centroid, second = polygons.polygon_mass(rect)
    assert area == pytest.approx(w * h, rel=1e-12)
    assert centroid == pytest.approx([100 + w / 2, 50 + h / 2], rel=1e-12)
    assert mass / area * second == pytest.approx(polygons.box_inertia(w, h, mass), rel=1e-9)
    centre, inertia = polygons.body_mass(polygons.convex_pieces(rect), mass)
    assert centre == pytest.approx([100 + w / 2, 50 + h / 2], rel=1e-12)
    assert inertia == pytest.approx(polygons.box_inertia(w, h, mass), rel=1e-9)


def test_regular_polygon_tends_to_circle_inertia():
    pieces = polygons.convex_pieces(polygons.outline(regular(256, r=40.0), WHO))
    centre, inertia = polygons.body_mass(pieces, 3.0)
    assert np.allclose(centre, 0.0, atol=1e-9)
    assert inertia == pytest.approx(polygons.circle_inertia(40.0, 3.0), rel=1e-3)


def test_l_shape_inertia_matches_grid_estimate():
    mass = 4.0
    pieces = polygons.convex_pieces(polygons.outline(L_SHAPE, WHO))
    centre, inertia = polygons.body_mass(pieces, mass)
    # Cell centres of a fine grid over the L's bounding box, keeping those inside the L.
    step = 0.05
    axis = np.arange(step / 2, 20, step)
    x, y = np.meshgrid(axis, axis)
    keep = (y < 10) | (x < 10)
    x, y = x[keep], y[keep]
    grid_centre = np.array([x.mean(), y.mean()])
    grid_inertia = mass * np.mean((x - grid_centre[0]) ** 2 + (y - grid_centre[1]) ** 2)
    assert centre == pytest.approx(grid_centre, rel=1e-3)
    assert centre == pytest.approx([25 / 3, 25 / 3], rel=1e-12)  # exact: by symmetry and sums
    assert inertia == pytest.approx(grid_inertia, rel=0.01)


def test_body_mass_rejects_bad_input():
    square = polygons.outline([(0, 0), (1, 0), (1, 1), (0, 1)], WHO)
    with pytest.raises(ValueError, match="mass"):
        polygons.body_mass([square], 0.0)
    with pytest.raises(ValueError, match="mass"):
        polygons.body_mass([square], math.nan)
    with pytest.raises(ValueError, match="piece"):
        polygons.body_mass([], 1.0)


def test_circle_and_box_inertia():
    assert polygons.circle_inertia(2.0, 3.0) == 6.0
    assert polygons.box_inertia(3.0, 4.0, 12.0) == 25.0


def _star(n: int) -> list[tuple[float, float]]:
    """A concave outline of n points (every other one pulled in): the costliest to cut."""
    return [((50 if k % 2 else 100) * math.cos(2 * math.pi * k / n),
             (50 if k % 2 else 100) * math.sin(2 * math.pi * k / n)) for k in range(n)]


def test_an_outline_of_the_most_points_is_cut_and_one_more_is_refused_in_a_file():
    """3,000 points took over 20 s to check and cut (points² and points³): a 100 KB file
    hung the loader. The limit is the constructor's, so a file says it the same way."""
    body = RigidBody.polygon(0, 0, _star(limits.MAX_OUTLINE_POINTS))
    assert len(body.pieces) > 1
    size = ", ".join(f"[{x!r}, {y!r}]" for x, y in _star(3000))
    with pytest.raises(WorldFileError, match=r"^f.toml: entity 1 \(body\): field size: "
                                             r".*has 3000 points \(at most 256"):
        loads(f"format_version = 1\n[[entity]]\nid = 1\nbody = {{ shape = 'polygon', "
              f"size = [{size}], x = 1.0, y = 2.0 }}\n", "f.toml")
    w = World()
    w.create_entity(body)
    assert loads(dumps(w))
