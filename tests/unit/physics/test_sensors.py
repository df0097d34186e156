"""Sensors: regions that push nothing, keep who is inside, and say who came and went."""

from __future__ import annotations

import pytest

from ecsgoo import Particle, Sensor, World, WorldError, dumps, loads, systems
from ecsgoo.bodies import jelly_ball
from events import continued, record

EVENTS = {"sensor_entered": "in", "sensor_left": "out"}


def _world() -> tuple[World, list]:
    w = World(gravity=(0, 0), bounds=None, damping=1.0).use(*(s() for s in systems.SOLVER))
    return w, record(w, **EVENTS)


@pytest.mark.parametrize("make", [lambda: Sensor.box(300, 100, 100, 100),
                                  lambda: Sensor.circle(300, 100, 50),
                                  lambda: Sensor.polygon([(250, 50), (350, 50), (350, 150),
                                                          (250, 150)])])
def test_a_particle_passing_through_enters_once_and_leaves_once(make):
    w, log = _world()
    s = w.create_entity(make())
    e = w.create_entity(Particle(100, 100, radius=5, vx=300))
    for _ in range(90):
        w.step()
    assert log == [("in", s, e), ("out", s, e)]
    p = w.component(e, Particle)
    assert p.vx == pytest.approx(300) and p.y == pytest.approx(100), "it pushes nothing"
    assert w.component(s, Sensor).inside == []


def test_inside_is_what_overlaps_now_and_a_resting_body_does_not_flicker():
    w, log = _world()
    s = w.create_entity(Sensor.box(400, 300, 200, 200))
    a = w.create_entity(Particle(400, 300))
    b = w.create_entity(Particle(506, 300, radius=8))  # its disc reaches the box's edge
    w.create_entity(Particle(700, 300))
    ball = jelly_ball(w, 330, 300, radius=40)
    for _ in range(30):
        w.step()
    inside = w.component(s, Sensor).inside
    assert a in inside and b in inside and ball.constraint in inside
    assert len([x for x in log if x[2] == a]) == 1, "entered once, no flicker"


def test_a_deleted_entity_leaves_at_once_and_saves_cleanly():
    w, log = _world()
    s = w.create_entity(Sensor.circle(0, 0, 30))
    e = w.create_entity(Particle(0, 0))
    w.step()
    w.delete_entity(e)
    assert log[-1] == ("out", s, e) and w.component(s, Sensor).inside == []
    loads(dumps(w))


def test_sensors_save_and_keep_dispatching_the_same_events():
    w, log = _world()
    w.create_entity(Sensor.box(300, 100, 100, 100))
    w.create_entity(Particle(200, 100, radius=5, vx=300))
    w.step(15)
    original, loaded = continued(w, log, 60, **EVENTS)
    assert loaded == original and loaded


def test_masks_and_bad_shapes():
    w, log = _world()
    w.create_entity(Sensor.box(0, 0, 100, 100, mask=0b10))
    w.create_entity(Particle(0, 0))
    w.step()
    assert log == [], "by default particles are on layer 1"
    with pytest.raises(WorldError, match="width"):
        Sensor.box(0, 0, -1, 5)
    with pytest.raises(WorldError, match="radius"):
        Sensor.circle(0, 0, 0)
    with pytest.raises(WorldError, match="no area"):
        Sensor.polygon([(0, 0), (1, 1), (2, 2)])
    with pytest.raises(WorldError, match="finite"):
        Sensor.circle(float("nan"), 0, 1)


def test_a_sensor_sees_a_rigid_body_pass_through():
    from ecsgoo import Anchor, RigidBody

    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    got = record(w, sensor_entered="in", sensor_left="out")
    s = w.create_entity(Sensor.box(400, 150, 200, 10))
    w.create_entity(RigidBody.box(400, 10, 800, 20), Anchor())
    plank = w.create_entity(RigidBody.box(400, 300, 150, 8))  # wider than nothing: edges cross
    w.step(15)
    assert got == []
    w.step(60)
    assert got == [("in", s, plank), ("out", s, plank)]
    assert w.component(s, Sensor).inside == []
