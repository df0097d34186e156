"""The built-in components of a world file: one line each, read and written through their specs."""

from __future__ import annotations

import numpy as np
import pytest

import ecsgoo
from ecsgoo import Anchor, AreaConstraint, Particle, ShapeMatch, Spring, World, systems
from ecsgoo.rigid import Joint, RigidBody
from ecsgoo.saving.builtins import BUILTINS, TABLES, builtin_of
from ecsgoo.saving.fields import exclusive_pairs, file_keys
from ecsgoo.store import TABLES as STORE_TABLES
from ecsgoo.store import Store


def test_every_store_table_is_one_builtin_with_a_bulk_entry_point():
    assert sorted(id(b.table) for b in TABLES) == sorted(id(t) for t in STORE_TABLES)
    for b in TABLES:
        assert callable(getattr(Store, b.table.add)), b.name
    assert len({b.name for b in BUILTINS}) == len(BUILTINS)
    assert len({b.rows for b in TABLES}) == len(TABLES)


def test_a_file_s_keys_come_from_the_column_specs():
    particle, spring, body = (next(b.table for b in TABLES if b.name == n)
                              for n in ("particle", "spring", "body"))
    assert set(file_keys(particle)) == {
        "x", "y", "px", "py", "vx", "vy", "mass", "radius", "group", "layer", "mask", "events",
        "friction", "restitution", "fx", "fy", "asleep", "still", "nap"}
    assert ("stiffness", "compliance") in exclusive_pairs(spring)
    assert ("pangle", "omega") in exclusive_pairs(body)


def test_a_spring_on_a_body_is_a_tether():
    w = World()
    crate = w.create_entity(RigidBody.box(100, 100, 20, 20))
    ball = w.create_entity(Particle(150, 100))
    other = w.create_entity(Particle(200, 100))
    tether = w.create_entity(Spring(ball, crate))
    spring = w.create_entity(Spring(ball, other))
    assert builtin_of(w.component(tether, Spring)).name == "tether"
    assert builtin_of(w.component(spring, Spring)).name == "spring"
    assert builtin_of(Spring(ball, other)).name == "spring"  # not added: no row yet


def test_the_row_order_of_tethers_survives_a_deletion_bit_for_bit():
    w = World()
    w.use(systems.Integrate(), systems.Project(), systems.Collide(), systems.Break())
    hook = w.create_entity(Particle(400, 500), Anchor())
    crates = [w.create_entity(RigidBody.box(350 + 40 * k, 400, 30, 30)) for k in range(3)]
    ropes = [w.create_entity(Spring(hook, c, at_b=(360 + 40 * k, 415), stiffness=0.9))
             for k, c in enumerate(crates)]
    w.create_entity(Spring(crates[0], crates[2], stiffness=0.5))
    w.step(5)
    w.delete_entity(ropes[0])  # swap-removed: the last tether takes its row
    w.step(5)
    text = ecsgoo.dumps(w)
    assert "tethers = [" in text
    loaded = ecsgoo.loads(text)
    loaded.step(30)
    w.step(30)
    assert loaded.state_hash() == w.state_hash()


def _one_of_each() -> World:
    w = World()
    w.use(systems.Integrate(), systems.Project(), systems.Collide(), systems.Break())
    ps = w.create_entities([Particle(100 + 20 * k, 200 + 7 * (k % 2)) for k in range(4)])
    crate, wheel = (w.create_entity(RigidBody.box(300, 200, 20, 20)),
                    w.create_entity(RigidBody.circle(340, 200, 10)))
    w.create_entity(Spring(ps[0], ps[1]))
    w.create_entity(Joint(crate, wheel, 320, 200))
    w.create_entity(Spring(ps[3], crate))
    w.create_entity(AreaConstraint(ps[:3]))
    w.create_entity(ShapeMatch(ps[1:]))
    return w


def _odd(col, values):
    """A value unlike the default, within range, for every row of a saved column."""
    if col.dtype is bool or values.dtype == bool:
        return ~values
    if values.dtype.kind == "i":
        return values + 1
    finite = np.where(np.isfinite(values), values, 1000.0)
    return finite * 0.5 + 0.25


@pytest.mark.parametrize("compact", [False, True])
def test_every_saved_column_of_every_table_round_trips_to_the_bit(compact):
    w = _one_of_each()
    for b in TABLES:
        table = w.store.table(b.table)
        for col in b.table.columns:
            if col.saved and not col.ref:
                values = getattr(table, col.name)
                values[:] = _odd(col, values.copy())
    loaded = ecsgoo.loads(ecsgoo.dumps(w, compact=compact))
    for b in TABLES:
        old, new = w.store.table(b.table), loaded.store.table(b.table)
        assert old.n == new.n > 0, b.name
        for col in b.table.columns:
            if col.saved:
                a, c = getattr(old, col.name), getattr(new, col.name)
                bits = (lambda v: v.view(np.int64)) if a.dtype == np.float64 else (lambda v: v)
                assert np.array_equal(bits(a), bits(c)), (b.name, col.name)
