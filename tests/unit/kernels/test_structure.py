"""``kernels.structure.danger_rows``: the analyze stage's critical springs, to the bit of
``analysis.danger_order`` (the public numpy form)."""

import math

import numpy as np
import pytest

from ecsgoo import analysis
from ecsgoo.kernels.structure import danger_rows


@pytest.mark.parametrize("seed", range(12))
def test_danger_rows_is_danger_order(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 60))
    stretch = rng.choice([0.9, 1.0, 1.2, 1.5, 2.0, 3.0, math.inf, math.nan], m)
    smooth = rng.random(m) < 0.5  # most values apart, some tied, inf and NaN among them
    stretch[smooth] = rng.uniform(0.8, 2.5, int(smooth.sum()))
    limit = rng.choice([1.5, 2.0, 2.0, math.inf, 1e-320], m)
    rows = rng.permutation(m)[: int(rng.integers(0, m + 1))].astype(np.int64)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN slack, as the kernel's
        want = rows[analysis.danger_order(stretch[rows], limit[rows], np.arange(len(rows)))]
    assert danger_rows(stretch, limit, rows).tolist() == want.tolist()


def test_ties_keep_the_rows_order_and_breakable_first():
    stretch = np.array([1.0, 1.0, 1.0, 1.0, 2.0])
    limit = np.array([2.0, math.inf, 2.0, 2.0, math.inf])  # slack 0.5, 1, 0.5, 0.5, 1
    rows = np.array([3, 1, 4, 0, 2], dtype=np.int64)
    assert danger_rows(stretch, limit, rows).tolist() == [3, 0, 2, 1, 4]


@pytest.mark.parametrize("seed", range(6))
def test_members_is_the_numpy_form(seed):
    from ecsgoo.kernels.structure import members

    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 40)), int(rng.integers(0, 60))
    p_entity = rng.permutation(np.arange(5, 5 + 3 * n, 3))[:n].astype(np.int64)
    pinned, grounded = rng.random(n) < 0.2, rng.random(n) < 0.5
    s_a, s_b = rng.integers(0, n, m), rng.integers(0, n, m)
    broken = rng.random(m) < 0.3
    ents = rng.permutation(p_entity)[: int(rng.integers(0, n + 1))]
    order = np.argsort(p_entity, kind="stable")  # the numpy form it replaced
    rows = order[np.searchsorted(p_entity[order], ents)]
    degree = np.bincount(np.concatenate([s_a[~broken], s_b[~broken]]), minlength=n)
    linked = (degree[rows] > 0) | pinned[rows]
    got = members(p_entity, pinned, s_a, s_b, broken, grounded, ents)
    for g, want in zip(got, (rows, linked, grounded[rows] & linked), strict=True):
        assert g.tolist() == want.tolist()
