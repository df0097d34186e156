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
from .structure import (
    Balls,
    board,
    current_read,
    drop_off,
    frame_balls,
    frame_rules,
    frame_target,
    kept,
    memo,
)


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
        grabbed = world.grabbed
        mine, structure = memo(bs, ("mine", grabbed), lambda: _crawlers(bs, grabbed))
        link, t, heading = _state(world, bs)
        p, s, rules = world.particles, world.springs, frame_rules(world, bs)
        n, m = len(bs.entities), len(p)
        near, vx = np.empty(n, dtype=np.int64), np.empty(n)  # written by the kernel
        where, speed = np.empty((n, 2)), np.empty((n, 2))
        force, touched = np.zeros((m, 2)), np.zeros(m, dtype=np.bool_)
        target = bs.target  # the pipe stage's (``None``: it did not run, or a ball went in)
        if target is None:  # then the pipe is looked at only if some ball crawls
            target = frame_target(world, bs) if memo(bs, "crawls", lambda: bool(mine.any())) \
                else -1
        gx, gy = world.gravity
        groups = crawl_frame(
            p.pos, p.prev, world.h, p.pinned, p.mass, p.radius, s.entity, s.a, s.b, s.broken,
            bs.rows, bs.entities, structure, mine, link, t, heading, grabbed,
            self.speed, world.dt, world.frame,
            -1 if target < 0 else int(bs.rows[np.searchsorted(bs.entities, target)]),
            self.climb, self.sense, self.rate, self.load, gx, gy, float(rules.wind), near, vx,
            where, speed, force, touched)
        self._write(world, bs, groups, near, vx, (link, t, heading), where, speed)
        if memo(bs, "balloons", lambda: bool(bs.balloon.any())):  # most levels have none
            _lift(world, bs, rules.lift, force, touched)
        rows = np.flatnonzero(touched)
        if len(rows):  # one force per ball: the crawlers on it, the wind, a balloon's lift
            world.particles.push(rows, force[rows])

    @staticmethod
    def _write(world: Any, bs: Balls, groups: tuple[np.ndarray, np.ndarray], near: np.ndarray,
               vx: np.ndarray, state: tuple[np.ndarray, ...], where: np.ndarray,
               speed: np.ndarray) -> None:
        """What ``kernels.riders.crawl_frame`` decided (the balls grouped by what they do),
        done: the balls that reach the structure climb on (``board``; one that cannot walks
        on), the others on the ground walk (their ``vx``), a crawler whose link snapped (or
        whose ball was taken back) drops off, the rest ride at ``where`` with ``speed``.
        ``state``: each ball's link, t and heading as the kernel left them. (Few numpy calls:
        in a frame, between the physics kernels, each costs ~1–2 µs.)"""
        order, start = groups[0], groups[1].tolist()
        walk = order[start[WALK]:start[WALK + 1]]
        if start[CLIMB] < start[CLIMB + 1]:  # rare: a few a level
            for k in order[start[CLIMB]:start[CLIMB + 1]].tolist():
                if not board(world, int(bs.entities[k]), int(world.particles.entity[near[k]])):
                    walk = np.sort(np.append(walk, k))
        if len(walk):
            world.particles.place(bs.rows[walk], velocity=vx[walk], axis=0)
        if start[DROP] < start[DROP + 1]:
            for k in order[start[DROP]:start[DROP + 1]].tolist():
                drop_off(world, int(bs.entities[k]))
        if start[RIDE] == start[RIDE + 1]:
            return
        ride = order[start[RIDE]:start[RIDE + 1]]
        links, ts, ways = (a.tolist() for a in state)
        goo = bs.goo
        for k in ride.tolist():
            g = goo[k]
            if g.link != links[k]:
                g.link = links[k]  # counted (``components.EDITS``): ``balls`` reads it
            # where along it and which way: written every frame, so past GooBall's write
            # count (a hooked write costs ~0.3 µs); the kept arrays (``_state``) hold the same
            fields = g.__dict__
            fields["t"], fields["heading"] = ts[k], ways[k]
        world.particles.place(bs.rows[ride], where[: len(ride)], speed[: len(ride)])


def _state(world: Any, bs: Balls) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each ball's ``link``, ``t`` and ``heading`` (GooBall's), for ``crawl_frame`` to update
    in place: kept from the last frame while the balls' read is current (no ball came or
    went, no counted GooBall write: what the crawl wrote past the count is what they hold),
    else read from the components (a few a level: a ball placed, boarding, dropping off)."""
    read, mine = current_read(world, bs), kept(world)
    last = mine.crawl  # the arrays as the crawl left them, and the read they go with
    if read is not None and last is not None and last[0] is read:
        return last[1], last[2], last[3]
    state = np.array([(g.link, g.t, g.heading) for g in bs.goo]).reshape(len(bs.goo), 3)
    link, t, heading = state[:, 0].astype(np.int64), state[:, 1].copy(), \
        state[:, 2].astype(np.int64)
    if read is not None:
        mine.crawl = (read, link, t, heading)
    return link, t, heading


#: Of a free balloon's velocity, the part kept each frame: it drifts to a stop where it is.
HOVER = 0.9


def _crawlers(bs: Balls, grabbed: int) -> tuple[np.ndarray, np.ndarray]:
    """The balls that crawl (``usable``, not balloons, not the ``grabbed`` one) and the
    ``structure`` they crawl on: ``crawl_frame``'s ``mine`` and ``structure``."""
    return bs.usable & ~bs.balloon & (bs.entities != grabbed), bs.structure


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
