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

from ecsgoo import systems
from ecsgoo.kernels.riders import ride_links
from ecsgoo.systems import Stage, register_stage

from .components import Goal, GooBall, GooRulesState
from .structure import Balls, board, drop_off, frame_balls, pipe_node, rules_state


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
        bs = frame_balls(world, world.resource(systems.StructureReport))
        lazy = _Lazy(world, bs)
        mine = np.flatnonzero(bs.usable & ~bs.balloon & (bs.entities != world.grabbed))
        link = np.array([bs.goo[k].link for k in mine.tolist()], dtype=np.int64)
        self._walk(world, bs, mine[link == 0], lazy)
        n = len(lazy.pos)
        force, touched = np.zeros((n, 2)), np.zeros(n, dtype=np.bool_)
        self._crawl(world, bs, mine[link != 0], link[link != 0], lazy, force, touched)
        _wind(world, bs, lazy, force, touched)
        _lift(world, bs, rules_state(world).lift, force, touched)
        rows = np.flatnonzero(touched)
        if len(rows):  # one force per ball: the crawlers on it, the wind, a balloon's lift
            world.particles.push(rows, force[rows])

    def _crawl(self, world: Any, bs: Balls, ks: np.ndarray, link: np.ndarray,
               lazy: _Lazy, force: np.ndarray, touched: np.ndarray) -> None:
        """One frame along their links for the crawlers ``ks`` (on ``link``), at a link's
        end on to the next one (``_turn``), all in entity order; they ride and weigh on
        their links (``kernels.riders.ride_links``: into ``force`` and ``touched``)."""
        if not len(ks):
            return
        on, a, b = lazy.links(link)
        for k in ks[~on].tolist():  # the link snapped, or its ball was taken back
            drop_off(world, int(bs.entities[k]))
        ks, a, b = ks[on], a[on], b[on]
        pos = lazy.pos
        goo = [bs.goo[k] for k in ks.tolist()]
        t = np.array([g.t for g in goo], dtype=np.float64)
        heading = np.array([g.heading for g in goo], dtype=np.int64)
        length = np.hypot(pos[b, 0] - pos[a, 0], pos[b, 1] - pos[a, 1])
        t = t + heading * self.speed * world.dt / np.maximum(length, 1.0)
        for j in np.flatnonzero(~((0.0 < t) & (t < 1.0))).tolist():
            node = int(lazy.entity[b[j]] if t[j] >= 1.0 else lazy.entity[a[j]])
            self._turn(world, int(bs.entities[ks[j]]), goo[j], node, lazy.net, lazy.hops)
            ea, eb = lazy.net.ends[goo[j].link]
            a[j], b[j], t[j] = lazy.net.row[ea], lazy.net.row[eb], goo[j].t
        for g, value in zip(goo, t.tolist(), strict=True):
            g.t = value
        rows = bs.rows[ks]
        if not len(rows):
            return
        where, speed = np.empty((len(rows), 2)), np.empty((len(rows), 2))
        gx, gy = world.gravity
        ride_links(lazy.pos, world.particles.prev, world.h, lazy.pinned, lazy.mass, rows, a, b,
                   t, self.load, gx, gy, lazy.wind, where, speed, force, touched)
        world.particles.place(rows, where, speed)

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

    def _walk(self, world: Any, bs: Balls, ks: np.ndarray, lazy: _Lazy) -> None:
        """The loose balls ``ks`` on the ground (not in the air): each climbs on a structure
        ball it touches, walks to the nearest it sees, or wanders."""
        if not len(ks):
            return
        rows = bs.rows[ks]
        ks = ks[~(np.abs(world.particles.velocity[rows, 1]) > 15.0)]  # not in the air
        if not len(ks):
            return
        pos, near, rows = lazy.pos, lazy.nodes, bs.rows[ks]
        xs, ys, radii = pos[rows, 0], pos[rows, 1], world.particles.radius[rows]
        if len(near):  # the structure balls are not free: none is one of these
            dist = np.hypot(pos[near, 0][None, :] - xs[:, None],
                            pos[near, 1][None, :] - ys[:, None])
            nearest = np.argmin(dist, axis=1)
            dist = dist[np.arange(len(ks)), nearest]
        for j, k in enumerate(ks.tolist()):
            entity, p = int(bs.entities[k]), bs.particles[k]
            if len(near):
                node = near[nearest[j]]
                if dist[j] <= self.climb * radii[j] and board(world, entity,
                                                              int(lazy.entity[node])):
                    continue
                if dist[j] <= self.sense:
                    dx = float(pos[node, 0]) - float(xs[j])
                    p.vx = self.speed * float(np.sign(dx)) if abs(dx) > 1.0 else 0.0
                    continue
            p.vx = self.speed * math.sin(self.rate * world.frame + 1.7 * entity)


