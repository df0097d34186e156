"""Sleeping: still islands sleep together, wake together, and cost little while asleep."""

import numpy as np
import pytest

import scenes
from ecsgoo import Anchor, Particle, RigidBody, World, dumps, loads, sleeping, systems


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


def test_a_settled_pile_of_500_discs_sleeps_within_10_s_and_stays_exactly_put():
    """The issue's bar: ≥ 95 % asleep after 10 s, nothing drifts while asleep. The pile's
    contacts jitter (pos − prev reads ±20 px/s) long after it looks still; what counts
    is how far each disc moved over the frame."""
    w = scenes.circle_pile(500)
    w.sleep = True
    w.step(600)
    p = w.store.particles
    assert p.asleep.mean() >= 0.95 and w.resting
    before = p.pos.copy()
    w.step(120)
    assert np.hypot(*(p.pos - before).T).max() <= 1.0


def test_what_moves_faster_than_gravity_gives_in_a_frame_does_not_sleep():
    """``sleep_speed`` is |g|·dt (16 px/s here): a disc gliding at 30 px/s on a
    frictionless floor stays awake; one at 10 px/s, slowed by nothing, sleeps."""
    w = World(bounds=(0, 0, 4000, 300), damping=1.0, sleep=True)
    w.use(*(s() for s in systems.SOLVER))
    assert sleeping.sleep_speed(w) == pytest.approx(980.0 / 60)
    fast = w.create_entity(Particle(100, 5, radius=5, vx=30.0, friction=0.0))
    slow = w.create_entity(Particle(2000, 5, radius=5, vx=10.0, friction=0.0))
    w.step(120)
    assert not w.is_sleeping(fast) and w.is_sleeping(slow)
    assert sleeping.sleep_speed(World(gravity=(0.0, 0.0), sleep=True)) == sleeping.SLEEP_SPEED


def test_a_bulk_write_or_new_gravity_wakes_a_sleeping_world():
    """What the game changes in bulk (``w.particles.write``) or turning gravity around
    must move what slept, as a write through one component does."""
    for change in (lambda w: w.particles.write("radius", 8.0),
                   lambda w: setattr(w, "gravity", (0.0, 980.0))):
        w = World(bounds=(0, 0, 400, 300), sleep=True).use(*(s() for s in systems.SOLVER))
        dots = [w.create_entity(Particle(100 + 30 * k, 5, radius=5)) for k in range(4)]
        w.step(90)
        assert all(w.is_sleeping(d) for d in dots) and w.resting
        change(w)
        assert not any(w.is_sleeping(d) for d in dots) and not w.resting
        w.step(10)
        assert w.component(dots[0], Particle).y > 5.5  # grown, or falling up: it moved
