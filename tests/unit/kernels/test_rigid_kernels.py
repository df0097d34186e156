"""The rigid-body kernels against the slow references in ``naive``."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import naive
from ecsgoo import Anchor, Particle, RigidBody, World
from ecsgoo.kernels.disc_frame import _one_cell
from ecsgoo.kernels.grid import build_grid
from ecsgoo.kernels.joints import joint_sweep
from ecsgoo.kernels.rigid import body_pairs, integrate_bodies, particles_on_static
from ecsgoo.kernels.rigid_solver import SMALL_TURN, poses, rotation


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 40), st.integers(0, 2**31))
def test_body_pairs_match_all_pairs(n, seed):
    rng = np.random.default_rng(seed)
    pos = rng.uniform(0, 300, (n, 2))
    prev = pos + rng.normal(0, 2, (n, 2))
    extent = rng.uniform(2, 30, n)
    w = np.where(rng.random(n) < 0.2, 0.0, 1.0)
    group = rng.integers(0, 3, n)
    layer = rng.choice([1, 2, 3], n)
    mask = rng.choice([-1, 1, 2], n)
    out = np.zeros((n * n + 1, 2), dtype=np.int64)
    count = body_pairs(n, pos, prev, extent, w, group, layer, mask, 1.0, 6, out,
                       np.zeros(n + 1, dtype=np.int64), np.zeros((n, 4)))
    got = {tuple(p) for p in out[:count].tolist()}
    assert len(got) == count  # no pair twice
    assert got == naive.body_pairs_naive(pos, prev, extent, w, group, layer, mask, 1.0, 6)


def _sweep_order(pos, prev, extent, margin, frames):
    """The bodies by their boxes' low x, as a fresh stable argsort orders them."""
    speed = np.abs(pos[:, 0] - prev[:, 0]) + np.abs(pos[:, 1] - prev[:, 1])
    grow = extent + margin + speed * frames
    return np.argsort(prev[:, 0] - grow, kind="stable")


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 60), st.integers(0, 2**31), st.sampled_from(["kept", "reversed", "other"]))
def test_body_pairs_from_a_kept_order_are_those_of_a_fresh_sort(n, seed, start):
    """Whatever order the last call left (moved a little, reversed: the heapsort, made for
    another count), the order and the pairs are those from a fresh stable sort: ties
    (equal boxes, NaN) go by row."""
    rng = np.random.default_rng(seed)
    pos = np.round(rng.uniform(0, 100, (n, 2)))  # rounded: many equal low x
    prev = pos.copy()
    extent = np.full(n, 5.0)
    if n > 3:
        prev[rng.integers(0, n, 2)] = np.nan
    args = (prev, extent, np.ones(n), np.zeros(n, np.int64), np.ones(n, np.int64),
            np.full(n, -1, np.int64), 1.0, 6)
    fresh_out, kept_out = np.zeros((n * n + 1, 2), np.int64), np.zeros((n * n + 1, 2), np.int64)
    fresh = np.zeros(n + 1, dtype=np.int64)
    count = body_pairs(n, pos, *args, fresh_out, fresh, np.zeros((n, 4)))
    assert fresh[:n].tolist() == _sweep_order(pos, prev, extent, 1.0, 6).tolist()
    kept = {"kept": fresh.copy(), "reversed": np.r_[np.arange(n)[::-1], n],
            "other": np.r_[rng.permutation(n), n + 1]}[start]
    if start == "kept":  # the bodies moved a little since
        pos += rng.normal(0, 3, (n, 2))
        prev[:] = np.where(np.isnan(prev), np.nan, pos)
        count = body_pairs(n, pos, *args, fresh_out, np.zeros(n + 1, dtype=np.int64),
                           np.zeros((n, 4)))
    assert body_pairs(n, pos, *args, kept_out, kept, np.zeros((n, 4))) == count
    assert kept[:n].tolist() == _sweep_order(pos, prev, extent, 1.0, 6).tolist()
    assert kept_out[:count].tolist() == fresh_out[:count].tolist()


