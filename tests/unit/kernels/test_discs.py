"""``kernels.discs``: the contacts found against their naive reference, and one contact
solved against its closed form."""

import numpy as np
import pytest

import naive
from ecsgoo.kernels.discs import (
    ALLOW,
    LN,
    LT,
    ND,
    NX,
    NY,
    TRACK,
    contact_keys,
    find_discs,
    prepare_discs,
    reach_of,
    remember,
    room,
    room_for,
    softness,
    solve_discs,
    warm_from,
)
from ecsgoo.kernels.grid import build_grid_without


def _at_rest(reach):
    """A ``track`` of discs at rest, each allowed its reach (the pairs' test is the
    reach's alone then)."""
    track = np.zeros((len(reach), TRACK))
    track[:, ALLOW] = reach
    return track


def _found(pos, w, radius, group, reach, bounds, segs, track=None, ends=(0.0, 0.0)):
    n = len(pos)
    prev = pos.copy()
    ones = np.ones(n, dtype=np.int64)
    grid = build_grid_without(n, pos, radius + reach, 0.0, np.zeros(n, dtype=np.bool_))
    _, _, _, nx, ny, start, items = grid
    ij, cf = room(room_for(n))
    box = np.asarray(bounds if bounds is not None else (0, 0, 0, 0), dtype=np.float64)
    track = _at_rest(reach) if track is None else track.copy()
    # no planes' widening (extra > every allowance): the pairs read the track as given
    m = find_discs(pos, prev, w, radius, group, ones, -ones, np.full(n, 0.5), np.zeros(n),
                   reach, nx, ny, start, items, box, bounds is not None, segs, 1 / 360, ij, cf,
                   True, np.full((len(segs), 2), np.nan), np.ones(len(segs), dtype=np.int64),
                   track, *ends, -1e9)
    assert m >= 0
    got = {}
    for k in range(m):
        i, j = int(ij[k, 0]), int(ij[k, 1])
        if j >= 0:
            gap = np.hypot(*(pos[j] - pos[i])) - radius[i] - radius[j]
        else:  # a plane: its own gap, as the solver reads it
            gap = -(pos[i] @ cf[k, [NX, NY]]) - cf[k, ND]
        got[i, j] = float(gap)
    return got, m


def _random_discs(rng, n, most_reach):
    """``n`` discs in a 200 px square: centres, radii, reaches (up to ``most_reach`` px),
    inverse masses (a tenth 0) and groups."""
    return (rng.uniform(0, 200, (n, 2)), rng.uniform(2, 12, n), rng.uniform(0, most_reach, n),
            np.where(rng.random(n) < 0.1, 0.0, 1.0), rng.integers(0, 3, n))


@pytest.mark.parametrize("seed", range(6))
def test_found_contacts_are_the_naive_ones(seed):
    rng = np.random.default_rng(seed)
    pos, radius, reach, w, group = _random_discs(rng, 60, 4.0)
    segs = rng.uniform(0, 200, (4, 4))
    bounds = (0.0, 0.0, 200.0, 200.0) if seed % 2 else None
    got, m = _found(pos, w, radius, group, reach, bounds, segs)
    want = naive.disc_contacts_naive(pos, w, radius, group, reach, bounds, segs)
    assert got.keys() == want.keys() and m == len(got)  # each once
    assert all(got[k] == pytest.approx(want[k], abs=1e-9) for k in want)


@pytest.mark.parametrize("seed", range(6))
def test_pairs_are_the_naive_ones_along_their_paths(seed):
    """Discs moving (half of them together, as a crowd falls): a pair within reach is a
    contact only if its paths come within the allowances (``may_meet``), as the naive
    reference finds by sampling the paths."""
    rng = np.random.default_rng(seed)
    n = 80
    pos, radius, reach, w, group = _random_discs(rng, n, 30.0)
    track = np.zeros((n, TRACK))
    track[:, :2] = np.where(rng.random((n, 1)) < 0.5, (0.0, -3.0), rng.normal(0, 3, (n, 2)))
    track[:, 2:4] = np.where(rng.random((n, 1)) < 0.8, (0.0, -980.0), (0.0, 0.0))
    track[:, ALLOW] = rng.uniform(0, 3, n)
    ends = (5.9, 2e-4)
    got, m = _found(pos, w, radius, group, reach, None, np.zeros((0, 4)), track, ends)
    want = naive.disc_contacts_naive(pos, w, radius, group, reach, None, [], track, ends)
    assert got.keys() == want.keys() and m == len(got)
    assert 0 < m < len(naive.disc_contacts_naive(pos, w, radius, group, reach, None, []))


