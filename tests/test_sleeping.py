"""Sleeping: still islands sleep together, wake together, and cost little while asleep."""

import numpy as np

from ecsgoo import Anchor, Particle, RigidBody, World, dumps, loads, systems


def _stack(sleep: bool = True) -> tuple[World, list[int]]:
    """A static floor and a three-box tower on it."""
    w = World(bounds=None, sleep=sleep).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(0, -10, 400, 20), Anchor())
    boxes = [w.create_entity(RigidBody.box(0, 20 + 40 * k, 40, 40)) for k in range(3)]
    return w, boxes


def test_a_still_stack_falls_asleep_and_stays_exactly_put():
    w, boxes = _stack()
    w.step(120)
    assert all(w.is_sleeping(b) for b in boxes) and w.resting
    before = w.bodies.pos.copy()
    w.step(120)
    assert np.array_equal(w.bodies.pos, before)  # not a hair of drift while asleep


def test_sleep_is_off_by_default():
    w, boxes = _stack(sleep=False)
    w.step(120)
    assert not any(w.is_sleeping(b) for b in boxes) and not w.resting


def test_writes_forces_and_grabs_wake_the_island():
    for poke in ("write", "force", "grab"):
        w, boxes = _stack()
        w.step(120)
        top = boxes[-1]
        if poke == "write":
            w.component(top, RigidBody).vx = 30.0
        elif poke == "force":
            w.apply_force(top, 5000.0, 0.0)
        else:
            w.grab(top, 5, 120)
        assert not any(w.is_sleeping(b) for b in boxes), poke  # all of the tower at once
        w.release()
        w.step()
        assert w.component(top, RigidBody).x != 0.0, poke


def test_something_awake_landing_on_a_sleeping_stack_wakes_it():
    w, boxes = _stack()
    w.step(120)
    assert w.resting
    drop = w.create_entity(RigidBody.box(0, 300, 30, 30))
    w.step(40)
    assert not w.is_sleeping(boxes[-1]) or w.component(drop, RigidBody).y < 160
    assert w.component(drop, RigidBody).y > 135 - 1.0  # it landed on the tower, not in it
    w.step(200)
    assert w.is_sleeping(drop) and all(w.is_sleeping(b) for b in boxes)


def test_removing_a_support_wakes_what_rested_on_it():
    w, boxes = _stack()
    w.step(120)
    w.delete_entity(boxes[0])
    w.step(30)
    assert w.component(boxes[1], RigidBody).y < 60 - 5  # it fell into the gap


def test_particles_sleep_too_and_a_loaded_world_continues_bit_for_bit():
    w = World(bounds=(0, 0, 400, 300), sleep=True).use(*(s() for s in systems.SOLVER))
    dots = [w.create_entity(Particle(100 + 30 * k, 5, radius=5)) for k in range(4)]
    w.create_entity(RigidBody.box(300, 10, 40, 20))
    w.step(90)
    assert all(w.is_sleeping(d) for d in dots)
    twin = loads(dumps(w))
    assert all(twin.is_sleeping(d) for d in dots) and twin.resting == w.resting
    for world in (w, twin):
        world.create_entity(Particle(100, 200, radius=5))  # falls onto the first dot
        world.step(60)
    assert twin.state_hash() == w.state_hash()
