"""GooPipe: the open pipe sucks in the free goo balls its intake senses, and counts them.

Reads: the pipe (Goal) and its intake (the Sensor on its entity: what it held at
the end of the last frame), goo balls (GooBall, Particle), which are grounded.
Writes: GooBall.sucked (and the ball stops colliding); a sucked ball's Particle
position and velocity (it flies to the mouth); GooRulesState.collected.
Events: ``goo_collected(world, entity)`` as a ball goes in (then it is deleted).

The pipe is open while its intake senses a ball of the structure (one
connected to an anchor): the structure has reached it. Then every free ball
the intake senses, crawling or loose, is caught, unless the player holds it (balloons
are not: they only lift).
Once the level is won or lost the pipe closes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ecsgoo import Particle, systems
from ecsgoo.systems import Stage, register_stage

from .components import Goal, GooRulesState
from .structure import (
    frame_balls,
    frame_intake,
    frame_rules,
    frame_target,
    goal,
    memo,
    rules_state,
)


@register_stage
class GooPipe(Stage):
    """Catch the free balls in the open pipe's intake; fly them in at ``speed`` px/s.

    A caught ball is collected (deleted, counted) once its centre is within
    ``swallow`` (fraction of the pipe's radius) of the mouth.
    """

    name = "goo_pipe"
    requires = (GooRulesState, Goal)

    def __init__(self, speed: float = 240.0, swallow: float = 0.3) -> None:
        self.speed, self.swallow = float(speed), float(swallow)

    def settings(self) -> dict[str, Any]:
        return {"speed": self.speed, "swallow": self.swallow}

    def process(self, world: Any) -> None:
        bs = frame_balls(world, world.resource(systems.StructureReport))
        if frame_rules(world, bs).result != "running":
            return  # closed once the level is decided: the score stays what was shown
        open_ = frame_target(world, bs) >= 0
        if not open_ and not memo(bs, "flying", lambda: bool(bs.sucked.any())):
            return  # most frames: shut, and nothing flying in
        ours = bs.collectable
        todo = ours & bs.sucked  # flying in already
        if open_:  # it catches the free balls at its mouth
            inside = set(frame_intake(world, bs).inside)
            todo |= ours & ~bs.sucked & (bs.entities != world.grabbed) & np.array(
                [e in inside for e in bs.entities.tolist()], dtype=bool)
        for k in np.flatnonzero(todo).tolist():  # in ball order, as they are deleted
            entity, goo, p = int(bs.entities[k]), bs.goo[k], bs.particles[k]
            if not goo.sucked:
                goo.sucked, goo.link = True, 0
                bs.sucked[k] = True  # for the stages after it this frame (frame_balls)
                bs.memo.clear()
                p.mask = 0
            self._fly(world, entity, p)

    def _fly(self, world: Any, entity: int, p: Particle) -> None:
        """One frame of a caught ball's flight to the mouth; in it goes when it arrives."""
        g = goal(world)
        d = np.array([g.x - p.x, g.y - p.y])
        dist = float(np.hypot(*d))
        if dist <= max(self.swallow * g.radius, self.speed * world.dt):
            world.delete_entity(entity)
            rules_state(world).collected += 1
            world.dispatch("goo_collected", world, entity)
            return
        v = d / dist * self.speed
        p.x, p.y = float(p.x + v[0] * world.dt), float(p.y + v[1] * world.dt)
        p.vx, p.vy = float(v[0]), float(v[1])
