"""Particles of mixed masses: the bars of the calm-contacts issue (``kernels.support``).

A light disc carrying a heavy one at rest shares the correction as equal masses
would; impacts keep their true masses. Chains of springs of mixed masses, and a rope's
tether to a heavy body, are solved exactly (``kernels.chains``). A light rigid arm
hinged between a post and a 500 times heavier crate holds both (``kernels.joints``).
"""

import math

import numpy as np
import pytest

from ecsgoo import Anchor, Joint, Particle, RigidBody, Spring, World
from ecsgoo.bodies import rope
from scenes import solver


def _column(ratio: float) -> tuple[World, list[int]]:
    """Five unit discs of radius 10 on the ground, one ``ratio`` times heavier on top."""
    w = solver(World(bounds=(-200, 0, 200, 2000)))
    ids = [w.create_entity(Particle(0, 10 + 20 * k, radius=10)) for k in range(5)]
    ids.append(w.create_entity(Particle(0, 110, radius=10, mass=ratio)))
    return w, ids


def _state(w: World, ids: list[int]) -> np.ndarray:
    return np.array([(w.component(e, Particle).y, w.component(e, Particle).vx,
                      w.component(e, Particle).vy) for e in ids])


@pytest.mark.parametrize("ratio", [100.0, 1000.0])
def test_a_heavy_disc_on_a_column_of_light_ones_comes_to_rest_on_top(ratio):
    w, ids = _column(ratio)
    w.step(300)
    a = _state(w, ids)
    assert np.hypot(a[:, 1], a[:, 2]).max() < 20.0  # px/s, within 5 s
    overlap = max(10.0 - a[0, 0], (20.0 - np.diff(a[:, 0])).max())
    assert overlap < 1.0  # px
    assert list(a[:, 0]) == sorted(a[:, 0])  # still in order: nothing sank through


def test_a_chain_of_alternating_1_and_1000_masses_hangs_unbroken():
    w = solver(World(bounds=None))
    prev = w.create_entity(Particle(0, 0), Anchor())
    ends, springs = [prev], []
    for k in range(20):
        e = w.create_entity(Particle(0, -10 * (k + 1), radius=4, mass=1000.0 if k % 2 else 1.0))
        springs.append(w.create_entity(Spring(prev, e)))  # breakable: the default stretch
        ends.append(e)
        prev = e
    w.step(300)
    assert not any(w.component(s, Spring).broken for s in springs)
    xy = np.array([(w.component(e, Particle).x, w.component(e, Particle).y) for e in ends])
    links = np.hypot(*np.diff(xy, axis=0).T)
    assert np.abs(links / 10.0 - 1.0).max() < 0.05


def test_a_heavy_ball_hangs_from_a_strand_of_light_links():
    w = solver(World(bounds=None))
    strand = rope(w, (0, 0), (0, -100), 10, mass=0.05)
    ball = w.create_entity(Particle(0, -115, radius=12, mass=20.0))
    w.create_entity(Spring(strand.particles[-1], ball))
    w.step(300)
    xy = np.array([(w.component(e, Particle).x, w.component(e, Particle).y)
                   for e in [*strand.particles, ball]])
    links = np.hypot(*np.diff(xy, axis=0).T)
    assert np.abs(links[:-1] / 10.0 - 1.0).max() < 0.05 and abs(links[-1] / 15.0 - 1.0) < 0.05


def test_a_crate_hangs_from_a_rope_of_light_links():
    w = solver(World(bounds=None))
    line = rope(w, (0, 0), (0, -100), 10, mass=0.05)
    crate = w.create_entity(RigidBody.box(0, -130, 40, 40, mass=20.0))  # its top 10 px under
    w.create_entity(Spring(line.particles[-1], crate, at_b=(0, -110)))
    w.step(300)
    xy = np.array([(w.component(e, Particle).x, w.component(e, Particle).y)
                   for e in line.particles])
    links = np.hypot(*np.diff(xy, axis=0).T)
    assert np.abs(links / 10.0 - 1.0).max() < 0.05
    assert w.component(crate, RigidBody).y == pytest.approx(-130.0, abs=1.0)


