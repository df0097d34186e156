"""Project: pendulum period, chains keep length, pressure, shape matching, XPBD compliance."""

import math

import numpy as np
import pytest

from ecsgoo import AreaConstraint, Particle, ShapeMatch, Spring, World
from ecsgoo.bodies import box, jelly_ball, rope
from ecsgoo.geometry import polygon_area
from scenes import pendulum, solver


def test_small_angle_pendulum_period():
    length, g = 200.0, 980.0
    w, bob = pendulum(length, angle=0.05)
    xs = []
    for _ in range(60 * 8):
        w.step()
        xs.append(w.component(bob, Particle).x - 400)
    xs = np.array(xs)
    crossings = np.flatnonzero((xs[:-1] > 0) & (xs[1:] <= 0))
    period = np.mean(np.diff(crossings)) / 60
    assert period == pytest.approx(2 * math.pi * math.sqrt(length / g), rel=0.01)


def test_hanging_chain_keeps_its_length():
    w = solver(World(bounds=None))
    chain = rope(w, (400, 500), (400 + 300, 500), 30, mass=0.2)
    w.step(240)
    pts = np.array([(w.component(e, Particle).x, w.component(e, Particle).y)
                    for e in chain.particles])
    length = np.sum(np.hypot(*np.diff(pts, axis=0).T))
    assert length == pytest.approx(300, rel=0.02)
    assert pts[-1, 1] < 500 - 250  # it hangs down


def _ring_area(w, body):
    con = w.component(body.constraint, AreaConstraint)
    return polygon_area(np.array([(w.component(e, Particle).x, w.component(e, Particle).y)
                                  for e in con.particles]))


@pytest.mark.parametrize(("pressure", "low", "high"), [(0.35, 0.2, 0.6), (1.0, 0.85, 1.1),
                                                       (2.2, 1.3, 2.3)])
def test_pressure_slumps_or_inflates_a_ring(pressure, low, high):
    w = solver(World())
    ball = rope_free_ring(w, pressure)
    rest = w.component(ball.constraint, AreaConstraint).rest_area
    w.step(180)
    assert low * rest < _ring_area(w, ball) < high * rest
    w.check()


def rope_free_ring(w, pressure):
    """A jelly ball of soft springs so pressure, not springs, decides its size."""
    return jelly_ball(w, 400, 100, radius=50, pressure=pressure, stiffness=0.05)


def test_shape_matching_keeps_a_rigid_rotation():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    body = box(w, 400, 300, 60, 40, alpha=1.0)
    for e in body.particles:  # spin it: v = ω × r
        p = w.component(e, Particle)
        p.vx, p.vy = -(p.y - 300) * 3.0, (p.x - 400) * 3.0
    before = _pairwise(w, body)
    w.step(30)
    after = _pairwise(w, body)
    np.testing.assert_allclose(after, before, rtol=0.01, atol=0.3)
    corner = w.component(body.particles[0], Particle)
    angle = math.atan2(corner.y - 300, corner.x - 400) - math.atan2(-20, -30)
    assert abs(math.remainder(angle, 2 * math.pi)) > 0.5  # it did rotate


def test_shape_matching_recovers_from_a_squash():
    w = solver(World(gravity=(0, 0), bounds=None))
    body = box(w, 400, 300, 60, 60, alpha=0.3)
    before = _pairwise(w, body)
    for e in body.particles:
        w.component(e, Particle).y = 300 + (w.component(e, Particle).y - 300) * 0.4
    w.step(60)
    np.testing.assert_allclose(_pairwise(w, body), before, rtol=0.02, atol=0.5)


def _pairwise(w, body):
    pts = np.array([(w.component(e, Particle).x, w.component(e, Particle).y)
                    for e in body.particles])
    return np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1))


def test_compliant_spring_stretch_does_not_depend_on_substeps():
    def sag(substeps, iterations):
        w = solver(World(bounds=None, substeps=substeps, iterations=iterations))
        top = w.create_entity(Particle(0, 0, mass=math.inf))
        bob = w.create_entity(Particle(0, -100, mass=1.0))
        w.create_entity(Spring(top, bob, compliance=2e-4, max_stretch=None))
        w.step(240)
        return -w.component(bob, Particle).y - 100

    # a spring of constant 1/compliance = 5000 holding weight 980: stretch 0.196 px
    for s, it in ((4, 2), (8, 4), (12, 1)):
        assert sag(s, it) == pytest.approx(980 * 2e-4 * 1000 / 1000, rel=0.1)


def test_shape_match_rest_shape_is_measured_on_add():
    w = World()
    ids = [w.create_entity(Particle(x, y)) for x, y in ((0, 0), (10, 0), (10, 10), (0, 10))]
    s = w.create_entity(ShapeMatch(ids))
    assert w.component(s, ShapeMatch).rest == [[-5, -5], [5, -5], [5, 5], [-5, 5]]


def test_rigid_jelly_ball_stays_still_in_free_fall():
    """A one-way Gauss–Seidel sweep made the 24-spoke centre explode; symmetric must not."""
    w = solver(World(bounds=None))
    body = jelly_ball(w, 0, 0, radius=40, stiffness=1.0)
    w.step(120)
    p = w.store.particles
    v = (p.cols["pos"][: p.n] - p.cols["prev"][: p.n]) / w.h
    assert np.abs(v - v.mean(axis=0)).max() < 1e-3  # px/s relative to the ball
    assert len(body.particles) == p.n


def test_pressurised_jelly_ball_does_not_spin_up_by_itself():
    w = solver(World(gravity=(0, 0), bounds=None))
    body = jelly_ball(w, 0, 0, radius=40, pressure=2.2, stiffness=0.3)
    w.step(180)
    p = w.store.particles
    x = p.cols["pos"][: p.n]
    v = (x - p.cols["prev"][: p.n]) / w.h
    r, vr = x - x.mean(axis=0), v - v.mean(axis=0)
    omega = np.sum(r[:, 0] * vr[:, 1] - r[:, 1] * vr[:, 0]) / np.sum(r * r)
    assert abs(omega) < 1e-2  # rad/s: it started at rest, nothing turns it
    assert np.abs(vr).max() < 1.0  # px/s: no shiver either
    assert _ring_area(w, body) > 1.3 * w.component(body.constraint, AreaConstraint).rest_area


def test_a_spring_changed_between_frames_acts_at_once_and_a_clone_keeps_its_own():
    """Project packs the springs at a frame's first substep: a rest length written between
    frames holds from the next frame on, and a world and its clone stepped in turn do
    not share the packed copy (the clone's change stays the clone's)."""
    w = solver(World(bounds=None, gravity=(0.0, 0.0)))
    a, b = w.create_entity(Particle(100, 100)), w.create_entity(Particle(150, 100))
    s = w.create_entity(Spring(a, b))
    w.step()
    twin = w.clone()
    twin.component(s, Spring).rest = 80.0
    for _ in range(30):
        w.step()
        twin.step()
    gap = lambda world: world.component(b, Particle).x - world.component(a, Particle).x  # noqa: E731
    assert gap(w) == pytest.approx(50.0, abs=1e-6)
    assert gap(twin) == pytest.approx(80.0, abs=1e-3)
