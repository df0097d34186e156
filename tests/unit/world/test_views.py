"""The world's public bulk views: live read-only columns, rows by entity, checked writes."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from ecsgoo import (
    Anchor,
    AreaConstraint,
    Particle,
    RigidBody,
    Spring,
    World,
    WorldError,
    dumps,
    limits,
    loads,
    systems,
)
from ecsgoo.bodies import jelly_ball

ROOT = Path(__file__).resolve().parents[3]


def _world() -> World:
    w = World(gravity=(0, 0), bounds=None).use(*(s() for s in systems.SOLVER))
    a = w.create_entity(Particle(0, 0, radius=3))
    b = w.create_entity(Particle(10, 0, radius=5))
    w.create_entity(Spring(a, b))
    return w


def test_columns_are_live_and_read_only():
    w = _world()
    pos = w.particles.pos
    assert pos.shape == (2, 2) and w.particles.entity.tolist() == [1, 2]
    w.component(2, Particle).x = 42.0
    assert w.particles.pos[1, 0] == 42.0 and pos[1, 0] == 42.0
    with pytest.raises(ValueError):
        pos[0, 0] = 1.0
    assert len(w.springs) == 1 and w.springs.rest.tolist() == [10.0]
    with pytest.raises(AttributeError, match="no column 'nope'"):
        _ = w.particles.nope


def test_columns_stay_live_and_read_only_as_the_table_grows_and_is_cloned():
    w = _world()
    assert w.particles.pos.shape == (2, 2)
    for k in range(300):  # past the table's room: its columns are new arrays
        w.create_entity(Particle(float(k), 5.0))
    pos = w.particles.pos
    assert pos.shape == (302, 2) and pos[301].tolist() == [299.0, 5.0]
    with pytest.raises(ValueError):
        pos[301, 0] = 1.0
    twin = w.clone()
    twin.component(int(twin.particles.entity[0]), Particle).x = -7.0
    assert twin.particles.pos[0, 0] == -7.0 and w.particles.pos[0, 0] == 0.0
    with pytest.raises(ValueError):
        twin.particles.pos[0, 0] = 1.0


def test_columns_follow_deletions_loads_and_stay_per_table():
    """A kept read follows a swap-remove and a loaded copy; a column of another table is
    no column here."""
    w = _world()
    w.create_entity(Particle(7.0, 8.0))
    assert w.particles.entity.tolist() == [1, 2, 4] and w.particles.pos[2].tolist() == [7, 8]
    w.delete_entity(1)
    assert w.particles.entity.tolist() == [4, 2] and w.particles.pos[0].tolist() == [7, 8]
    twin = loads(dumps(w))
    assert twin.particles.pos.tolist() == w.particles.pos.tolist()
    twin.delete_entity(2)
    assert twin.particles.entity.tolist() == [4] and w.particles.entity.tolist() == [4, 2]
    with pytest.raises(AttributeError, match="no column 'pressure'"):
        _ = w.particles.pressure
    assert len(w.areas.pressure) == 0
    version = twin.particles.version
    twin.component(4, Particle).x = 1.0
    twin.particles.write("radius", 3.0)
    assert twin.particles.version == version  # the same rows, in the same order
    twin.create_entity(Particle(1.0, 2.0))
    assert twin.particles.version != version


def test_rows_by_entity_and_velocity():
    w = _world()
    w.component(1, Particle).vx = 30.0
    assert w.particles.row(2) == 1 and w.particles.rows([2, 1]).tolist() == [1, 0]
    assert w.springs.row(3) == 0
    assert w.particles.velocity[0, 0] == pytest.approx(30.0)
    with pytest.raises(WorldError, match="entity 3: has no Particle"):
        w.particles.row(3)
    with pytest.raises(WorldError, match="entity 3: has no Particle"):
        w.particles.rows([2, 3])
    w.delete_entity(1)
    assert w.particles.row(2) == 0, "rows move after a delete"


def test_rows_of_many_entities_are_each_ones_row_through_deletes():
    w = World()
    parts = [w.create_entity(Particle(10.0 * k, 0.0)) for k in range(8)]
    boxes = [w.create_entity(RigidBody.box(20.0 * k, 50.0, 5.0, 5.0)) for k in range(5)]
    for gone in (parts[2], parts[0], boxes[1]):
        w.delete_entity(gone)
    for table, ids in ((w.particles, parts[1:2] + parts[3:]),
                       (w.bodies, boxes[:1] + boxes[2:])):
        ids = ids[::-1]
        assert table.rows(ids).tolist() == [table.row(e) for e in ids]
        assert table.rows(np.array(ids)).tolist() == [table.row(e) for e in ids]
    assert w.particles.rows([]).tolist() == []
    with pytest.raises(WorldError, match=f"entity {parts[0]}: has no Particle"):
        w.particles.rows([parts[1], parts[0]])


def test_writes_are_checked_and_save():
    w = _world()
    w.particles.write("radius", [2.0, 6.0])
    with pytest.raises(WorldError, match="field radius must be"):
        w.particles.write("radius", -1.0)
    with pytest.raises(WorldError, match="cannot be written in bulk"):
        w.particles.write("mass", 2.0)
    assert w.particles.radius.tolist() == [2.0, 6.0], "a refused write writes nothing"
    w.set_stiffness(0.5)
    assert w.springs.compliance.tolist() == [limits.compliance_of(0.5)]
    with pytest.raises(WorldError, match="stiffness"):
        w.set_stiffness(0.0)
    assert dumps(loads(dumps(w))) == dumps(w)


def test_ring_and_shape_members():
    w = _world()
    ball = jelly_ball(w, 200, 200, radius=30, vertices=8)
    members = w.area_members(0)
    assert w.particles.entity[members].tolist() == ball.particles[:8]
    assert len(w.areas) == 1 and w.areas.entity.tolist() == [ball.constraint]
    w.areas.write("pressure", 1.5)
    assert w.component(ball.constraint, AreaConstraint).pressure == 1.5
    assert np.all(w.areas.pressure == 1.5)


def test_the_bundled_games_use_the_public_api_only():
    for path in ROOT.glob("games/**/*.py"):
        text = path.read_text()
        assert not re.search(r"\.store\b|\bpslot\b|\.cols\b", text), path


def _sleepy_pair() -> World:
    """Two discs settled apart on a floor, asleep, and a third falling far away."""
    w = World(bounds=(0, 0, 400, 200), sleep=True).use(systems.Integrate(), systems.Collide())
    w.create_entities([Particle(50, 5, radius=5), Particle(150, 5, radius=5)])
    w.step(120)
    w.create_entity(Particle(300, 150, radius=5))
    w.step(3)
    return w


def test_place_and_push_are_the_setters_and_apply_force_to_the_bit():
    worlds = [_sleepy_pair(), _sleepy_pair()]
    assert worlds[0].particles.asleep[:2].all()
    rng = np.random.default_rng(0)
    pos, vel, force = rng.uniform(10, 190, (2, 2)), rng.normal(0, 50, (2, 2)), [[3.0, -2.0]]
    for e, (x, y), (vx, vy) in zip((1, 3), pos, vel, strict=True):
        p = worlds[0].component(e, Particle)
        p.x, p.y, p.vx, p.vy = x, y, vx, vy
    worlds[0].apply_force(2, *force[0])
    rows = worlds[1].particles.rows([1, 3])
    worlds[1].particles.place(rows, pos, vel)
    worlds[1].particles.push(worlds[1].particles.rows([2]), force)
    for w in worlds:
        w.step(30)
    assert worlds[0].state_hash() == worlds[1].state_hash()
    assert dumps(worlds[0]) == dumps(worlds[1])


def test_place_of_a_velocity_alone_keeps_the_position_and_checks_ranges():
    w = _world()
    w.particles.place([1], velocity=[[60.0, 0.0]])
    assert w.particles.pos[1].tolist() == [10.0, 0.0]
    assert w.component(2, Particle).vx == pytest.approx(60.0)
    with pytest.raises(WorldError, match="field vy"):
        w.particles.place([0], velocity=[[0.0, limits.MAX_SPEED * 2]])
    with pytest.raises(WorldError, match="field fx"):
        w.particles.push([0], [[limits.MAX_FORCE * 2, 0.0]])
    with pytest.raises(AttributeError):
        w.springs.place([0], [[0.0, 0.0]])


@pytest.mark.parametrize("axis", [0, 1])
def test_place_of_one_axis_is_that_setter_to_the_bit(axis):
    worlds = [_sleepy_pair(), _sleepy_pair()]
    pins = [w.create_entity(Particle(200, 100), Anchor(200, 100)) for w in worlds]
    new, speed = [37.5, 120.25, 210.0], [-40.0, 12.5, 0.0]
    for e, value, v in zip((1, 3, pins[0]), new, speed, strict=True):
        p = worlds[0].component(e, Particle)
        setattr(p, "xy"[axis], value)
        setattr(p, ("vx", "vy")[axis], v)
    rows = worlds[1].particles.rows([1, 3, pins[1]])
    worlds[1].particles.place(rows, new, speed, axis=axis)
    for name in ("pos", "prev", "pin", "asleep", "still"):
        assert getattr(worlds[0].particles, name).tobytes() == \
            getattr(worlds[1].particles, name).tobytes()
    for w in worlds:
        w.step(30)
    assert dumps(worlds[0]) == dumps(worlds[1])


def test_a_bulk_write_out_of_range_or_of_no_row_writes_nothing():
    w = _world()
    before = {name: getattr(w.particles, name).copy() for name in ("pos", "prev", "pin")}
    bad = [([0, 1], [[5.0, 5.0], [math.nan, 1.0]], None, None, "field x"),
           ([0, 1], None, [[0.0, 0.0], [1.0, limits.MAX_SPEED * 2]], None, "field vy"),
           ([1], None, [limits.MAX_SPEED * 2], 0, "field vx"),
           ([0, 99], [[5.0, 5.0], [6.0, 6.0]], None, None, "no row 99"),
           ([-1], None, [[1.0, 1.0]], None, "no row -1")]
    for rows, pos, vel, axis, message in bad:
        with pytest.raises(WorldError, match=message):
            w.particles.place(rows, pos, vel, axis=axis)
        for name, value in before.items():
            assert getattr(w.particles, name).tobytes() == value.tobytes()
    with pytest.raises(ValueError, match="axis"):
        w.particles.place([0], velocity=[1.0], axis=2)
    for rows, push, message in (([0, 1], [[1.0, 1.0], [limits.MAX_FORCE * 2, 0.0]], "fx"),
                                ([5], [[1.0, 1.0]], "no row 5")):
        with pytest.raises(WorldError, match=message):
            w.particles.push(rows, push)
    w.step()  # no force was left behind
    fresh = _world()
    fresh.step()
    assert w.state_hash() == fresh.state_hash()


@pytest.mark.parametrize("seed", range(4))
def test_a_bulk_write_in_one_call_writes_what_numpy_writes(monkeypatch, seed):
    """``Rows.write`` of float rows through its one kernel (``views._written``) and through
    numpy's indexing: the same columns (negative rows, a row twice: the last wins, columns
    of one and two values a row), the same errors and nothing written on one."""
    from ecsgoo import views

    def run(one_call: bool) -> list:
        rng = np.random.default_rng(seed)
        if not one_call:
            monkeypatch.setattr(views, "_written", lambda *args: False)
        w = _world()
        n, out = len(w.particles), []
        for _ in range(30):
            name = str(rng.choice(["prev", "pos", "mass", "radius", "friction"]))
            rows = rng.integers(-n, n, int(rng.integers(0, 5)))
            if rng.random() < 0.15:  # a row the table has not
                rows = np.append(rows, n if rng.random() < 0.5 else -n - 1)
            shape = rows.shape + getattr(w.particles, name).shape[1:]
            values = rng.uniform(0.5, 50.0, shape)
            if rng.random() < 0.1 and values.size:
                values.reshape(-1)[0] = -1.0 if name != "pos" else math.nan
            try:
                w.particles.write(name, values, rows)
                out.append("ok")
            except (WorldError, IndexError) as error:
                out.append(type(error).__name__)
            out.append(w.state_hash() + getattr(w.particles, name).tobytes().hex())
        monkeypatch.undo()
        return out

    fast, slow = run(True), run(False)
    assert fast == slow
    assert {"ok", "WorldError", "IndexError"} <= set(fast[::2])
