"""``derived``: a row's inverse mass written alone (a component added or changed) is what
the rows' arrays write for it, pinned, frozen, kinematic or not, of any mass."""

import numpy as np
import pytest

from ecsgoo import Particle, RigidBody, World
from ecsgoo.derived import inverse_masses


def _tables():
    w = World()
    for k in range(6):
        w.create_entity(RigidBody.box(50.0 * k, 0.0, 10.0, 10.0, mass=1.0 + k))
        w.create_entity(Particle(50.0 * k, 100.0, mass=1.0 + k))
    return w.store.particles, w.store.bodies


@pytest.mark.parametrize("seed", range(3))
def test_one_rows_inverse_mass_is_the_arrays_one(seed):
    rng = np.random.default_rng(seed)
    for table in _tables():
        c = table.cols
        n = table.n
        c["mass"][:n] = rng.choice([1e-6, 0.3, 1.0, 7.0, 1e12, np.inf], n)
        c["pinned"][:n] = rng.random(n) < 0.3
        c["frozen"][:n] = rng.random(n) < 0.3
        if "inertia" in c:
            c["inertia"][:n] = rng.choice([0.5, 3.0, np.inf], n)
            c["kinematic"][:n] = rng.random(n) < 0.3
        inverse_masses(table, slice(0, n))
        want = {k: c[k][:n].copy() for k in ("w", "iw") if k in c}
        for k in want:
            c[k][:n] = -1.0
        for row in range(n):  # one at a time, as ints, numpy ints and one-row slices
            inverse_masses(table, [row, np.int64(row), slice(row, row + 1)][row % 3])
        for k, values in want.items():
            assert c[k][:n].tobytes() == values.tobytes()
