"""Rigid bodies against closed forms: slopes, rolling, pendulums, collisions, hanging."""

import math

import numpy as np
import pytest

from ecsgoo import Anchor, Joint, Particle, RigidBody, Spring, World, dumps, loads, systems

G = 980.0


def _world(**kw) -> World:
    kw.setdefault("bounds", None)
    kw.setdefault("damping", 1.0)
    return World(**kw).use(*(s() for s in systems.SOLVER))


def _slope(w: World, theta: float, mu: float) -> None:
    """A static slab whose top face passes through the origin at angle ``theta``."""
    nx, ny = -math.sin(theta), math.cos(theta)
    w.create_entity(RigidBody.box(-10 * nx, -10 * ny, 2000, 20, angle=theta, friction=mu),
                    Anchor())


def _on_slope(w: World, theta: float, mu: float, body: RigidBody, lift: float) -> int:
    """Put ``body`` (made at the origin) on the slope, ``lift`` px above its face."""
    nx, ny = -math.sin(theta), math.cos(theta)
    body.x, body.y = lift * nx, lift * ny
    return w.create_entity(body)


def _along(b: RigidBody, theta: float) -> float:
    """How far down the slope the body's centre is, px."""
    return -(b.x * math.cos(theta) + b.y * math.sin(theta))


def test_a_box_holds_on_a_30_degree_slope_with_friction_0_9():
    theta = math.radians(30)
    w = _world()
    _slope(w, theta, 0.9)
    e = _on_slope(w, theta, 0.9, RigidBody.box(0, 0, 40, 40, angle=theta, friction=0.9), 20)
    b = w.component(e, RigidBody)
    w.step(30)
    start = _along(b, theta)
    w.step(120)
    assert abs(_along(b, theta) - start) < 0.5


def test_a_box_slides_down_a_30_degree_slope_as_g_sin_minus_mu_cos():
    theta, mu = math.radians(30), 0.2
    w = _world()
    _slope(w, theta, mu)
    e = _on_slope(w, theta, mu, RigidBody.box(0, 0, 40, 40, angle=theta, friction=mu), 20)
    b = w.component(e, RigidBody)
    w.step(6)  # settled onto the face
    s0, v0 = _along(b, theta), -(b.vx * math.cos(theta) + b.vy * math.sin(theta))
    w.step(60)
    a = G * (math.sin(theta) - mu * math.cos(theta))
    expected = v0 * 1.0 + 0.5 * a * 1.0**2
    assert _along(b, theta) - s0 == pytest.approx(expected, rel=0.03)


def test_a_disc_rolls_down_a_slope_without_slipping():
    theta = math.radians(20)
    w = _world()
    _slope(w, theta, 0.9)
    r = 20.0
    e = _on_slope(w, theta, 0.9, RigidBody.circle(0, 0, r, friction=0.9), r)
    b = w.component(e, RigidBody)
    w.step(6)
    s0 = _along(b, theta)
    v0 = -(b.vx * math.cos(theta) + b.vy * math.sin(theta))
    w.step(60)
    a = 2.0 / 3.0 * G * math.sin(theta)
    assert _along(b, theta) - s0 == pytest.approx(v0 + 0.5 * a, rel=0.03)
    speed = math.hypot(b.vx, b.vy)
    assert abs(b.omega) * r == pytest.approx(speed, rel=0.02)  # v = ω r: no slip


def test_a_rod_on_a_hinge_swings_with_the_physical_pendulum_period():
    w = _world()
    pin = w.create_entity(RigidBody.circle(0, 0, 2), Anchor())
    length, th0 = 200.0, 0.2
    rod = w.create_entity(RigidBody.box(length / 2 * math.sin(th0), -length / 2 * math.cos(th0),
                                        10, length, angle=th0))
    w.create_entity(Joint(pin, rod, 0, 0))
    b = w.component(rod, RigidBody)
    crossings, before = [], b.angle
    for frame in range(1, 400):
        w.step()
        now = b.angle
        if before > 0 >= now or before < 0 <= now:
            crossings.append((frame - now / (now - before)) / 60)
        before = now
    period = 2 * (crossings[-1] - crossings[0]) / (len(crossings) - 1)
    # I = m L²/3 about the pin, the centre L/2 below it; amplitude th0 lengthens it a little
    expected = 2 * math.pi * math.sqrt(2 * length / (3 * G)) * (1 + th0**2 / 16)
    assert period == pytest.approx(expected, rel=0.03)


