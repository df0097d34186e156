"""The contacts' passes in lanes (``kernels.lanes``) against the one-at-a-time passes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecsgoo.kernels.coloring import COLORS
from ecsgoo.kernels.contact_rows import CF, LMAX, LN, LT, MN, MT, MU, NX, NY, POSE, TOUCHED
from ecsgoo.kernels.lanes import (
    ENDS,
    LANES,
    impulses_out,
    lane_pass,
    lane_warm,
    pack_lanes,
    touch_ends,
)
from ecsgoo.kernels.rigid_find import _solve_order
from ecsgoo.kernels.rigid_solver import _relax_pass, _solve_pass, _warm_pass


def _contacts(seed: int, n: int, m: int, hub: int):
    """``m`` contacts among ``n`` bodies (some static, some pinned by the world: ``b`` -1),
    ``hub`` of them on body 0 (more than 64: the shared last colour), with random
    normals, arms, masses, friction and impulses, and the bodies' poses and velocities."""
    rng = np.random.default_rng(seed)
    bw = np.where(rng.random(n) < 0.15, 0.0, rng.uniform(0.01, 2.0, n))
    bw[0] = 1.0  # the hub moves
    biw = np.where(bw == 0.0, 0.0, rng.uniform(1e-4, 0.1, n))
    ci = np.full((m, 4), -1, dtype=np.int64)
    ci[:, 0] = np.where(np.arange(m) < hub, 0, rng.integers(0, n, m))
    other = (ci[:, 0] + rng.integers(1, n, m)) % n
    ci[:, 1] = np.where(rng.random(m) < 0.3, -1, other)
    # most rows a manifold's second point (the same two bodies as the row before), some
    # runs of three or four (a compound body's pieces)
    for k in np.flatnonzero(rng.random(m) < 0.6):
        if k > 0:
            ci[k, :2] = ci[k - 1, :2]
    cf = np.zeros((m, CF))
    angle = rng.uniform(0, 2 * np.pi, m)
    cf[:, NX], cf[:, NY] = np.cos(angle), np.sin(angle)
    cf[:, 2:10] = rng.normal(0, 15, (m, 8))  # anchors and arms
    cf[:, MN], cf[:, MT], cf[:, MU] = rng.uniform(0.1, 5, m), rng.uniform(0.1, 5, m), 0.6
    cf[:, LN], cf[:, LT] = rng.uniform(0, 50, m), rng.normal(0, 10, m)
    cf[:, LMAX] = rng.uniform(0, 5, m)
    pose = np.zeros((n, POSE))
    turn = rng.uniform(-0.2, 0.2, n)
    pose[:, 0:2] = rng.uniform(0, 400, (n, 2))
    pose[:, 2], pose[:, 3] = np.cos(turn), np.sin(turn)
    pose[:, 4:7] = rng.normal(0, 100, (n, 3))
    return ci, cf, bw, biw, pose


def _order(ci, bw, biw, n):
    """The order, manifolds and runs ``rigid_find._solve_order`` gives (the ends that
    cannot move left out of the colouring)."""
    m = len(ci)
    order = np.zeros(m, dtype=np.int64)
    ends = np.zeros((ENDS, max(m, 64, COLORS + 1)), dtype=np.int64)
    _solve_order(m, ci, bw, biw, n, order, ends)
    return order, ends


@pytest.mark.parametrize("mode", ["warm start", "solve", "relax"])
@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 40), m=st.integers(1, 400),
       hub=st.sampled_from([0, 3, 90]))