def test_a_big_heavy_fruit_rests_on_small_light_ones():
    w = solver(World(bounds=(0, 0, 200, 1000)))
    small = [w.create_entity(Particle(12 + 25 * k + 3 * (row % 2), 12 + 24 * row, radius=12))
             for row in range(3) for k in range(7)]
    big = w.create_entity(Particle(100, 140, radius=40, mass=60.0))
    w.step(300)
    a = _state(w, [*small, big])
    assert np.hypot(a[:, 1], a[:, 2]).max() < 20.0
    assert a[-1, 0] > 60 + 40 - 2.0  # on the three rows (60 px high), not sunk into them


def test_an_impact_under_gravity_keeps_momentum():
    """A heavy disc falling fast onto a light one, both in the air: through the impact the
    momentum changes only by gravity's impulse (the carrying rule is for resting pairs)."""
    w = solver(World(bounds=None, damping=1.0))
    light = w.create_entity(Particle(0, 0, radius=10, mass=1.0))
    heavy = w.create_entity(Particle(0, 40, radius=10, mass=100.0, vy=-900.0))

    def momentum():
        return sum(w.component(e, Particle).mass * w.component(e, Particle).vy
                   for e in (light, heavy))

    before = momentum()
    w.step(6)
    assert w.component(light, Particle).vy < -900.0  # it was hit
    assert momentum() - before == pytest.approx(-980.0 * 101 * 6 / 60, rel=1e-6)
    assert math.isfinite(momentum())


def _hinge_gap(arm: RigidBody, local: tuple[float, float], x: float, y: float) -> float:
    """How far the arm's point ``local`` (its body frame, px) is from ``(x, y)``."""
    c, s = math.cos(arm.angle), math.sin(arm.angle)
    return math.hypot(arm.x + c * local[0] - s * local[1] - x,
                      arm.y + s * local[0] + c * local[1] - y)


@pytest.mark.parametrize("reach", [100.0, 190.0, 300.0])
@pytest.mark.parametrize("torque", [0.0, 1e5])
def test_a_light_arm_hinged_to_a_post_and_a_500_times_heavier_crate_holds_both(reach, torque):
    """A trebuchet's arm: a mass-1 box hinged to the anchored ground at (400, 10) (a motor
    or none) and, ``reach`` px off, to a 500-mass crate 10 px above the ground. The crate
    lands and the arm holds it: no runaway (the joints' position pass turned the arm
    by radians to first order and threw it out of range within 8 frames:
    ``kernels.joints.FIRST_ORDER_TURN``), both hinges closed."""
    w = solver(World(bounds=(0, 0, 800, 600)))
    ground = w.create_entity(RigidBody.box(400, 10, 700, 20), Anchor())
    arm_id = w.create_entity(RigidBody.box(380, 60, 20, 30, mass=1.0))
    crate_id = w.create_entity(RigidBody.box(400 + reach, 45, 40, 30, mass=500.0))
    w.create_entity(Joint(ground, arm_id, 400, 10, motor_torque=torque))
    w.create_entity(Joint(crate_id, arm_id, 400 + reach, 45))
    arm, crate = w.component(arm_id, RigidBody), w.component(crate_id, RigidBody)
    fastest = 0.0
    for _ in range(300):
        w.step()
        fastest = max(fastest, *(math.hypot(b.vx, b.vy) for b in (arm, crate)))
    assert fastest < 300.0  # px/s: the crate's 10 px fall, no more
    assert crate.y == pytest.approx(35.0, abs=0.5)  # on the ground
    assert _hinge_gap(arm, (20.0, -50.0), 400.0, 10.0) < 2.0
    assert _hinge_gap(arm, (reach + 20.0, -15.0), crate.x, crate.y) < 2.0
