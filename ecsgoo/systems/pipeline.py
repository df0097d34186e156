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

    def process(self, world: World) -> None:
        """Run once per frame."""

    def substep(self, world: World, h: float) -> None:
        """Run once per substep (solver stages)."""

    def settings(self) -> dict[str, Any]:
        """Constructor keyword arguments that recreate this stage."""
        return {}

    def clone(self) -> Stage:
        """A fresh stage with the same settings (for ``World.clone``)."""
        return type(self)(**self.settings())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}({args})"


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
        self.groups: list[tuple[bool, list[Stage]]] = []
        for stage in self.stages:
            if self.groups and self.groups[-1][0] == stage.per_substep:
                self.groups[-1][1].append(stage)
            else:
                self.groups.append((stage.per_substep, [stage]))

    def step(self, world: World) -> None:
        """One frame of ``world.dt`` seconds; adds each stage's seconds to ``world.profile``."""
        prof, h = world.profile, world.h
        world.begin_frame()  # packed rows catch up with structure changes; forces due now
        for per_substep, stages in self.groups:
            if per_substep and world.resting:  # everything asleep: nothing can move
                continue
            if per_substep:  # the solver: integrate → project → collide, substeps times
                for k in range(world.substeps):
                    world.substep_index = k
                    for stage in stages:
                        t0 = perf_counter()
                        stage.substep(world, h)
                        if prof is not None:
                            prof[stage.name] = prof.get(stage.name, 0.0) + perf_counter() - t0
            else:  # once a frame: break → analyze → merge → render → the game's rules
                for stage in stages:
                    t0 = perf_counter()
                    stage.process(world)
                    if prof is not None:
                        prof[stage.name] = prof.get(stage.name, 0.0) + perf_counter() - t0
        world.end_frame()  # the frame counter, the pointer, this frame's forces spent

    def __getitem__(self, index: Any) -> Any:
        return self.stages[index]

    def __len__(self) -> int:
        return len(self.stages)

    def __iter__(self) -> Iterator[Stage]:
        return iter(self.stages)

    def __repr__(self) -> str:
        return f"Pipeline({', '.join(map(repr, self.stages))})"
