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


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("pipe", [False, True])
def test_crawl_links_is_the_python_network_to_the_bit(seed, pipe):
    from ecsgoo.kernels.riders import crawl_links

    rng = np.random.default_rng(seed)
    n, m, k = 14, 24, 12
    pos = rng.uniform(0, 400, (n, 2))
    pos[1] = pos[0]  # a link of no length (the crawl takes 1 px)
    s_a = rng.integers(0, n, m)
    s_b = (s_a + rng.integers(1, n, m)) % n  # never a loop
    s_entity = rng.permutation(np.arange(100, 100 + 3 * m, 3))[:m].astype(np.int64)
    valid = rng.random(m) < 0.8
    entity = rng.integers(1, 90, k)
    link = s_entity[rng.integers(0, m, k)].copy()
    link[0] = 7  # a spring that is gone
    link[1] = s_entity[np.flatnonzero(valid)[0]]
    t = rng.choice([0.0, 0.02, 0.5, 0.97, 1.0], k)
    heading = rng.choice([-1, 1], k).astype(np.int64)
    t[1], heading[1] = 0.0, -1  # off its a end: it turns there
    target = int(rng.integers(0, n)) if pipe else -1
    args = (pos, s_entity, s_a, s_b, valid, entity)
    for frame in (0, 17, 123456):
        want = naive.crawl_links_naive(*args, link, t, heading, 300.0, 1 / 60, frame, target)
        got = [link.copy(), t.copy(), heading.copy(), np.zeros(k, np.int64),
               np.zeros(k, np.int64), np.zeros(k, np.bool_)]
        crawl_links(*args, *got[:3], 300.0, 1 / 60, frame, target, *got[3:])
        on = want[5]
        assert (got[5] == on).all()
        for g, w in zip(got[:5], want[:5], strict=True):
            assert g[on].tobytes() == w[on].tobytes()
        assert on[1] and got[1][1] in (0.0, 1.0) and got[2][1] == (1 if got[1][1] == 0 else -1)
