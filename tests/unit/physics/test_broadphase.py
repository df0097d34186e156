"""The broad phase's one-cell grid: the touching pairs of watched discs found in it are
those the particles' grid finds (physics.broadphase.one_cell, kernels.queries)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ecsgoo.kernels.grid import build_grid
from ecsgoo.kernels.queries import touching_pairs
from ecsgoo.physics.broadphase import one_cell
from naive import touching_pairs_naive


def _pairs(count, out):
    return sorted({(int(i), int(j)) for i, j in out[:count]})


@pytest.mark.parametrize("seed", range(6))
def test_one_cell_finds_the_pairs_the_grid_finds_and_the_naive(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 120))
    pos = rng.uniform(0, 200, (n, 2))
    pos[: n // 4] = pos[0] + rng.uniform(-3, 3, (n // 4, 2))  # a clump: many pairs
    radius = rng.uniform(2, 12, n)
    watched = rng.random(n) < (0.05, 0.3, 1.0)[seed % 3]
    watched[0] = True
    slop = 1.0
    found = []
    for grid in (build_grid(n, pos, radius, slop), one_cell(n)):
        out = np.zeros((16 * n * n + 16, 2), dtype=np.int64)
        count = touching_pairs(n, pos, radius, watched, slop, *grid, out)
        found.append(_pairs(count, out))
    assert found[0] == found[1] == touching_pairs_naive(pos, radius, watched, slop)


def test_one_cell_holds_every_row_in_order():
    x0, y0, cell, nx, ny, start, items = one_cell(5)
    assert (nx, ny) == (1, 1) and start.tolist() == [0, 5] and items.tolist() == [0, 1, 2, 3, 4]
    assert math.isinf(cell), "every finite point falls in the one cell, unclamped"