def test_a_welded_cantilever_holds():
    w = _world()
    wall = w.create_entity(RigidBody.box(-10, 0, 20, 200), Anchor())
    beam = w.create_entity(RigidBody.box(100, 0, 200, 10))
    w.create_entity(Joint(wall, beam, 0, 0, weld=True))
    w.step(120)
    b = w.component(beam, RigidBody)
    assert abs(b.angle) < 0.01
    assert b.x == pytest.approx(100, abs=0.5) and b.y == pytest.approx(0, abs=1.0)
    assert math.hypot(b.vx, b.vy) < 1.0


def test_a_head_on_collision_keeps_momentum_and_adds_no_energy():
    w = _world(gravity=(0, 0))
    a = w.create_entity(RigidBody.box(-100, 0, 40, 40, mass=2.0, restitution=0.5))
    b = w.create_entity(RigidBody.box(100, 3, 40, 40, mass=1.0, restitution=0.5))
    va, vb = w.component(a, RigidBody), w.component(b, RigidBody)
    va.vx, vb.vx = 600.0, -400.0

    def momentum():
        return np.array([2 * va.vx + vb.vx, 2 * va.vy + vb.vy])

    def energy():
        return sum(0.5 * c.mass * (c.vx**2 + c.vy**2) + 0.5 * c.inertia * c.omega**2
                   for c in (va, vb))

    p0, e0 = momentum(), energy()
    w.step(60)
    assert vb.x > va.x  # they met and parted, not passed through
    assert np.allclose(momentum(), p0, atol=0.01 * abs(p0[0]) + 1e-9, rtol=0.01)
    assert energy() <= e0 * 1.0001


def test_a_box_hung_by_its_corner_comes_to_rest_under_the_pin():
    w = _world(damping=0.98)
    pin = w.create_entity(Particle(0, 0), Anchor())
    box = w.create_entity(RigidBody.box(30, -60, 40, 40, angle=0.3))
    b = w.component(box, RigidBody)
    corner = b.outline()[0][3]
    w.create_entity(Spring(pin, box, stiffness=0.5, at_b=tuple(corner)))
    w.step(600)
    assert b.x == pytest.approx(0.0, abs=1.0)
    assert abs(abs(b.angle % (math.pi / 2)) - math.pi / 4) < 0.02  # the diagonal hangs
    assert math.hypot(b.vx, b.vy) < 2.0


def test_a_joint_breaks_above_its_max_force_and_says_so():
    broke = []
    for max_force, holds in ((1.5 * 2 * G, True), (0.5 * 2 * G, False)):
        w = _world()
        w.set_handler("joint_broke", lambda world, e: broke.append(e))
        pin = w.create_entity(RigidBody.circle(0, 0, 2), Anchor())
        weight = w.create_entity(RigidBody.box(0, -50, 20, 20, mass=2.0))
        joint = w.create_entity(Joint(pin, weight, 0, -40, max_force=max_force))
        w.step(60)
        j = w.component(joint, Joint)
        assert j.broken is not holds
        if holds:
            assert j.force == pytest.approx(2 * G, rel=0.05)  # a hanging mass m pulls m·g
    assert broke == [joint]


def test_a_fast_box_does_not_pass_a_segment():
    w = _world(gravity=(0, 0))
    w.add_segment((-200, 0), (200, 0))
    e = w.create_entity(RigidBody.box(0, 100, 10, 10))
    b = w.component(e, RigidBody)
    b.vy = -12000.0
    w.step(10)
    assert b.y > 0


