"""Kinematic bodies: moved by their velocity or move_to, never pushed, carrying riders."""

from __future__ import annotations

import math

import pytest

import ecsgoo
from ecsgoo import Anchor, Particle, RigidBody, World, WorldError, bodies, systems

PEAK = 120.0  # px/s: the elevator's top speed
HALF, BOX = 10.0, 20.0  # the platform's half height, the box's half size, px


def _lift(sleep: bool = False, friction: float = 0.8) -> tuple[World, int, int]:
    """A kinematic platform with a box resting on it (settled)."""
    w = World(bounds=(0, 0, 800, 600), sleep=sleep)
    w.use(*(s() for s in systems.SOLVER))
    lift = w.create_entity(RigidBody.box(400, 100, 240, 2 * HALF, kind="kinematic",
                                         friction=friction))
    box = w.create_entity(RigidBody.box(400, 100 + HALF + BOX + 1, 2 * BOX, 2 * BOX,
                                        friction=friction))
    w.step(60)
    return w, lift, box


def _gap(w: World, lift: int, box: int) -> float:
    return w.component(box, RigidBody).y - BOX - (w.component(lift, RigidBody).y + HALF)


def test_kind_is_checked_and_read():
    with pytest.raises(WorldError, match="field kind must be 'dynamic' or 'kinematic', got "
                       "'wobbly'"):
        RigidBody.box(0, 0, 10, 10, kind="wobbly")
    w, lift, box = _lift()
    assert w.component(lift, RigidBody).kind == "kinematic"
    assert w.component(box, RigidBody).kind == "dynamic"
    row = w.bodies.row(lift)
    assert w.bodies.w[row] == 0.0 and w.bodies.iw[row] == 0.0
    with pytest.raises(WorldError, match=f"entity {lift} .*kinematic body cannot take an "
                       "Anchor"):
        w.add_component(lift, Anchor())


def test_a_box_rides_an_elevator_up_and_down_without_a_gap():
    """The bar: up at 120 px/s, turning with less than g, down at 120 px/s: gap < 1 px
    every frame, and the box's vertical speed is the platform's (no bounce)."""
    w, lift, box = _lift()
    L, B = w.component(lift, RigidBody), w.component(box, RigidBody)
    worst_gap, worst_speed = 0.0, 0.0
    for f in range(240):  # 4 s: vy = 120 sin(pi t), two full cycles
        L.vy = PEAK * math.sin(math.pi * f / 60)
        w.step()
        worst_gap = max(worst_gap, abs(_gap(w, lift, box)))
        worst_speed = max(worst_speed, abs(B.vy - L.vy))
    assert worst_gap < 1.0
    assert worst_speed < 5.0  # px/s: it rides, it does not bounce


def test_a_rider_moves_as_far_as_the_platform():
    """Closed form: at a constant 120 px/s for 1 s both rise 120 px."""
    w, lift, box = _lift()
    L, B = w.component(lift, RigidBody), w.component(box, RigidBody)
    y0, b0 = L.y, B.y
    L.vy = PEAK
    w.step(60)
    assert L.y - y0 == pytest.approx(PEAK, abs=1e-6)
    assert B.y - b0 == pytest.approx(PEAK, abs=1.0)
    assert L.vy == pytest.approx(PEAK, abs=1e-6)


def test_friction_carries_a_rider_sideways():
    """The bar: the platform swings sideways (friction 0.8, accelerating less than
    mu g): the box's displacement is the platform's within 2 px, every frame."""
    w, lift, box = _lift()
    L, B = w.component(lift, RigidBody), w.component(box, RigidBody)
    x0, b0 = L.x, B.x
    worst = 0.0
    for f in range(180):
        L.vx = PEAK * math.sin(math.pi * f / 60)
        w.step()
        worst = max(worst, abs((B.x - b0) - (L.x - x0)))
    assert L.x - x0 > 50.0
    assert worst < 2.0


def test_it_is_never_pushed():
    w, lift, box = _lift()
    L = w.component(lift, RigidBody)
    drop = w.create_entity(RigidBody.box(300, 300, 40, 40, mass=50.0))
    before = (L.x, L.y, L.angle)
    w.step(90)
    assert (L.x, L.y, L.angle) == before
    assert w.component(drop, RigidBody).y < 200  # it landed on the platform


def test_it_carries_particles_and_soft_bodies():
    w, lift, _ = _lift()
    L = w.component(lift, RigidBody)
    dot = w.create_entity(Particle(330, 100 + HALF + 6, radius=5))
    ball = bodies.jelly_ball(w, 470, 100 + HALF + 25, radius=20, vertices=12)
    w.step(30)
    p0, c0 = w.component(dot, Particle).y, ball.centroid()[1]
    L.vy = 60.0
    w.step(60)
    assert w.component(dot, Particle).y - p0 == pytest.approx(60.0, abs=2.0)
    assert ball.centroid()[1] - c0 == pytest.approx(60.0, abs=3.0)


def test_it_turns_by_omega():
    w, lift, _ = _lift()
    L = w.component(lift, RigidBody)
    L.vy, L.omega = 0.0, 0.5
    w.step(60)
    assert L.angle == pytest.approx(0.5, abs=1e-9)


