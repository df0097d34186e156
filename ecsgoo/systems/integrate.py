"""Integrate: Verlet-advance every particle and rigid body one substep under gravity and forces.

Reads: particle pos, prev, w, pinned, pin; body pos, prev, angle, prev_angle, w, kinematic; the
frame's forces (``World.frame_force``, ``World.body_force``); gravity and damping.
Writes: particle pos, prev; body pos, prev, angle, prev_angle.
Events: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import kinematic
from ..flags import kinematic as any_kinematic
from ..kernels.integrate import integrate
from ..kernels.rigid import integrate_bodies, pull_body
from ..physics.step import GRAB_PULL
from .pipeline import Stage, register_stage

if TYPE_CHECKING:
    from ..physics import StepContext
    from ..world import World


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
        _integrate_bodies(world, h, damp, (tx, ty), GRAB_PULL)


def _integrate_bodies(world: World, h: float, damp: float, target: tuple[float, float],
                      pull: float) -> None:
    """Advance every moving body one substep (Verlet, like the particles); a grabbed body's
    held point moves ``pull`` of the way to the pointer's ``target`` (px) this substep."""
    b = world.store.bodies
    if b.n:
        c = b.cols
        gx, gy = world.gravity
        # they keep their velocity (integrate_bodies stops them); most worlds have none,
        # which ``any_kinematic`` keeps the answer of between frames
        kin = kinematic.rows(b) if any_kinematic(b) else None
        move = kinematic.moves(c, kin) if kin is not None else None
        integrate_bodies(b.n, c["pos"], c["prev"], c["angle"], c["prev_angle"],
                         world.body_force, c["w"], gx, gy, damp, h)
        if move is not None:
            kinematic.advance(c, kin, move)
        row = world.store.bslot.get(world.grabbed, -1)
        if row >= 0:
            pull_body(row, c["pos"], c["angle"], c["w"], c["iw"], *world.grab_local, *target,
                      pull)
