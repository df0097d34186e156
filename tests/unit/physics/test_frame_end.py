"""The one-call frame end (``frame_end.quiet``): the same bits, events and sensor lists as
the frame ended service by service, through what games do between frames."""

from __future__ import annotations

import numpy as np
import pytest
import spy

from ecsgoo import Particle, Sensor, World, frame_end, systems
from ecsgoo.physics import steady
from events import record

EVENTS = dict(contact_began="began", contact_ended="ended", sensor_entered="in",
              sensor_left="out")


def _world(rng: np.random.Generator, sleep: bool) -> World:
    w = World(bounds=(0, 0, 600, 400), sleep=sleep).use(*(s() for s in systems.SOLVER))
    w.level.add_segment((0, 120), (250, 60))
    w.level.add_polygon([(420, 0), (600, 0), (600, 90)])
    for _ in range(25):
        w.create_entity(Particle(*rng.uniform([20, 20], [580, 380]), radius=rng.uniform(4, 12),
                                 vx=float(rng.normal(0, 60)), events=bool(rng.random() < 0.2),
                                 restitution=0.3))
    w.create_entity(Sensor.box(300, 60, 200, 120))
    w.create_entity(Sensor.circle(100, 300, 60))
    return w


def _act(w: World, rng: np.random.Generator, frame: int) -> None:
    """What a game does between frames, now and then."""
    ents = [e for e, _ in w.get_component(Particle)]
    roll = rng.random()
    if roll < 0.03:
        w.create_entity(Particle(*rng.uniform([20, 200], [580, 380]), radius=6.0,
                                 events=bool(rng.random() < 0.5)))
    elif roll < 0.05 and len(ents) > 5:
        w.delete_entity(int(rng.choice(ents)))
    elif roll < 0.07:
        w.component(int(rng.choice(ents)), Particle).vy = 300.0
    elif roll < 0.08:
        w.component(int(rng.choice(ents)), Particle).events = True
    elif roll < 0.09:
        w.component(next(e for e, _ in w.get_component(Sensor)), Sensor).x += 30.0
    elif frame == 120:  # what the one call's kept arguments hold for (``_held``)
        w.add_segment((40, 40), (200, 30))
    elif frame == 150:
        w.bounds = (0.0, 0.0, 590.0, 400.0)
    elif frame == 180:
        w.substeps = 4
    elif frame == 200:
        w.grab(int(rng.choice(ents)), 300.0, 300.0)
    elif frame == 260:
        w.release()


def _landing(w: World, log: list) -> None:
    """As a game watches a dropped piece: until it lands (then neither end is)."""

    def landed(a: int, b: int, *where: float) -> None:
        log.append(("began", a, b, *where))
        for e in (a, b):
            if e >= 0 and w.entity_exists(e):
                w.component(e, Particle).events = False

    w.set_handler("contact_began", landed)


def _run(seed: int, sleep: bool) -> tuple[list, list, list, int]:
    """400 frames of a random world: the state hashes, the sensors' lists, the events,
    and how many rows sleep at the end."""
    rng = np.random.default_rng(seed)
    w = _world(rng, sleep)
    log = record(w, **EVENTS)
    _landing(w, log)
    hashes, inside = [], []
    for frame in range(400):
        _act(w, rng, frame)
        w.step()
        hashes.append(w.state_hash())
        inside.append([list(s.inside) for _, s in w.get_component(Sensor)])
    return hashes, inside, log, int(w.store.particles.asleep[: w.store.particles.n].sum())


