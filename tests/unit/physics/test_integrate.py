"""Integrate: free fall, damping independent of substeps, anchors, grab and fling."""

import pytest

from ecsgoo import Anchor, Particle, World
from scenes import solver


def _fall(substeps, damping=1.0, frames=60):
    w = solver(World(bounds=None, damping=damping, substeps=substeps))
    e = w.create_entity(Particle(0, 1000, vx=100))
    w.step(frames)
    return w, w.component(e, Particle)


def test_free_fall_matches_the_closed_form():
    w, p = _fall(6)
    k, h, g = 60 * 6, w.h, -980.0
    # Verlet with x_prev = x0 - v0 h: exactly y0 + g h² k(k+1)/2 after k substeps
    assert p.y == pytest.approx(1000 + g * h * h * k * (k + 1) / 2, rel=1e-9)
    assert p.x == pytest.approx(100.0, rel=1e-12)
    t = k * h
    assert p.y - 1000 == pytest.approx(0.5 * g * t * t, rel=0.005)  # the parabola
    assert p.vy == pytest.approx(g * t, rel=0.01)


def test_damping_means_the_same_for_any_substep_count():
    speeds = [_fall(s, damping=0.9, frames=30)[1].vx for s in (1, 4, 12)]
    assert speeds[0] == pytest.approx(100 * 0.9 ** 30, rel=0.02)
    assert speeds[1] == pytest.approx(speeds[0], rel=0.02)
    assert speeds[2] == pytest.approx(speeds[0], rel=0.02)


def test_anchor_holds_under_gravity():
    w = solver(World())
    e = w.create_entity(Particle(100, 400, vx=500), Anchor())
    w.step(120)
    p = w.component(e, Particle)
    assert (p.x, p.y, p.vx, p.vy) == (100, 400, 0, 0)


def test_grab_pulls_and_release_flings():
    w = solver(World(gravity=(0, 0), bounds=None))
    e = w.create_entity(Particle(100, 100))
    w.grab(e, 300, 100)
    w.step(3)
    p = w.component(e, Particle)
    assert p.x == pytest.approx(300, abs=1.0)  # it follows the pointer, without ringing
    for x in range(300, 600, 30):  # drag fast to the right
        w.grab(e, x, 100)
        w.step()
    w.release()
    speed = p.vx
    w.step(10)
    assert speed > 1000
    assert p.x > 600


def test_force_accelerates_by_f_over_m():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    e = w.create_entity(Particle(0, 0, mass=2.0))
    w.apply_force(e, 120.0, 0)
    w.step()
    assert w.component(e, Particle).vx == pytest.approx(60.0 / 60, rel=1e-9)
