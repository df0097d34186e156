"""A world whose state leaves the representable range stops with a WorldError naming it."""

from __future__ import annotations

import pytest

from ecsgoo import Anchor, Joint, Particle, RigidBody, World, WorldError, limits, systems


def _solver(**kw: object) -> World:
    return World(**kw).use(*(s() for s in systems.SOLVER))


def test_a_particle_flung_past_the_coordinate_limit_is_named() -> None:
    w = _solver(bounds=None, gravity=(0.0, 0.0))
    w.create_entity(Particle(0, 0))
    e = w.create_entity(Particle(limits.MAX_COORD * 0.999, 0))
    w.component(e, Particle).vx = limits.MAX_SPEED
    with pytest.raises(WorldError, match=rf"entity {e} \(Particle\): left the representable "
                                         r"range at frame \d+"):
        w.step(60)


def test_a_body_pushed_past_the_coordinate_limit_is_named() -> None:
    w = _solver(bounds=None, gravity=(0.0, 0.0))
    e = w.create_entity(RigidBody.box(limits.MAX_COORD * 0.999, 0, 10, 10, mass=1.0))
    w.component(e, RigidBody).vx = limits.MAX_SPEED
    with pytest.raises(WorldError, match=rf"entity {e} \(RigidBody\).*field x, y"):
        w.step(60)


def test_ordinary_and_extreme_but_held_scenes_never_raise() -> None:
    """A 1:1000 weight on a mass-1 link holds; a 1:10⁶ one stretches the joint (beyond the
    documented limit) but stays in range: neither is stopped."""
    for ratio in (1e3, 1e6):
        w = _solver(bounds=None)
        top = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
        link = w.create_entity(RigidBody.box(0, -20, 4, 40, mass=1.0))
        heavy = w.create_entity(RigidBody.box(0, -50, 20, 20, mass=ratio))
        w.create_entity(Joint(top, link, 0, 0))
        w.create_entity(Joint(link, heavy, 0, -40))
        w.step(300)
        if ratio == 1e3:
            assert w.component(heavy, RigidBody).y == pytest.approx(-50.0, abs=0.5)


def test_a_body_whose_angle_is_lost_is_named_after_any_position_that_is() -> None:
    """The bodies' look, in one kernel call: a position or move out of range first (at any
    row), else the first angle that is not finite."""
    import numpy as np

    from ecsgoo.kernels.astray import first_astray_body

    pos, prev, angle = np.zeros((4, 2)), np.zeros((4, 2)), np.zeros(4)
    assert first_astray_body(4, pos, prev, angle, 100.0, 10.0) == (-1, 0)
    angle[1] = np.nan
    assert first_astray_body(4, pos, prev, angle, 100.0, 10.0) == (1, 1)
    pos[3, 0] = 1e9  # a later row's position still comes first
    assert first_astray_body(4, pos, prev, angle, 100.0, 10.0) == (3, 0)
    assert first_astray_body(3, pos, prev, angle, 100.0, 10.0) == (1, 1)  # rows 0..n only


def test_the_whole_frames_look_stands_only_while_nothing_moved_after_it() -> None:
    """A world of bodies alone is looked at in the frame's kernel (``physics.rigid_frame``)
    and not again at the frame's end; what a later stage moves out of range is still
    named there."""
    import spy

    from ecsgoo.physics import astray

    class Fling(systems.Stage):  # a game's stage after the solver, writing rows itself
        def __init__(self) -> None:
            self.at: int | None = None

        def process(self, world: World) -> None:
            if self.at is not None:
                world.store.bodies.cols["pos"][self.at, 0] = limits.MAX_COORD * 2

    for fling in (None, Fling()):
        w = World(bounds=None).use(*(s() for s in systems.SOLVER), *([fling] if fling else []))
        w.create_entity(RigidBody.box(0, 0, 400, 20), Anchor())
        e = w.create_entity(RigidBody.box(0, 40, 40, 40, mass=1.0))
        with spy.returns(astray, "first_astray_body") as looks:
            w.step(3)
        assert len(looks) == (3 if fling else 0)  # a stage ran after the kernel: again
    fling.at = w.store.bslot[e]
    with pytest.raises(WorldError, match=rf"entity {e} \(RigidBody\).*field x, y"):
        w.step()