def test_no_nan_and_the_same_bits_after_a_chaotic_run():
    def run() -> str:
        w = _world(bounds=(0, 0, 600, 400), damping=0.99)
        rng = np.random.default_rng(3)
        for k in range(40):
            x, y = rng.uniform(50, 550), rng.uniform(50, 350)
            kind = k % 3
            body = (RigidBody.box(x, y, 20, 30, angle=rng.uniform(0, 3)) if kind == 0 else
                    RigidBody.circle(x, y, 12) if kind == 1 else
                    RigidBody.polygon(x, y, [(0, 0), (30, 0), (30, 30), (15, 10), (0, 30)]))
            e = w.create_entity(body)
            w.component(e, RigidBody).vx = rng.uniform(-800, 800)
        w.step(240)
        w.check()
        return w.state_hash()

    assert run() == run()


# --- mixed with particles and soft bodies ------------------------------------------------


def _inside_box(b: RigidBody, points: np.ndarray, w: float, h: float) -> np.ndarray:
    """Which ``points`` lie inside the (unrotated frame of) box body ``b``."""
    c, s = math.cos(b.angle), math.sin(b.angle)
    d = points - (b.x, b.y)
    u, v = c * d[:, 0] + s * d[:, 1], -s * d[:, 0] + c * d[:, 1]
    return (np.abs(u) < w / 2) & (np.abs(v) < h / 2)


def test_a_particle_and_a_jelly_ball_rest_on_a_static_box():
    from ecsgoo.bodies import jelly_ball

    w = _world(damping=0.99)
    w.create_entity(RigidBody.box(0, -10, 600, 20), Anchor())
    dot = w.create_entity(Particle(-150, 30, radius=5))
    ball = jelly_ball(w, 100, 60, radius=40, vertices=16)
    w.step(240)
    p = w.component(dot, Particle)
    assert p.y == pytest.approx(5, abs=1.0) and abs(p.vy) < 5
    ys = w.particles.pos[w.particles.rows(ball.particles), 1]
    assert ys.min() > -1.0  # the ball sits on the box, not through it
    assert np.abs(w.particles.velocity[w.particles.rows(ball.particles)]).max() < 20


def test_a_crate_dropped_on_a_jelly_ball_rests_on_top():
    from ecsgoo.bodies import jelly_ball

    w = _world(damping=0.99)
    w.create_entity(RigidBody.box(0, -10, 600, 20), Anchor())
    ball = jelly_ball(w, 0, 52, radius=45, vertices=24)
    w.step(60)  # the ball settles
    crate = w.create_entity(RigidBody.box(0, 170, 40, 40, mass=0.5))
    w.step(300)
    b = w.component(crate, RigidBody)
    rows = w.particles.rows(ball.particles)
    pos = w.particles.pos[rows]
    assert b.y > pos[:, 1].max() - 5  # on top of the ball
    assert not _inside_box(b, pos, 40, 40).any()
    assert math.hypot(b.vx, b.vy) < 10


def test_an_l_shaped_body_collides_as_an_l():
    w = _world(damping=0.99)
    w.create_entity(RigidBody.box(0, -10, 600, 20), Anchor())
    ell = w.create_entity(RigidBody.polygon(-60, 0, [(0, 0), (120, 0), (120, 30), (30, 30),
                                                     (30, 120), (0, 120)], mass=20), Anchor())
    ball = w.create_entity(RigidBody.circle(20, 200, 10))
    w.step(240)
    b = w.component(ball, RigidBody)
    # in the notch: on the L's foot (top at y = 30), beside its upright (x > -30);
    # on the hull it would rest on the diagonal, far above
    assert b.y == pytest.approx(40, abs=1.5)
    assert b.x > -30 + 9
    assert w.component(ell, RigidBody).inertia > 0


# --- mass ratios -------------------------------------------------------------------------


def _column(ratio: float) -> tuple[World, list[int]]:
    """Ten unit discs of radius 10 stacked on the ground, a disc ``ratio`` times heavier on top."""
    w = _world(bounds=(-200, 0, 200, 2000), damping=0.99)
    ids = [w.create_entity(RigidBody.circle(0, 10 + 20 * k, 10)) for k in range(10)]
    ids.append(w.create_entity(RigidBody.circle(0, 210, 10, mass=ratio)))
    w.step(600)
    return w, ids


