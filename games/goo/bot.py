"""The goo bots: "builder" grows a truss of triangles toward the pipe; "random" drops anywhere.

Both take a crawling goo ball off the structure and act through the game's
input handlers (press, drag, release), one call per frame. The builder stops
once the pipe is open (the crawlers go in by themselves). Before it takes a
crawler it picks spare ivy off the structure (ivy whose loss leaves every other
ball standing, the farthest from the pipe first) and places it again nearer the
pipe, so more crawlers are left for the pipe; so it does too when one more crawler
would leave too few to collect. Free balloons it ties above the structure's tip once the tip is
out over open ground (far from every anchor), one per stretch of the arm.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from ecsgoo import Spring, World
from ecsgoo.analysis import connected_components
from ecsgoo.game import Stroke

from .structure import Balls, attach_targets, balls, goal, kind_of, pipe_node, rules_state

#: Preferred link length of the builder's triangles, as a fraction of build range.
SIDE = 0.98
#: Frames the builder waits between balls, so the structure settles.
SETTLE = 40
#: The random bot's wait between balls (frames): it does not wait for anything to settle.
HASTE = 20
#: Frames a drag takes (the ball glides from where it was picked up to its spot).
DRAG = 12
#: A balloon goes on the tip once the tip is this many build ranges from every anchor,
#: and on no tip within BALLOON_GAP build ranges of a ball that has one already.
BALLOON_OUT, BALLOON_GAP = 1.0, 1.0
#: Balls back along the arm (the tip first) the last balloons may go above.
BALLOON_BACK = 4
#: Plans (one every SETTLE frames, the pipe shut) the builder waits, tying balloons only,
#: before it places the ball that would leave too few to collect for the second star:
#: time for the balloons it tied to lift the swaying tip into the pipe's reach again.
THRIFT = 6
#: Spare ivy is moved (before a crawler is taken) to a spot this many build ranges nearer
#: the pipe than it is.
IVY_GAIN = 0.5


def truss_spot(world: World, exclude: int = -1) -> tuple[float, float] | None:
    """The builder's next spot: the triangle apex closest to the goal that attaches cleanly.

    Candidates are the apexes of triangles with sides ``SIDE · build_range`` on
    every pair of nearby structure balls; a candidate counts only if the drop
    rule would link it to that very pair. ``exclude``: the ball to be placed, if it is
    on the structure now (ivy to move): it is no end of the pair.
    """
    rules, g = rules_state(world), goal(world)
    side = SIDE * rules.build_range
    bs = balls(world)
    mine = np.flatnonzero(bs.structure & (bs.entities != exclude))
    best, best_score = None, math.inf
    for i in mine:
        for j in mine:
            if j <= i:
                continue
            for spot in _apexes(bs.pos[i], bs.pos[j], side):
                score = math.hypot(spot[0] - g.x, spot[1] - g.y)
                pair = {bs.entities[i], bs.entities[j]}
                if score < best_score and _clean(world, spot, pair, exclude):
                    best, best_score = spot, score
    return best


def _apexes(p: np.ndarray, q: np.ndarray, side: float) -> list[tuple[float, float]]:
    """The two points at distance ``side`` from both ``p`` and ``q`` (none if too far apart)."""
    d = float(np.hypot(*(q - p)))
    if not 0.5 * side <= d <= 1.6 * side:
        return []
    m = (p + q) / 2
    h = math.sqrt(side * side - d * d / 4)
    n = np.array([-(q - p)[1], (q - p)[0]]) / d
    return [(float(m[0] + h * n[0]), float(m[1] + h * n[1])),
            (float(m[0] - h * n[0]), float(m[1] - h * n[1]))]


def _clean(world: World, spot: tuple[float, float], pair: set[int], exclude: int = -1,
           kind: str = "common") -> bool:
    """Inside the screen, and the drop rule would link a ball of ``kind`` (``exclude``: the
    one placed) to exactly ``pair``."""
    left, bottom, right, top = world.bounds
    x, y = spot
    margin = 15.0
    if not (left + margin < x < right - margin and bottom + margin < y < top - margin):
        return False
    return set(attach_targets(world, x, y, exclude, kind).targets) == pair


def random_spot(world: World, rng: random.Random) -> tuple[float, float] | None:
    """A random spot at a random distance (up to build range) from a random structure ball."""
    bs = balls(world)
    mine = np.flatnonzero(bs.linked & ~bs.free)
    if not len(mine) or not np.any(bs.usable):
        return None
    x, y = bs.pos[rng.choice(mine.tolist())]
    r = rules_state(world).build_range * rng.uniform(0.3, 1.0)
    angle = rng.uniform(0.0, 2.0 * math.pi)
    return x + r * math.cos(angle), y + r * math.sin(angle)


class Bot:
    """Drives the game's handlers: wait, press at the supply, drag to the spot, release."""

    def __init__(self, kind: str, rng: random.Random) -> None:
        self.kind, self.rng = kind, rng
        self.pause = SETTLE if kind == "builder" else HASTE
        self.wait = self.pause // 2
        self.stroke = Stroke()
        self.thrift = THRIFT

    def act(self, game: Any) -> None:
        """One frame of the bot's plan."""
        if self.stroke.points:
            if self.stroke.advance(game, lambda x, y: self._still_good(game, x, y)):
                self.wait = self.pause
            return
        if self.wait > 0:
            self.wait -= 1
            return
        self._plan(game)

    def _plan(self, game: Any) -> None:
        world = game.world
        if self.kind == "builder":
            thrifty = self.thrift > 0 and costs_a_star(world)
            start, spot = builder_move(world, thrifty)
            # patience runs out only while the pipe is shut (open, the crawlers are coming)
            self.thrift -= int(thrifty and start is None and pipe_node(world, balls(world)) < 0)
        else:
            spot = random_spot(world, self.rng)
            start = pick_up(world, spot)
        if spot is None or start is None:
            self.wait = self.pause
            return
        path = [(start[0] + (spot[0] - start[0]) * k / DRAG,
                 start[1] + (spot[1] - start[1]) * k / DRAG) for k in range(1, DRAG + 1)]
        self.stroke.begin(game, *start, path + [spot] * 4)  # hold still: a dragged ball catches up

    def _still_good(self, game: Any, x: float, y: float) -> tuple[float, float]:
        """The planned spot, or a fresh one if the structure swayed and it no longer attaches
        (a balloon's spot stays: it is tied to whatever is nearest)."""
        spot = game.preview() if self.kind == "builder" else None
        if spot is None or spot.ok or game.drag is None or \
                kind_of(game.world, game.drag.ball) == "balloon":
            return x, y
        return truss_spot(game.world, game.drag.ball) or (x, y)