@pytest.mark.parametrize("sleep", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_ending_in_one_call_gives_the_bits_of_the_services_one_by_one(monkeypatch, seed,
                                                                       sleep):
    with spy.returns(frame_end, "quiet") as ended:
        hashes, inside, log, asleep = _run(seed, sleep)
    ended_quietly = sum(ended)
    monkeypatch.setattr(frame_end, "ENABLED", False)
    with spy.returns(frame_end, "quiet") as ended:
        assert _run(seed, sleep) == (hashes, inside, log, asleep) and not any(ended)
    assert len(log) > 10 and 100 < ended_quietly < 400
    assert asleep > 0 or not sleep



def _met_by_what_changed(enabled: bool) -> list:
    """Watched discs at rest without gravity, then a segment added through one and the
    floor moved up into the other between frames: the events each frame end reports (each
    thing met where nothing moved: only the frame end's own look sees it)."""
    frame_end.ENABLED = enabled
    try:
        w = World(gravity=(0.0, 0.0), bounds=(0, 0, 600, 400)).use(
            *(s() for s in systems.SOLVER))
        log = record(w, **EVENTS)
        a = w.create_entity(Particle(200, 300, radius=8, events=True))
        b = w.create_entity(Particle(400, 20, radius=8, events=True))
        w.step(3)  # (frames ending in one call)
        w.add_segment((150, 300), (250, 300))  # through a: the level's arrays packed anew
        w.step(3)
        w.bounds = (0.0, 15.0, 600.0, 400.0)  # the floor up into b
        w.step(3)
        return [(e[0], *e[1:3]) for e in log if a in e[1:3] or b in e[1:3]]
    finally:
        frame_end.ENABLED = True


def test_the_one_call_meets_the_level_and_bounds_as_they_are_now():
    events = _met_by_what_changed(True)
    assert events == _met_by_what_changed(False)
    assert sum(e[0] == "began" for e in events) == 2, events


def _recorded(w: World, frames: int, act) -> tuple[list, list, list]:
    """Step ``w`` ``frames`` times, ``act(frame)`` before each (what a game does between
    frames): the state hashes, the sensors' lists and the events."""
    log = record(w, **EVENTS)
    hashes, inside = [], []
    for frame in range(frames):
        act(frame)
        w.step()
        hashes.append(w.state_hash())
        inside.append([list(s.inside) for _, s in w.get_component(Sensor)])
    return hashes, inside, log


def _both_ways(monkeypatch, run, spied: str) -> list:
    """``run()`` ending frames in one call where it may, then service by service: the same
    hashes, sensors' lists and events (some contact began); what ``spied`` returned."""
    with spy.returns(frame_end, spied) as seen:
        first = run()
    monkeypatch.setattr(frame_end, "ENABLED", False)
    assert run() == first
    assert any(e[0] == "began" for e in first[2])
    return seen


def _bodies_run() -> tuple[list, list, list]:
    """300 frames of a world of boxes while a game watches one, adds a sensor, moves one
    with ``move_to`` and pushes others."""
    from ecsgoo import Anchor, RigidBody

    rng = np.random.default_rng(0)
    w = World(bounds=None).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(300, 0, 600, 20), Anchor())
    boxes = [w.create_entity(RigidBody.box(60 + 50 * k, 40 + 30 * (k % 3), 30, 30, mass=1.0))
             for k in range(8)]
    made = {}

    def act(frame: int) -> None:
        roll = rng.random()
        if frame == 60:
            w.component(boxes[2], RigidBody).events = True  # watched until it lands
        elif frame == 100:
            w.component(boxes[2], RigidBody).events = False
        elif frame == 150:
            w.create_entity(Sensor.box(300, 60, 200, 120))
        elif frame == 190:
            made["paddle"] = w.create_entity(RigidBody.box(450, 250, 60, 10, kind="kinematic"))
        elif frame in (200, 201):
            w.move_to(made["paddle"], 420.0, 250.0 - frame * 0.1)
        elif roll < 0.05:
            w.component(int(rng.choice(boxes)), RigidBody).vy = 250.0

    return _recorded(w, 300, act)


def test_a_world_of_bodies_ends_quietly_only_with_nothing_to_do(monkeypatch):
    # every frame's end asked (a steady frame asks nothing: ``physics.steady``)
    monkeypatch.setattr(steady, "ENABLED", False)
    ended = _both_ways(monkeypatch, _bodies_run, "_quiet_bodies")
    # quiet before the watch, not while watched (or touching), quiet again until the sensor
    assert all(ended[:60]) and not any(ended[60:100]) and not any(ended[150:])
    assert any(ended[100:150])


def _resting_run() -> tuple[list, list, list]:
    """A pile that falls asleep, then a game pokes it: a velocity written, a particle
    watched, a sensor added."""
    w = World(bounds=(0, 0, 300, 300), sleep=True).use(*(s() for s in systems.SOLVER))
    ents = [w.create_entity(Particle(20 + 14 * (k % 18), 10 + 14 * (k // 18), radius=6.0))
            for k in range(54)]

    def act(frame: int) -> None:
        if frame == 400:
            w.component(ents[3], Particle).vy = 200.0  # wakes it: it hops and lands
        elif frame == 500:
            w.component(ents[40], Particle).events = True
            w.component(ents[40], Particle).vy = 150.0
        elif frame == 600:
            w.create_entity(Sensor.box(150, 40, 300, 80))

    return _recorded(w, 700, act)


def test_a_world_asleep_all_through_asks_sleeping_alone(monkeypatch):
    asked = _both_ways(monkeypatch, _resting_run, "_unwatched")
    assert sum(asked) > 100  # it rested long stretches before and between the pokes