def test_a_100_times_heavier_disc_on_a_column_comes_to_rest():
    w, ids = _column(100.0)
    views = [w.component(e, RigidBody) for e in ids]
    assert max(math.hypot(b.vx, b.vy) for b in views) < 1.0
    ys = np.array([b.y for b in views])
    assert ys[0] > 10 - 1.0 and np.diff(ys).min() > 20 - 1.0  # under 1 px of overlap
    assert max(abs(b.x) for b in views) < 0.01


def test_a_1000_times_heavier_disc_does_not_sink_through_the_column():
    w, ids = _column(1000.0)
    top = w.component(ids[-1], RigidBody)
    assert top.y > 210 - 11 * 5.0  # at most 5 px per contact, never through to the ground
    ys = [w.component(e, RigidBody).y for e in ids]
    assert ys == sorted(ys)  # still in order


def test_a_chain_of_alternating_1_to_1000_masses_hangs():
    w = _world(damping=0.99)
    pin = w.create_entity(RigidBody.circle(0, 0, 2), Anchor())
    links, prev = [], pin
    for k in range(8):
        mass = 1000.0 if k % 2 else 1.0
        link = w.create_entity(RigidBody.box(0, -15 - 30 * k, 6, 30, mass=mass))
        w.create_entity(Joint(prev, link, 0, -30 * k))
        links.append(link)
        prev = link
    w.step(600)
    bodies = [w.component(e, RigidBody) for e in links]
    for k, b in enumerate(bodies):  # each link under the one above, the chain not stretched
        assert b.y == pytest.approx(-15 - 30 * k, abs=2.0) and abs(b.x) < 1.0
    assert max(math.hypot(b.vx, b.vy) for b in bodies) < 2.0


def test_a_disc_hinged_off_centre_to_a_pinned_particle_swings_with_its_period():
    """A physical pendulum on a particle end: T = 2π √(I / (m g d)), I = m r²/2 + m d²."""
    w = _world()
    pin = w.create_entity(Particle(0, 0), Anchor())
    radius, d, th0 = 30.0, 20.0, 0.1
    disc = w.create_entity(RigidBody.circle(d * math.sin(th0), -d * math.cos(th0), radius))
    w.create_entity(Joint(pin, disc, 0, 0))
    b = w.component(disc, RigidBody)
    crossings, before = [], b.x
    for frame in range(1, 300):
        w.step()
        if before > 0 >= b.x or before < 0 <= b.x:
            crossings.append((frame - b.x / (b.x - before)) / 60)
        before = b.x
    period = 2 * (crossings[-1] - crossings[0]) / (len(crossings) - 1)
    expected = 2 * math.pi * math.sqrt((radius**2 / 2 + d**2) / (G * d)) * (1 + th0**2 / 16)
    assert period == pytest.approx(expected, rel=0.01)
    assert math.hypot(b.x, b.y) == pytest.approx(d, abs=0.05)  # the hinge held


def test_a_chain_of_30_equal_links_let_go_level_comes_to_hang_straight():
    w = _world(damping=0.95)
    prev, links = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor()), []
    for k in range(30):
        links.append(w.create_entity(RigidBody.box(20 * (k + 0.5), 0, 20, 4, mass=1.0)))
        w.create_entity(Joint(prev, links[-1], 20 * k, 0))
        prev = links[-1]
    w.step(1200)
    bodies = [w.component(e, RigidBody) for e in links]
    for k, b in enumerate(bodies):  # straight down from the pin, no link stretched
        assert b.y == pytest.approx(-20 * (k + 0.5), abs=0.5) and abs(b.x) < 0.5
    assert max(math.hypot(b.vx, b.vy) for b in bodies) < 1.0


def test_a_fast_particle_does_not_pass_a_thin_static_box():
    w = _world(gravity=(0, 0))
    w.create_entity(RigidBody.box(0, 0, 200, 10), Anchor())
    for x in (-50.0, 0.0, 73.0):
        p = w.create_entity(Particle(x, 300, radius=3))
        w.component(p, Particle).vy = -20000.0
        w.step(10)
        assert w.component(p, Particle).y > 5.0  # above the box, never below it


# --- joint motors and limits (Box2D's revolute joint) -------------------------------------


