"""The step context, and the substep loop's prepare phase.

Box2D v3 passes a ``b2StepContext`` (dt, substep time, the substep counts) to
each solver stage; here ``StepContext`` is what every solver stage's
``solve(world, ctx)`` gets. ``substeps(world)`` yields one per substep; before
every stage the pipeline catches the store up with whatever changed the
structure since (a stage before the solver, an event handler, a per-substep
stage of a game's own that created or deleted an entity): the packed rows, the
CSR arrays and the spring order are always whole when a kernel reads them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..world import World


@dataclass(frozen=True)
class StepContext:
    """One substep of one frame: ``dt`` (s, the frame), ``h`` (s, the substep),
    ``substep`` (0-based) of ``substeps``; ``first`` and ``last`` of the frame."""

    dt: float
    h: float
    substep: int
    substeps: int

    @property
    def first(self) -> bool:
        """The frame's first substep."""
        return self.substep == 0

    @property
    def last(self) -> bool:
        """The frame's last substep (restitution and contact memory follow it)."""
        return self.substep == self.substeps - 1

    @property
    def left(self) -> int:
        """Substeps left in the frame, this one included."""
        return self.substeps - self.substep


def substeps(world: World) -> Iterator[StepContext]:
    """The frame's substeps. Before each stage of each one the pipeline makes the store
    whole (``Store.prepare``)."""
    dt, count = world.dt, world.substeps
    h = dt / count
    for k in range(count):
        world.substep_index = k  # for a game's own per-substep stage (read-only)
        yield StepContext(dt, h, k, count)
