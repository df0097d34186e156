"""The step context: what every solver stage's ``solve(world, ctx)`` is handed.

Box2D v3 passes a ``b2StepContext`` (dt, substep time, the substep counts) to
each solver stage; here ``Pipeline.step`` makes one ``StepContext`` a substep.
Before every stage the pipeline catches the store up with whatever changed the
structure since (a stage before the solver, an event handler, a per-substep
stage of a game's own that created or deleted an entity): the packed rows, the
CSR arrays and the spring order are always whole when a kernel reads them.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

#: How far the grabbed particle moves toward the pointer per substep (a fraction):
#: Integrate's pull, and the fused frames' (``physics.disc_frame``).
GRAB_PULL = 0.55


class StepContext(NamedTuple):
    """One substep of one frame: ``dt`` (s, the frame), ``h`` (s, the substep),
    ``substep`` (0-based) of ``substeps``; ``first`` and ``last`` of the frame (after
    the last come restitution and the contact memory)."""

    dt: float
    h: float
    substep: int
    substeps: int
    first: bool
    last: bool


@functools.lru_cache(maxsize=64)
def contexts(dt: float, count: int) -> tuple[StepContext, ...]:
    """A frame's substeps' contexts (the same for every frame of the same ``dt`` and
    count: made once)."""
    return tuple(StepContext(dt, dt / count, k, count, k == 0, k == count - 1)
                 for k in range(count))
