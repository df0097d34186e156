"""Contact events: began once, ended once, only for particles that ask, saved with the world."""

from __future__ import annotations

import math

import pytest

from ecsgoo import Anchor, Particle, RigidBody, World, dumps, loads, systems
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
    a, b, x, y, nx, ny = began[0][1:7]
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
    _, _, _, x, y, nx, ny = began[0][:7]
    assert y == pytest.approx(20.0, abs=0.5) and (nx, ny) == pytest.approx((0.0, 1.0))
    assert 385 - 1e-6 <= x <= 415 + 1e-6
    assert quiet not in {e for entry in log for e in entry[1:3]}
    w.component(crate, RigidBody).vy = 900.0
    w.step(10)
    assert ("ended", ground, crate) in log
    n = len(log)
    w.step(180)  # landed again: one more began, no flicker while resting
    assert [e[0] for e in log[n:]] == ["began"]


def _landing(target: str, mass: float = 2.0) -> tuple[list, int, int]:
    """A watched particle dropped from 200 px above a floor of the given kind."""
    w = World(bounds=(0, 0, 800, 600), damping=1.0).use(*(s() for s in systems.SOLVER))
    if target == "static body":
        floor = w.create_entity(RigidBody.box(400, 90, 300, 20), Anchor())
        top = 100
    elif target == "dynamic body":
        floor = w.create_entity(RigidBody.box(400, 90, 300, 20, mass=1e6))
        w.create_entity(RigidBody.box(400, 40, 400, 80), Anchor())
        top = 100
    elif target == "segment":
        w.add_segment((100, 100), (700, 100))
        floor, top = -1, 100
    else:  # the bounds
        floor, top = -1, 0
    ball = w.create_entity(Particle(400, top + 210, radius=10, mass=mass, events=True))
    log = record(w, **EVENTS)
    w.velocities = []  # the ball's vy at each frame's end, to check the impulse against
    for _ in range(60):
        w.step()
        w.velocities.append((len(log), w.component(ball, Particle).vy))
    return log, floor, ball, w.velocities


@pytest.mark.parametrize("target", ["static body", "dynamic body", "segment", "bounds"])
def test_a_watched_particle_reports_landing_with_the_hit_s_impulse_and_speed(target):
    log, floor, ball, vy = _landing(target)
    began = [e for e in log if e[0] == "began"]
    a, b, x, y, nx, ny, impulse, speed = began[0][1:]
    if floor < 0:
        assert (a, b) == (ball, -1) and (nx, ny) == pytest.approx((0, -1), abs=1e-6)
    else:
        assert {a, b} == {ball, floor}
        assert (nx, ny) == pytest.approx((0, -1) if a == ball else (0, 1), abs=1e-3)
    # it fell 200 px: it hits at v = sqrt(2 g h)
    assert speed == pytest.approx(math.sqrt(2 * 980 * 200), rel=0.10)
    # the impulse is m·Δv over the frame of the hit (gravity aside)
    frame = next(k for k, (logged, _) in enumerate(vy) if logged >= log.index(began[0]) + 1)
    dv = vy[frame][1] - vy[frame - 1][1] + 980 / 60
    assert impulse == pytest.approx(2.0 * dv, rel=0.10)


def test_a_heavier_particle_hits_harder():
    light = [e for e in _landing("static body", 1.0)[0] if e[0] == "began"][0]
    heavy = [e for e in _landing("static body", 5.0)[0] if e[0] == "began"][0]
    assert light[8] == pytest.approx(heavy[8])  # as fast
    assert heavy[7] == pytest.approx(5 * light[7], rel=0.10)


def test_a_handler_of_six_arguments_still_gets_its_six():
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    got = []

    def old_style(a, b, x, y, nx, ny):
        got.append((a, b))

    w.set_handler("contact_began", old_style)
    ball = w.create_entity(Particle(400, 100, radius=10, events=True))
    w.step(60)
    assert got == [(ball, -1)]


def test_a_watched_body_reports_the_level_and_a_watched_particle_the_bodies_it_rests_on():
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    log = record(w, **EVENTS)
    crate = w.create_entity(RigidBody.box(400, 100, 40, 40, events=True))
    w.step(60)
    assert [e[1:3] for e in log if e[0] == "began"] == [(crate, -1)]


def _square_outline(w: World, events: bool) -> list[int]:
    """A still soft-body outline (an AreaConstraint on four immovable particles, 200 px
    sides): a disc on its top edge touches no vertex, only the edge between two."""
    from ecsgoo import AreaConstraint
    corners = [w.create_entity(Particle(x, y, radius=3, mass=math.inf, restitution=0.0,
                                        events=events))
               for x, y in ((300, 100), (500, 100), (500, 300), (300, 300))]
    w.create_entity(AreaConstraint(corners))
    return corners


@pytest.mark.parametrize("asks", ["particle", "outline"])
def test_a_disc_landing_on_an_outline_edge_reports_the_nearer_outline_particle(asks):
    w, log = _world(gravity=(0, -980))
    corners = _square_outline(w, events=asks == "outline")
    ball = w.create_entity(Particle(360, 340, radius=10, mass=2.0, restitution=0.0,
                                    events=asks == "particle"))
    w.step(60)
    began = [e for e in log if e[0] == "began"]
    assert len(began) == 1, began
    a, b, x, y, nx, ny, impulse, speed = began[0][1:]
    near = corners[3]  # (300, 300) is nearer x = 360 than (500, 300)
    assert (a, b) == tuple(sorted((ball, near)))
    sign = 1.0 if a == ball else -1.0  # the normal runs from a to b
    assert (nx, ny) == pytest.approx((0.0, -sign), abs=1e-6)
    assert x == pytest.approx(360, abs=1e-6) and y == pytest.approx(303, abs=1.0)
    # it fell ~27 px: v = √(2·980·27) ≈ 230 px/s; the contact took m·v out of it
    fall = math.sqrt(2 * 980 * (340 - 313))
    assert speed == pytest.approx(fall, rel=0.1)
    assert impulse == pytest.approx(2.0 * fall, rel=0.1)
    settled = len(log)
    w.step(60)
    assert len(log) == settled, "resting on the edge does not flicker"


