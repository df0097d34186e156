"""Break: measure every spring; snap those held over their limit; flag buckled ones.

Reads: particle pos; spring a, b, rest, max_stretch, broken, over.
Writes: spring stretch, broken, buckled, over.
Events: ``spring_broke(world, spring_entity)`` for each spring that snapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..kernels.breaking import update_springs
from .pipeline import Stage, register_stage

if TYPE_CHECKING:
    from ..world import World


@register_stage
class Break(Stage):
    """A spring breaks after ``break_frames`` consecutive frames over ``max_stretch``.

    One-frame numerical spikes do not break links. ``break_frames`` is in
    ``1..limits.MAX_FRAMES`` (the kernel counts in int64).
    """

    name = "break"

    def __init__(self, break_frames: int = 3) -> None:
        self.break_frames = limits.check("Break", "break_frames", break_frames)
        self._out = np.zeros(64, dtype=np.int64)

    def settings(self) -> dict[str, Any]:
        return {"break_frames": self.break_frames}

    def process(self, world: World) -> None:
        s = world.store.springs
        if len(self._out) < s.n:
            self._out = np.zeros(2 * s.n, dtype=np.int64)
        count = update_springs(s.n, world.store.particles.pos, s.a, s.b, s.rest, s.max_stretch,
                               s.stretch, s.broken, s.buckled, s.over, self.break_frames,
                               self._out)
        for row in self._out[:count].tolist():
            world.dispatch("spring_broke", world, int(s.entity[row]))