def test_a_lane_pass_gives_the_bits_of_the_pass_one_contact_at_a_time(mode, seed, n, m, hub):
    """Manifolds of a colour solved side by side, chunk by chunk (their first points,
    then their second), and the shared last colour one by one, give what the
    one-at-a-time pass gives, to the bit: impulses,
    largest impulse steps, velocities and the touched marks (the warm start: the same
    order, read from the lanes)."""
    hub = min(hub, m)
    ci, cf, bw, biw, pose = _contacts(seed, n, m, hub)
    cf[::7, LN], cf[::7, LT] = 0.0, 0.0  # some with nothing to warm-start
    order, ends = _order(ci, bw, biw, n)
    want_cf, want_pose = cf.copy(), pose.copy()
    one_at_a_time = {"warm start": _warm_pass, "solve": _solve_pass, "relax": _relax_pass}
    one_at_a_time[mode](m, order, ci, want_cf, bw, biw, 360.0, want_pose)
    lanes = np.zeros((LANES, ends.shape[1]))
    pack_lanes(order, ci, cf, bw, biw, lanes, ends)  # the impulses too
    touch_ends(ends, pose)
    if mode == "warm start":
        lane_warm(ends, lanes, pose)
    else:
        lane_pass(ends, lanes, 360.0, pose)
    impulses_out(order, cf, lanes, ends)
    assert np.array_equal(cf, want_cf)
    assert np.array_equal(pose[:, :TOUCHED], want_pose[:, :TOUCHED])
    # every end marked changed (the one-at-a-time warm start marks those it pushed: a
    # solve or relax follows it in a sweep, and marks them all)
    ends_of = np.unique(np.concatenate([ci[:, 0], ci[ci[:, 1] >= 0, 1]]))
    assert np.array_equal(np.flatnonzero(pose[:, TOUCHED]), ends_of)
    if mode != "warm start":
        assert np.array_equal(pose[:, TOUCHED], want_pose[:, TOUCHED])


def test_the_runs_cover_the_order_and_the_last_colour_takes_a_hub():
    """``_solve_order``: a manifold is one or two consecutive rows of the same two bodies,
    its rows together in ``order``; colour ``c``'s manifolds are ``runs[c]:runs[c + 1]``,
    those of two rows first (``ends[4, c]`` of them); no two of a colour below the last
    share a body that can move, and a body with more than 64 manifolds puts the rest in
    the last colour."""
    ci, _, bw, biw, _ = _contacts(5, 12, 200, 90)
    order, ends = _order(ci, bw, biw, 12)
    runs = ends[2, : COLORS + 1]
    nm = runs[-1]
    assert runs[0] == 0 and np.all(np.diff(runs) >= 0)
    assert sorted(order.tolist()) == list(range(200))
    assert ends[3, :nm].sum() == 200 and set(ends[3, :nm].tolist()) == {1, 2}
    first = np.concatenate([[0], np.cumsum(ends[3, :nm])])
    for q in range(nm):
        rows = order[first[q]: first[q + 1]]
        assert np.all(ci[rows, 0] == ends[0, q]) and np.all(ci[rows, 1] == ends[1, q])
        assert len(rows) == 1 or rows[1] == rows[0] + 1
    assert runs[COLORS] - runs[COLORS - 1] > 0  # the hub's overflow
    movable = (bw != 0.0) | (biw != 0.0)
    for c in range(COLORS - 1):
        sizes = ends[3, runs[c]: runs[c + 1]]
        twos = ends[4, c]
        assert np.all(sizes[:twos] == 2) and np.all(sizes[twos:] == 1)
        ends_of = [e for q in range(runs[c], runs[c + 1]) for e in ends[:2, q]
                   if e >= 0 and movable[e]]
        assert len(ends_of) == len(set(ends_of))


def test_a_resting_pair_of_boxes_is_one_manifold_of_two_rows():
    """The narrow phase writes a pair's two points together: a box on a box on the ground
    gives two manifolds of two rows each."""
    from ecsgoo import Anchor, RigidBody, World, systems

    world = World().use(*(s() for s in systems.SOLVER))
    world.create_entity(RigidBody.box(400, 20, 800, 40), Anchor())
    for y in (60, 100):
        world.create_entity(RigidBody.box(400, y, 40, 40))
    world.step(30)
    found = world.contacts
    order, ends = _order(found.ci[: found.bodies], world.store.bodies.cols["w"],
                         world.store.bodies.cols["iw"], world.store.bodies.n)
    assert ends[2, COLORS] == 2 and list(ends[3, :2]) == [2, 2]
