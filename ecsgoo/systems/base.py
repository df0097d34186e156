"""What every stage is, and how a pipeline becomes esper processors.

A stage is an esper Processor. Solver stages (``per_substep = True``) run
inside the substep loop; the others run once per frame. ``World.use`` declares
the order once; ``install`` derives esper's priorities from it and groups each
run of consecutive solver stages into one ``Substeps`` processor.
"""

from __future__ import annotations

import time
from typing import Any

import esper

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

    def process(self, world: Any) -> None:
        """Run once per frame."""

    def substep(self, world: Any, h: float) -> None:
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


def register_stage(cls: type[Stage]) -> type[Stage]:
    """Make a stage class known by its ``name`` (so saved pipelines can be loaded)."""
    STAGES[cls.name] = cls
    return cls


class Substeps(esper.Processor):
    """Runs consecutive solver stages ``world.substeps`` times per frame."""

    def __init__(self, stages: list[Stage]) -> None:
        self.stages = stages

    def process(self, world: Any) -> None:
        h = world.h
        if world.profile is not None:
            self._timed(world, h)
            return
        for k in range(world.substeps):
            world.substep_index = k
            for stage in self.stages:  # integrate → project → collide, by default
                stage.substep(world, h)

    def _timed(self, world: Any, h: float) -> None:
        prof = world.profile
        for k in range(world.substeps):
            world.substep_index = k
            for stage in self.stages:
                t0 = time.perf_counter()
                stage.substep(world, h)
                prof[stage.name] = prof.get(stage.name, 0.0) + time.perf_counter() - t0


class _Timed(esper.Processor):
    """Wraps a per-frame stage to add its time to ``world.profile``."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage

    def process(self, world: Any) -> None:
        if world.profile is None:
            self.stage.process(world)
            return
        t0 = time.perf_counter()
        self.stage.process(world)
        name = self.stage.name
        world.profile[name] = world.profile.get(name, 0.0) + time.perf_counter() - t0


def install(world: Any, stages: tuple[Stage, ...]) -> None:
    """Replace the current esper context's processors with ``stages``, in order."""
    # esper keys processors by type, and a pipeline may hold several of one type
    esper._processors.clear()
    esper._processors_dict.clear()
    groups: list[esper.Processor] = []
    for stage in stages:
        if not isinstance(stage, Stage):
            raise TypeError(f"World.use: {stage!r} is not a systems.Stage")
        if stage.per_substep:
            if groups and isinstance(groups[-1], Substeps):
                groups[-1].stages.append(stage)
            else:
                groups.append(Substeps([stage]))
        else:
            groups.append(_Timed(stage))
    for rank, proc in enumerate(groups):
        esper.add_processor(proc, priority=len(groups) - rank)
