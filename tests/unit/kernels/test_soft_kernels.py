"""Each solver kernel against its slow reference in tests/naive.py."""

import math

import numpy as np
import pytest

import naive
from ecsgoo.kernels.area import solve_area
from ecsgoo.kernels.breaking import update_springs
from ecsgoo.kernels.distance import measure_rest, solve_distance
from ecsgoo.kernels.grid import build_grid
from ecsgoo.kernels.integrate import integrate
from ecsgoo.kernels.pairs import collide_pairs
from ecsgoo.kernels.shape import solve_shape

H = 1 / 360


def _points(rng, n, spread=100.0):
    return rng.uniform(-spread, spread, size=(n, 2))


def test_integrate_matches_reference():
    rng = np.random.default_rng(1)
    n = 30
    pos, prev = _points(rng, n), _points(rng, n)
    w = rng.choice([0.0, 1.0, 0.1], size=n)
    pinned = rng.random(n) < 0.2
    pin = _points(rng, n)
    want = naive.integrate_naive(pos, prev, w, pinned, pin, (3.0, -980.0), 0.99, H)
    integrate(n, pos, prev, np.zeros((n, 2)), w, pinned, pin, 3.0, -980.0, 0.99, H,
              -1, 0.0, 0.0, 0.55)
    np.testing.assert_allclose(pos, want[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(prev, want[1], rtol=0, atol=1e-12)


def _springs(rng, n, m):
    """``n`` random particles (some pinned, some heavy) and ``m`` random springs among
    them: pos, w, a, b, rest, compliance."""
    pos = _points(rng, n)
    w = rng.choice([0.0, 1.0, 0.5], size=n)
    a = rng.integers(0, n, m)
    b = (a + rng.integers(1, n, m)) % n
    return pos, w, a, b, rng.uniform(5, 50, m), rng.choice([0.0, 1e-4, 1e-2], size=m)


def test_distance_matches_reference():
    rng = np.random.default_rng(2)
    n, m = 20, 40
    pos, w, a, b, rest, comp = _springs(rng, n, m)
    springs = [{"a": int(a[s]), "b": int(b[s]), "rest": rest[s], "compliance": comp[s],
                "lam": 0.0} for s in range(m)]
    lam = np.zeros(m)
    want = pos.tolist()
    for _ in range(3):
        want = naive.distance_naive(want, w, springs, H)
        solve_distance(np.arange(m), pos, w, a, b, rest, comp, np.zeros(m, bool), lam, H)
    np.testing.assert_allclose(pos, want, atol=1e-9)
    np.testing.assert_allclose(lam, [s["lam"] for s in springs], atol=1e-9)


def test_area_matches_reference():
    rng = np.random.default_rng(3)
    k = 12
    ang = np.sort(rng.uniform(0, 2 * np.pi, k))
    pos = np.c_[50 * np.cos(ang), 50 * np.sin(ang)] + rng.normal(0, 3, (k, 2))
    w = rng.choice([1.0, 0.5, 0.0], size=k)
    want = naive.area_naive(pos, w, list(range(k)), target=9000.0, stiffness=0.8)
    solve_area(1, pos, w, np.array([0, k]), np.arange(k), np.array([9000.0]), np.array([1.0]),
               np.array([0.8]), np.zeros((k, 2)))
    np.testing.assert_allclose(pos, want, atol=1e-9)


def test_area_projection_reaches_target_area():
    k = 16
    ang = np.linspace(0, 2 * np.pi, k, endpoint=False)
    pos = np.c_[40 * np.cos(ang), 40 * np.sin(ang)]
    for _ in range(20):
        solve_area(1, pos, np.ones(k), np.array([0, k]), np.arange(k), np.array([3000.0]),
                   np.array([1.5]), np.array([1.0]), np.zeros((k, 2)))
    area = 0.5 * np.sum(pos[:, 0] * np.roll(pos[:, 1], -1) - np.roll(pos[:, 0], -1) * pos[:, 1])
    assert area == pytest.approx(4500.0, rel=1e-6)


@pytest.mark.parametrize("scale", [1.0, 1.4, 0.6])
def test_shape_matches_brute_force_rotation(scale):
    rng = np.random.default_rng(4)
    k = 8
    rest = rng.uniform(-20, 20, (k, 2))
    mass = rng.uniform(0.5, 2.0, k)
    rest -= (mass[:, None] * rest).sum(0) / mass.sum()
    th = 0.7
    rot = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
    pos = scale * rest @ rot.T + (100, 50) + rng.normal(0, 2, (k, 2))
    w = 1 / mass
    w[2] = 0.0
    want = naive.shape_naive(pos, w, mass, list(range(k)), rest.tolist(), 0.6, scale)
    solve_shape(1, pos, w, mass, np.array([0, k]), np.arange(k), rest, np.array([0.6]),
                np.array([scale]))
    np.testing.assert_allclose(pos, want, atol=1e-6)


def test_update_springs_matches_reference_over_frames():
    rng = np.random.default_rng(5)
    n, m = 10, 15
    a = rng.integers(0, n, m)
    b = (a + 1 + rng.integers(0, n - 1, m)) % n
    rest = rng.uniform(5, 20, m)
    ms = rng.choice([1.5, 2.0, np.inf], size=m)
    stretch, over = np.zeros(m), np.zeros(m, np.int64)
    broken, buckled = np.zeros(m, bool), np.zeros(m, bool)
    ref = [{"a": int(a[s]), "b": int(b[s]), "rest": rest[s], "max_stretch": ms[s], "over": 0,
            "broken": False, "buckled": False} for s in range(m)]
    out = np.zeros(m, np.int64)
    for _ in range(6):
        pos = rng.uniform(0, 40, (n, 2))
        count = update_springs(m, pos, a, b, rest, ms, stretch, broken, buckled, over, 2, out)
        want = naive.springs_naive(pos.tolist(), ref, 2)
        assert out[:count].tolist() == want
        assert broken.tolist() == [s["broken"] for s in ref]
        assert over.tolist() == [s["over"] for s in ref]
        assert buckled.tolist() == [s["buckled"] for s in ref]
        np.testing.assert_allclose(stretch, [s["stretch"] for s in ref])


def test_grid_bins_every_particle_in_its_cell():
    rng = np.random.default_rng(6)
    n = 500
    pos = rng.uniform(-300, 900, (n, 2))
    radius = rng.uniform(2, 12, n)
    x0, y0, cell, nx, ny, start, items = build_grid(n, pos, radius, 1.0)
    assert cell >= 2 * radius.max()
    assert sorted(items.tolist()) == list(range(n))
    for c in range(nx * ny):
        members = items[start[c]:start[c + 1]]
        assert list(members) == sorted(members)
        for i in members:
            assert int((pos[i, 0] - x0) / cell) + int((pos[i, 1] - y0) / cell) * nx == c


def test_grid_survives_a_particle_flung_far_away():
    pos = np.array([[0.0, 0.0], [1e9, -1e9], [5.0, 5.0]])
    *_, nx, ny, start, items = build_grid(3, pos, np.ones(3), 1.0)
    assert nx * ny <= 4 * 3 + 64
    assert sorted(items.tolist()) == [0, 1, 2]


@pytest.mark.parametrize("downward", [False, True])
@pytest.mark.parametrize("seed", [7, 8, 9])
def test_pairs_find_and_separate_exactly_the_overlapping_pairs(seed, downward):
    """Disjoint overlapping pairs: the grid sweep (either way) resolves each one, like O(n²)."""
    rng = np.random.default_rng(seed)
    centres = [(x * 60.0, y * 60.0) for x in range(10) for y in range(10)]
    pos, radius, group = [], [], []
    for cx, cy in centres:
        ang = rng.uniform(0, 2 * np.pi)
        gap = rng.uniform(8, 14)  # radii 5..8 each: some pairs overlap, some do not
        for sgn in (-1, 1):
            pos.append((cx + sgn * gap / 2 * math.cos(ang), cy + sgn * gap / 2 * math.sin(ang)))
            radius.append(rng.uniform(5, 8))
            group.append(int(rng.integers(0, 3)))
    pos, radius, group = np.array(pos), np.array(radius), np.array(group, np.int64)
    n = len(pos)
    w = rng.choice([1.0, 0.1], size=n)
    pairs = naive.overlapping_pairs_naive(pos.tolist(), radius, group)
    assert pairs  # the scene must exercise contacts
    want = naive.separate_naive(pos.tolist(), w, radius, pairs)
    prev = pos.copy()
    x0, y0, cell, nx, ny, start, items = build_grid(n, pos, radius, 0.0)
    # push 0: no part of the correction becomes velocity, so prev must follow pos exactly
    layer, mask = np.ones(n, np.int64), np.full(n, -1, np.int64)
    collide_pairs(pos, prev, w, radius, group, layer, mask, np.zeros(n), np.zeros(n), nx, ny,
                  start, items, 0.0, 0.0, 0.0, downward)
    np.testing.assert_allclose(pos, want, atol=1e-9)
    np.testing.assert_allclose(prev, want, atol=1e-9)


@pytest.mark.parametrize("hold", [0.0, 0.004, math.inf])
def test_pair_friction_takes_the_held_slip_back_in_position_and_keeps_momentum(hold):
    """One sliding contact: Coulomb friction split between position and velocity, like naive."""
    pos = np.array([[100.0, 100.0], [117.0, 104.0]])  # 2.6 px overlap, radius 10 each
    prev = pos - np.array([[0.01, -0.02], [-0.03, 0.05]])  # slipping past each other
    w, radius, mu = np.array([1.0, 0.25]), np.full(2, 10.0), np.full(2, 0.004)
    want = naive.resolve_pair_naive(pos[0], pos[1], prev[0], prev[1], 1.0, 0.25, 0.004, hold)
    momentum = ((pos - prev) / w[:, None]).sum(axis=0)
    *_, nx, ny, start, items = build_grid(2, pos, radius, 0.0)
    # push above the overlap: all of the correction is velocity; no bounce below 1e9 px
    collide_pairs(pos, prev, w, radius, np.zeros(2, np.int64), np.ones(2, np.int64),
                  np.full(2, -1, np.int64), mu, np.zeros(2), nx, ny, start, items, 1e9, 10.0, hold)
    np.testing.assert_allclose(pos, want[:2], atol=1e-12)
    np.testing.assert_allclose(prev, want[2:], atol=1e-12)
    np.testing.assert_allclose(((pos - prev) / w[:, None]).sum(axis=0), momentum, atol=1e-12)


def test_measure_rest_matches_naive_and_reports_the_longest():
    rng = np.random.default_rng(3)
    pos = rng.uniform(-100, 100, (6, 2))
    pos[5] = pos[4] + (1e-9, 0.0)  # closer than shortest: rest 0
    a, b = np.array([0, 1, 2, 4]), np.array([1, 2, 3, 5])
    rest = np.array([np.nan, 7.0, np.nan, np.nan])
    out, longest = measure_rest(pos, a, b, rest, 1e-6)
    np.testing.assert_allclose(out, naive.measure_rest_naive(pos, a, b, rest, 1e-6),
                               rtol=1e-15)
    assert out[3] == 0.0 and np.isnan(rest[0])  # a new array; the given one is kept
    assert longest == max(np.hypot(*(pos[1] - pos[0])), np.hypot(*(pos[3] - pos[2])))
    pos[0] = np.nan
    assert np.isnan(measure_rest(pos, a, b, rest, 1e-6)[1])  # a NaN end is not hidden


@pytest.mark.parametrize("spread", [1e9, 1e300])
def test_grid_of_far_apart_dots_stays_small(spread):
    """Two dots ±spread px apart, radius 0, no slop: the cell count once wrapped int64."""
    pos = np.array([[-spread, -spread], [spread, spread]])
    *_, nx, ny, start, items = build_grid(2, pos, np.zeros(2), 0.0)
    assert 1 <= nx * ny <= 4 * 2 + 64 and sorted(items) == [0, 1]


def test_color_order_is_a_permutation_with_independent_runs():
    from ecsgoo.kernels.coloring import color_order

    rng = np.random.default_rng(10)
    n, m = 60, 400
    a = rng.integers(0, n, m)
    b = (a + rng.integers(1, n, m)) % n
    order = color_order(m, a, b, n)
    assert sorted(order.tolist()) == list(range(m))
    # reference: recolour greedily in plain Python and check each colour class is a matching
    used = [set() for _ in range(n)]
    colour = []
    for s in range(m):
        c = 0
        while c < 64 and (c in used[a[s]] or c in used[b[s]]):
            c += 1
        if c < 64:
            used[a[s]].add(c)
            used[b[s]].add(c)
        colour.append(c)
    assert [colour[s] for s in order] == sorted(colour)
    for c in set(colour) - {64}:
        ends = [e for s in range(m) if colour[s] == c for e in (a[s], b[s])]
        assert len(ends) == len(set(ends))


def test_grid_survives_nan_positions():
    pos = np.array([[0.0, 0.0], [np.nan, 3.0], [5.0, np.inf], [9.0, 9.0]])
    *_, nx, ny, start, items = build_grid(4, pos, np.ones(4), 1.0)
    assert sorted(items.tolist()) == [0, 1, 2, 3]
    assert start[-1] == 4


def test_a_nan_world_steps_without_crashing_and_check_names_it():
    from ecsgoo import Particle, World, WorldError
    from scenes import solver

    w = solver(World())
    for k in range(20):
        w.create_entity(Particle(10 + 20 * k, 50, radius=8))
    w.store.particles.cols["pos"][3] = np.nan
    with pytest.raises(WorldError, match=r"left the representable range .*\(nan, nan\)"):
        w.step(3)  # the kernels ran through it; the frame's end says so
    with pytest.raises(WorldError, match="nan"):
        w.check()


def test_outline_contact_matches_the_capsule_chain_reference():
    from ecsgoo.kernels.outlines import outline_contact

    rng = np.random.default_rng(7)
    for _ in range(40):
        k = int(rng.integers(3, 9))
        angles = np.sort(rng.uniform(0, 2 * math.pi, k))
        ring = np.column_stack([np.cos(angles), np.sin(angles)]) * rng.uniform(20, 40, (k, 1))
        radii = rng.uniform(0.5, 4.0, k)
        p = rng.uniform(-50, 50, 2)
        ri = float(rng.uniform(0.5, 5.0))
        idx = np.arange(k)
        *_, depth = outline_contact(p[0], p[1], ri, ring, radii, idx, 0, k)
        # the reference samples each edge every 1/2000 of its length
        assert depth == pytest.approx(naive.outline_clearance_naive(p, ri, ring, radii),
                                      abs=0.05)


def test_collide_corners_pushes_the_nearest_edge_like_the_reference():
    from ecsgoo.kernels.outlines import collide_corners

    rng = np.random.default_rng(11)
    pushed = 0
    for _ in range(40):
        k = int(rng.integers(4, 10))
        angles = np.sort(rng.uniform(0, 2 * math.pi, k))
        ring = np.column_stack([np.cos(angles), np.sin(angles)]) * rng.uniform(20, 40, (k, 1))
        radii, w = rng.uniform(0.5, 4.0, k), rng.uniform(0.2, 5.0, k)
        corner = np.array([[*rng.uniform(-30, 30, 2), rng.uniform(0.0, 3.0), 0.0, 0.0]])
        want = naive.corner_push_naive(corner[0, :2], corner[0, 2], ring, radii, w)
        pos, ints = ring.copy(), np.ones(k, np.int64)
        collide_corners(1, corner, np.zeros(1, np.int64), np.ones(1, np.int64),
                        np.ones(1, np.int64), 1, np.array([0, k]), np.arange(k), pos,
                        pos.copy(), w, radii, ints * 0, ints, ints, np.zeros(k), np.zeros(k),
                        1e9, 1e9, 0.0)
        np.testing.assert_allclose(pos, want, atol=1e-9)
        pushed += not np.array_equal(pos, ring)
    assert pushed > 10  # most corners met the ring


def test_packed_spring_sweeps_match_sweeping_through_the_order_both_ways():
    """Project packs the springs once a frame and sweeps them forward and backward;
    that is the same, bit for bit, as solving through the order and its reverse."""
    from ecsgoo.kernels.distance import pack_springs, sweep_springs, unpack_lam

    rng = np.random.default_rng(11)
    m = 60
    pos, w, a, b, rest, comp = _springs(rng, 30, m)
    broken = rng.random(m) < 0.2
    order = rng.permutation(m)
    want, lam_want = pos.copy(), np.zeros(m)
    for o in (order, order[::-1].copy(), order):
        solve_distance(o, want, w, a, b, rest, comp, broken, lam_want, H)
    lam = np.zeros(m)
    ends, vals = np.zeros((m, 2), dtype=np.int64), np.zeros((m, 3))
    pack_springs(order, a, b, rest, comp, broken, lam, ends, vals)
    for backward in (False, True, False):
        sweep_springs(ends, vals, pos, w, H, backward)
    unpack_lam(order, vals, lam)
    assert np.array_equal(pos, want) and np.array_equal(lam, lam_want)