def test_an_outline_nobody_watches_reports_nothing():
    w, log = _world(gravity=(0, -980))
    _square_outline(w, events=False)
    w.create_entity(Particle(360, 340, radius=10))
    w.step(60)
    assert log == []


@pytest.mark.parametrize("kind", ["particle", "body", "bodies at once"])
def test_watching_something_in_a_resting_world_reports_its_contact_next_frame(kind):
    """"Is anything watched?" is kept between frames (``flags.watched``): a flag set on a
    world asleep all through, where no row came or went, still counts at once."""
    w, log = _world(gravity=(0, -980))
    w.sleep = True
    w.create_entity(Particle(400, 20, radius=20, mass=float("inf")))
    if kind == "particle":
        thing = w.create_entity(Particle(400, 45, radius=5))
    else:
        made = RigidBody.box(400, 50, 20, 20, mass=1.0)
        thing = (w.create_entities([made])[0] if kind == "bodies at once"
                 else w.create_entity(made))
    for _ in range(600):
        w.step()
        if w.resting:
            break
    assert w.resting and not log
    w.step(30)  # kept answers: nothing watched, frame after frame
    kept = RigidBody if kind != "particle" else Particle
    w.component(thing, kept).events = True
    w.step()
    assert [e[:1] for e in log] == [("began",)] and thing in log[0][1:3]
    w.component(thing, kept).events = False
    w.step()
    assert log[-1][0] == "ended" and w.resting


def test_frames_where_no_watched_disc_touches_anything_skip_the_full_look(monkeypatch):
    """A watched disc in flight that touches nothing is known so from two kernel passes
    (``contact_events._touch_free``): the same events as the full look every frame, hits
    on discs, segments and walls included, and no full look while they fly."""
    from ecsgoo import contact_events, frame_end

    def run(shortcut: bool) -> tuple[list, int]:
        w, log = _world(gravity=(0, -980))
        w.level.add_segment((0, 150), (300, 100))
        w.create_entity(Particle(400, 20, radius=20, mass=float("inf")))
        for k in range(8):  # dropped in turn onto the floor, the disc, the segment, a pile
            w.create_entity(Particle(120 + 60 * k, 300 + 40 * k, radius=8 + k,
                                     vx=60.0 * (k % 3 - 1), events=k % 2 == 0,
                                     restitution=0.5))
        looks = [0]
        plain = contact_events._touching

        def counted(world):
            looks[0] += 1
            return plain(world)

        monkeypatch.setattr(contact_events, "_touching", counted)
        if not shortcut:
            monkeypatch.setattr(contact_events, "_touch_free", lambda world: False)
            monkeypatch.setattr(frame_end, "ENABLED", False)  # the one-call end asks too
        w.step(240)
        monkeypatch.undo()
        return log, looks[0]

    (fast, looked), (full, every) = run(True), run(False)
    assert fast == full and len(fast) >= 8
    assert every == 240 and looked <= every - 20


def test_the_frame_start_kept_between_frames_gives_a_fresh_ones_impulses(monkeypatch):
    """``FrameVelocities`` is taken into buffers kept from frame to frame, its entities
    copied again only when rows came or went: the same events, impulses and speeds to the
    bit as one made anew every frame, through balls made (past the columns' first
    capacity), deleted between frames and from a handler, and frames watching nothing."""
    from ecsgoo import contact_events

    def run(fresh: bool) -> list:
        w, log = _world(gravity=(0, -980))
        w.create_entity(Particle(400, 20, radius=20, mass=float("inf")))
        balls: list[int] = []
        capacity = w.store.particles.capacity

        def landed(a: int, b: int, *where: float) -> None:
            log.append(("began", a, b, *where))
            for e in (a, b):
                if e >= 0 and w.entity_exists(e):
                    w.component(e, Particle).events = False
            if len(log) % 4 == 0 and len(balls) > 3:  # a handler deletes a resting one
                w.delete_entity(balls.pop(0))

        w.set_handler("contact_began", landed)
        if fresh:
            plain = contact_events.begin_frame

            def anew(world: World) -> None:
                world.__dict__.pop("_frame_start", None)
                plain(world)

            monkeypatch.setattr(contact_events, "begin_frame", anew)
        for frame in range(400):
            if frame % 3 == 0 and frame < 300:
                balls.append(w.create_entity(Particle(60 + (frame * 37) % 680, 500, radius=6,
                                                      vx=40.0 * (frame % 3 - 1), events=True,
                                                      restitution=0.4)))
            if frame % 23 == 22 and len(balls) > 5:
                w.delete_entity(balls.pop(len(balls) // 2))
            w.step()
        monkeypatch.undo()
        assert w.store.particles.capacity > capacity  # the columns grew
        return log

    kept, anew = run(False), run(True)
    assert kept == anew and sum(e[0] == "began" for e in kept) > 40
    assert any(e[7] > 0 for e in kept if e[0] == "began")  # impulses measured