def test_integrate_bodies_matches_verlet():
    rng = np.random.default_rng(1)
    n = 7
    pos, prev = rng.normal(0, 50, (n, 2)), rng.normal(0, 50, (n, 2))
    angle, prev_angle = rng.normal(0, 1, n), rng.normal(0, 1, n)
    force, w = rng.normal(0, 10, (n, 2)), np.array([1, 0, 2, 0.5, 0, 1, 3.0])
    want = naive.integrate_bodies_naive(pos, prev, angle, prev_angle, force, w, (0, -980),
                                        0.99, 1 / 360)
    integrate_bodies(n, pos, prev, angle, prev_angle, force, w, 0.0, -980.0, 0.99, 1 / 360)
    for got, ref in zip((pos, prev, angle, prev_angle), want, strict=True):
        assert np.allclose(got, np.array(ref), rtol=0, atol=1e-12)


def test_a_hinge_position_pass_matches_the_jacobian_solve():
    bpos = np.array([[0.0, 0.0], [30.0, 5.0]])
    bangle = np.array([0.2, -0.4])
    bw, biw = np.array([1.0, 0.5]), np.array([0.01, 0.002])
    la, lb = np.array([[12.0, 3.0]]), np.array([[-14.0, 1.0]])
    ends = []
    for i, local in ((0, la[0]), (1, lb[0])):
        c, s = math.cos(bangle[i]), math.sin(bangle[i])
        arm = (c * local[0] - s * local[1], s * local[0] + c * local[1])
        ends.append(((bpos[i, 0] + arm[0], bpos[i, 1] + arm[1]), arm))
    (pa, ra), (pb, rb) = ends
    ma, mb = naive.hinge_position_naive(pa, ra, 1.0, 0.01, pb, rb, 0.5, 0.002)
    before_p, before_a = bpos.copy(), bangle.copy()
    bprev, bprev_angle = bpos.copy(), bangle.copy()
    one = np.array([-1])
    joint_sweep(1, np.array([0]), one, np.array([1]), one, la, lb, np.array([False]),
                np.zeros((1, 2)), np.zeros(1), np.array([False]), np.zeros((1, 2)),
                np.zeros(1), np.zeros(1),
                np.array([-1e12]), np.array([1e12]), *(np.zeros(1) for _ in range(5)),
                bpos, bprev, bangle, bprev_angle, bw, biw, np.zeros((1, 2)), np.zeros((1, 2)),
                np.zeros(1), np.empty((2, 2)), np.zeros(2, dtype=np.int8),
                np.zeros(1, dtype=np.bool_), 1 / 360, 3, 3, 0)
    assert np.allclose(bpos[0] - before_p[0], ma[:2]) and np.isclose(bangle[0] - before_a[0], ma[2])
    assert np.allclose(bpos[1] - before_p[1], mb[:2]) and np.isclose(bangle[1] - before_a[1], mb[2])
    assert np.array_equal(bpos, bprev) and np.array_equal(bangle, bprev_angle)  # no velocity


def test_poses_turn_like_libm_within_two_ulps_and_use_it_beyond_small_turns():
    """``poses``' cos and sin of a turn are the Taylor series below ``SMALL_TURN``: each
    within 2 units in the last place of ``math.cos``/``math.sin``, and libm's own above."""
    turns = np.concatenate([np.linspace(-SMALL_TURN, SMALL_TURN, 20001), [1e-300, -1e-9],
                            np.linspace(SMALL_TURN, 7.0, 101), -np.linspace(SMALL_TURN, 7.0, 101)])
    n = len(turns)
    pos = np.arange(2 * n, dtype=np.float64).reshape(n, 2)
    angle0 = np.full(n, 0.75)
    out = np.zeros((n, 8))
    poses(n, pos, angle0 + turns, angle0, out)
    assert np.array_equal(out[:, :2], pos)
    for (c, s), t in zip(out[:, 2:4].tolist(), (angle0 + turns - angle0).tolist(),
                         strict=True):
        if abs(t) >= SMALL_TURN:
            assert (c, s) == (math.cos(t), math.sin(t))
        else:
            assert abs(c - math.cos(t)) <= 2 * math.ulp(math.cos(t))
            assert abs(s - math.sin(t)) <= 2 * math.ulp(math.sin(t))