def _wheel_on_a_pin(**joint) -> tuple[World, RigidBody]:
    """A disc of mass 2 on a hinge at its centre to a static box, no gravity, no damping."""
    w = _world(gravity=(0.0, 0.0))
    base = w.create_entity(RigidBody.box(0, 0, 20, 20), Anchor())
    wheel = w.create_entity(RigidBody.circle(0, 0, 10, mass=2.0))
    w.create_entity(Joint(base, wheel, 0, 0, **joint))
    return w, w.component(wheel, RigidBody)


def test_a_strong_motor_turns_its_wheel_at_the_motor_speed():
    w, wheel = _wheel_on_a_pin(motor_speed=3.0, motor_torque=1e6)
    w.step(30)
    assert wheel.omega == pytest.approx(3.0, abs=1e-9)
    assert math.hypot(wheel.x, wheel.y) < 1e-9  # and the hinge holds its centre


def test_a_weak_motor_spins_its_wheel_up_at_torque_over_inertia():
    torque = 50.0
    w, wheel = _wheel_on_a_pin(motor_speed=100.0, motor_torque=torque)
    w.step(30)  # half a second, far from the motor's speed
    assert wheel.omega == pytest.approx(torque / wheel.inertia * 0.5, rel=1e-6)


def test_a_motor_holds_a_horizontal_rod_only_with_more_torque_than_its_weight_makes():
    def rod_after(torque: float) -> float:
        w = _world(gravity=(0.0, -G))
        pin = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
        rod = w.create_entity(RigidBody.box(50, 0, 100, 6, mass=1.0))
        w.create_entity(Joint(pin, rod, 0, 0, motor_speed=0.0, motor_torque=torque))
        w.step(60)
        return w.component(rod, RigidBody).angle

    needed = 1.0 * G * 50.0  # m·g at half the rod's length
    assert abs(rod_after(1.05 * needed)) < 1e-3
    assert rod_after(0.95 * needed) < -0.05  # it sags: the motor cannot hold it


def test_angle_limits_stop_a_swinging_rod_at_them():
    w = _world(gravity=(0.0, -G))
    pin = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    rod = w.create_entity(RigidBody.box(50, 0, 100, 6))
    w.create_entity(Joint(pin, rod, 0, 0, lower=-0.5, upper=0.3))
    angles = []
    for _ in range(120):
        w.step()
        angles.append(w.component(rod, RigidBody).angle)
    assert min(angles) > -0.5 - 0.01  # never past the lower limit...
    assert angles[-1] == pytest.approx(-0.5, abs=0.01)  # ...and it rests on it
    flip = _world(gravity=(0.0, G))  # gravity up: now it swings into the upper limit
    pin = flip.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    rod = flip.create_entity(RigidBody.box(50, 0, 100, 6))
    flip.create_entity(Joint(pin, rod, 0, 0, lower=-0.5, upper=0.3))
    flip.step(120)
    assert flip.component(rod, RigidBody).angle == pytest.approx(0.3, abs=0.01)


def test_limits_count_from_the_angle_the_joint_was_made_at():
    w = _world(gravity=(0.0, -G))
    pin = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    tilt = 0.3  # the rod made already turned up by 0.3 rad: that is its joint angle 0
    rod = w.create_entity(RigidBody.box(50 * math.cos(tilt), 50 * math.sin(tilt), 100, 6,
                                        angle=tilt))
    j = w.create_entity(Joint(pin, rod, 0, 0, lower=-0.2, upper=0.2))
    assert w.joints.rest_angle[w.joints.row(j)] == pytest.approx(tilt)
    w.step(120)
    assert w.component(rod, RigidBody).angle == pytest.approx(tilt - 0.2, abs=0.01)


def test_a_motor_and_limits_save_and_continue_bit_for_bit():
    from ecsgoo import dumps, loads

    w, wheel = _wheel_on_a_pin(motor_speed=3.0, motor_torque=1e4, lower=-1.0, upper=2.0)
    w.step(20)  # 1 rad turned at 3 rad/s
    text = dumps(w)
    assert "motor_torque = 10000.0" in text and "upper = 2.0" in text
    twin = loads(text)
    w.step(60)
    twin.step(60)
    assert twin.state_hash() == w.state_hash()
    assert wheel.angle == pytest.approx(2.0, abs=0.01)  # driven up to the upper limit


