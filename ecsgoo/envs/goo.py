"""``ecsgoo/Goo-v0``: World of Goo, at most one ball placed per step.

- **Action**: ``Box(0, 1, (3,))``: ``(x, y, place)``. With ``place`` ≥ 0.5 the
  next ball goes to ``(x, y)``, as fractions of the 800 × 600 px world (y up):
  the free goo ball nearest that spot (crawling on the structure, or loose) is
  taken, dragged there over 12 frames, held 4 and released, through the game's
  pointer handlers, as the bundled bot does; it attaches to the two nearest
  structure balls within reach, or is refused (too close, out of reach, inside
  the rock) and drops. With ``place`` < 0.5 the step waits (the no-op: once
  the pipe is open the crawlers go in by themselves).
- **Step**: 56 frames: the drag (16), then 40 for the structure to settle (a
  wait: 56 frames of nothing), fewer if the level is won or lost.
- **Reset noise**: every goo ball not held by an anchor starts with a velocity
  drawn uniformly from ±``NOISE`` px/s per axis by the seed, so the structure
  sways differently on every seed.
- **Observation** (a Dict): ``balls`` ``(32, 2)`` the goo balls' positions as
  fractions of the world, by entity; ``ball_state`` ``(32,)`` 0 no ball in that
  row, 1 loose (lying free), 2 linked but not connected to an anchor (debris),
  3 in the structure (connected to an anchor); ``supply`` the goo balls left
  to build with (free ones, and a supply pile if the level has one; up to 100),
  as the HUD's "free" and ``info["balls_left"]``: not the free balloons (a
  level's balloons are rows of ``balls`` in state 1, but a step never takes
  one) nor the balls already flying into the pipe;
  ``goal`` the pipe's mouth.
- **Reward**: the game's score, gained when the level is won: the balls the
  pipe collected; 0 otherwise.
- **End**: terminated when the pipe has collected the level's number of balls
  (won), when the structure collapses or too few balls are left (lost);
  truncated after 100 steps by ``gymnasium.make``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from games.goo import GooGame
from games.goo.bot import DRAG, SETTLE, pick_up, random_spot, truss_spot, worth_building
from games.goo.structure import balls, goal, rules_state, to_place

from ..components import Anchor, Particle
from ..game import Stroke
from .base import BotPolicy, GameEnv
from .levels import CachedLevels
from .pixels import Mark

#: Rows of the ball observation (the bundled levels have at most 24 balls).
MAX_BALLS = 32
#: Most balls to build with the observation shows (the bundled levels have 11 to 16).
MAX_SUPPLY = 100.0
#: Frames the dragged ball is held at its spot before the release.
HOLD = 4
#: Reset noise: each free-to-move ball's starting velocity per axis, ±px/s.
NOISE = 20.0
#: The pipe's colour in a pixel observation.
PIPE = (90, 140, 230)
#: The action that places nothing this step.
WAIT = np.zeros(3, np.float32)


class EnvGoo(CachedLevels, GooGame):
    """GooGame as the environment plays it: its level file read once a process
    (``levels.CachedLevels``), the same game."""


class GooEnv(GameEnv):
    """World of Goo as an environment (see the module docstring for the spaces)."""

    game_class = GooGame
    play_class = EnvGoo
    frames_per_decision = DRAG + HOLD + SETTLE
    action_space = spaces.Box(0.0, 1.0, (3,), np.float32)
    observation_space = spaces.Dict({
        "balls": spaces.Box(0.0, 1.0, (MAX_BALLS, 2), np.float32),
        "ball_state": spaces.MultiDiscrete(np.full(MAX_BALLS, 4)),
        "supply": spaces.Box(0.0, MAX_SUPPLY, (1,), np.float32),
        "goal": spaces.Box(0.0, 1.0, (2,), np.float32),
    })

    def _over(self) -> bool:
        return rules_state(self.game.world).result != "running"

    def _marks(self) -> list[Mark]:
        g = goal(self.game.world)
        return [(g.x, g.y, g.radius, PIPE)]

    def _perturb(self, rng: np.random.Generator) -> None:
        world = self.game.world
        for entity in balls(world).entities:
            ball = world.component(int(entity), Particle)
            kick = rng.uniform(-NOISE, NOISE, 2)  # drawn for every ball: the same draws
            if world.try_component(int(entity), Anchor) is None:
                ball.vx, ball.vy = ball.vx + kick[0], ball.vy + kick[1]

    def _act(self, action: Any) -> None:
        if action[2] < 0.5:
            self._frames(self.frames_per_decision - SETTLE)
            return
        spot = to_world(self.game, np.asarray(action[:2], np.float64))
        start = pick_up(self.game.world, spot)
        if start is None:
            self._frames(self.frames_per_decision - SETTLE)
            return
        path = [(start[0] + (spot[0] - start[0]) * k / DRAG,
                 start[1] + (spot[1] - start[1]) * k / DRAG) for k in range(1, DRAG + 1)]
        stroke = Stroke()
        stroke.begin(self.game, *start, path + [spot] * HOLD)
        self._frame()
        while not self._over() and not stroke.advance(self.game):
            self._frame()

    def _until_next_decision(self) -> None:
        self._frames(SETTLE)

    def _observe(self) -> dict[str, Any]:
        world = self.game.world
        bs = balls(world)
        n = min(len(bs.entities), MAX_BALLS)
        positions = np.zeros((MAX_BALLS, 2), np.float32)
        positions[:n] = np.clip(to_fraction(self.game, bs.pos[:n]), 0.0, 1.0)
        state = np.zeros(MAX_BALLS, np.int64)
        state[:n] = np.where(bs.free, 1, np.where(bs.grounded, 3, np.where(bs.linked, 2, 1)))[:n]
        g = goal(world)
        return {"balls": positions, "ball_state": state,
                "supply": np.array([min(to_place(world, bs), MAX_SUPPLY)], np.float32),
                "goal": np.clip(to_fraction(self.game, np.array([g.x, g.y])), 0, 1)
                .astype(np.float32)}


def to_world(game: GooGame, fraction: np.ndarray) -> tuple[float, float]:
    """World point (px) of a point given as fractions of the world's bounds."""
    left, bottom, right, top = game.world.bounds
    return (float(left + fraction[0] * (right - left)),
            float(bottom + fraction[1] * (top - bottom)))


def to_fraction(game: GooGame, points: np.ndarray) -> np.ndarray:
    """Points (px, ``(..., 2)``) as fractions of the world's bounds (inverse of ``to_world``)."""
    left, bottom, right, top = game.world.bounds
    return (np.asarray(points, np.float64) - (left, bottom)) / (right - left, top - bottom)


class GooBot(BotPolicy):
    """A bundled goo bot as a policy of this environment: ``policy(observation) -> action``.

    ``builder`` puts the ball at the apex of the triangle nearest the pipe
    (the game's own planner) and waits once the pipe is open or one more ball
    would leave too few to collect (the game's bot's rule); ``random`` at a
    random distance and direction from a random structure ball. With nowhere
    to go, the action is ``WAIT``.
    """

    names = ("builder", "random")


    def __call__(self, observation: Any = None) -> np.ndarray:
        game = self.env.game
        world = game.world
        if self.name == "builder":
            spot = truss_spot(world) if worth_building(world) else None
        else:
            spot = random_spot(world, game.rng)
        if spot is None:
            return WAIT.copy()
        where = np.clip(to_fraction(game, np.array(spot)), 0.0, 1.0)
        return np.array([*where, 1.0], np.float32)
