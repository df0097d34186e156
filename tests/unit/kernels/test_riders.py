"""``kernels.riders``: particles riding on links, to the bit of the numpy form
(``naive.ride_links_naive``)."""

import numpy as np
import pytest

import naive
from ecsgoo.kernels.riders import ride_links


@pytest.mark.parametrize("riders", [1, 3, 25])
@pytest.mark.parametrize("load", [0.0, 1.0, 0.7])
def test_ride_links_is_the_numpy_form_to_the_bit(riders, load):
    rng = np.random.default_rng(riders)
    n = 12
    pos = rng.uniform(0, 800, (n, 2))
    prev = pos - rng.normal(0, 2, (n, 2))
    pinned = rng.random(n) < 0.3
    mass = rng.uniform(0.5, 2.0, n)
    rows = rng.integers(0, n, riders)
    a, b = rng.integers(0, n, riders), rng.integers(0, n, riders)  # ends shared by riders
    t = rng.random(riders)
    args = (pos, prev, 1 / 360, pinned, mass, rows, a, b, t, load, 0.0, -980.0, -280.0)
    where, speed = np.empty((riders, 2)), np.empty((riders, 2))
    force, touched = np.zeros((n, 2)), np.zeros(n, dtype=np.bool_)
    ride_links(*args, where, speed, force, touched)
    want = naive.ride_links_naive(*args)
    for got, expected in zip((where, speed, force, touched), want, strict=True):
        assert got.tobytes() == expected.tobytes()