def test_a_motor_is_driven_live_and_bad_limits_are_refused():
    from ecsgoo import WorldError

    w, wheel = _wheel_on_a_pin(motor_speed=1.0, motor_torque=1e6)
    j = w.component(w.joints.entity[0], Joint)
    w.step(10)
    j.motor_speed = -2.0
    w.step(10)
    assert wheel.omega == pytest.approx(-2.0, abs=1e-9) and j.motor_speed == -2.0
    with pytest.raises(WorldError, match="lower"):
        Joint(1, 2, 0, 0, lower=0.5, upper=-0.5)
    with pytest.raises(WorldError, match="motor_torque"):
        Joint(1, 2, 0, 0, motor_torque=-1.0)
    p, q = w.create_entity(Particle(0, 50)), w.create_entity(Particle(0, 60))
    with pytest.raises(WorldError, match="rigid body"):
        w.create_entity(Joint(p, q, 0, 55, upper=1.0))


# -- sliders (prismatic joints): closed forms --------------------------------------------------

def _slider(angle_deg: float = 30.0, **joint) -> tuple[World, int, int]:
    """A static hub and a 20 px box that slides on an axis at ``angle_deg`` through it."""
    w = World(bounds=None, damping=1.0).use(*(s() for s in systems.SOLVER))
    hub = w.create_entity(RigidBody.box(0, 0, 10, 10, group=1), Anchor())
    cart = w.create_entity(RigidBody.box(0, 0, 20, 20, group=1))
    a = math.radians(angle_deg)
    j = w.create_entity(Joint(hub, cart, 0, 0, axis=(math.cos(a), math.sin(a)), **joint))
    return w, cart, j


def test_a_slider_is_a_frictionless_incline():
    """Along an axis at 30° a body slides down at g·sin 30°, and nowhere else."""
    w, cart, _ = _slider(30.0)
    w.step(60)
    b = w.component(cart, RigidBody)
    along = -(b.x * math.cos(math.radians(30)) + b.y * math.sin(math.radians(30)))
    assert along == pytest.approx(0.5 * 980 * math.sin(math.radians(30)) * 1.0**2, rel=0.02)
    off = -b.x * math.sin(math.radians(30)) + b.y * math.cos(math.radians(30))
    assert abs(off) < 0.05 and abs(b.angle) < 1e-6  # on the axis, not turned


def test_a_slider_s_motor_drives_it_at_its_speed_and_its_limits_stop_it():
    w, cart, j = _slider(0.0, motor_speed=120.0, motor_force=1e6, upper=100.0)
    w.step(30)
    b = w.component(cart, RigidBody)
    assert b.vx == pytest.approx(120.0, rel=1e-3) and abs(b.y) < 0.05
    w.step(90)  # 1.5 s at 120 px/s would be 180 px: the limit holds it at 100
    assert b.x == pytest.approx(100.0, abs=0.5) and abs(b.vx) < 1.0


def test_a_slider_too_weak_to_lift_its_load_slips_down():
    """A vertical slider's motor pushing up with less than m·g loses: a = F/m − g."""
    w, cart, _ = _slider(90.0, motor_speed=500.0, motor_force=0.5 * 980 * 4.0)
    w.step(30)
    mass = w.component(cart, RigidBody).mass
    expected = 0.5 * (0.5 * 980 * 4.0 / mass - 980) * 0.5**2
    assert w.component(cart, RigidBody).y == pytest.approx(expected, rel=0.03)


def test_a_slider_saves_and_continues_bit_for_bit():
    w, cart, j = _slider(45.0, motor_speed=-50.0, motor_force=2e3, lower=-80.0)
    w.step(20)
    twin = loads(dumps(w))
    w.step(40)
    twin.step(40)
    assert twin.state_hash() == w.state_hash()
    assert twin.component(j, Joint).axis == pytest.approx(w.component(j, Joint).axis)
