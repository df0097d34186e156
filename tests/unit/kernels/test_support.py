"""``kernels.support.carried`` against its naive reference, and in the pair kernel."""

import numpy as np
import pytest

import naive
from ecsgoo.kernels.grid import build_grid
from ecsgoo.kernels.pairs import collide_pairs
from ecsgoo.kernels.support import carried


def test_carried_matches_the_naive_rule_on_random_inputs():
    rng = np.random.default_rng(4)
    for _ in range(2000):
        wi, wj = (float(v) for v in rng.choice([0.0, 1e-3, 0.5, 1.0, 2.0], 2))
        s = float(rng.uniform(-1, 1)) if rng.random() < 0.9 else float(rng.choice([-1, 0, 1]))
        assert carried(wi, wj, s) == pytest.approx(naive.carried_naive(wi, wj, s), abs=1e-15)


def test_only_a_light_carrier_changes_and_never_below_its_load():
    # i carries a 100× heavier j: equal shares
    assert carried(1.0, 0.01, -1.0) == pytest.approx((0.01, 0.01))
    assert carried(0.01, 1.0, -1.0) == (0.01, 1.0)  # i is the heavy one: as it is
    assert carried(1.0, 1.0, 0.7) == (1.0, 1.0)  # equal masses: untouched
    assert carried(1.0, 0.0, -1.0) == (1.0, 0.0)  # a pinned load needs no carrying
    assert carried(0.01, 1.0, 0.5) == pytest.approx((0.01, 0.505))  # half lined up: halfway


def _two_discs(u_top: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A heavy disc (w 0.01) 1 px into a light one (w 1) under it, the heavy one moving
    ``u_top`` px this substep along −y; both radius 10. Returns pos, prev, w."""
    pos = np.array([[0.0, 0.0], [0.0, 19.0]])
    prev = pos.copy()
    prev[1, 1] += u_top
    return pos, prev, np.array([1.0, 0.01])


def _collide(pos, prev, w, down):
    n = len(w)
    grid = build_grid(n, pos, np.full(n, 10.0), 0.0)
    _, _, _, nx, ny, start, items = grid
    zeros, ones = np.zeros(n), np.ones(n, np.int64)
    collide_pairs(pos, prev, w, np.full(n, 10.0), np.zeros(n, np.int64), ones, ones, zeros,
                  zeros, nx, ny, start, items, 100.0 / 360, 300.0 / 360, 0.0, False, *down)


def test_a_resting_light_disc_under_a_heavy_one_takes_half_the_overlap():
    pos, prev, w = _two_discs(0.0)
    _collide(pos, prev, w, (0.0, -1.0))
    assert pos[0, 1] == pytest.approx(-0.5) and pos[1, 1] == pytest.approx(19.5)
    pos, prev, w = _two_discs(0.0)
    _collide(pos, prev, w, (0.0, 0.0))  # no gravity: true masses, the light one moves
    assert pos[0, 1] == pytest.approx(-1.0 / 1.01)
    assert pos[1, 1] == pytest.approx(19.0 + 0.01 / 1.01)


def test_an_impact_keeps_the_true_masses():
    pos, prev, w = _two_discs(2.0)  # 720 px/s downward: faster than the bounce speed
    _collide(pos, prev, w, (0.0, -1.0))
    assert pos[0, 1] == pytest.approx(-1.0 / 1.01)
