"""kernels.stillness against their numpy forms."""

import numpy as np
import pytest

from ecsgoo.kernels.stillness import any_ready


@pytest.mark.parametrize("seed", range(20))
def test_any_ready_is_some_movable_row_still_long_enough(seed):
    rng = np.random.default_rng(seed)
    n, m = rng.integers(0, 6, size=2)
    pinned, bpinned = rng.random(n) < 0.3, rng.random(m) < 0.3
    mass = np.where(rng.random(n) < 0.2, np.inf, rng.uniform(0.5, 2.0, n))
    still, bstill = rng.integers(0, 40, n), rng.integers(0, 40, m)
    movable = np.concatenate([~pinned & (mass < np.inf), ~bpinned])
    expected = bool((movable & (np.concatenate([still, bstill]) >= 30)).any())
    assert any_ready(n, pinned, mass, still, m, bpinned, bstill, 30) is expected
