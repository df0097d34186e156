"""Sensors that follow a body or a particle (Sensor.circle(..., on=entity))."""

from __future__ import annotations

import math

import pytest

import ecsgoo
from ecsgoo import Particle, RigidBody, Sensor, World, WorldError, systems


def _world() -> World:
    w = World(bounds=None, gravity=(0.0, 0.0), damping=1.0)
    w.use(*(s() for s in systems.SOLVER))
    return w


def test_a_sensor_on_a_body_moves_and_turns_with_it():
    w = _world()
    cart = w.create_entity(RigidBody.box(100, 100, 40, 20))
    s = w.create_entity(Sensor.circle(50, 0, 10, on=cart))  # 50 px ahead of the cart
    coin = w.create_entity(Particle(150, 100, radius=2), ecsgoo.Anchor())
    other = w.create_entity(Particle(100, 150, radius=2), ecsgoo.Anchor())
    w.step()
    assert w.component(s, Sensor).inside == [coin]
    w.component(cart, RigidBody).angle = math.pi / 2  # now 50 px above it
    w.step()
    assert w.component(s, Sensor).inside == [other]


def test_it_never_senses_its_own_entity_and_a_box_turns():
    w = _world()
    cart = w.create_entity(RigidBody.box(100, 100, 40, 20))
    s = w.create_entity(Sensor.box(0, 40, 10, 60, on=cart))  # a post standing on the cart
    w.component(cart, RigidBody).angle = -math.pi / 2  # the post points along +x now
    tip = w.create_entity(Particle(165, 100, radius=2), ecsgoo.Anchor())
    w.step()
    assert w.component(s, Sensor).inside == [tip]


def test_a_sensor_follows_a_particle():
    w = _world()
    dot = w.create_entity(Particle(0, 0, radius=3))
    w.component(dot, Particle).vx = 600.0
    s = w.create_entity(Sensor.circle(0, 0, 5, on=dot))
    wall = w.create_entity(Particle(10, 0, radius=1), ecsgoo.Anchor())
    w.step()
    assert w.component(s, Sensor).inside == [wall]


def test_deleting_what_it_follows_deletes_it_with_sensor_left():
    w = _world()
    cart = w.create_entity(RigidBody.box(100, 100, 40, 20))
    s = w.create_entity(Sensor.circle(0, 0, 30, on=cart))
    dot = w.create_entity(Particle(110, 100, radius=2), ecsgoo.Anchor())
    w.step()
    left = []
    w.set_handler("sensor_left", lambda sensor, e: left.append((sensor, e)))
    w.delete_entity(cart)
    assert left == [(s, dot)]
    assert not w.entity_exists(s)


def test_on_must_name_a_body_or_a_particle():
    w = _world()
    cart = w.create_entity(RigidBody.box(100, 100, 40, 20))
    ring = w.create_entity(Sensor.circle(0, 0, 5))
    with pytest.raises(WorldError, match=f"Sensor\\): field on refers to entity {ring}"):
        w.create_entity(Sensor.circle(0, 0, 5, on=ring))
    with pytest.raises(WorldError, match="field on"):
        Sensor.circle(0, 0, 5, on=-3)
    assert w.component(ring, Sensor).on is None and cart


def test_saved_loaded_and_cloned_it_still_follows():
    w = _world()
    cart = w.create_entity(RigidBody.box(100, 100, 40, 20))
    w.component(cart, RigidBody).vx = 60.0
    s = w.create_entity(Sensor.circle(40, 0, 5, on=cart))
    coin = w.create_entity(Particle(200, 100, radius=2), ecsgoo.Anchor())
    text = ecsgoo.dumps(w)
    assert "on = " in text
    for world in (ecsgoo.loads(text), w.clone(), w):
        assert world.component(s, Sensor).on == cart
        world.step(60)
        assert world.component(s, Sensor).inside == [coin]


def test_a_file_whose_sensor_follows_no_body_is_refused():
    w = _world()
    cart = w.create_entity(RigidBody.box(100, 100, 40, 20))
    w.create_entity(Sensor.circle(0, 0, 5, on=cart))
    ring = w.create_entity(Sensor.circle(0, 0, 5))
    text = ecsgoo.dumps(w).replace(f"on = {cart} }}", f"on = {ring} }}")
    with pytest.raises(ecsgoo.WorldFileError, match=f"field on.*follows entity {ring}|"
                       f"follows entity {ring}.*field on"):
        ecsgoo.loads(text)


def test_a_file_with_an_anchored_kinematic_body_is_refused():
    w = _world()
    w.create_entity(RigidBody.box(100, 100, 40, 20, kind="kinematic"))
    text = ecsgoo.dumps(w).replace("kinematic = true }", "kinematic = true }\nanchor = {}")
    with pytest.raises(ecsgoo.WorldFileError, match="kinematic body cannot take an Anchor"):
        ecsgoo.loads(text)


def test_a_sensor_told_to_follow_mid_game_follows_from_the_next_frame():
    """``on`` written on a sensor already sensing: the sensors listed and packed before
    (``sensors._listed``, ``_kept``) are made again, so the next frame senses around
    what it follows (never the dot itself), as a sensor made so does."""
    def run(late: bool) -> list:
        w = _world()
        dot = w.create_entity(Particle(0, 0, radius=3))
        w.component(dot, Particle).vx = 600.0
        for k in range(1, 6):  # a row of pegs the dot passes
            w.create_entity(Particle(10.0 * k, 0, radius=1), ecsgoo.Anchor())
        s = w.create_entity(Sensor.circle(0, 0, 4, on=None if late else dot))
        held = []
        for frame in range(5):
            if frame == 1 and late:
                w.component(s, Sensor).on = dot
            w.step()
            held.append(list(w.component(s, Sensor).inside))
        return held

    late, made = run(True), run(False)
    assert late[1:] == made[1:] and late[0] != made[0]
