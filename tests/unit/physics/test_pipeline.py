"""The pipeline: one frame in one short function, forces once, ids without esper's internals."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from ecsgoo import Particle, World, WorldError, dumps, loads, systems
from ecsgoo.systems import Pipeline, Stage
from ecsgoo.world import MAX_ENTITY_ID

ROOT = Path(__file__).resolve().parents[3]
F, MASS = 600.0, 2.0


class Push(Stage):
    """Applies the force once, during frame 0, from wherever it sits in the pipeline."""

    name = "push"

    def __init__(self, per_substep: bool = False) -> None:
        self.per_substep = per_substep
        self.entity = -1

    def _push(self, world: World) -> None:
        if world.frame == 0:
            world.apply_force(self.entity, F, 0.0)

    def process(self, world: World) -> None:
        self._push(world)

    def solve(self, world: World, ctx) -> None:  # a stage in the solver: each substep
        if ctx.first:
            self._push(world)


def _speeds(where: str) -> list[float]:
    """vx after each of three steps, the force applied once at ``where`` during frame 0."""
    w = World(gravity=(0, 0), damping=1.0, bounds=None)
    e = w.create_entity(Particle(0, 0, mass=MASS))
    push = Push(per_substep=where == "solver stage")
    push.entity = e
    solver = [stage() for stage in systems.SOLVER]
    if where == "stage before the solver":
        w.use(push, *solver)
    elif where == "stage after the solver":
        w.use(*solver, push)
    elif where == "solver stage":
        w.use(*solver[:1], push, *solver[1:])
    else:
        w.use(*solver)
        w.apply_force(e, F, 0.0)
    out = []
    for _ in range(3):
        w.step()
        out.append(w.component(e, Particle).vx)
    return out


@pytest.mark.parametrize("where", ["before step", "stage before the solver",
                                   "stage after the solver", "solver stage"])
def test_a_force_acts_over_the_next_step_once_whoever_applies_it(where):
    dv = F / MASS / 60
    speeds = _speeds(where)
    if where == "before step":  # the next step is the first one
        assert speeds == pytest.approx([dv, dv, dv])
    else:  # applied during frame 0: it acts over frame 1, once
        assert speeds == pytest.approx([0.0, dv, dv])


def test_a_pending_force_saves_and_loads():
    w = World(gravity=(0, 0), damping=1.0, bounds=None).use(*(s() for s in systems.SOLVER))
    e = w.create_entity(Particle(0, 0))
    w.step()
    w.apply_force(e, 60.0, 0.0)
    w2 = loads(dumps(w))
    w.step(2)
    w2.step(2)
    assert w2.state_hash() == w.state_hash() and w.component(e, Particle).vx > 0


def test_the_frame_is_one_short_function():
    lines = inspect.getsource(Pipeline.step).splitlines()
    assert len(lines) < 30


def test_no_module_touches_esper_internals():
    sources = [*ROOT.glob("ecsgoo/**/*.py"), *ROOT.glob("games/**/*.py"),
               *ROOT.glob("tools/*.py"), *ROOT.glob("docs/**/*.py")]
    assert len(sources) > 40
    for path in sources:
        assert not re.search(r"esper\._", path.read_text()), path


def test_profile_times_every_stage():
    w = World().use(*(s() for s in systems.SOLVER), systems.Analyze())
    w.create_entity(Particle(100, 100))
    w.profile = {}
    w.step(2)
    assert set(w.profile) == {"integrate", "project", "collide", "break", "analyze"}
    assert all(t >= 0 for t in w.profile.values())


def test_ids_are_kept_through_saving_and_bounded():
    w = World()
    for _ in range(5):
        w.create_entity(Particle(1, 1))
    w.delete_entity(2)
    w.next_entity = 1000
    w2 = loads(dumps(w))
    assert w2.entities() == [1, 3, 4, 5] and w2.next_entity == 1000
    assert w2.create_entity(Particle(2, 2)) == 1000
    assert w.clone().create_entity(Particle(2, 2)) == 1000
    with pytest.raises(WorldError, match="field next_entity must be"):
        w.next_entity = MAX_ENTITY_ID + 2


@pytest.mark.parametrize("seed", range(3))
def test_frames_that_take_no_force_skip_the_take_to_the_same_bits(monkeypatch, seed):
    """Forces applied (``apply_force``, ``particles.push``) now and then among frames with
    none, rows made and deleted: taking the forces every frame and skipping the takes
    while nothing was applied and no row came or went (``World.begin_frame``) give the
    same bits."""
    import numpy as np

    def run(skip: bool) -> list[str]:
        rng = np.random.default_rng(seed)
        if not skip:  # a key that never matches: every frame takes
            monkeypatch.setattr(World, "_forces_spent", property(lambda w: None,
                                                                 lambda w, v: None),
                                raising=False)
        w = World(bounds=(0, 0, 400, 300)).use(*(s() for s in systems.SOLVER))
        for _ in range(6):
            w.create_entity(Particle(*rng.uniform([20, 20], [380, 280]), radius=5.0))
        out = []
        for _ in range(120):
            roll, ents = rng.random(), [e for e, _ in w.get_component(Particle)]
            if roll < 0.08:
                w.apply_force(int(rng.choice(ents)), *rng.normal(0, 3000, 2))
            elif roll < 0.12:
                rows = np.array([0, len(w.particles) - 1])
                w.particles.push(rows, rng.normal(0, 3000, (2, 2)))
            elif roll < 0.14:
                w.create_entity(Particle(200, 250, radius=4.0))
            elif roll < 0.16 and len(ents) > 3:
                w.delete_entity(int(rng.choice(ents)))
            w.step()
            out.append(w.state_hash())
        monkeypatch.undo()
        return out

    assert run(True) == run(False)