def test_move_to_arrives_over_the_next_step_and_rests():
    w, lift, box = _lift()
    L = w.component(lift, RigidBody)
    w.move_to(lift, 410.0, 104.0, 0.0)
    w.step()
    assert (L.x, L.y, L.angle) == pytest.approx((410.0, 104.0, 0.0), abs=1e-9)
    assert (L.vx, L.vy, L.omega) == (0.0, 0.0, 0.0)
    w.move_to(lift, 410.0, 104.0, 0.25)
    w.step()
    assert L.angle == pytest.approx(0.25, abs=1e-12)
    w.move_to(lift, 410.0, 104.0, 0.0)
    w.step(90)  # the box was flung up at 240 px/s, and lands again
    assert (L.x, L.y) == pytest.approx((410.0, 104.0), abs=1e-9)
    assert abs(_gap(w, lift, box)) < 1.0


def test_move_to_every_frame_follows_a_path_with_its_rider():
    w, lift, box = _lift()
    L, B = w.component(lift, RigidBody), w.component(box, RigidBody)
    x0, b0 = L.x, B.x
    for f in range(1, 91):
        w.move_to(lift, x0 + 40.0 * (1 - math.cos(math.pi * f / 90)), 100.0)
        w.step()
        assert abs((B.x - b0) - (L.x - x0)) < 2.0
    assert L.x == pytest.approx(x0 + 80.0, abs=1e-9)


def test_move_to_refuses_what_is_not_kinematic():
    w, _, box = _lift()
    with pytest.raises(WorldError, match=f"entity {box} .*move_to moves kinematic bodies"):
        w.move_to(box, 0, 0)
    with pytest.raises(WorldError, match="entity 999: move_to needs a kinematic RigidBody"):
        w.move_to(999, 0, 0)


def _moving(sleep: bool = False) -> tuple[World, int]:
    w, lift, box = _lift(sleep=sleep)
    w.component(lift, RigidBody).vy = 30.0
    w.move_to(lift, 400.0, 110.0)
    w.step(5)
    return w, lift


def test_saved_and_loaded_it_continues_bit_for_bit():
    w, lift = _moving()
    w.move_to(lift, 420.0, 120.0)
    twin = ecsgoo.loads(ecsgoo.dumps(w))
    copy = w.clone()
    assert twin.component(lift, RigidBody).kind == "kinematic"
    assert twin.bodies.w[twin.bodies.row(lift)] == 0.0
    for world in (w, twin, copy):
        world.step(40)
    assert twin.state_hash() == w.state_hash() == copy.state_hash()


def test_same_inputs_same_bits():
    assert _moving()[0].state_hash() == _moving()[0].state_hash()


def test_a_moving_platform_never_sleeps_and_keeps_its_rider_awake():
    w, lift, box = _lift(sleep=True)
    L = w.component(lift, RigidBody)
    L.vy = 3.0  # slower than the sleep speed
    w.step(120)
    assert not w.is_sleeping(lift) and not w.is_sleeping(box)
    assert L.vy == pytest.approx(3.0, abs=1e-6)
    L.vy = 0.0
    w.step(120)
    assert w.is_sleeping(lift) and w.is_sleeping(box)
    L.vy = 60.0  # a write wakes it and what it carries
    w.step(30)
    assert not w.is_sleeping(box)
    assert abs(_gap(w, lift, box)) < 1.0


def test_it_pushes_bodies_and_particles_and_wakes_what_it_touches():
    w = World(bounds=(0, 0, 800, 600), sleep=True)
    w.use(*(s() for s in systems.SOLVER))
    crate = w.create_entity(RigidBody.box(400, 20, 40, 40))
    dot = w.create_entity(Particle(400, 80, radius=6))
    w.create_entity(RigidBody.box(400, 60, 80, 10), Anchor())  # a shelf the dot rests on
    w.step(120)
    assert w.is_sleeping(crate) and w.is_sleeping(dot)
    plough = w.create_entity(RigidBody.box(200, 50, 20, 100, kind="kinematic"))
    w.component(plough, RigidBody).vx = 150.0
    w.step(150)  # it reaches them at about 1.2 s and goes on
    ahead = w.component(plough, RigidBody).x + 10
    assert w.component(crate, RigidBody).x - 20 >= ahead - 1.0  # pushed before it
    assert w.component(dot, Particle).x - 6 >= ahead - 1.0
    assert not w.is_sleeping(crate)


def test_a_sudden_start_slips_as_far_as_coulomb_friction_says():
    """Closed form: a platform jumping to v drags the box at mu g until it keeps up,
    so the box falls behind by v² / (2 mu g) (9.18 px at 120 px/s, mu 0.8) and no more."""
    w, lift, box = _lift()
    L, B = w.component(lift, RigidBody), w.component(box, RigidBody)
    x0, b0 = L.x, B.x
    L.vx = PEAK
    w.step(60)
    expected = PEAK**2 / (2 * 0.8 * 980.0)
    assert (L.x - x0) - (B.x - b0) == pytest.approx(expected, abs=0.5)
    assert B.vx == pytest.approx(PEAK, abs=0.5)
