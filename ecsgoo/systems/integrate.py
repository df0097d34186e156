"""Integrate: Verlet-advance every particle and rigid body one substep under gravity and forces.

Reads: particle pos, prev, w, pinned, pin; body pos, prev, angle, prev_angle, w; the
frame's forces (``World.frame_force``, ``World.body_force``); gravity and damping.
Writes: particle pos, prev; body pos, prev, angle, prev_angle.
Events: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kernels.integrate import integrate
from . import rigid
from .pipeline import Stage, register_stage

if TYPE_CHECKING:
    from ..physics import StepContext
    from ..world import World

#: How far the grabbed particle moves toward the pointer per substep (SPEC §2).
GRAB_PULL = 0.55


@register_stage
class Integrate(Stage):
    """Verlet with damping defined per 1/60 s, so it means the same at any substep count."""

    name = "integrate"
    per_substep = True

    def solve(self, world: World, ctx: StepContext) -> None:
        h = ctx.h
        p = world.store.particles
        c = p.cols
        damp = world.damping ** (h * 60.0)
        gx, gy = world.gravity
        # the pointer moves once a frame: spread its move over the substeps so the
        # grabbed particle follows smoothly and is flung with the pointer's velocity
        t = (ctx.substep + 1) / ctx.substeps
        (fx, fy), (gx_, gy_) = world.grab_from, world.grab_target
        tx, ty = fx + (gx_ - fx) * t, fy + (gy_ - fy) * t
        if p.n:
            integrate(p.n, c["pos"], c["prev"], world.frame_force, c["w"], c["pinned"],
                      c["pin"], gx, gy, damp, h, world.store.pslot.get(world.grabbed, -1), tx,
                      ty, GRAB_PULL)
        rigid.integrate(world, h, damp, (tx, ty), GRAB_PULL)
