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

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from ecsgoo import Particle, systems
from ecsgoo.systems import Stage, register_stage

from .components import Goal, GooBall, GooRulesState
from .structure import Balls, balls, board, drop_off, pipe_node, rules_state


@dataclass
class Network:
    """The structure's unbroken links between grounded goo balls.

    ``ends``: spring entity → (a, b) ball entities; ``at``: ball entity →
    ``[(spring, other ball), …]`` by spring entity; ``row``: ball entity → particle row;
    ``pos`` (px) and ``vel`` (px/s) of every particle row, as the frame found them
    (``[x, y]`` lists: a crawler reads a few of them, in plain floats);
    ``wind`` (px/s²) the level's; ``pinned`` per row.
    """

    ends: dict[int, tuple[int, int]]
    at: dict[int, list[tuple[int, int]]]
    row: dict[int, int]
    pos: list[list[float]]
    vel: list[list[float]]
    wind: float
    pinned: list[bool]

    @classmethod
    def of(cls, world: Any, bs: Balls) -> Network:
        """The network of ``world`` now (O(V + E))."""
        s, ent = world.springs, world.particles.entity.tolist()
        mine = set(bs.entities[bs.structure].tolist())
        ends: dict[int, tuple[int, int]] = {}
        at: dict[int, list[tuple[int, int]]] = {}
        for spring, a, b, broken in zip(s.entity.tolist(), s.a.tolist(), s.b.tolist(),
                                        s.broken.tolist(), strict=True):
            ea, eb = ent[a], ent[b]
            if broken or ea not in mine or eb not in mine:
                continue
            ends[spring] = (ea, eb)
            at.setdefault(ea, []).append((spring, eb))
            at.setdefault(eb, []).append((spring, ea))
        row = dict(zip(bs.entities.tolist(), bs.rows.tolist(), strict=True))
        p = world.particles
        return cls(ends, {k: sorted(v) for k, v in at.items()}, row, p.pos.tolist(),
                   p.velocity.tolist(), rules_state(world).wind, p.pinned.tolist())

    def hops(self, target: int) -> dict[int, int]:
        """Links from each ball to ``target`` (breadth-first; unreachable balls are absent)."""
        out, todo = {target: 0}, deque([target])
        while todo:
            node = todo.popleft()
            for _spring, other in self.at.get(node, []):
                if other not in out:
                    out[other] = out[node] + 1
                    todo.append(other)
        return out


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
        bs = balls(world, world.resource(systems.StructureReport))
        net = Network.of(world, bs)
        target = pipe_node(world, bs)
        hops = net.hops(target) if target >= 0 else None
        loads: dict[int, list[float]] = {}
        for k in np.flatnonzero(bs.usable & ~bs.balloon).tolist():
            entity = int(bs.entities[k])
            if entity == world.grabbed:
                continue
            goo = bs.goo[k]
            if goo.link:
                self._crawl(world, entity, goo, bs.particles[k], net, hops, loads)
            else:
                self._walk(world, entity, bs.particles[k], net)
        _wind(world, bs, net.wind, loads)
        _lift(world, bs, rules_state(world).lift, loads)
        for entity in sorted(loads):  # one force per ball: the crawlers on it and the wind
            world.apply_force(entity, loads[entity][0], loads[entity][1])

    def _crawl(self, world: Any, entity: int, goo: GooBall, p: Particle, net: Network,
               hops: dict[int, int] | None, loads: dict[int, list[float]]) -> None:
        """One frame along the link; at its end, on to the next one."""
        if goo.link not in net.ends:  # the link snapped, or its ball was taken back
            drop_off(world, entity)
            return
        pos = net.pos
        a, b = net.ends[goo.link]
        (xa, ya), (xb, yb) = pos[net.row[a]], pos[net.row[b]]
        length = float(np.hypot(xb - xa, yb - ya))
        goo.t += goo.heading * self.speed * world.dt / max(length, 1.0)
        if not 0.0 < goo.t < 1.0:
            node = b if goo.t >= 1.0 else a
            self._turn(world, entity, goo, node, net, hops)
            a, b = net.ends[goo.link]
        self._ride(world, goo, p, a, b, net, loads)

    def _turn(self, world: Any, entity: int, goo: GooBall, node: int, net: Network,
              hops: dict[int, int] | None) -> None:
        """At ``node``: take the next link (toward the pipe, or picked by hash)."""
        options = [o for o in net.at[node] if o[0] != goo.link] or net.at[node]
        if hops is not None:
            spring, _ = min(options, key=lambda o: (hops.get(o[1], 1 << 30), o[0]))
        else:
            spring, _ = options[(entity * 7919 + world.frame * 104729) % len(options)]
        at_a = net.ends[spring][0] == node
        goo.link, goo.t, goo.heading = spring, 0.0 if at_a else 1.0, 1 if at_a else -1

    def _ride(self, world: Any, goo: GooBall, p: Particle, a: int, b: int, net: Network,
              loads: dict[int, list[float]]) -> None:
        """Sit at ``t`` on the link from ``a`` to ``b``, moving with it; weigh on its ends
        (added to ``loads``: ball entity → force, mass·px/s²)."""
        ra, rb, t = net.row[a], net.row[b], goo.t
        (xa, ya), (xb, yb) = net.pos[ra], net.pos[rb]
        (ua, va), (ub, vb) = net.vel[ra], net.vel[rb]
        p.x, p.y = (1.0 - t) * xa + t * xb, (1.0 - t) * ya + t * yb
        p.vx, p.vy = (1.0 - t) * ua + t * ub, (1.0 - t) * va + t * vb
        if self.load > 0.0:
            gx, gy = world.gravity
            fx, fy = self.load * p.mass * (gx + net.wind), self.load * p.mass * gy
            for end, share, row in ((a, 1.0 - t, ra), (b, t, rb)):
                if not net.pinned[row]:
                    load = loads.setdefault(end, [0.0, 0.0])
                    load[0] += share * fx
                    load[1] += share * fy

    def _walk(self, world: Any, entity: int, p: Particle, net: Network) -> None:
        """A loose ball on the ground: climb on a structure ball it touches, walk to one it
        sees, or wander."""
        if abs(p.vy) > 15.0:  # in the air
            return
        near = [e for e in net.at if e != entity]
        if near:
            pos = net.pos
            x, y = p.x, p.y
            dist = [float(np.hypot(pos[net.row[e]][0] - x, pos[net.row[e]][1] - y))
                    for e in near]
            k = int(np.argmin(dist))
            if dist[k] <= self.climb * p.radius and board(world, entity, near[k]):
                return
            if dist[k] <= self.sense:
                dx = pos[net.row[near[k]]][0] - p.x
                p.vx = self.speed * float(np.sign(dx)) if abs(dx) > 1.0 else 0.0
                return
        p.vx = self.speed * math.sin(self.rate * world.frame + 1.7 * entity)


