"""``kernels.calm``: numpy's sums, and calming cut chains, to the bit of the numpy form
(``naive.calm_pieces_naive``)."""

import numpy as np
import pytest

import naive
from ecsgoo.kernels.calm import calm_pieces, pairwise_sum


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 16, 127, 128, 129, 300, 1000])
def test_pairwise_sum_is_numpys_sum_to_the_bit(n):
    rng = np.random.default_rng(n)
    for _ in range(20):
        a = rng.normal(size=n) * 10.0 ** rng.uniform(-4, 4, n)
        assert pairwise_sum(a, 0, n) == a.sum()


def _pieces(rng, n):
    """A random scene of ``n`` rows: two pinned rows, stubs on them, a tail with a candy,
    bending triples along both."""
    pos = rng.uniform(-200, 200, (n, 2))
    prev = pos - rng.normal(0, 3, (n, 2))
    mass = rng.uniform(0.05, 2.0, n)
    pinned = np.zeros(n, dtype=np.bool_)
    pinned[:2] = True
    rows = rng.permutation(np.arange(2, n))
    cut = len(rows) // 3
    stubs, tails = rows[:cut], rows[cut:]
    pins = rng.integers(0, 2, len(stubs))
    chain = np.concatenate([[0], stubs, [1], tails])
    a, m, b = chain[:-2], chain[1:-1], chain[2:]
    bent = np.unique(np.concatenate([a, b]))
    return pos, prev, mass, pinned, stubs, pins, tails, a, m, b, bent


@pytest.mark.parametrize("n", [5, 12, 40, 200])
def test_calm_pieces_is_the_numpy_form_to_the_bit(n):
    rng = np.random.default_rng(n)
    for down in ((0.0, -1.0), (0.6, -0.8)):
        args = _pieces(rng, n)
        consts = (np.array(down), 6, 0.93, 0.5, 0.6, 1.0)
        got = args[1].copy()
        calm_pieces(args[0], got, *args[2:], *consts)
        want = naive.calm_pieces_naive(*args, *consts)
        assert np.array_equal(got, want)
        assert got.tobytes() == want.tobytes()
