"""The rigid-body kernels against the slow references in ``naive``."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from ecsgoo.kernels.joints import solve_joints
from ecsgoo.kernels.rigid import body_pairs, integrate_bodies


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
    count = body_pairs(n, pos, prev, extent, w, group, layer, mask, 1.0, 6, out)
    got = {tuple(p) for p in out[:count].tolist()}
    assert len(got) == count  # no pair twice
    assert got == naive.body_pairs_naive(pos, prev, extent, w, group, layer, mask, 1.0, 6)


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


def test_a_hinge_matches_the_generalised_mass_split():
    bpos = np.array([[0.0, 0.0], [30.0, 5.0]])
    bangle = np.array([0.2, -0.4])
    bw, biw = np.array([1.0, 0.5]), np.array([0.01, 0.002])
    la, lb = np.array([[12.0, 3.0]]), np.array([[-14.0, 1.0]])
    pa = [bpos[0, 0] + math.cos(0.2) * 12 - math.sin(0.2) * 3,
          bpos[0, 1] + math.sin(0.2) * 12 + math.cos(0.2) * 3]
    pb = [bpos[1, 0] + math.cos(-0.4) * -14 - math.sin(-0.4) * 1,
          bpos[1, 1] + math.sin(-0.4) * -14 + math.cos(-0.4) * 1]
    ra, rb = (pa[0] - bpos[0, 0], pa[1] - bpos[0, 1]), (pb[0] - bpos[1, 0], pb[1] - bpos[1, 1])
    (ma, mb) = naive.hinge_naive(pa, ra, 1.0, 0.01, pb, rb, 0.5, 0.002)
    before_p, before_a = bpos.copy(), bangle.copy()
    force = np.zeros(1)
    solve_joints(1, np.array([0]), np.array([-1]), np.array([1]), np.array([-1]), la, lb,
                 np.array([False]), np.zeros(1), np.array([False]), force, bpos, bangle, bw, biw,
                 np.zeros((1, 2)), np.zeros(1), 1 / 360)
    assert np.allclose(bpos[0] - before_p[0], ma[:2]) and np.isclose(bangle[0] - before_a[0], ma[2])
    assert np.allclose(bpos[1] - before_p[1], mb[:2]) and np.isclose(bangle[1] - before_a[1], mb[2])
