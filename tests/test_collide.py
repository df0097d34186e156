"""Collide: momentum, piles that settle without overlap, bounds, level geometry, outlines."""

import math

import numpy as np
import pytest

from ecsgoo import Particle, World
from ecsgoo.bodies import jelly_ball
from scenes import chaos, circle_pile, solver


def _momentum(w):
    p = w.store.particles
    v = (p.cols["pos"][: p.n] - p.cols["prev"][: p.n]) / w.h
    return (p.cols["mass"][: p.n, None] * v).sum(axis=0)


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
def test_head_on_collision_conserves_momentum(restitution):
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    a = w.create_entity(Particle(0, 0, mass=1.0, radius=10, vx=300, restitution=restitution))
    b = w.create_entity(Particle(100, 0, mass=10.0, radius=10, vx=-30, restitution=restitution))
    before = _momentum(w)
    w.step(60)
    np.testing.assert_allclose(_momentum(w), before, atol=1e-9)
    pa, pb = w.component(a, Particle), w.component(b, Particle)
    assert pb.x - pa.x >= 20 - 1e-9  # they separated
    # relative speed after = restitution × before (1-D impact, both moving apart)
    assert pb.vx - pa.vx == pytest.approx(restitution * 330, abs=1.0)


def test_many_body_collisions_conserve_momentum_without_walls():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    rng = np.random.default_rng(3)
    for _ in range(80):
        w.create_entity(Particle(*rng.uniform(0, 300, 2), mass=float(rng.choice([1.0, 10.0])),
                                 radius=8, vx=rng.uniform(-200, 200), vy=rng.uniform(-200, 200)))
    before = _momentum(w)
    w.step(120)
    np.testing.assert_allclose(_momentum(w), before, atol=1e-6)


def test_pile_settles_in_the_box_without_overlap():
    w = circle_pile(200, width=400)
    w.step(600)
    p = w.store.particles
    pos, r = p.cols["pos"][: p.n], p.cols["radius"][: p.n]
    d = np.hypot(*(pos[:, None] - pos[None]).transpose(2, 0, 1)) + np.eye(p.n) * 1e9
    overlap = (r[:, None] + r[None]) - d
    assert overlap.max() < 1.5  # px, at the bottom of a 10-layer pile; more would show
    before = pos.copy()
    w.step(60)
    moved = np.hypot(*(pos - before).T)
    # at rest to the eye: a granular pile may still creep a little (GS solver), no more
    assert np.median(moved) < 1.0 and moved.max() < 10.0
    assert (pos[:, 0] - r >= -1e-9).all() and (pos[:, 1] - r >= -1e-9).all()


def test_same_group_does_not_collide_but_others_do():
    w = solver(World(gravity=(0, 0), bounds=None))
    a = w.create_entity(Particle(0, 0, radius=10, group=2))
    b = w.create_entity(Particle(5, 0, radius=10, group=2))
    c = w.create_entity(Particle(0, 50, radius=10, group=1))
    d = w.create_entity(Particle(5, 50, radius=10, group=2))
    w.step()
    assert w.component(b, Particle).x - w.component(a, Particle).x == pytest.approx(5)
    assert w.component(d, Particle).x - w.component(c, Particle).x >= 20


def test_ground_friction_stops_a_sliding_particle():
    def slide(friction):
        w = solver(World(damping=1.0))
        e = w.create_entity(Particle(100, 4, radius=4, vx=300, friction=friction))
        w.step(120)
        return w.component(e, Particle)

    slick, rough = slide(0.0), slide(0.5)
    assert slick.vx == pytest.approx(300, rel=1e-6)
    assert rough.vx == pytest.approx(0, abs=1e-6)
    # Coulomb: stops after v² / (2 μ g)
    assert rough.x - 100 == pytest.approx(300 ** 2 / (2 * 0.5 * 980), rel=0.05)


def test_restitution_bounces_off_the_ground():
    w = solver(World(damping=1.0))
    e = w.create_entity(Particle(100, 200, radius=5, restitution=0.8))
    peak = 0.0
    for frame in range(120):
        w.step()
        if frame > 20:
            peak = max(peak, w.component(e, Particle).y)
    assert peak == pytest.approx(5 + 195 * 0.8 ** 2, rel=0.05)


def test_static_segment_and_polygon_hold_particles():
    w = solver(World(bounds=None))
    w.add_segment((0, 100), (400, 50))  # a ramp
    w.add_polygon([(500, 0), (700, 0), (700, 80), (500, 80)])
    ramp = w.create_entity(Particle(100, 200, radius=6))
    block = w.create_entity(Particle(600, 300, radius=6))
    inside = w.create_entity(Particle(600, 40, radius=6))  # spawned inside the polygon
    w.step(90)
    p = w.component(ramp, Particle)
    assert p.x > 100  # slid down the ramp
    assert p.y > 100 - (p.x / 400) * 50 - 1  # and never through it
    assert w.component(block, Particle).y == pytest.approx(86, abs=0.5)
    q = w.component(inside, Particle)
    assert not (500 < q.x < 700 and 0 < q.y < 80)


def test_particle_is_pushed_out_of_a_soft_body_with_momentum_kept():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    jelly_ball(w, 0, 0, radius=50, pressure=1.0)
    e = w.create_entity(Particle(-200, 0, radius=3, mass=1.0, vx=3000))  # fast enough to enter
    before = _momentum(w)
    w.step(30)
    np.testing.assert_allclose(_momentum(w), before, atol=1e-6)
    p = w.component(e, Particle)
    ring = w.store.outline_idx
    xy = w.store.particles.cols["pos"][ring]
    centre = xy.mean(axis=0)
    assert math.dist((p.x, p.y), centre) > 0.8 * 50  # not stuck inside


def test_long_chaotic_run_with_10x_mass_ratios_stays_finite():
    w = chaos()
    w.step(600)
    w.check()
    p = w.store.particles
    pos = p.cols["pos"][: p.n]
    assert (pos >= -1).all() and (pos[:, 0] <= 601).all() and (pos[:, 1] <= 501).all()
