"""GooCrawl: free goo balls crawl along the structure's links, loose ones climb back on.

Reads: goo balls (GooBall, Particle), the structure's unbroken links (Spring),
which balls are grounded, the open pipe (``structure.pipe_node``), the
level's wind (GooRulesState.wind).
Writes: a crawler's GooBall.link / t / heading and its Particle position and
velocity (it rides its link: a point ``t`` of the way from the link's ``a`` to
its ``b``); loose balls' horizontal velocity; forces on the link ends under a
crawler (its weight), on every unpinned ball (the wind) and on balloons (their lift);
a free balloon's velocity (it floats still).
Events: none.

A crawler walks ``speed`` px/s; at a node it takes another link: toward the
pipe (fewest links away from the ball the open pipe draws to) once the pipe is
open, else one picked by a hash of its entity and the frame (deterministic,
nothing to save), never back the way it came when there is another.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ecsgoo import systems
from ecsgoo.kernels.riders import CLIMB, DROP, RIDE, WALK, crawl_frame
from ecsgoo.systems import Stage, register_stage

from .components import Goal, GooRulesState
from .structure import Balls, board, drop_off, frame_balls, pipe_node, rules_state


@register_stage
class GooCrawl(Stage):
    """Free goo balls crawl along the links; loose ones walk to the structure and climb on.

    ``speed`` px/s along a link (and on the ground); ``load``: the fraction of
    a crawler's weight (and of the wind on it) its link's two ends carry (split
    by ``t``); a loose ball resting on the ground walks toward the nearest
    structure ball within ``sense`` px and climbs on within ``climb`` ball
    radii of it, else wanders
    (a slow sine of the frame, ``rate`` rad per frame, phase by entity). A held
    ball does not crawl.
    """

    name = "goo_crawl"
    requires = (GooRulesState, Goal)

    def __init__(self, speed: float = 45.0, rate: float = 0.013, load: float = 1.0,
                 sense: float = 250.0, climb: float = 3.0) -> None:
        self.speed, self.rate, self.load = float(speed), float(rate), float(load)
        self.sense, self.climb = float(sense), float(climb)

    def settings(self) -> dict[str, Any]:
        return {"speed": self.speed, "rate": self.rate, "load": self.load,
                "sense": self.sense, "climb": self.climb}

    def process(self, world: Any) -> None:
        bs = frame_balls(world, world.resource(systems.StructureReport))
        mine = bs.usable & ~bs.balloon & (bs.entities != world.grabbed)
        n, m = len(bs.entities), len(world.particles)
        state = np.array([(g.link, g.t, g.heading) for g in bs.goo]).reshape(n, 3)
        link, t, heading = state[:, 0].astype(np.int64), state[:, 1].copy(), \
            state[:, 2].astype(np.int64)
        near, vx = np.empty(n, dtype=np.int64), np.empty(n)  # written by the kernel
        where, speed = np.empty((n, 2)), np.empty((n, 2))
        force, touched = np.zeros((m, 2)), np.zeros(m, dtype=np.bool_)
        target = pipe_node(world, bs) if bool(mine.any()) else -1
        p, s, rules = world.particles, world.springs, rules_state(world)
        gx, gy = world.gravity
        groups = crawl_frame(
            p.pos, p.prev, world.h, p.pinned, p.mass, p.radius, s.entity, s.a, s.b, s.broken,
            bs.rows, bs.entities, bs.structure, mine, link, t, heading, world.grabbed,
            self.speed, world.dt, world.frame,
            -1 if target < 0 else int(bs.rows[np.searchsorted(bs.entities, target)]),
            self.climb, self.sense, self.rate, self.load, gx, gy, float(rules.wind), near, vx,
            where, speed, force, touched)
        self._write(world, bs, groups, near, vx, link, t, heading, where, speed)
        _lift(world, bs, rules.lift, force, touched)
        rows = np.flatnonzero(touched)
        if len(rows):  # one force per ball: the crawlers on it, the wind, a balloon's lift
            world.particles.push(rows, force[rows])

    @staticmethod
    def _write(world: Any, bs: Balls, groups: tuple[np.ndarray, np.ndarray], near: np.ndarray,
               vx: np.ndarray, link: np.ndarray, t: np.ndarray, heading: np.ndarray,
               where: np.ndarray, speed: np.ndarray) -> None:
        """What ``kernels.riders.crawl_frame`` decided (the balls grouped by what they do),
        done: the balls that reach the structure climb on (``board``; one that cannot walks
        on), the others on the ground walk (their ``vx``), a crawler whose link snapped (or
        whose ball was taken back) drops off, the rest ride at ``where`` with ``speed``."""
        order, start = groups
        walk = order[start[WALK]:start[WALK + 1]]
        for k in order[start[CLIMB]:start[CLIMB + 1]].tolist():  # rare: a few a level
            if not board(world, int(bs.entities[k]), int(world.particles.entity[near[k]])):
                walk = np.sort(np.append(walk, k))
        if len(walk):
            world.particles.place(bs.rows[walk], velocity=vx[walk], axis=0)
        for k in order[start[DROP]:start[DROP + 1]].tolist():
            drop_off(world, int(bs.entities[k]))
        ride = order[start[RIDE]:start[RIDE + 1]]
        if not len(ride):
            return
        for k, on, at, way in zip(ride.tolist(), link[ride].tolist(), t[ride].tolist(),
                                  heading[ride].tolist(), strict=True):
            g = bs.goo[k]
            if g.link != on:
                g.link = on  # counted (``components.EDITS``): ``structure.balls`` reads it
            # where along it and which way: read by the crawl alone, written every frame,
            # so past GooBall's write count (a hooked write costs ~0.3 µs)
            fields = g.__dict__
            fields["t"], fields["heading"] = at, way
        world.particles.place(bs.rows[ride], where[: len(ride)], speed[: len(ride)])


#: Of a free balloon's velocity, the part kept each frame: it drifts to a stop where it is.
HOVER = 0.9


def _lift(world: Any, bs: Balls, lift: float, force: np.ndarray, touched: np.ndarray) -> None:
    """Balloons pull up: a placed one with ``lift`` (mass·px/s², added to ``force``), a free
    one (not held) with just its weight, so it floats, slowing to a stop (``HOVER``)."""
    gy = world.gravity[1]
    for k in np.flatnonzero(bs.balloon).tolist():
        entity = int(bs.entities[k])
        if entity == world.grabbed:
            continue
        p, row = bs.particles[k], int(bs.rows[k])
        touched[row] = True
        if bs.goo[k].free:
            force[row, 1] -= p.mass * gy
            p.vx, p.vy = p.vx * HOVER, p.vy * HOVER
        else:
            force[row, 1] += lift