_rotation = njit(lambda angle: rotation(angle))


def test_rotation_is_libm_s_cos_and_sin_within_four_ulps_of_one_however_far_turned():
    """The joints' ``rotation``: a table of π/8's multiples turned by the rest, as close to
    libm's as a few units in the last place of 1 (|cos|, |sin| ≤ 1), at any angle."""
    angles = np.concatenate([np.linspace(-7.0, 7.0, 20001), np.linspace(-1e6, 1e6, 2001),
                             np.arange(-32, 33) * (math.pi / 8), [0.0, -0.0, 1e-300]])
    for a in angles.tolist():
        c, s = _rotation(a)
        assert abs(c - math.cos(a)) <= 4 * math.ulp(1.0)
        assert abs(s - math.sin(a)) <= 4 * math.ulp(1.0)


def _static_scene(seed: int) -> World:
    """Three anchored bodies turned at random (a long thin box, a circle, a triangle) and
    120 discs of random sizes strewn over and around them (no gravity, no step)."""
    rng = np.random.default_rng(seed)
    w = World(gravity=(0, 0), bounds=None)
    for body in (RigidBody.box(200, 200, 220, 24, angle=rng.uniform(-3, 3)),
                 RigidBody.circle(430, 210, 40),
                 RigidBody.polygon(300, 380, [(0, 0), (90, 10), (30, 70)],
                                   angle=rng.uniform(-3, 3))):
        w.create_entity(body, Anchor())
    for x, y in rng.uniform((60, 60), (520, 500), (120, 2)):
        w.create_entity(Particle(x, y, radius=rng.uniform(2, 14)))
    w.store.prepare()
    return w


def _off_static(w: World, grid: tuple) -> np.ndarray:
    """``particles_on_static`` over ``grid`` on a copy of ``w``'s particle rows: where
    they end up."""
    st = w.store
    c, p = st.bodies.cols, st.particles
    pc = {k: v.copy() for k, v in p.cols.items()}
    particles_on_static(st.bodies.n, c["pos"], c["angle"], c["w"], c["extent"], c["group"],
                        c["layer"], c["mask"], c["friction"], c["restitution"],
                        st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius,
                        pc["pos"], pc["prev"], pc["w"], pc["radius"], pc["group"], pc["layer"],
                        pc["mask"], pc["friction"], pc["restitution"], *grid, 0.0, 1.0, 0.0)
    return pc["pos"][: p.n]


def _signed_gap(w: World, body: int, x: float, y: float) -> float:
    """px from ``(x, y)`` to body row ``body``'s surface, negative inside (``naive``)."""
    st = w.store
    c = st.bodies.cols
    pose = (*c["pos"][body], math.cos(c["angle"][body]), math.sin(c["angle"][body]))
    q = st.body_piece_off[body]
    verts = st.piece_verts[st.piece_vert_off[q]: st.piece_vert_off[q + 1]].tolist()
    r = st.piece_radius[q]
    world = naive._world_naive(verts, pose)
    edges = naive._core_edges_naive(world) or [(world[0], world[0])]
    core = min(naive.point_segment_distance_naive((x, y), *e) for e in edges)
    return -(core + r) if naive._inside_naive((x, y), world) else core - r


@settings(deadline=None, max_examples=30)
@given(st.integers(0, 2**31))
def test_particles_are_pushed_out_of_the_static_bodies_they_overlap_and_no_other(seed):
    w = _static_scene(seed)
    p = w.store.particles
    n, pos, radius = p.n, p.pos[: p.n], p.radius[: p.n]
    grid = build_grid(n, p.cols["pos"], p.cols["radius"], 1.0)
    after = _off_static(w, grid)
    gaps = np.array([min(_signed_gap(w, b, *pos[k]) for b in range(3)) - radius[k]
                     for k in range(n)])
    moved = (after != pos).any(axis=1)
    assert moved[gaps < -1e-6].all()  # every overlap taken out (near a box's edge too)
    assert not moved[gaps > 1e-6].any()  # and nothing clear of them touched
    # one cell of every particle (the fused frame's, for few): the very same bits
    assert np.array_equal(_off_static(w, _one_cell(n)), after)