#: Of a free balloon's velocity, the part kept each frame: it drifts to a stop where it is.
HOVER = 0.9


class _Lazy:
    """What the crawl reads of a frame, each read once and only if a ball needs it: the
    particles' columns, the structure's links, the ``Network`` and the hops to the pipe
    (a ball turns at a node)."""

    def __init__(self, world: Any, bs: Balls) -> None:
        self.world, self.bs = world, bs
        p = world.particles
        self.pos, self.pinned = p.pos, p.pinned
        self.mass, self.entity = p.mass, p.entity
        self.wind = float(rules_state(world).wind)
        self._net: Network | None = None
        self._hops: tuple[dict[int, int] | None] | None = None
        self._valid: tuple[np.ndarray, ...] | None = None
        self._nodes: np.ndarray | None = None

    @property
    def valid(self) -> tuple[np.ndarray, ...]:
        """The springs' entities, ``a`` and ``b`` rows, and which are links of the
        structure (unbroken, both ends structure balls): ``Network.ends``."""
        if self._valid is None:
            s = self.world.springs
            structure = np.zeros(len(self.pos), dtype=bool)
            structure[self.bs.rows[self.bs.structure]] = True
            a, b = s.a, s.b
            self._valid = (s.entity, a, b, ~s.broken & structure[a] & structure[b])
        return self._valid

    def links(self, link: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Of spring entities ``link``: which are links of the structure, and their ``a``
        and ``b`` rows."""
        entity, a, b, valid = self.valid
        if not len(entity):
            none = np.zeros(len(link), dtype=np.int64)
            return np.zeros(len(link), dtype=bool), none, none
        order = np.argsort(entity, kind="stable")
        row = order[np.minimum(np.searchsorted(entity[order], link), len(order) - 1)]
        return (entity[row] == link) & valid[row], a[row], b[row]

    @property
    def nodes(self) -> np.ndarray:
        """The rows of the structure balls with a link, in ``Network.at``'s order."""
        if self._nodes is None:
            _, a, b, valid = self.valid
            ends = np.column_stack([a[valid], b[valid]]).reshape(-1)
            self._nodes = ends[np.sort(np.unique(ends, return_index=True)[1])]
        return self._nodes

    @property
    def net(self) -> Network:
        if self._net is None:
            self._net = Network.of(self.world, self.bs)
        return self._net

    @property
    def hops(self) -> dict[int, int] | None:
        if self._hops is None:
            target = pipe_node(self.world, self.bs)
            self._hops = (self.net.hops(target) if target >= 0 else None,)
        return self._hops[0]


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


def _wind(world: Any, bs: Balls, lazy: _Lazy, force: np.ndarray, touched: np.ndarray) -> None:
    """Push every unpinned goo ball the level's wind (px/s²) to the side: a force of
    mass × wind, added to ``force``."""
    if lazy.wind == 0.0:
        return
    rows = bs.rows[~lazy.pinned[bs.rows] & (bs.entities != world.grabbed)]
    force[rows, 0] += lazy.mass[rows] * lazy.wind
    touched[rows] = True
