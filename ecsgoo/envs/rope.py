"""``ecsgoo/Rope-v0``: Cut the Rope, one decision every few frames.

- **Action**: ``MultiBinary(3)``, which ropes to cut now (rope ``i`` as in the
  observation's ``ropes`` rows; all zeros: wait). A rope already cut, or a row
  with no rope, ignores its bit. Each cut is a short swipe across the rope's
  middle link through the game's pointer handlers, as the bundled bot swipes.
- **Step**: the cuts, then ``frames_per_step`` frames (default 3, 1/20 s: the
  grid the bundled cutter plans its cuts on) or until the level is won or lost.
- **Observation** (a Dict), positions as fractions of the 800 × 600 px screen
  (y up): ``candy`` ``(4,)`` its x, y and velocity (screens per second; zeros
  once Om Nom has eaten it; each clipped to ±10; it leaves ``[0, 1]`` as it
  flies off);
  ``ropes`` ``(3, 3)`` each rope's pin x, y and 1 while it holds the candy
  (0 once cut; a level's unused rows are zeros); ``stars`` ``(3, 4)`` each
  star's x, y, 1 if the level has it, 1 once collected; ``monster`` ``(2,)``
  Om Nom's x, y.
- **Reset noise**: the candy starts with a velocity drawn uniformly from
  ±``NOISE`` px/s per axis by the seed (the levels have no random choice of
  their own), so it swings differently on every seed.
- **Reward**: the game's score, gained when the level is won: 1000 + 500 per
  star collected; 0 otherwise.
- **End**: terminated when the candy reaches Om Nom (won) or leaves the
  screen (lost); truncated after 500 steps by ``gymnasium.make``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces

from games.rope import RopeGame, bot
from games.rope.components import Monster, Star
from games.rope.index import RopeIndex, RopeRows
from games.rope.rules import RulesIndex, board_of, candy_of
from games.rope.swipe import swipe_across

from ..components import Particle
from ..game import EPISODE_FRAMES as FRAMES
from .base import BotPolicy, GameEnv
from .levels import CachedLevels
from .pixels import Mark

#: Rope and star rows of the observation (the bundled levels have up to three of each).
MAX_ROPES, MAX_STARS = 3, 3
#: The candy's observed position (screens) and velocity (screens/s) are clipped to ± this.
CANDY_LIMIT = 10.0
#: Colours of the stars and Om Nom in a pixel observation.
STAR, MONSTER = (250, 210, 40), (70, 190, 70)
#: Reset noise: the candy's starting velocity per axis, ±px/s.
NOISE = 30.0


class EnvRope(CachedLevels, RopeGame):
    """RopeGame as the environment plays it: its level file read once a process
    (``levels.CachedLevels``), the same game."""


class RopeEnv(GameEnv):
    """Cut the Rope as an environment (see the module docstring for the spaces)."""

    game_class = RopeGame
    play_class = EnvRope
    action_space = spaces.MultiBinary(MAX_ROPES)
    observation_space = spaces.Dict({
        "candy": spaces.Box(-CANDY_LIMIT, CANDY_LIMIT, (4,), np.float32),
        "ropes": spaces.Box(0.0, 1.0, (MAX_ROPES, 3), np.float32),
        "stars": spaces.Box(0.0, 1.0, (MAX_STARS, 4), np.float32),
        "monster": spaces.Box(0.0, 1.0, (2,), np.float32),
    })

    def __init__(self, level: int = 1, render_mode: str | None = None,
                 frames_per_step: int = 3, max_frames: int | None = FRAMES,
                 obs: str = "dict") -> None:
        if frames_per_step < 1:
            raise ValueError(f"frames_per_step must be >= 1, got {frames_per_step}")
        self.frames_per_step = frames_per_step
        #: The game's candy, ropes and stars, looked up again when its world's structure
        #: changes, shared with its rules stage (a copy of the environment starts with none).
        self._index = RulesIndex()
        super().__init__(level, render_mode, max_frames, obs)

    @property
    def frames_per_decision(self) -> int:  # type: ignore[override]
        return self.frames_per_step

    def ropes(self) -> list[int]:
        """The level's Rope entities, in the order of the observation's rows."""
        return [r.entity for r in self._index.of(self.game.world).by_entity[:MAX_ROPES]]

    def _over(self) -> bool:
        board = board_of(self.game.world)
        return board is not None and board.result != "running"

    def _view(self) -> tuple[float, float, float, float]:
        return board_of(self.game.world).view

    def _marks(self) -> list[Mark]:
        world = self.game.world
        stars = [(s.x, s.y, s.radius, STAR) for _, s in world.get_component(Star)
                 if not s.collected]
        monster = world.get_component(Monster)[0][1]
        return [*stars, (monster.x, monster.y, monster.radius, MONSTER)]

    def _perturb(self, rng: np.random.Generator) -> None:
        kick = rng.uniform(-NOISE, NOISE, 2)
        entity = candy_of(self.game.world)
        if entity is not None:
            candy = self.game.world.component(entity, Particle)
            candy.vx, candy.vy = candy.vx + kick[0], candy.vy + kick[1]

    def _act(self, action: Any) -> None:
        bits = action
        if not any(bits[:MAX_ROPES]):  # a wait (most of a cutter's decisions): nothing to find
            return
        world = self.game.world
        index = self._index.of(world)
        held = index.holding()
        ropes = index.by_entity[:MAX_ROPES]
        chosen = [r.entity for i, r in enumerate(ropes)
                  if i < len(bits) and bits[i] and r.entity in held]
        swipes = [swipe_across(world, r) for r in chosen]  # all before any cut
        for p, q in swipes:
            self.game.on_press(*p, 1)
            self.game.on_drag(*q)
            self.game.on_release(*q, 1)

    def _until_next_decision(self) -> None:
        self._frames(self.frames_per_step)

    def _observe(self) -> dict[str, Any]:
        world = self.game.world
        index = self._index.of(world)
        left, bottom, right, top = index.board.view
        width, height = right - left, top - bottom
        # each number in Python floats, as numpy's float64 ops and clip make it (the same
        # bits: ``_clip``), then one float32 array per key: ~3x cheaper than array ops on
        # a handful of numbers
        candy = _NO_CANDY
        if index.candy is not None:
            p = index.candy_particle
            if p is None:  # a candy without a particle: WorldError, as asking for it gives
                p = world.component(index.candy, Particle)
            candy = [_clip((p.x - left) / width, -CANDY_LIMIT, CANDY_LIMIT),
                     _clip((p.y - bottom) / height, -CANDY_LIMIT, CANDY_LIMIT),
                     _clip(p.vx / width, -CANDY_LIMIT, CANDY_LIMIT),
                     _clip(p.vy / height, -CANDY_LIMIT, CANDY_LIMIT)]
        ropes = index.by_entity[:MAX_ROPES]
        held = index.holding()
        rope_rows = [[_clip((x - left) / width, 0.0, 1.0), _clip((y - bottom) / height, 0.0, 1.0),
                      float(r.entity in held)]
                     for (x, y), r in zip(_pins(world, index, ropes), ropes, strict=True)]
        star_rows = [[_clip((s.x - left) / width, 0.0, 1.0),
                      _clip((s.y - bottom) / height, 0.0, 1.0), 1.0, float(s.collected)]
                     for s in index.stars_by_entity[:MAX_STARS]]
        monster = index.monster
        return {"candy": np.array(candy, np.float32),
                "ropes": np.array(rope_rows + _NO_ROPE[len(rope_rows):], np.float32),
                "stars": np.array(star_rows + _NO_STAR[len(star_rows):], np.float32),
                "monster": np.array([_clip((monster.x - left) / width, 0.0, 1.0),
                                     _clip((monster.y - bottom) / height, 0.0, 1.0)],
                                    np.float32)}


#: The observation's rows of no candy, no rope, no star.
_NO_CANDY = [0.0] * 4
_NO_ROPE = [[0.0] * 3] * MAX_ROPES
_NO_STAR = [[0.0] * 4] * MAX_STARS


def _clip(value: float, low: float, high: float) -> float:
    """``value`` clipped to ``[low, high]`` as ``np.clip`` does it to a float64, to the bit:
    NaN stays NaN (its sign too), and -0.0 stays -0.0 when ``low`` is 0.0."""
    if value != value:
        return value
    value = low if value < low else value
    return high if value > high else value


def _pins(world: Any, index: RopeIndex, ropes: list[RopeRows]) -> list[list[float]]:
    """Each of ``ropes``' pin position (px), read from the particles' packed positions."""
    rows = [r.pin for r in ropes]
    if min(rows, default=0) < 0:  # a pin deleted: WorldError, as asking for it gives
        return [[p.x, p.y] for p in (world.component(r.rope.pin, Particle) for r in ropes)]
    return index.pos.take(rows, axis=0).tolist()  # (take: a third of indexing's cost)


class RopeBot(BotPolicy):
    """A bundled rope bot as a policy of this environment: ``policy(observation) -> action``.

    ``cutter`` plans its cuts on copies of the world (the game's own planner)
    and cuts at the decision step that holds the planned frame; ``random``
    cuts one rope still holding, at random, about once every 40 frames (with
    ``frames_per_step`` 3, the cutter's plans fall on decision steps exactly).
    """

    names = ("cutter", "random")

    def __init__(self, env: RopeEnv, name: str) -> None:
        super().__init__(env, name)
        #: (world id, ropes held, the planner's (frame, ropes)), kept until it is stale.
        self.plan: tuple[int, tuple[int, ...], tuple[int, list[int]]] | None = None

    def __call__(self, observation: Any = None) -> np.ndarray:
        env, world = self.env, self.env.game.world
        held = env._index.of(world).holding()
        ropes = self.env.ropes()
        action = np.zeros(MAX_ROPES, np.int8)
        if not held or board_of(world).result != "running":
            return action
        if self.name == "random":
            rng: random.Random = env.game.rng
            if rng.random() < env.frames_per_step / 40:
                action[ropes.index(rng.choice(held))] = 1
            return action
        frame, cut = self._plan(world, held)
        if frame < world.frame + env.frames_per_step:
            for r in cut:
                action[ropes.index(r)] = 1
            self.plan = None
        return action

    def _plan(self, world: Any, held: list[int]) -> tuple[int, list[int]]:
        """The cutter's ``(frame, ropes)``, planned again for a new game or new ropes held."""
        key = (id(world), tuple(held))
        if self.plan is None or self.plan[:2] != key or self.plan[2][0] < world.frame:
            self.plan = (*key, bot.plan(world, held))
        return self.plan[2]