#: Of a free balloon's velocity, the part kept each frame: it drifts to a stop where it is.
HOVER = 0.9


def _lift(world: Any, bs: Balls, lift: float, loads: dict[int, list[float]]) -> None:
    """Balloons pull up: a placed one with ``lift`` (mass·px/s², added to ``loads``), a free
    one (not held) with just its weight, so it floats, slowing to a stop (``HOVER``)."""
    gy = world.gravity[1]
    for k in np.flatnonzero(bs.balloon).tolist():
        entity = int(bs.entities[k])
        if entity == world.grabbed:
            continue
        p = bs.particles[k]
        if bs.goo[k].free:
            loads.setdefault(entity, [0.0, 0.0])[1] -= p.mass * gy
            p.vx, p.vy = p.vx * HOVER, p.vy * HOVER
        else:
            loads.setdefault(entity, [0.0, 0.0])[1] += lift


def _wind(world: Any, bs: Balls, wind: float, loads: dict[int, list[float]]) -> None:
    """Push every unpinned goo ball ``wind`` px/s² to the side (a force of mass × wind,
    added to ``loads``)."""
    if wind == 0.0:
        return
    pinned, mass = world.particles.pinned, world.particles.mass
    for entity, row in zip(bs.entities.tolist(), bs.rows.tolist(), strict=True):
        if not pinned[row] and entity != world.grabbed:
            loads.setdefault(entity, [0.0, 0.0])[0] += float(mass[row]) * wind
