"""Trajectory: the analytic parabola, and simulate() matching the real run bit for bit."""

import numpy as np
import pytest

from ecsgoo import Fruit, Particle, Spring, World, systems, trajectory
from ecsgoo.bodies import jelly_ball
from scenes import solver


def test_parabola_is_the_closed_form():
    t = np.array([0.0, 0.5, 1.0, 2.0])
    got = trajectory.parabola((10, 20), (30, 40), (0, -10), t)
    assert got.shape == (4, 2)
    assert got.tolist() == [[10, 20], [25, 38.75], [40, 55], [70, 80]]
    assert trajectory.parabola((0, 0), (1, 2), (0, -2), 3.0).tolist() == [3.0, -3.0]
    with pytest.raises(ValueError, match="v0"):
        trajectory.parabola((0, 0), (1, 2, 3), (0, -2), t)


def _busy_world():
    """Collisions, springs, a jelly, fruits that merge: everything a preview must replay."""
    w = solver(World(bounds=(0, 0, 500, 400)))
    w.use(*w.pipeline, systems.Analyze(), systems.Merge())
    jelly_ball(w, 250, 150, radius=40, vertices=12)
    a = w.create_entity(Particle(100, 300, radius=8))
    b = w.create_entity(Particle(140, 300, radius=8))
    w.create_entity(Spring(a, b))
    for k in range(4):  # two stacks of two: each top one falls onto its twin and merges
        w.create_entity(Particle(60 + 60 * (k % 2), 20 + 60 * (k // 2)), Fruit(0))
    ball = w.create_entity(Particle(50, 200, radius=10, mass=2.0, vx=400, vy=300))
    w.step(5)
    return w, ball


def test_simulate_is_exactly_what_stepping_the_world_gives():
    w, ball = _busy_world()
    before, frame = w.state_hash(), w.frame
    seen = []
    w.set_handler("fruits_merged", lambda world, e: seen.append(e))
    path = trajectory.simulate(w, ball, 90)
    assert w.state_hash() == before and w.frame == frame and seen == []  # world untouched
    real = np.empty_like(path)
    for k in range(90):
        w.step()
        real[k] = w.store.particles.cols["pos"][w.store.pslot[ball]]
    assert seen  # the fruits did merge in the real run (and so in the copy, silently)
    assert np.array_equal(path, real)  # bit for bit, bounces included
    assert path[:, 1].min() < 30 and path[:, 0].max() > 300


def test_simulate_gives_nan_after_the_entity_is_gone():
    w = World(bounds=None, gravity=(0, 0)).use(systems.Merge())
    a = w.create_entity(Particle(0, 0), Fruit(0))
    w.create_entity(Particle(30, 0), Fruit(0))
    path = trajectory.simulate(w, a, 3)
    assert path.shape == (3, 2) and np.isnan(path).all()
    with pytest.raises(ValueError, match="no Particle"):
        trajectory.simulate(w, 999, 3)


def _flight(damping):
    w = solver(World(bounds=None, damping=damping))
    ball = w.create_entity(Particle(100, 100, vx=300, vy=400))
    t = np.arange(1, 61) * w.dt
    gap = trajectory.parabola((100, 100), (300, 400), w.gravity, t) - trajectory.simulate(
        w, ball, 60)
    return w, t, gap


def test_parabola_matches_an_undamped_flight_to_the_integrator_error():
    w, t, gap = _flight(1.0)
    assert np.abs(gap[:, 0]).max() < 1e-9
    # Verlet's first substep takes the whole g h²: the path is ½ |g| h t below the parabola
    assert gap[:, 1] == pytest.approx(0.5 * 980 * w.h * t, abs=1e-9)
    assert (np.hypot(*gap.T) / t).max() < 1.5  # px per second of flight


def test_the_documented_drift_with_default_damping():
    _, _, gap = _flight(0.99)
    assert gap[29] == pytest.approx([20.6, 16.7], abs=0.05)  # 0.5 s
    assert gap[59] == pytest.approx([74.9, 16.0], abs=0.05)  # 1 s
