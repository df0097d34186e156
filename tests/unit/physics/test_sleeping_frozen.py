"""Frozen islands: while something else moves, a sleeping island out of its reach is
solved as static (``sleeping.freeze``) — and that changes nothing that happens."""

from __future__ import annotations

import numpy as np

from ecsgoo import Anchor, Particle, RigidBody, World, derived, dumps, loads, systems


@systems.register_stage
class Probe(systems.Stage):
    """Between Project and Collide: what the solver sees of some rows, every substep."""

    name = "probe"
    per_substep = True

    def __init__(self) -> None:
        self.rows: list[int] = []
        self.seen: list[tuple[bool, float]] = []
        self.spawn_at: tuple[float, float] | None = None

    def solve(self, world: World, ctx) -> None:
        b = world.store.bodies
        self.seen += [(bool(b.frozen[r]), float(b.w[r])) for r in self.rows]


@systems.register_stage
class Spawn(systems.Stage):
    """Before the solver: drops a particle at ``at`` in frame ``frame``."""

    name = "spawn_frozen_test"

    def __init__(self) -> None:
        self.at: tuple[float, float] | None = None
        self.frame = -1

    def process(self, world: World) -> None:
        if world.frame == self.frame and self.at is not None:
            world.create_entity(Particle(*self.at, radius=6.0))


def _yard(sleep: bool = True) -> tuple[World, Probe, Spawn, list[int]]:
    """A floor, a row of five crates at rest on it, a probe in the solver."""
    probe, spawn = Probe(), Spawn()
    integrate, project, collide, brk = (s() for s in systems.SOLVER)
    w = World(bounds=None, sleep=sleep).use(spawn, integrate, project, probe, collide, brk)
    w.create_entity(RigidBody.box(0, -10, 2000, 20), Anchor())
    crates = [w.create_entity(RigidBody.box(300 + 60 * k, 20, 40, 40)) for k in range(5)]
    return w, probe, spawn, crates


def test_a_sleeping_island_far_from_what_moves_is_solved_as_static():
    w, probe, _, crates = _yard()
    w.step(120)
    assert all(w.is_sleeping(c) for c in crates)
    ball = w.create_entity(Particle(-600, 400, radius=8))  # far off, falling
    probe.rows = [w.store.bslot[c] for c in crates]
    w.step(10)
    assert probe.seen and all(frozen and wv == 0.0 for frozen, wv in probe.seen)
    b = w.store.bodies  # the frame's end thaws them: their inverse masses are back
    assert not b.frozen.any() and np.array_equal(b.w, derived.inverse_mass(b.mass, b.pinned))
    assert not w.is_sleeping(ball)


def test_an_island_within_reach_is_not_frozen_and_is_knocked_as_if_awake():
    far = {}
    for sleep in (False, True):
        w, probe, _, crates = _yard(sleep)
        w.step(120)
        # a heavy ball rolling in fast from 250 px away: within a few frames of the row
        ball = w.create_entity(RigidBody.circle(20, 20, 15, mass=20.0))
        w.component(ball, RigidBody).vx = 900.0
        probe.rows = [w.store.bslot[crates[0]]]
        w.step(60)
        far[sleep] = (w.component(crates[0], RigidBody).x, w.component(ball, RigidBody).x)
        if sleep:
            # it was frozen while the ball was far, then solved with its mass before the hit
            assert probe.seen[0][0] and not probe.seen[-1][0]
    for got, want in zip(far[True], far[False], strict=True):
        assert abs(got - want) <= 0.05 * abs(want - 20.0) + 1.0


def test_a_thing_made_mid_frame_beside_a_frozen_island_thaws_it_first():
    w, probe, spawn, crates = _yard()
    w.step(120)
    w.create_entity(Particle(-600, 400, radius=8))  # something awake, far away
    w.step(2)
    probe.rows = [w.store.bslot[c] for c in crates]
    spawn.at, spawn.frame = (300.0, 47.0), w.frame  # on the first crate, before the solver
    w.step()
    assert probe.seen and not any(frozen for frozen, _ in probe.seen)
    assert all(wv > 0.0 for _, wv in probe.seen)


def test_a_loaded_world_freezes_the_same_islands_and_continues_bit_for_bit():
    w, probe, _, crates = _yard()
    w.step(120)
    w.create_entity(Particle(-600, 400, radius=8))
    w.step(3)
    twin = loads(dumps(w))
    assert np.array_equal(twin.store.bodies.nap, w.store.bodies.nap)
    for k in range(30):
        w.step()
        twin.step()
        assert twin.state_hash() == w.state_hash(), k
