"""The goo bots: "builder" grows a truss of triangles toward the pipe; "random" drops anywhere.

Both take a crawling goo ball off the structure and act through the game's
input handlers (press, drag, release), one call per frame. The builder stops
once the pipe is open (the crawlers go in by themselves) or when one more ball
would leave too few to collect.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from ecsgoo import World
from ecsgoo.game import Stroke

from .structure import attach_targets, balls, goal, pipe_node, rules_state

#: Preferred link length of the builder's triangles, as a fraction of build range.
SIDE = 0.9
#: Frames the builder waits between balls, so the structure settles.
SETTLE = 40
#: The random bot's wait between balls (frames): it does not wait for anything to settle.
HASTE = 20
#: Frames a drag takes (the ball glides from where it was picked up to its spot).
DRAG = 12


def truss_spot(world: World) -> tuple[float, float] | None:
    """The builder's next spot: the triangle apex closest to the goal that attaches cleanly.

    Candidates are the apexes of triangles with sides ``SIDE · build_range`` on
    every pair of nearby structure balls; a candidate counts only if the drop
    rule would link it to that very pair.
    """
    rules, g = rules_state(world), goal(world)
    side = SIDE * rules.build_range
    bs = balls(world)
    mine = np.flatnonzero(bs.structure)
    best, best_score = None, math.inf
    for i in mine:
        for j in mine:
            if j <= i:
                continue
            for spot in _apexes(bs.pos[i], bs.pos[j], side):
                score = math.hypot(spot[0] - g.x, spot[1] - g.y)
                if score < best_score and _clean(world, spot, {bs.entities[i], bs.entities[j]}):
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


def _clean(world: World, spot: tuple[float, float], pair: set[int]) -> bool:
    """Inside the screen, and the drop rule would link it to exactly ``pair``."""
    left, bottom, right, top = world.bounds
    x, y = spot
    margin = 15.0
    if not (left + margin < x < right - margin and bottom + margin < y < top - margin):
        return False
    return set(attach_targets(world, x, y).targets) == pair


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
        if self.kind == "builder" and not worth_building(world):
            self.wait = self.pause
            return
        spot = truss_spot(world) if self.kind == "builder" else random_spot(world, self.rng)
        start = pick_up(world, spot)
        if spot is None or start is None:
            self.wait = self.pause
            return
        path = [(start[0] + (spot[0] - start[0]) * k / DRAG,
                 start[1] + (spot[1] - start[1]) * k / DRAG) for k in range(1, DRAG + 1)]
        self.stroke.begin(game, *start, path + [spot] * 4)  # hold still: a dragged ball catches up

    def _still_good(self, game: Any, x: float, y: float) -> tuple[float, float]:
        """The planned spot, or a fresh one if the structure swayed and it no longer attaches."""
        spot = game.preview() if self.kind == "builder" else None
        if spot is None or spot.ok:
            return x, y
        return truss_spot(game.world) or (x, y)


def worth_building(world: World) -> bool:
    """Whether the builder should place another ball: the pipe is still closed and, after
    one more, enough free balls would be left to collect the required number."""
    rules, bs = rules_state(world), balls(world)
    left = rules.supply + int(np.sum(bs.usable)) + int(np.sum(bs.sucked))
    return pipe_node(world, bs) < 0 and rules.collected + left - 1 >= rules.required


def pick_up(world: World, spot: tuple[float, float] | None) -> tuple[float, float] | None:
    """Where to press: the supply pile if the level has one, else the free ball nearest
    ``spot`` (crawling or loose; the first one without a spot)."""
    rules = rules_state(world)
    if rules.supply > 0:
        return rules.supply_x, rules.supply_y
    bs = balls(world)
    free = np.flatnonzero(bs.usable & (bs.entities != world.grabbed))
    if not len(free):
        return None
    k = 0 if spot is None else int(np.argmin(np.hypot(*(bs.pos[free] - spot).T)))
    return float(bs.pos[free[k], 0]), float(bs.pos[free[k], 1])
