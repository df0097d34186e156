"""RigidBody and Joint as components: making them, their live views, the world around them."""

import math

import numpy as np
import pytest

from ecsgoo import (
    Anchor,
    Joint,
    Particle,
    RigidBody,
    Spring,
    World,
    WorldError,
    dumps,
    loads,
    systems,
)


def _world() -> World:
    return World(bounds=None).use(*(s() for s in systems.SOLVER))


def test_shapes_give_their_mass_properties():
    box = RigidBody.box(0, 0, 30, 40, mass=2)
    assert box.inertia == pytest.approx(2 * (30**2 + 40**2) / 12)
    disc = RigidBody.circle(0, 0, 10, mass=3)
    assert disc.inertia == pytest.approx(3 * 100 / 2)
    # a polygon's x, y is its centre of mass: an L's is off its corner
    ell = RigidBody.polygon(0, 0, [(0, 0), (30, 0), (30, 10), (10, 10), (10, 30), (0, 30)])
    assert (ell.x, ell.y) == pytest.approx((11, 11))  # 300 px² at (15, 5), 200 at (5, 20)
    assert len(ell.pieces) >= 2


def test_either_winding_makes_the_same_body():
    pts = [(0, 0), (40, 0), (40, 20), (0, 20)]
    ccw, cw = RigidBody.polygon(5, 5, pts), RigidBody.polygon(5, 5, pts[::-1])
    assert (ccw.x, ccw.y, ccw.inertia) == pytest.approx((cw.x, cw.y, cw.inertia))


@pytest.mark.parametrize("make, field", [
    (lambda: RigidBody.box(0, 0, -1, 10), "width"),
    (lambda: RigidBody.box(0, 0, 10, 0), "height"),
    (lambda: RigidBody.box(0, 0, 10, 10, mass=0), "mass"),
    (lambda: RigidBody.circle(0, 0, float("nan")), "radius"),
    (lambda: RigidBody.box(float("nan"), 0, 10, 10), "x"),
    (lambda: RigidBody.box(0, 0, 10, 10, friction=-1), "friction"),
    (lambda: RigidBody.polygon(0, 0, [(0, 0), (1, 1)]), "points"),
    (lambda: RigidBody.polygon(0, 0, [(0, 0), (1, 0), (2, 0)]), "points"),
    (lambda: RigidBody.polygon(0, 0, [(0, 0), (10, 10), (10, 0), (0, 10)]), "points"),
])
def test_bad_shapes_are_refused_naming_the_field(make, field):
    with pytest.raises(WorldError, match=f"field {field}"):
        make()


def test_the_live_view_reads_and_writes_the_store():
    w = _world()
    e = w.create_entity(RigidBody.box(10, 20, 40, 40, angle=0.5))
    b = w.component(e, RigidBody)
    assert (b.x, b.y, b.angle) == (10.0, 20.0, 0.5)
    b.vx, b.omega = 120.0, 2.0
    assert b.vx == pytest.approx(120.0) and b.omega == pytest.approx(2.0)
    b.x = 50.0  # moving keeps the velocity
    assert b.x == 50.0 and b.vx == pytest.approx(120.0)
    row = w.bodies.row(e)
    assert tuple(w.bodies.pos[row]) == (50.0, 20.0)
    assert w.bodies.entity[row] == e
    with pytest.raises(WorldError, match="field mass"):
        b.mass = -2
    b.mass = 4.0
    assert b.inertia == pytest.approx(4.0 * 40**2 * 2 / 12)


def test_an_anchored_body_stays_put_and_moves_when_written():
    w = _world()
    e = w.create_entity(RigidBody.box(0, 0, 100, 20), Anchor())
    b = w.component(e, RigidBody)
    w.step(30)
    assert (b.x, b.y, b.angle) == (0.0, 0.0, 0.0)
    b.x, b.angle = 30.0, 0.2
    w.step(5)
    assert (b.x, b.angle) == (30.0, 0.2) and b.vx == 0.0
    w.remove_component(e, Anchor)
    w.step(10)
    assert b.y < 0  # free again: it falls


