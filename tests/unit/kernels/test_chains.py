"""``kernels.chains``: which springs make chains, and a chain's step against the dense
solve of the same XPBD system (``naive.xpbd_step_naive``)."""

import numpy as np
import pytest

import naive
from ecsgoo.kernels.chains import chain_room, chain_scratch, find_chains, solve_chains

NO_TETHERS = (np.zeros(0, dtype=np.int64),) * 3


def _chains(pairs, n, tethers=NO_TETHERS):
    ends = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    off, rows, cends = chain_room(len(ends) + len(tethers[0]))
    skip = np.zeros(len(tethers[0]), dtype=np.bool_)
    count = find_chains(ends, n, *tethers, off, rows, cends, skip)
    return [rows[off[c]:off[c + 1]].tolist() for c in range(count)], ends, skip


def test_a_path_is_one_chain_in_path_order_and_leaves_the_sweep():
    chains, ends, _ = _chains([(2, 3), (0, 1), (1, 2)], 4)  # packed out of order
    assert chains == [[1, 2, 0]] or chains == [[0, 2, 1]]
    assert (ends == -1).all()


def test_a_ring_a_lone_spring_and_a_loop_on_a_stem_stay_in_the_sweep():
    ring = [(0, 1), (1, 2), (2, 0)]
    lone = [(3, 4)]
    lollipop = [(5, 6), (6, 7), (7, 5), (5, 8)]  # 5 has three springs: 6-7 loop back to it
    chains, ends, _ = _chains(ring + lone + lollipop, 9)
    assert chains == []
    assert (ends >= 0).all()


def test_a_star_makes_one_chain_per_arm_and_broken_springs_split_them():
    # a centre (0) with three arms of two springs each; arm 3's (5, 6) is broken (the
    # pack writes −1 for it), so (0, 5) and (6, 7) are lone springs
    pairs = [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (-1, -1), (6, 7)]
    chains, ends, _ = _chains(pairs, 8)
    assert sorted(map(sorted, chains)) == [[0, 1], [2, 3]]
    assert ends[4].tolist() == [0, 5] and ends[6].tolist() == [6, 7]


@pytest.mark.parametrize("seed", range(5))
def test_a_chain_step_is_the_dense_solve_of_its_system(seed):
    rng = np.random.default_rng(seed)
    n = 8
    pos = np.cumsum(rng.normal(0, 10, (n, 2)), axis=0)
    w = rng.choice([1.0, 0.001, 0.5], n)
    w[0] = 0.0 if seed % 2 else w[0]  # anchored, or free
    w[4] = 0.0 if seed == 3 else w[4]  # an anchor inside the chain
    pairs = [(k, k + 1) if rng.random() < 0.5 else (k + 1, k) for k in range(n - 1)]
    rest = rng.uniform(5, 15, n - 1)
    compliance = rng.choice([0.0, 1e-6], n - 1)
    springs = [{"a": a, "b": b, "rest": r, "compliance": c, "lam": 0.3}
               for (a, b), r, c in zip(pairs, rest, compliance, strict=True)]
    h = 1 / 360
    want = naive.xpbd_step_naive(pos.tolist(), w, springs, h)
    ends = np.array(pairs, dtype=np.int64)
    off, rows, cends = chain_room(len(ends))
    scratch = chain_scratch(len(ends))
    assert find_chains(ends, n, *NO_TETHERS, off, rows, cends, np.zeros(0, bool)) == 1
    vals = np.column_stack([rest, compliance, np.full(n - 1, 0.3)])
    got = pos.copy()
    solve_chains(1, off, rows, cends, vals, got, w, h, scratch, _no_bodies(), np.zeros((0, 2)),
                 np.zeros(0), np.zeros(0), np.zeros(0))
    assert got == pytest.approx(np.array(want), abs=1e-9)
    assert vals[:, 2] == pytest.approx([s["lam"] for s in springs], rel=1e-9, abs=1e-9)


def _no_bodies():
    i, f = np.zeros(0, dtype=np.int64), np.zeros(0)
    return (i, i, i, i, np.zeros((0, 2)), np.zeros((0, 2)), f, f, f)


def test_a_rope_ends_in_its_tether_and_a_rope_between_two_bodies_is_one_chain():
    # tether 0: body 0 — particle 0 (its b end); rope 0-1-2; tether 1: particle 2 — body 1
    tp = np.array([0, 2], dtype=np.int64)
    side = np.array([1, 0], dtype=np.int64)
    body = np.array([0, 1], dtype=np.int64)
    chains, ends, skip = _chains([(0, 1), (1, 2)], 3, (tp, side, body))
    assert len(chains) == 1 and sorted(chains[0]) == [-2, -1, 0, 1]
    assert skip.all() and (ends == -1).all()
    # the same rope's two tethers on one body: a loop through it, left to the sweeps
    chains, ends, skip = _chains([(0, 1), (1, 2)], 3, (tp, side, np.array([0, 0])))
    assert chains == [] and not skip.any()


def test_a_tether_at_the_end_of_a_chain_moves_its_body_as_a_particle_there_would():
    """A rope of three particles tied by a tether (arm 0: no turning) to a body: the
    step is the dense solve's with the body as a fourth particle of the body's mass."""
    rng = np.random.default_rng(7)
    pos = np.array([[0.0, 0.0], [3.0, -9.0], [-2.0, -21.0]])
    bpos, bangle = np.array([[1.0, -33.0]]), np.zeros(1)
    w, bw, biw = np.array([0.0, 1.0, 1.0]), np.array([0.05]), np.array([0.001])
    rest = rng.uniform(9, 11, 3)
    springs = [{"a": a, "b": b, "rest": r, "compliance": 0.0, "lam": 0.0}
               for (a, b), r in zip([(0, 1), (1, 2), (2, 3)], rest, strict=True)]
    want = naive.xpbd_step_naive([*pos.tolist(), bpos[0].tolist()], [*w, bw[0]], springs,
                                 1 / 360)
    ends = np.array([(0, 1), (1, 2)], dtype=np.int64)
    tp, side, body = (np.array([2], dtype=np.int64), np.zeros(1, dtype=np.int64),
                      np.zeros(1, dtype=np.int64))
    off, rows, cends = chain_room(3)
    scratch = chain_scratch(3)
    skip = np.zeros(1, dtype=np.bool_)
    assert find_chains(ends, 3, tp, side, body, off, rows, cends, skip) == 1 and skip[0]
    i = np.array([-1], dtype=np.int64)
    tethers = (i, np.array([2]), np.zeros(1, dtype=np.int64), i, np.zeros((1, 2)),
               np.zeros((1, 2)), rest[2:], np.zeros(1), np.zeros(1))
    vals = np.column_stack([rest[:2], np.zeros(2), np.zeros(2)])
    solve_chains(1, off, rows, cends, vals, pos, w, 1 / 360, scratch, tethers, bpos, bangle,
                 bw, biw)
    assert np.vstack([pos, bpos]) == pytest.approx(np.array(want), abs=1e-9)
    assert bangle[0] == 0.0 and tethers[8][0] == pytest.approx(springs[2]["lam"])
