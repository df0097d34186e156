"""Break: measure every spring; snap those held over their limit; flag buckled ones;
break the joints that held more than their ``max_force``.

Reads: particle pos; spring a, b, rest, max_stretch, broken, over; joint force,
max_force, broken.
Writes: spring stretch, broken, buckled, over; joint broken.
Events: ``spring_broke(world, spring_entity)`` for each spring that snapped,
``joint_broke(world, joint_entity)`` for each joint that broke.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..kernels.breaking import joints_over, update_springs
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
    moves = False  # it measures and breaks links, and wakes what hung from them

    def __init__(self, break_frames: int = 3) -> None:
        self.break_frames = limits.check("Break", "break_frames", break_frames)
        self._out = np.zeros(64, dtype=np.int64)

    def settings(self) -> dict[str, Any]:
        return {"break_frames": self.break_frames}

    def _springs(self, world: World) -> None:
        """Springs between particles: measured, broken when over-stretched too long."""
        s = world.store.springs
        if len(self._out) < s.n:
            self._out = np.zeros(2 * s.n, dtype=np.int64)
        c = s.cols  # the whole columns (the kernel reads ``s.n`` rows): no views made
        count = update_springs(s.n, world.store.particles.cols["pos"], c["a"], c["b"],
                               c["rest"], c["max_stretch"], c["stretch"], c["broken"],
                               c["buckled"], c["over"], self.break_frames, self._out)
        if not count:
            return  # (most frames)
        for row in self._out[:count].tolist():
            world.dispatch("spring_broke", world, int(s.entity[row]))
            for end in (s.a[row], s.b[row]):  # what hung from it wakes up
                world.wake(int(world.store.particles.entity[end]))

    def _tethers(self, world: World) -> None:
        """Springs with an end on a body: measured and broken like the others."""
        st = world.store
        t = st.tethers
        if not t.n:
            return
        a, b = st.tether_ends()
        ends = np.concatenate([a, b])
        rows = np.arange(t.n, dtype=np.int64)
        if len(self._out) < t.n:
            self._out = np.zeros(2 * t.n, dtype=np.int64)
        count = update_springs(t.n, ends, rows, rows + t.n, t.rest, t.max_stretch, t.stretch,
                               t.broken, t.buckled, t.over, self.break_frames, self._out)
        for row in self._out[:count].tolist():
            world.dispatch("spring_broke", world, int(t.entity[row]))

    def process(self, world: World) -> None:
        st = world.store
        s = st.springs
        if not (s.n or st.tethers.n or st.joints.n):
            return  # nothing to measure: no kernel call
        if s.n:
            self._springs(world)
        self._tethers(world)
        j = world.store.joints
        c = j.cols
        # the force the last substep needed (Project): a hanging mass m pulls m·g
        if j.n and joints_over(j.n, c["force"], c["max_force"], c["broken"]):
            snapped = np.flatnonzero((j.force > j.max_force) & ~j.broken)
            j.broken[snapped] = True
            for row in snapped.tolist():
                world.dispatch("joint_broke", world, int(j.entity[row]))
                comp = j.owner[row]
                for end in (comp.a, comp.b):
                    world.wake(end)
