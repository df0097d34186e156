"""The touching pairs of watched discs, with the grid and without (kernels.queries)."""

from __future__ import annotations

import numpy as np
import pytest

from ecsgoo.kernels.grid import build_grid
from ecsgoo.kernels.queries import touching_pairs, touching_pairs_all
from naive import touching_pairs_naive


def _pairs(count, out):
    return sorted({(int(i), int(j)) for i, j in out[:count]})


@pytest.mark.parametrize("seed", range(6))
def test_without_the_grid_the_same_pairs_as_with_it_and_as_the_naive(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 120))
    pos = rng.uniform(0, 200, (n, 2))
    pos[: n // 4] = pos[0] + rng.uniform(-3, 3, (n // 4, 2))  # a clump: many pairs
    radius = rng.uniform(2, 12, n)
    watched = rng.random(n) < (0.05, 0.3, 1.0)[seed % 3]
    watched[0] = True
    slop = 1.0
    grid = build_grid(n, pos, radius, slop)
    found = []
    for finder, args in ((touching_pairs, grid), (touching_pairs_all, ())):
        out = np.zeros((16 * n * n + 16, 2), dtype=np.int64)
        count = finder(n, pos, radius, watched, slop, *args, out)
        found.append(_pairs(count, out))
    # the naive test differs only within rounding of the distance at the reach itself
    assert found[0] == found[1] == touching_pairs_naive(pos, radius, watched, slop)


def test_a_full_out_stops_at_its_length():
    pos = np.zeros((6, 2))
    radius = np.ones(6)
    watched = np.ones(6, dtype=bool)
    out = np.zeros((4, 2), dtype=np.int64)
    assert touching_pairs_all(6, pos, radius, watched, 0.0, out) == 4