def test_forces_act_on_bodies_for_one_step():
    w = World(bounds=None, gravity=(0, 0), damping=1.0).use(*(s() for s in systems.SOLVER))
    e = w.create_entity(RigidBody.circle(0, 0, 5, mass=2.0))
    w.apply_force(e, 120.0, 0.0)  # a = 60 px/s² for 1/60 s
    w.step()
    w.step()
    assert w.component(e, RigidBody).vx == pytest.approx(1.0, rel=1e-6)


def test_deleting_a_body_takes_its_joints_and_springs_and_keeps_rows_right():
    w = _world()
    a = w.create_entity(RigidBody.box(0, 0, 10, 10))
    b = w.create_entity(RigidBody.box(20, 0, 10, 10))
    c = w.create_entity(RigidBody.box(40, 0, 10, 10))
    hinge = w.create_entity(Joint(b, c, 30, 0))
    p = w.create_entity(Particle(60, 0))
    spring = w.create_entity(Spring(c, p, at_a=(45, 0)))
    w.delete_entity(a)  # c's row moves into a's
    assert w.bodies.row(c) != 2 or w.bodies.row(b) != 1
    j = w.component(hinge, Joint)
    assert (w.store.joints.a_body[j._slot], w.store.joints.b_body[j._slot]) == (
        w.bodies.row(b), w.bodies.row(c))
    w.step(2)
    assert not w.entity_exists(a)
    w.delete_entity(c)
    assert not w.entity_exists(hinge) and not w.entity_exists(spring)
    assert len(w.joints) == 0 and w.store.tethers.n == 0


def test_a_joint_needs_bodies_or_particles_and_a_weld_needs_bodies():
    w = _world()
    a = w.create_entity(RigidBody.box(0, 0, 10, 10))
    p = w.create_entity(Particle(10, 0))
    tag = w.create_entity()
    with pytest.raises(WorldError, match="field b"):
        w.create_entity(Joint(a, tag, 0, 0))
    with pytest.raises(WorldError, match="field weld"):
        w.create_entity(Joint(a, p, 5, 0, weld=True))
    with pytest.raises(WorldError, match="same entity"):
        Joint(a, a, 0, 0)


def test_a_spring_holds_a_body_at_its_point():
    w = World(bounds=None, damping=0.98).use(*(s() for s in systems.SOLVER))
    pin = w.create_entity(Particle(0, 100), Anchor())
    plank = w.create_entity(RigidBody.box(0, 0, 100, 10))
    s = w.create_entity(Spring(pin, plank, at_b=(50, 0)))
    assert w.component(s, Spring).rest == pytest.approx(math.hypot(50, 100))
    w.step(600)
    b = w.component(plank, RigidBody)
    # hung by one end: the plank's far end swings under the pin
    end = b.outline()[0].mean(axis=0) + np.array([math.cos(b.angle), math.sin(b.angle)]) * 50
    assert end[0] == pytest.approx(0.0, abs=2.0)
    assert 0.9 < w.component(s, Spring).stretch < 1.1


def test_a_clone_steps_the_same_bits():
    w = World(bounds=(0, 0, 400, 300)).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(200, 10, 400, 20), Anchor())
    crate = w.create_entity(RigidBody.box(200, 80, 30, 30, angle=0.3))
    wheel = w.create_entity(RigidBody.circle(240, 120, 10))
    w.create_entity(Joint(crate, wheel, 230, 100))
    w.step(20)
    twin = w.clone()
    w.step(40)
    twin.step(40)
    assert twin.state_hash() == w.state_hash()


def test_a_grabbed_body_follows_the_pointer_turns_and_flings():
    w = World(bounds=None, gravity=(0, 0)).use(*(s() for s in systems.SOLVER))
    e = w.create_entity(RigidBody.box(0, 0, 40, 20))
    b = w.component(e, RigidBody)
    w.grab(e, 20, 0)  # by its right end
    for k in range(30):
        w.grab(e, 20, 5 * (k + 1))  # drag the end up: the box turns about its middle
        w.step()
    assert b.angle > 0.3
    c, s = math.cos(b.angle), math.sin(b.angle)
    end = (b.x + 20 * c, b.y + 20 * s)
    assert end == pytest.approx((20, 150), abs=10)  # the held point came along
    twin = loads(dumps(w))  # a save mid-drag holds the body where it is held
    w.step(3)
    twin.step(3)
    assert twin.state_hash() == w.state_hash()
    w.release()
    assert math.hypot(b.vx, b.vy) > 100  # flung

