"""``ecsgoo/Suika-v0``: the merge game, one drop per step.

- **Action**: ``Box(0, 1, (1,))``, where the held fruit is dropped: 0 is as far
  left as it fits in the box, 1 as far right (its centre moves over
  ``[left + r, right - r]``, r its radius, px).
- **Step**: the drop, then the frames until the next drop is allowed (0.5 s,
  30 frames) or the game is over.
- **Observation** (a Dict): ``fruits`` ``(64, 2)`` positions of the fruits in
  the box as fractions of the world (x / 960 px, y / 700 px; y up), highest
  first; ``kinds`` ``(64,)`` their kinds + 1 (0: no fruit in that row; 1 a
  cherry … 11 a watermelon); ``current`` and ``next`` the held and the
  previewed kind (0–4); ``box`` the inner walls, as fractions of the width.
- **Reward**: the merge points scored during the step (the game's score).
- **Seeds**: the seed deals the fruits (``ecsgoo play suika --seed s``); no
  other noise. The environment's games keep no best score (``info["best"]`` is
  this game's score; the player's best-score file is neither read nor written).
- **End**: terminated when a fruit has stayed above the line for 1.5 s (the
  game is won if a watermelon was made, else lost); truncated after 1,000 drops
  by ``gymnasium.make``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from games.suika import Suika, ai, rules
from games.suika.pop import Pops

from .. import fruit
from ..components import Fruit, Particle
from ..game import Game
from .base import BotPolicy, GameEnv
from .levels import CachedLevels

#: Rows of the fruit observation (the highest fruits when there are more).
MAX_FRUITS = 64
#: Frames between two drops (the cooldown, 0.5 s): a step's length until the box overflows.
DROP_FRAMES = round(rules.COOLDOWN * 60)


class EnvSuika(CachedLevels, Suika):
    """Suika as the environment plays it: the same game, without the player's best score.

    ``Suika.__init__`` reads the best-score file and ``_keep_best`` writes it; an
    environment's game does neither (``best`` counts from 0, this game only). Its level
    file is read once a process (``levels.CachedLevels``).
    """

    def __init__(self, level: int = 1, seed: int = 0) -> None:
        self.best = 0
        self.pops = Pops()
        Game.__init__(self, level, seed)

    def _keep_best(self, score: int) -> None:
        """Keeps nothing: environment episodes are not the player's games."""


class SuikaEnv(GameEnv):
    """Suika as an environment (see the module docstring for the spaces)."""

    game_class = Suika
    play_class = EnvSuika
    frames_per_decision = DROP_FRAMES
    action_space = spaces.Box(0.0, 1.0, (1,), np.float32)
    observation_space = spaces.Dict({
        "fruits": spaces.Box(0.0, 1.0, (MAX_FRUITS, 2), np.float32),
        "kinds": spaces.MultiDiscrete(np.full(MAX_FRUITS, len(fruit.RADII) + 1)),
        "current": spaces.Discrete(rules.DROP_KINDS),
        "next": spaces.Discrete(rules.DROP_KINDS),
        "box": spaces.Box(0.0, 1.0, (2,), np.float32),
    })

    def _act(self, action: Any) -> None:
        x = drop_x(self.game, float(action[0]))
        game = self.game
        game.on_move(x, rules.DROP_Y)
        game.on_press(x, rules.DROP_Y, 1)
        game.on_release(x, rules.DROP_Y, 1)

    def _until_next_decision(self) -> None:
        # ``_over()`` and ``rules.can_drop`` asked of the state read once: a step's frames
        # neither replace the world nor its state
        world = self.game.world
        st = rules.state(world)
        while not st.over and not self._capped() and world.frame < st.ready_at:
            self._frame()

    def _over(self) -> bool:
        return rules.state(self.game.world).over

    def _observe(self) -> dict[str, Any]:
        world = self.game.world
        st = rules.state(world)
        positions = np.zeros((MAX_FRUITS, 2), np.float32)
        kinds = np.zeros(MAX_FRUITS, np.int64)
        rows = _fruit_rows(world)
        if len(rows):
            p = world.particles
            xy = p.pos[rows]
            # highest first; fruits of one height keep get_components' order (a stable sort,
            # as Python's sort of the rows by -y was)
            order = np.argsort(-xy[:, 1], kind="stable")[:MAX_FRUITS]
            top = xy[order]
            shown = len(order)
            positions[:shown, 0] = top[:, 0] / rules.WIDTH  # float64 / px, then float32
            positions[:shown, 1] = top[:, 1] / rules.HEIGHT
            kinds[:shown] = p.kind[rows[order]].astype(np.int64) + 1
        return {"fruits": positions.clip(0.0, 1.0), "kinds": kinds,  # np.clip calls it
                "current": int(st.current), "next": int(st.next),
                "box": np.array([st.left, st.right], np.float32) / np.float32(rules.WIDTH)}


def _fruit_rows(world: Any) -> np.ndarray:
    """The particle rows of the fruits (particles with a ``Fruit``), in the order of
    ``get_components(Particle, Fruit)``: the observation then reads their positions and
    kinds as columns (each fruit's components one by one cost ~1 µs a fruit)."""
    return world.particles.rows([e for e, _ in world.get_components(Particle, Fruit)])


def drop_x(game: Suika, action: float) -> float:
    """Where action ``action`` in [0, 1] drops the held fruit (px): left to right in the box."""
    st = rules.state(game.world)
    low, high = _reach(st.left, st.right, st.current)
    return low + action * (high - low)


def action_for(game: Suika, x: float) -> np.ndarray:
    """The action that drops the held fruit at ``x`` px (the inverse of ``drop_x``)."""
    st = rules.state(game.world)
    low, high = _reach(st.left, st.right, st.current)
    return np.array([np.clip((x - low) / (high - low), 0.0, 1.0)], np.float32)


def _reach(left: float, right: float, kind: int) -> tuple[float, float]:
    r = fruit.RADII[kind]
    return left + r, right - r


class SuikaBot(BotPolicy):
    """A bundled suika bot as a policy of this environment: ``policy(observation) -> action``.

    ``name`` is ``greedy``, ``lookahead`` or ``random`` (the game's own bots:
    the same drop as ``ecsgoo play suika --bot NAME``, up to the action's float32).
    """

    names = ("greedy", "lookahead", "random")


    def __call__(self, observation: Any = None) -> np.ndarray:
        game = self.env.game
        if self.name == "random":
            x = ai.random_drop(game.world, game.bot_rng)
        else:
            x = ai.lookahead(game.world) if self.name == "lookahead" else ai.greedy(game.world)
        return action_for(game, x)
