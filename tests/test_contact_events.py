"""Contact events: began once, ended once, only for particles that ask, saved with the world."""

from __future__ import annotations

import pytest

from ecsgoo import Particle, World, dumps, loads, systems
from ecsgoo.contact_events import Contacts
from events import continued, record

EVENTS = {"contact_began": "began", "contact_ended": "ended"}


def _world(gravity=(0, 0)) -> tuple[World, list]:
    w = World(gravity=gravity, bounds=(0, 0, 800, 600), damping=1.0)
    w.use(*(s() for s in systems.SOLVER))
    return w, record(w, **EVENTS)


def test_a_ball_landing_on_another_begins_once_and_resting_does_not_flicker():
    w, log = _world(gravity=(0, -980))
    floor = w.create_entity(Particle(400, 20, radius=20, mass=float("inf")))
    ball = w.create_entity(Particle(400, 200, radius=10, events=True))
    w.step(240)  # it falls, bounces a little, settles
    began = [e for e in log if e[0] == "began"]
    assert began and began[0][1:3] == (floor, ball)
    a, b, x, y, nx, ny = began[0][1:]
    assert (x, y) == pytest.approx((400, 40), abs=1.5) and (nx, ny) == pytest.approx((0, 1))
    settled = len(log)
    w.step(120)
    assert len(log) == settled, "a resting contact does not flicker"


def test_contacts_end_and_only_watched_particles_report():
    w, log = _world()
    a = w.create_entity(Particle(100, 300, radius=10, events=True))
    b = w.create_entity(Particle(120.5, 300, radius=10))
    c = w.create_entity(Particle(300, 300, radius=10))
    d = w.create_entity(Particle(320.5, 300, radius=10))  # touching, but nobody watches
    w.step()
    assert log[0][:3] == ("began", a, b) and all(e[1:3] != (c, d) for e in log)
    w.component(b, Particle).x = 400  # moved away
    w.step()
    assert log[-1] == ("ended", a, b)
    w.delete_entity(a)
    assert w.resource(Contacts).pairs == []


def test_contacts_save_and_dispatch_the_same_events_after_loading():
    w, log = _world(gravity=(0, -980))
    w.create_entity(Particle(400, 20, radius=20, mass=float("inf")))
    w.create_entity(Particle(400, 100, radius=10, events=True, restitution=0.9))
    w.step(10)  # saved while falling: the landing is still to come
    original, loaded = continued(w, log, 120, **EVENTS)
    assert loaded == original and loaded


def test_deleting_ends_a_contact_at_once():
    w, log = _world()
    a = w.create_entity(Particle(100, 300, radius=10, events=True))
    b = w.create_entity(Particle(120.5, 300, radius=10))
    w.step()
    w.delete_entity(b)
    assert log[-1] == ("ended", a, b)
    loads(dumps(w)).step()


def test_rigid_bodies_with_events_say_when_contacts_begin_and_end():
    from ecsgoo import Anchor, RigidBody

    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    log = record(w, contact_began="began", contact_ended="ended")
    ground = w.create_entity(RigidBody.box(400, 10, 800, 20), Anchor())
    crate = w.create_entity(RigidBody.box(400, 100, 30, 30, events=True))
    quiet = w.create_entity(RigidBody.box(100, 100, 30, 30))  # no events: never reported
    w.step(120)
    began = [e for e in log if e[0] == "began"]
    assert [e[1:3] for e in began] == [(ground, crate)]
    _, _, _, x, y, nx, ny = began[0]
    assert y == pytest.approx(20.0, abs=0.5) and (nx, ny) == pytest.approx((0.0, 1.0))
    assert 385 - 1e-6 <= x <= 415 + 1e-6
    assert quiet not in {e for entry in log for e in entry[1:3]}
    w.component(crate, RigidBody).vy = 900.0
    w.step(10)
    assert ("ended", ground, crate) in log
    n = len(log)
    w.step(180)  # landed again: one more began, no flicker while resting
    assert [e[0] for e in log[n:]] == ["began"]
