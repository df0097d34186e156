"""The physics step: its prepare phase keeps the store whole whatever a stage does, and its
context reaches every solver stage."""

import numpy as np
import pytest

from ecsgoo import Anchor, Joint, Particle, RigidBody, Spring, World, systems
from ecsgoo.physics import StepContext


class _Spawn(systems.Stage):
    """Creates (or deletes) things from inside the frame, where a game's stage would."""

    name = "spawn_test"

    def __init__(self, per_substep: bool = False, at: int = 0, what: str = "body") -> None:
        self.per_substep, self.at, self.what = per_substep, at, what
        self.made: list[int] = []

    def _act(self, world):
        if self.what == "body":
            self.made.append(world.create_entity(RigidBody.circle(160, 150, 15)))
        elif self.what == "particle":
            a = world.create_entity(Particle(300, 300))
            b = world.create_entity(Particle(320, 300))
            self.made += [a, b, world.create_entity(Spring(a, b))]
        elif self.what == "delete":
            world.delete_entity(max(e for e in world.bodies.entity))
        elif self.what == "joint":
            a, b = sorted(world.bodies.entity.tolist())[:2]
            self.made.append(world.create_entity(Joint(int(a), int(b), 700, 100)))

    def process(self, world):
        if world.frame == 0:
            self._act(world)

    def solve(self, world, ctx):
        if world.frame == 0 and ctx.substep == self.at:
            self._act(world)


def _tower(*stages) -> World:
    w = World(bounds=(0, 0, 1000, 600))
    w.use(*stages)
    for k in range(9):
        w.create_entity(RigidBody.box(700 + 20 * k, 100, 14, 90))
    return w


@pytest.mark.parametrize("what", ["body", "particle", "delete", "joint"])
def test_a_stage_before_the_solver_may_make_or_delete_anything(what):
    spawn = _Spawn(what=what)
    w = _tower(spawn, *(s() for s in systems.SOLVER))
    w.step(30)
    w.check()
    if what == "body":
        assert w.component(spawn.made[0], RigidBody).y < 150  # it fell in the first frame


@pytest.mark.parametrize("what", ["body", "particle", "delete", "joint"])
@pytest.mark.parametrize("at", [0, 3, 5])
def test_a_stage_inside_the_substeps_may_make_or_delete_anything(what, at):
    spawn = _Spawn(per_substep=True, at=at, what=what)
    solver = [s() for s in systems.SOLVER]
    w = _tower(solver[0], spawn, *solver[1:])
    w.step(30)
    w.check()


def test_the_solver_stages_get_the_step_context():
    seen: list[StepContext] = []

    class Watch(systems.Stage):
        name = "watch_test"
        per_substep = True

        def solve(self, world, ctx):
            seen.append(ctx)

    w = World(substeps=4).use(Watch())
    w.step(2)
    assert [c.substep for c in seen] == [0, 1, 2, 3] * 2
    assert [c.first for c in seen[:4]] == [True, False, False, False]
    assert [c.last for c in seen[:4]] == [False, False, False, True]
    assert all(c.h == w.h and c.dt == w.dt for c in seen)


def test_integrate_and_project_alone_hold_a_hinge():
    """Project solves every constraint, joints too: a pendulum without Collide swings on
    its hinge instead of falling away."""
    w = World(bounds=None).use(systems.Integrate(), systems.Project())
    hub = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    bob = w.create_entity(RigidBody.box(100, 0, 20, 20))
    w.create_entity(Joint(hub, bob, 0, 0))
    w.step(60)
    b = w.component(bob, RigidBody)
    assert np.hypot(b.x, b.y) == pytest.approx(100, abs=1.0)
    assert b.y < -50  # it swung down