Move = tuple[tuple[float, float] | None, tuple[float, float] | None]


def builder_move(world: World, thrifty: bool = False) -> Move:
    """The builder's next ``(press, release)`` points, or ``(None, None)`` to wait: a balloon
    for the tip, else a crawler for the next triangle, else spare ivy moved there.
    ``thrifty``: one more crawler would cost the second star (``costs_a_star``), so only a
    balloon or spare ivy goes on."""
    if pipe_node(world, balls(world)) >= 0:
        return None, None
    building = worth_building(world)
    move = balloon_move(world, spaced=building and not thrifty)
    if move[0] is not None:
        return move
    ivy = spare_ivy(world)
    if ivy >= 0:  # spare ivy first: every crawler kept is one more for the pipe
        p = world.particles.pos[world.particles.row(ivy)]
        spot = truss_spot(world, ivy)
        if spot is not None and _nearer(world, spot, p):
            return (float(p[0]), float(p[1])), spot
    if building and not thrifty:
        spot = truss_spot(world)
        return pick_up(world, spot), spot
    return None, None


def costs_a_star(world: World) -> bool:
    """Whether placing one more crawler leaves too few balls to collect for the second star
    (``GooRulesState.more``) while enough are left now."""
    rules, bs = rules_state(world), balls(world)
    left = rules.collected + rules.supply + int(np.sum(bs.collectable))
    return rules.more > 0 and left >= rules.more > left - 1


def _nearer(world: World, spot: tuple[float, float], now: np.ndarray) -> bool:
    """Whether ``spot`` is nearer the pipe than ``now`` (px) by ``IVY_GAIN`` build ranges
    (ivy moved only to get on: not from the tip to the tip again)."""
    g, reach = goal(world), rules_state(world).build_range
    return math.hypot(spot[0] - g.x, spot[1] - g.y) + IVY_GAIN * reach < \
        math.hypot(now[0] - g.x, now[1] - g.y)


