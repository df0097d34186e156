"""The store owns the row layout: column specs, typed views, bulk entry points, h."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from ecsgoo import AreaConstraint, Particle, ShapeMatch, Spring, World, WorldError
from ecsgoo.columns import AREAS, PARTICLES, SHAPES, SPRINGS
from scenes import chaos


def test_every_column_has_a_typed_live_view_of_n_rows():
    w = chaos(seed=2)
    st = w.store
    for table, spec in ((st.particles, PARTICLES), (st.springs, SPRINGS), (st.areas, AREAS),
                        (st.shapes, SHAPES)):
        assert set(table.cols) == {c.name for c in spec.columns}
        for col in spec.columns:
            view = getattr(table, col.name)
            assert len(view) == table.n and view.dtype == col.dtype
            assert view.base is table.cols[col.name]  # a view, not a copy
            assert col.doc in type(table).__dict__[col.name].__doc__
    st.particles.pos[0] = (123.0, 45.0)  # writing the view writes the store
    assert (w.component(int(st.particles.entity[0]), Particle).x) == 123.0


def test_constructor_defaults_are_the_column_defaults():
    def defaults(cls):
        return {k: p.default for k, p in inspect.signature(cls).parameters.items()}

    p, s = defaults(Particle), defaults(Spring)
    for key in ("mass", "radius", "group", "friction", "restitution"):
        assert p[key] == PARTICLES.default(key)
    assert s["max_stretch"] == SPRINGS.default("max_stretch")
    assert Spring(1, 2).compliance == SPRINGS.default("compliance")
    a = defaults(AreaConstraint)
    assert (a["pressure"], a["stiffness"]) == (AREAS.default("pressure"),
                                               AREAS.default("stiffness"))
    assert defaults(ShapeMatch)["alpha"] == SHAPES.default("alpha")


def _rows(w):
    p = w.store.particles
    return {name: col[: p.n].copy() for name, col in p.cols.items()}


def test_bulk_rows_are_the_rows_attach_makes_one_by_one():
    args = [(10.0, 20.0, 1.0, 0.0), (30.0, -5.0, math.inf, 12.5), (0.1, 0.2, 0.5, -3.0)]
    one = World()
    for x, y, mass, vx in args:
        one.create_entity(Particle(x, y, mass=mass, vx=vx))
    bulk = World()
    h = bulk.h
    pos = np.array([[x, y] for x, y, _, _ in args])
    prev = pos - np.array([[vx * h, 0.0] for *_, vx in args])
    made = bulk.store.add_particles([1, 2, 3], {"pos": pos, "prev": prev,
                                                "mass": np.array([a[2] for a in args])})
    a, b = _rows(one), _rows(bulk)
    assert all(np.array_equal(a[k], b[k]) for k in a), [k for k in a if
                                                         not np.array_equal(a[k], b[k])]
    assert [m.entity for m in made] == [1, 2, 3] and made[1].mass == math.inf


def test_bulk_springs_measure_their_rest_and_name_a_bad_end():
    w = World()
    for x in (0.0, 30.0, 30.0 + 1e-8):
        w.create_entity(Particle(x, 0.0))
    springs = w.store.add_springs([7, 8], {"a": [1, 2], "b": [2, 3], "rest": [np.nan, np.nan]})
    assert w.store.springs.rest.tolist() == [30.0, 0.0]  # too short to divide by: 0
    assert [s.a for s in springs] == [1, 2] and springs[0].entity == 7
    with pytest.raises(WorldError, match="entity 9 \\(Spring\\): field b refers to entity 99"):
        w.store.add_springs([9], {"a": [1], "b": [99]})
    with pytest.raises(WorldError, match="entity 9 \\(Spring\\): fields a and b"):
        w.store.add_springs([9], {"a": [1], "b": [1]})


def test_h_lives_on_the_store_and_a_retime_keeps_velocities():
    w = World(gravity=(0, 0), bounds=None)
    e = w.create_entity(Particle(0.0, 0.0, vx=60.0))
    assert w.store.h == w.h
    w.substeps = 3
    assert w.store.h == w.h == pytest.approx(1 / 180)
    assert w.component(e, Particle).vx == pytest.approx(60.0)
    assert w.clone().store.h == w.h
