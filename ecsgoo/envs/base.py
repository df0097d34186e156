"""GameEnv: one bundled game as a Gymnasium environment, one decision per ``step``.

A subclass names its game and says three things: how an action acts on the game
(through the same input handlers a player uses), how many fixed 1/60 s frames
run until the next decision, and what the observation is. The base class does
the rest: ``reset(seed=s)`` starts ``Game(level, seed=s)`` (so seed ``s`` is the
fruit sequence, the random bots' choices… of ``ecsgoo eval`` seed ``s``), the
reward is the game's score gained during the step, the episode terminates when
the game is won or lost, and ``render()`` draws the game's own picture.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np

from ..game import Game

#: Game seeds drawn when ``reset`` is called without one: ``0 .. SEEDS - 1``.
SEEDS = 2**31


class GameEnv(gym.Env):
    """A game as an environment. Subclasses set ``game_class`` and the three hooks below.

    ``level`` counts from 1; ``render_mode`` is ``None``, ``"rgb_array"``
    (``render()`` returns the frame as an ``(height, width, 3)`` uint8 array,
    drawn offscreen) or ``"human"`` (a window, redrawn every frame at 60 Hz).
    ``info`` holds the game's status (``result``, ``score`` and its extras),
    ``seed`` and ``frame`` (fixed steps since the reset).
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 60}
    game_class: type[Game]

    def __init__(self, level: int = 1, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, got {render_mode!r}")
        self.level, self.render_mode = level, render_mode
        if render_mode == "rgb_array" and "arcade" not in sys.modules:
            os.environ.setdefault("ARCADE_HEADLESS", "1")  # offscreen GL, no display needed
        self.game = self.game_class(level=level, seed=0)
        self.seed_used = 0
        self._score, self._start = 0, 0
        self._player: Any = None
        self._window: Any = None
        self._shown_at = 0.0

    # -- the hooks a game's environment fills in -------------------------------------

    def _act(self, action: Any) -> None:
        """Apply ``action`` to ``self.game`` through its input handlers."""
        raise NotImplementedError

    def _until_next_decision(self) -> None:
        """Run frames (``self._frame()``) until the next decision is due or the game ends."""
        raise NotImplementedError

    def _observe(self) -> Any:
        """The observation of the game as it is now (an element of ``observation_space``)."""
        raise NotImplementedError

    # -- the Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game: ``Game(level, seed)``; without a seed, one drawn from
        ``np_random`` (itself seeded by the last seed given)."""
        super().reset(seed=seed)
        self.seed_used = seed if seed is not None else int(self.np_random.integers(SEEDS))
        self.game.world.close()
        self.game = self.game_class(level=self.level, seed=self.seed_used)
        self._score, self._start = 0, self.game.world.frame
        self._player = None
        self._show()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Act, then run the game to the next decision. Reward: score gained meanwhile."""
        if self._running():
            self._act(action)
            self._until_next_decision()
        status = self.game.status()
        reward, self._score = float(status.score - self._score), status.score
        return self._observe(), reward, status.result != "running", False, self._info()

    def render(self) -> np.ndarray | None:
        """``rgb_array``: the current frame, ``(height, width, 3)`` uint8; otherwise ``None``."""
        if self.render_mode != "rgb_array":
            return None
        from ..app.headless import offscreen_window, screenshot

        player = self._player_now()
        return np.asarray(screenshot(player, offscreen_window(player.size)), dtype=np.uint8)

    def close(self) -> None:
        """Close the window (``human``) and free the game's world."""
        if self._window is not None:
            self._window.close()
            self._window = None
        self.game.world.close()

    # -- helpers -----------------------------------------------------------------------------

    def _running(self) -> bool:
        return self.game.status().result == "running"

    def _frame(self) -> None:
        """One fixed 1/60 s step of the game (and, in ``human`` mode, its picture)."""
        self.game.step()
        self._show()

    def _frames(self, count: int) -> None:
        """Up to ``count`` frames, fewer if the game ends."""
        for _ in range(count):
            if not self._running():
                return
            self._frame()

    def _info(self) -> dict[str, Any]:
        return {**self.game.status().as_dict(), "seed": self.seed_used,
                "frame": self.game.world.frame - self._start}

    def _player_now(self) -> Any:
        """The player that draws the current game (made again after a reset)."""
        if self._player is None or self._player.game is not self.game:
            from ..app.player import Player

            human = self.render_mode == "human"
            # rgb_array frames are the game alone, at its size (no HUD bands, no panel)
            self._player = Player(self.game, size=None if human else self.game.size)
            self._player.headless = self._player.sounds.silent = not human
            if not human:
                self._player.show_hud = False
                self._player.widgets.fold()
        return self._player

    def _show(self) -> None:
        """``human`` mode: draw the frame in the window, at most 60 frames a second."""
        if self.render_mode != "human":
            return
        import arcade

        player = self._player_now()
        if self._window is None:
            self._window = arcade.Window(*player.size, f"ecsgoo: {self.game.title}")
        self._window.switch_to()
        self._window.dispatch_events()
        self._window.clear()
        player.draw(self._window)
        self._window.flip()
        wait = self._shown_at + 1 / self.metadata["render_fps"] - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        self._shown_at = time.perf_counter()


class BotPolicy:
    """A bundled bot of a game as a policy of its environment: ``policy(observation) -> action``.

    It plays from the game behind ``env`` (as the bot does in the game), so an
    agent can be compared with it on the same seeds. Subclasses list ``names``.
    """

    names: tuple[str, ...] = ()

    def __init__(self, env: GameEnv, name: str) -> None:
        if name not in self.names:
            raise ValueError(f"{env.game.name}: no bot {name!r} (bots: {', '.join(self.names)})")
        self.env, self.name = env, name

    def __call__(self, observation: Any = None) -> Any:
        raise NotImplementedError