def balloon_move(world: World, spaced: bool = True) -> Move:
    """Tie a free balloon above the tip (the structure's goo ball nearest the pipe) once the
    tip is ``BALLOON_OUT`` build ranges from every anchor and (if ``spaced``: more balls are
    to come) no ball within ``BALLOON_GAP`` of it has a balloon: ``(balloon, spot)``, or
    ``(None, None)``. Not ``spaced`` (the last balls), a spot by the tip that is taken
    (too close to a balloon already there) gives way to one above the next balls back
    along the arm, the nearest the pipe first (``BALLOON_BACK`` of them)."""
    bs, g, reach = balls(world), goal(world), rules_state(world).build_range
    free = np.flatnonzero(bs.usable & bs.balloon & (bs.entities != world.grabbed))
    mine = np.flatnonzero(bs.structure & ~bs.pinned & ~bs.balloon)
    if not len(free) or not len(mine) or not bs.pinned.any():
        return None, None
    order = mine[np.argsort(np.hypot(*(bs.pos[mine] - (g.x, g.y)).T), kind="stable")]
    tip = order[0]
    anchors = bs.pos[bs.pinned]
    if np.hypot(*(anchors - bs.pos[tip]).T).min() < BALLOON_OUT * reach:
        return None, None
    lifted = bs.pos[_lifted(world, bs)]
    if spaced and len(lifted) and np.hypot(*(lifted - bs.pos[tip]).T).min() < BALLOON_GAP * reach:
        return None, None
    k = free[0]
    for ball in order[:1 if spaced else BALLOON_BACK].tolist():
        if np.hypot(*(anchors - bs.pos[ball]).T).min() < BALLOON_OUT * reach:
            continue
        for dx in (0.0, -0.3, 0.3, -0.6, 0.6):
            spot = (float(bs.pos[ball, 0] + dx * reach), float(bs.pos[ball, 1] + 0.75 * reach))
            if _clean(world, spot, {int(bs.entities[ball])}, int(bs.entities[k]), "balloon"):
                return (float(bs.pos[k, 0]), float(bs.pos[k, 1])), spot
    return None, None


def _lifted(world: World, bs: Balls) -> np.ndarray:
    """Indices (into ``bs``) of the balls a placed balloon's strand is tied to."""
    placed = set(bs.entities[bs.balloon & ~bs.free].tolist())
    tied = set()
    for _, link in world.get_component(Spring):
        if link.a in placed:
            tied.add(link.b)
        elif link.b in placed:
            tied.add(link.a)
    return np.flatnonzero(np.isin(bs.entities, sorted(tied)))


def spare_ivy(world: World) -> int:
    """Placed ivy whose loss leaves every other structure ball connected to an anchor, the
    farthest from the pipe first; ``-1`` if none."""
    bs, g = balls(world), goal(world)
    ivy = np.flatnonzero(bs.detachable & (bs.kind == "ivy"))
    p, s = world.particles, world.springs
    ok = ~s.broken
    a, b = s.a[ok], s.b[ok]
    order = ivy[np.argsort(-np.hypot(*(bs.pos[ivy] - (g.x, g.y)).T), kind="stable")]
    for k in order.tolist():
        row = bs.rows[k]
        keep = (a != row) & (b != row)
        labels = connected_components(len(p), a[keep], b[keep])
        grounded = np.isin(labels, labels[p.pinned])
        others = bs.structure & (bs.entities != bs.entities[k])
        if grounded[bs.rows[others]].all():
            return int(bs.entities[k])
    return -1


def worth_building(world: World) -> bool:
    """Whether the builder should place another ball: the pipe is still closed and, after
    one more, enough free balls would be left to collect the required number."""
    rules, bs = rules_state(world), balls(world)
    left = rules.supply + int(np.sum(bs.collectable))
    return pipe_node(world, bs) < 0 and rules.collected + left - 1 >= rules.required


def pick_up(world: World, spot: tuple[float, float] | None) -> tuple[float, float] | None:
    """Where to press: the supply pile if the level has one, else the free ball nearest
    ``spot`` (crawling or loose; the first one without a spot)."""
    rules = rules_state(world)
    if rules.supply > 0:
        return rules.supply_x, rules.supply_y
    bs = balls(world)
    free = np.flatnonzero(bs.usable & ~bs.balloon & (bs.entities != world.grabbed))
    if not len(free):
        return None
    k = 0 if spot is None else int(np.argmin(np.hypot(*(bs.pos[free] - spot).T)))
    return float(bs.pos[free[k], 0]), float(bs.pos[free[k], 1])
