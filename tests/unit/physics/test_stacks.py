"""Heavy bodies on light ones (``kernels.stacks``): the shock pass keeps a 1:1000 stack
standing and a heavy crate on a jelly ball, and leaves scenes of like masses, sideways
hits and hits on what is in flight alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ecsgoo import Anchor, Particle, RigidBody, World, saving, systems
from ecsgoo.bodies import jelly_ball


def _stack(masses: list[float], sizes: list[float]) -> tuple[World, list[RigidBody]]:
    """Boxes stacked on the bounds' floor, bottom first: ``sizes`` their heights (px, 40
    wide), ``masses`` theirs."""
    w = World(bounds=(-1000, 0, 1000, 2000)).use(*(s() for s in systems.SOLVER))
    y, out = 0.0, []
    for mass, size in zip(masses, sizes, strict=True):
        e = w.create_entity(RigidBody.box(0, y + size / 2, 40, size, mass=mass))
        out.append(w.component(e, RigidBody))
        y += size
    return w, out


@pytest.mark.parametrize("ratio", [100.0, 1000.0, 10000.0])
def test_a_heavy_box_stays_on_top_of_a_light_one(ratio: float) -> None:
    """Before: 1:1000 squeezed the light box out within 100 frames (it ended beside the
    heavy one, both on the floor); 1:400 sank 2 px into it."""
    w, (light, heavy) = _stack([1.0, ratio], [20.0, 40.0])
    w.step(300)
    assert light.y == pytest.approx(10.0, abs=1.0)
    assert heavy.y == pytest.approx(40.0, abs=1.5)  # resting on it: overlap ≤ slop
    assert abs(light.x) < 1.0 and abs(heavy.x) < 3.0
    assert abs(heavy.angle) < 0.01


def test_a_column_each_ten_times_heavier_than_the_one_below_stands() -> None:
    w, boxes = _stack([1.0, 10.0, 100.0, 1000.0], [20.0] * 4)
    w.step(300)
    for k, box in enumerate(boxes):
        assert box.y == pytest.approx(10.0 + 20.0 * k, abs=1.0 + 0.5 * k)
        assert abs(box.x) < 2.0 * (k + 1)  # some drift up the column, no squeezing out
        assert abs(box.angle) < 0.03


def test_a_light_box_thrown_sideways_does_not_launch_a_heavy_one() -> None:
    """A side contact is no support: the light box bounces off as masses say, the heavy
    one barely moves (momentum: at most the light one's 1/1000 share)."""
    w = World(bounds=(-1000, 0, 1000, 2000)).use(*(s() for s in systems.SOLVER))
    heavy = w.component(w.create_entity(RigidBody.box(0, 20, 40, 40, mass=1000.0)), RigidBody)
    light = w.component(w.create_entity(RigidBody.box(-100, 10, 20, 20, mass=1.0)), RigidBody)
    w.step(10)
    light.vx = 600.0
    w.step(60)
    assert abs(heavy.x) < 1.0
    assert light.x < -25.0  # stopped at (or bounced off) the heavy box's face


def _crate_on_a_jelly_ball(ratio: float, drop: float, well: bool) -> tuple[World, Any, Any]:
    """A jelly ball (radius 40 px, mass 5 in 25 particles) on the floor and an 80 × 60 px
    crate ``ratio`` times its mass ``drop`` px above it; ``well``: between two static
    walls 96 px apart, so the crate cannot slide off."""
    w = World(bounds=(-1000, 0, 1000, 2000)).use(*(s() for s in systems.SOLVER))
    if well:
        for x in (-58.0, 58.0):
            w.create_entity(RigidBody.box(x, 200, 20, 400), Anchor())
    ball = jelly_ball(w, 0, 41, radius=40)
    crate = w.create_entity(RigidBody.box(0, 112 + drop, 80, 60, mass=5.0 * ratio))
    return w, ball, w.component(crate, RigidBody)


def _ring_area(w: World, ball: Any) -> float:
    """The ball's outline's area over its rest area (πr², r = 40 px)."""
    xy = w.particles.pos[w.area_members(0)]
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(float(np.sum(x * np.roll(y, 1) - np.roll(x, 1) * y))) / (np.pi * 1600)


@pytest.mark.parametrize(("ratio", "drop"), [(1000.0, 0.0), (1000.0, 100.0), (10000.0, 0.0)])
def test_a_heavy_crate_stays_on_a_jelly_ball_in_a_well(ratio: float, drop: float) -> None:
    """Before: a crate 1000 times the ball's mass crushed it flat (area 3 % of its own)
    and reached the floor; now the ball's springs and pressure hold it, as they hold a
    crate of its own weight."""
    w, ball, crate = _crate_on_a_jelly_ball(ratio, drop, well=True)
    least = 1.0
    for _ in range(240):
        w.step()
        least = min(least, _ring_area(w, ball))
    assert least > 0.85
    assert crate.y - 30 > 70.0  # on top of the ball (its top rests at 81 px)
    assert abs(crate.angle) < 0.35  # it may lean on a wall of the well


@pytest.mark.parametrize("ratio", [200.0, 2000.0])
def test_a_heavy_crate_dropped_on_a_free_jelly_ball_lands_on_it(ratio: float) -> None:
    """Before: dropped from 100 px, a crate 1000 times the ball's mass squashed it to a
    third of its area and the ball shot out sideways at ~30,000 px/s; one 2000 times it
    went through to the floor. Now it lands on top and, a box on a ball, slides off."""
    w, ball, crate = _crate_on_a_jelly_ball(ratio, 100.0, well=False)
    least, low = 1.0, np.inf
    for _ in range(300):
        w.step()
        least = min(least, _ring_area(w, ball))
        if abs(crate.x) < 40.0:  # over the ball
            low = min(low, crate.y - 30)
    assert least > 0.85 and low > 60.0
    assert np.abs(w.particles.velocity[w.area_members(0)]).max() < 200.0  # not flung
    # slid off, on its side (80 px tall now), on the floor
    assert crate.y == pytest.approx(40.0, abs=1.0)
    assert abs(crate.angle) == pytest.approx(np.pi / 2, abs=0.05)


def test_a_heavy_crate_thrown_down_at_a_ball_in_flight_keeps_its_speed() -> None:
    """The shock pass holds a heavy body only to what rests: a ball in flight is no
    support, so the crate hits it as the masses say and flies on. (Held to the ball's
    vertices as they passed through rest on their way back, it had stopped dead and
    bounced up.)"""
    w = World(bounds=(-1000, 0, 1000, 4000)).use(*(s() for s in systems.SOLVER))
    ball = jelly_ball(w, 0, 2000, radius=40)
    crate = w.component(w.create_entity(RigidBody.box(0, 2200, 80, 60, mass=500.0)),
                        RigidBody)
    w.step()
    for p in ball.particles:
        w.component(p, Particle).vy = 300.0  # thrown up
    crate.vy = -900.0
    for _ in range(12):
        w.step()
    assert crate.vy < -900.0  # still falling faster than it was thrown
    assert _ring_area(w, ball) > 0.5  # the ball is knocked down ahead of it, not destroyed


@pytest.mark.parametrize("ratio", [100.0, 1000.0])
def test_a_heavy_crate_falling_on_a_disc_at_rest_in_mid_air_keeps_the_momentum(
        ratio: float) -> None:
    """A loose disc that nothing holds up is in flight however slow (spawned at rest, at
    the top of its arc): the crate hits it as the masses say. (Held to it as to the
    ground, a 100:1 crate lost 77 % of its momentum in 6 frames.)"""
    w = World(bounds=None, sleep=False, damping=1.0).use(*(s() for s in systems.SOLVER))
    disc = w.component(w.create_entity(Particle(0, 0, radius=10, mass=1.0)), Particle)
    crate = w.component(w.create_entity(RigidBody.box(0, 32, 40, 40, mass=ratio)),
                        RigidBody)
    crate.vy = -300.0
    before = ratio * crate.vy + disc.vy
    w.step(6)
    after = ratio * crate.vy + disc.vy
    impulse = (ratio + 1.0) * w.gravity[1] * 6 * w.dt  # gravity's, over the 6 frames
    assert after == pytest.approx(before + impulse, rel=1e-6)
    assert disc.vy == pytest.approx(crate.vy, abs=1.0)  # pushed along ahead of it


@pytest.mark.parametrize("ratio", [100.0, 1000.0])
def test_a_heavy_crate_stays_on_discs_resting_on_the_floor(ratio: float) -> None:
    """What holds a disc up holds the crate on it: three loose discs on the floor, a
    heavy crate set on them, neither crushed through nor squeezed out."""
    w = World(bounds=(-1000, 0, 1000, 2000)).use(*(s() for s in systems.SOLVER))
    discs = [w.component(w.create_entity(Particle(x, 10, radius=10, mass=1.0)), Particle)
             for x in (-25.0, 0.0, 25.0)]
    w.step(30)  # at rest, held up by the floor
    crate = w.component(w.create_entity(RigidBody.box(0, 41, 80, 40, mass=ratio)),
                        RigidBody)
    w.step(300)
    assert crate.y == pytest.approx(40.0, abs=1.5)
    assert all(d.y == pytest.approx(10.0, abs=1.0) for d in discs)
    assert [d.x for d in discs] == pytest.approx([-25.0, 0.0, 25.0], abs=3.0)  # not out


def test_heavy_crates_on_loose_discs_continue_to_the_bit_from_a_save() -> None:
    """Whether a disc is held up comes from its contacts' impulses, which the file keeps:
    a world loaded mid-run goes on as the one that was not saved."""

    def make() -> World:
        w = World(bounds=(-500, 0, 500, 2000)).use(*(s() for s in systems.SOLVER))
        rng = np.random.default_rng(2)
        for _ in range(30):
            w.create_entity(Particle(rng.uniform(-200, 200), rng.uniform(10, 300),
                                     radius=rng.uniform(5, 12)))
        for k in range(4):
            w.create_entity(RigidBody.box(rng.uniform(-150, 150), 400 + 60 * k, 50, 30,
                                          mass=300.0))
        return w

    whole, saved = make(), make()
    whole.step(120)
    saved.step(47)
    saved = saving.loads(saving.dumps(saved))
    saved.step(73)
    assert whole.state_hash() == saved.state_hash()
