"""What a stage is, and the pipeline that runs one frame of them.

A stage is an esper Processor subclass with one job. Solver stages
(``per_substep = True``) run inside the substep loop; the others run once per
frame, after it. ``World.use`` declares the order once; ``Pipeline.step`` is
the whole frame (Box2D's ``b2World_Step``, Ten Minute Physics' ``simulate``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from time import perf_counter
from typing import TYPE_CHECKING, Any

import esper
import numpy as np

from ..physics import disc_frame, rigid_frame
from ..physics import steady as steady_frame
from ..physics.step import StepContext
from ..physics.step import contexts as _contexts

if TYPE_CHECKING:
    from ..world import World

#: Stage classes by their saved name (``Stage.name``), filled by ``register_stage``.
STAGES: dict[str, type[Stage]] = {}


class Stage(esper.Processor):
    """Base of the pipeline stages. Subclass it for a game's own rules.

    Override ``process(world)`` (once per frame) or set ``per_substep = True``
    and override ``substep(world, h)`` (``h`` = substep time, s).
    ``settings()`` returns the constructor keyword arguments (saved with a world).
    """

    name = "stage"
    per_substep = False
    #: Whether a frame of it may move rows (positions, velocities, angles): after one that
    #: may, the broad phase's kept grids and the frame's range look are made again
    #: (``Store.poses``). A stage that only measures, breaks links or wakes says False.
    moves = True
    #: Resource and component types a world must hold for this stage to run (a
    #: component: at least one entity has it); loading refuses a world without them.
    requires: tuple[type, ...] = ()

    def process(self, world: World) -> None:
        """Run once per frame."""

    def substep(self, world: World, h: float) -> None:
        """Run once per substep (solver stages)."""

    def solve(self, world: World, ctx: StepContext) -> None:
        """One substep with its context (``physics.StepContext``); calls ``substep(world,
        ctx.h)`` unless a stage needs the context itself (the built-in solver stages)."""
        self.substep(world, ctx.h)

    def settings(self) -> dict[str, Any]:
        """Constructor keyword arguments that recreate this stage."""
        return {}

    def clone(self) -> Stage:
        """A fresh stage with the same settings (for ``World.clone``)."""
        return type(self)(**self.settings())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}({args})"


def _timed(world: World, stage: Stage, run: Any, *args: Any) -> None:
    """``run(*args)`` once the store is whole again (``Store.prepare``: the stage before may
    have made or deleted anything), its seconds added to ``world.profile[stage.name]``."""
    store = world.store
    store.prepare()
    prof = world.profile
    t0 = perf_counter() if prof is not None else 0.0
    run(*args)
    if stage.moves:  # what it moved, the kept grids no longer hold (physics.broadphase)
        store.poses += 1
    if prof is not None:
        prof[stage.name] = prof.get(stage.name, 0.0) + perf_counter() - t0


def _substeps(world: World, stages: Sequence[Stage], k: int = 0, start: int = 0) -> None:
    """The frame's substeps: integrate → project → collide, each substep (a world of
    rigid bodies alone, or of free discs: the whole frame in one call,
    ``physics.rigid_frame``, ``physics.disc_frame``), from substep ``k``'s stage
    ``start`` on (a steady frame's kernel left the rest to the stages: ``physics.steady``)."""
    rigid = world.store.bodies.n > 0 and rigid_frame.can_fuse(world, stages)
    discs = not rigid and disc_frame.can_fuse(world, stages)
    contexts = _contexts(world.dt, world.substeps)
    while k < len(contexts):
        ctx = contexts[k]
        world.substep_index = ctx.substep  # for a game's own stage (read-only)
        if world.profile is not None:
            for stage in stages:
                _timed(world, stage, stage.solve, world, ctx)
            k += 1
            continue
        if (rigid or discs) and ctx.first and not start:
            k, start = (rigid_frame if rigid else disc_frame).whole(world, ctx, stages)
            if k or start:
                continue
        store = world.store
        for stage in stages[start:]:  # ``_timed`` without the clock
            store.prepare()
            stage.solve(world, ctx)
            store.poses += 1
        if rigid and ctx.first and rigid_frame.fuse(world, ctx, stages):
            return
        k, start = disc_frame.fuse(world, ctx, stages) if discs else (k + 1, 0)


#: Break by module and name (it is a Stage: it imports this module).
_BREAK = "ecsgoo.systems.break_.Break"


def _steady_stages(pipeline: Pipeline) -> tuple[Stage, ...] | None:
    """The solver stages of a pipeline whose frames may be steady (``physics.steady``):
    the solver stages (``rigid_frame.ours``), then at most our Break, which a steady frame
    runs as the usual one does; None for any other."""
    groups = pipeline.groups
    if not groups or not groups[0][0] or len(groups) > 2:
        return None
    if len(groups) == 2 and [f"{type(s).__module__}.{type(s).__qualname__}"
                             for s in groups[1][1]] != [_BREAK]:
        return None
    return groups[0][1] if rigid_frame.ours(groups[0][1]) else None


def living_particles(world: World, entities: np.ndarray) -> np.ndarray:
    """Those of ``entities`` (ids) that are particles of ``world`` now, in the same order.

    A stage's memory of the last frame may name particles deleted since; what it
    saves keeps only the living (no world file holds an id that no longer exists).
    """
    return entities[np.isin(entities, world.store.particles.entity)]


def register_stage(cls: type[Stage]) -> type[Stage]:
    """Make a stage class known by its ``name`` (so saved pipelines can be loaded)."""
    STAGES[cls.name] = cls
    return cls


class Pipeline(Sequence[Stage]):
    """The stages of a world, in order, and the frame that runs them.

    A sequence of its stages (``world.pipeline[-1]``, ``for stage in
    world.pipeline``). Consecutive solver stages form one substep group.
    """

    def __init__(self, stages: Sequence[Stage] = ()) -> None:
        for stage in stages:
            if not isinstance(stage, Stage):
                raise TypeError(f"World.use: {stage!r} is not a systems.Stage")
        self.stages = tuple(stages)
        groups: list[tuple[bool, list[Stage]]] = []
        for stage in self.stages:
            if groups and groups[-1][0] == stage.per_substep:
                groups[-1][1].append(stage)
            else:
                groups.append((stage.per_substep, [stage]))
        # tuples: what the frame asks of a group's stages is kept by the group's identity
        self.groups = [(per_substep, tuple(group)) for per_substep, group in groups]
        self.steady_solver = _steady_stages(self)  # (asked at the end of every usual frame)

    def step(self, world: World) -> None:
        """One frame of ``world.dt`` seconds; adds each stage's seconds to ``world.profile``."""
        if world._steady is not None and steady_frame.holds(world, self):
            self._steady_step(world)  # as it was last frame: none of the looks, no game code
            return
        with world._context():  # a stage may call esper
            world.begin_frame()  # packed rows catch up with structure changes; forces due now
            dispatched = world._dispatches
            for per_substep, stages in self.groups:
                if not per_substep:  # once a frame: break → analyze → merge → the game's rules
                    for stage in stages:
                        _timed(world, stage, stage.process, world)
                elif not world.resting:  # the solver (skipped while everything sleeps)
                    _substeps(world, stages)
            world.end_frame()  # events, sleeping, the frame counter, the pointer
        world._steady = None  # whether the next frame may be steady: a frame done in one call
        if world._fused_frame == world.frame - 1 and self.steady_solver is not None:
            steady_frame.remember(world, self, dispatched, self.steady_solver)

    def _steady_step(self, world: World) -> None:
        """``step`` for a world as it was when its last frame was done in one kernel call
        (``physics.steady``), without the looks that found it so: its solver stages (the
        whole frame in one call; if the kernel leaves the first substep's Collide to the
        stages, they go on from there), then our Break if there are joints for it to
        measure (``steady_solver``)."""
        world.rested = world.resting  # (all ``begin_frame`` would do)
        dispatched = world._dispatches
        _, ctx, _, measures = world._steady
        k, start = rigid_frame.whole(world, ctx, self.steady_solver, True)
        if not k:
            _substeps(world, self.steady_solver, k, start)
        for stage in self.groups[1][1] if measures else ():  # (Break: ``steady_solver``)
            if world._dispatches == dispatched:  # (``_timed`` without its looks)
                stage.process(world)
            else:  # a handler ran: it may have made or deleted anything
                _timed(world, stage, stage.process, world)
        if steady_frame.quiet(world, dispatched):
            world.frame += 1  # (all ``end_frame`` would do)
            world.grab_from = world.grab_target
        else:
            world.end_frame()
            steady_frame.remember(world, self, dispatched, self.steady_solver)

    def __getitem__(self, index: Any) -> Any:
        return self.stages[index]

    def __len__(self) -> int:
        return len(self.stages)

    def __iter__(self) -> Iterator[Stage]:
        return iter(self.stages)

    def __repr__(self) -> str:
        return f"Pipeline({', '.join(map(repr, self.stages))})"