def test_room_runs_out_and_says_so():
    pos = np.zeros((40, 2))
    n = len(pos)
    radius, reach = np.full(n, 5.0), np.zeros(n)
    grid = build_grid_without(n, pos, radius, 0.0, np.zeros(n, dtype=np.bool_))
    ij, cf = room(10)
    ones = np.ones(n, dtype=np.int64)
    m = find_discs(pos, pos.copy(), np.ones(n), radius, np.zeros(n, dtype=np.int64), ones,
                   -ones, np.ones(n), np.zeros(n), reach, *grid[3:], np.zeros(4), False,
                   np.zeros((0, 4)), 1 / 360, ij, cf, True, np.zeros((0, 2)),
                   np.zeros(0, dtype=np.int64), _at_rest(reach), 0.0, 0.0, 2.0)
    assert m == -1  # 780 pairs do not fit in 10 rows


def test_a_rigid_contact_stops_an_approach_in_one_solve():
    # a disc 1 px above the floor at the substep's start (prev), falling at 600 px/s
    # (pos: where it would be): the speculative contact lets it close the gap in the
    # substep and no more, by an impulse of mass · (600 − gap / h)
    h = 1 / 360
    pos, prev = np.array([[0.0, 11.0 - 600 * h]]), np.array([[0.0, 11.0]])
    w, radius = np.array([0.5]), np.array([10.0])
    ij, cf = room(1)
    ij[0] = (0, -1)
    cf[0, NX], cf[0, NY], cf[0, ND] = 0.0, -1.0, radius[0]  # the floor, y = 0
    prepare_discs(1, ij, cf, pos, w, radius, 0.0, -1.0, 100.0)
    soft = np.array([softness(30, 10, h), softness(60, 10, h)])
    solve_discs(1, ij, cf, pos, prev, h, False, soft, 300.0)
    vy = (pos[0, 1] - prev[0, 1]) / h
    assert vy == pytest.approx(-1.0 / h)  # closes the 1 px gap this substep
    assert cf[0, LN] == pytest.approx((600 - 1 / h) / 0.5)


@pytest.mark.parametrize("seed", range(4))
def test_impulses_carry_over_by_entity_pair_as_a_dict_would(seed):
    """Keys, the warm start's merge and the memory against a plain dict keyed by the
    pair's entities: a contact gets last frame's impulses of the same two entities,
    with the tangent turned when they come the other way round."""
    rng = np.random.default_rng(seed)
    ent = rng.permutation(50)  # row → entity
    ij = np.array([(i, j) for i in range(20) for j in list(range(i + 1, 20)) + [-1, -6]
                   if rng.random() < 0.3], dtype=np.int64).reshape(-1, 2)
    m, wall, shift = len(ij), 1000, 1 << 23
    keys, flipped = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.bool_)
    contact_keys(m, ij, ent, wall, shift, keys, flipped)
    cf = np.zeros((m, 12))
    cf[:, LN], cf[:, LT] = rng.normal(size=m), rng.normal(size=m)
    out_keys, out = np.empty(m, dtype=np.int64), np.empty((m, 2))
    remember(m, keys, flipped, np.argsort(keys), cf, out_keys, out)

    def pair(k):  # the two entities, a plane by its code, unordered
        a, j = ent[ij[k, 0]], ij[k, 1]
        return a, (ent[j] if j >= 0 else wall - 1 - j)

    memory = {}
    for k in range(m):
        a, b = pair(k)
        memory[(min(a, b), max(a, b))] = (cf[k, LN], cf[k, LT] if a < b else -cf[k, LT])
    assert list(out_keys) == sorted(a * shift + b for a, b in memory)
    assert [tuple(r) for r in out] == [memory[divmod(int(k), shift)] for k in out_keys]
    # next frame: half the rows come the other way round, some pairs are new
    ent2 = ent.copy()
    ent2[:10] = ent[:10][::-1]
    keys2, flipped2 = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.bool_)
    contact_keys(m, ij, ent2, wall, shift, keys2, flipped2)
    cf2 = np.zeros((m, 12))
    warm_from(m, keys2, flipped2, np.argsort(keys2), cf2, out_keys, out)
    for k in range(m):
        a, j = ent2[ij[k, 0]], ij[k, 1]
        b = ent2[j] if j >= 0 else wall - 1 - j
        ln, lt = memory.get((min(a, b), max(a, b)), (0.0, 0.0))
        assert (cf2[k, LN], cf2[k, LT]) == (ln, lt if a < b else -lt)


def test_reach_is_the_frames_move_at_most_to_the_largest_discs_diameter_plus_the_margin():
    pos = np.array([[3.0, 4.0], [0.0, 0.0], [100.0, 0.0], [np.nan, 0.0], [0.0, 50.0]])
    prev = np.zeros((5, 2))
    out = np.empty(5)
    reach_of(5, pos, prev, np.array([20.0, 1.0, 2.0, 1.0, 20.0]), 6.0, 2.0, out)
    # 5 px × 6; at rest; capped where radius + reach is the largest disc's 3r (58 + 2 px
    # for r = 2); NaN: 0; the largest disc capped at its diameter
    assert list(out) == [32.0, 2.0, 60.0, 2.0, 42.0]
