"""The fused disc frame's own helpers against numpy (``kernels.disc_frame``)."""

from __future__ import annotations

import numpy as np
import pytest

from ecsgoo.kernels.disc_frame import FEW_KEYS, _sorting_order


@pytest.mark.parametrize("m", [0, 1, 2, 7, 46, FEW_KEYS, FEW_KEYS + 1, 200])
def test_the_sorting_order_is_numpys_for_unique_keys(m: int) -> None:
    rng = np.random.default_rng(m)
    for keys in (rng.choice(1 << 40, size=m, replace=False).astype(np.int64),
                 np.arange(m, dtype=np.int64) * 3,  # in order already
                 np.arange(m, dtype=np.int64)[::-1].copy()):  # the other way round
        order = _sorting_order(keys)
        assert order.dtype == np.int64
        assert np.array_equal(order, np.argsort(keys))
