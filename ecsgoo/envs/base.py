"""GameEnv: one bundled game as a Gymnasium environment, one decision per ``step``.

A subclass names its game and says what an action does (through the same input
handlers a player uses), how many fixed 1/60 s frames run until the next
decision, and what the observation is. The base class does the rest:
``reset(seed=s)`` starts ``Game(level, seed=s)`` (so seed ``s`` is the fruit
sequence, the random bots' choices… of ``ecsgoo eval`` seed ``s``) and applies
the environment's reset noise drawn from ``s``; the reward is the game's score
gained during the step; the episode terminates when the game is won or lost and
is truncated after ``max_frames`` frames (if given); ``render()`` draws the
game's own picture, headless when there is no display (in a helper process if
arcade was imported for a window system first: ``_Painter``).

Copies: ``copy.deepcopy(env)`` copies the world with ``World.clone()``;
``pickle`` and ``cloudpickle`` carry it as the world's own saved text
(``ecsgoo.dumps``); ``get_state()``/``set_state(s)`` snapshot and restore it in
place. Each continues bit for bit as the original would. The window (``human``)
and the drawing state are not copied: a copy draws afresh.

An environment reads and writes no file of the player's (suika's best score,
progress): its games are games of its own.
"""

from __future__ import annotations

import copy
import math
import os
import pickle
import subprocess
import sys
import time
import warnings
from typing import Any

import gymnasium as gym
import numpy as np

from ..game import EPISODE_FRAMES as FRAMES
from ..game import Game
from ..world import World
from . import pixels

#: Game seeds drawn when ``reset`` is called without one: ``0 .. SEEDS - 1``.
SEEDS = 2**31
#: Frames a second of the game's fixed step.
GAME_FPS = 60
#: The observations an environment offers: its Dict, or a small picture (grey or RGB).
OBSERVATIONS = ("dict", "pixels", "pixels_rgb")
#: What is never copied with an environment: the window and the drawing player.
_NOT_COPIED = ("_player", "_window", "_painter")


def no_display() -> bool:
    """Whether this process has no display to open a window on (Linux/BSD without X or
    Wayland, or ``ARCADE_HEADLESS`` set)."""
    if os.environ.get("ARCADE_HEADLESS"):
        return True
    unix = sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))
    return unix and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def headless_if_no_display() -> None:
    """Before arcade's first import, choose its offscreen GL when there is no display.

    arcade picks its window system once, at import; without a display only the
    headless (EGL) one works, so this sets ``ARCADE_HEADLESS=1`` then. Once arcade
    is imported nothing can change, and this does nothing.
    """
    if "arcade" not in sys.modules and no_display():
        os.environ["ARCADE_HEADLESS"] = "1"


def _whole(value: Any) -> bool:
    """Whether ``value`` is a whole number (Python's or numpy's), not a bool."""
    return type(value) is not bool and hasattr(value, "__index__")


#: The byte values of a ``MultiBinary`` action's elements (int8: each byte is one).
_BITS = frozenset((0, 1))


def _binary_action(space: gym.spaces.Space, action: Any) -> np.ndarray | None:
    """A copy of ``action`` when it is what a ``MultiBinary`` space samples (an ndarray of
    its int8 dtype and shape holding 0s and 1s): what ``_action_problem`` returns for
    it, in ~1 µs instead of ~10 (a step's check, every step); ``None`` for anything
    else, which ``_action_problem`` decides."""
    if (type(space) is gym.spaces.MultiBinary and type(action) is np.ndarray
            and action.dtype == np.int8 and action.shape == space.shape
            and _BITS.issuperset(action.tobytes())):
        return action.copy()
    return None


def _box_action(space: gym.spaces.Space, action: Any) -> np.ndarray | None:
    """A copy of ``action`` when it is what a small ``Box`` space samples (an ndarray of
    its dtype and shape, each number finite and within its bounds): what
    ``_action_problem`` returns for it, in ~6 µs instead of ~16 (a step's check, every
    step); ``None`` for anything else, which ``_action_problem`` decides (and words).

    The numbers are compared as Python's: a float32 or an integer is exactly the same
    number there, so each comparison is numpy's. A larger box (over ``_BOX_FAST``
    numbers) is left to numpy's checks, where a Python loop would be the slower."""
    if (type(space) is gym.spaces.Box and type(action) is np.ndarray
            and action.dtype == space.dtype and action.shape == space.shape
            and action.size <= _BOX_FAST):
        values = action.ravel().tolist()
        lows, highs = space.low.ravel().tolist(), space.high.ravel().tolist()
        if all(math.isfinite(v) and low <= v <= high
               for v, low, high in zip(values, lows, highs, strict=True)):
            return action.copy()
    return None


#: The most numbers a ``Box`` action may hold for ``_box_action``'s Python checks.
_BOX_FAST = 16


def _action_problem(space: gym.spaces.Space, action: Any) -> tuple[str | None, Any]:
    """``(None, action as the space's dtype)``, or ``(what is wrong, None)``."""
    try:
        value = np.asarray(action)
    except Exception:  # whatever its conversion raises, it is not an array of numbers
        return "not an array of numbers", None
    if value.shape != space.shape:
        return f"shape {space.shape}, got shape {value.shape}", None
    if value.dtype != np.bool_ and not (np.issubdtype(value.dtype, np.integer)
                                        or np.issubdtype(value.dtype, np.floating)):
        return f"real numbers, got dtype {value.dtype}", None
    if not np.all(np.isfinite(value)):
        return "finite numbers: NaN and inf are refused", None
    cast = value.astype(space.dtype)
    if isinstance(space, gym.spaces.Box):
        if np.any(value < space.low) or np.any(value > space.high):
            return f"each in [{space.low.min():g}, {space.high.max():g}]", None
    elif np.any(cast != value) or not space.contains(cast):
        return "whole numbers the space holds", None
    return None, cast


class GameEnv(gym.Env):
    """A game as an environment. Subclasses set ``game_class`` and the hooks below.

    ``level`` counts from 1; ``render_mode`` is ``None``, ``"rgb_array"``
    (``render()`` returns the frame as an ``(height, width, 3)`` uint8 array,
    drawn offscreen) or ``"human"`` (a window, redrawn every frame at 60 Hz; with
    no display, a warning and no window). ``max_frames`` truncates an episode
    once that many frames ran since the reset (default 20,000, as ``ecsgoo eval
    --frames``; ``None``: no cap but ``gymnasium.make``'s step limit).
    ``obs`` is ``"dict"`` (the Dict each module documents), ``"pixels"`` (an
    84 × 84 × 1 uint8 grey picture of the world, without the HUD, drawn in numpy:
    ``pixels.py``) or ``"pixels_rgb"`` (the same, 84 × 84 × 3).
    ``info`` holds the game's status (``result``, ``score`` and its extras),
    ``seed`` and ``frame`` (fixed steps since the reset).
    ``metadata["render_fps"]`` is the step rate: one ``render()`` a step plays
    at the game's speed.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": GAME_FPS}
    game_class: type[Game]
    #: The class of the games episodes play: ``game_class`` or the environment's own
    #: subclass of it (``levels.CachedLevels``: the level file is read once a process).
    play_class: type[Game] | None = None
    #: Frames a step usually runs (the step rate is ``GAME_FPS / frames_per_decision``).
    frames_per_decision = 1

    def __init__(self, level: int = 1, render_mode: str | None = None,
                 max_frames: int | None = FRAMES, obs: str = "dict") -> None:
        if obs not in OBSERVATIONS:
            raise ValueError(f"obs must be one of {', '.join(OBSERVATIONS)}, got {obs!r}")
        self.obs = obs
        if obs != "dict":
            channels = 1 if obs == "pixels" else 3
            self.observation_space = gym.spaces.Box(0, 255, (pixels.SIZE, pixels.SIZE, channels),
                                                    np.uint8)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, got {render_mode!r}")
        if max_frames is not None and not (_whole(max_frames) and max_frames >= 1):
            raise ValueError(f"{type(self).__name__}: max_frames must be a whole number >= 1 "
                             f"or None, got {repr(max_frames)[:40]}")
        if render_mode is not None:
            headless_if_no_display()
            if render_mode == "rgb_array" and "arcade" not in sys.modules:
                os.environ.setdefault("ARCADE_HEADLESS", "1")  # offscreen GL, no display needed
        self.level, self.render_mode, self.max_frames = level, render_mode, max_frames
        self.metadata = {**type(self).metadata,
                         "render_fps": GAME_FPS / self.frames_per_decision}
        self.game = self._new_game(0)
        self.seed_used = 0
        self._score, self._start = 0, 0
        self._player: Any = None
        self._window: Any = None
        self._painter: _Painter | None = None
        self._shown_at = 0.0

    # -- the hooks a game's environment fills in -------------------------------------

    def _new_game(self, seed: int) -> Game:
        """The game an episode of seed ``seed`` plays (before the reset noise)."""
        return (self.play_class or self.game_class)(level=self.level, seed=seed)

    def _perturb(self, rng: np.random.Generator) -> None:
        """The reset noise: change the new game with ``rng`` (drawn from the seed)."""

    def _act(self, action: Any) -> None:
        """Apply ``action`` (checked) to ``self.game`` through its input handlers."""
        raise NotImplementedError

    def _until_next_decision(self) -> None:
        """Run frames (``self._frames(n)``) until the next decision is due or the game ends."""
        raise NotImplementedError

    def _observe(self) -> Any:
        """The observation of the game as it is now (an element of ``observation_space``)."""
        raise NotImplementedError

    def _over(self) -> bool:
        """Whether the game is won or lost (cheaper than ``status()``: asked every frame)."""
        return self.game.status().result != "running"

    def _view(self) -> tuple[float, float, float, float]:
        """What a pixel observation shows: left, bottom, right, top (px)."""
        return self.game.world.bounds

    def _marks(self) -> list[pixels.Mark]:
        """The game's own things a pixel observation draws as discs (not particles)."""
        return []

    # -- the Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game: ``Game(level, seed)`` and the reset noise of ``seed``; without
        a seed, one drawn from ``np_random`` (itself seeded by the last seed given)."""
        if seed is not None:
            if not (_whole(seed) and 0 <= seed < 2**63):
                raise ValueError(f"{type(self).__name__}: seed must be a whole number in "
                                 f"0 .. 2**63 - 1 or None, got {repr(seed)[:40]}")
            seed = int(seed)  # numpy's integers too (gymnasium takes only Python's)
        super().reset(seed=seed)
        self.seed_used = seed if seed is not None else int(self.np_random.integers(SEEDS))
        self.game.world.close()
        self.game = self._new_game(self.seed_used)
        self._perturb(np.random.default_rng(self.seed_used))
        self._score, self._start = 0, self.game.world.frame
        self._player = None
        self._show()
        return self._observation(), self._info(self.game.status())

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Act, then run the game to the next decision. Reward: score gained meanwhile.

        ``action`` must be an element of ``action_space`` (its shape, finite, in
        its bounds): anything else raises ValueError naming what is wrong.
        """
        action = self._checked(action)
        if not self._over() and not self._capped():
            self._act(action)
            self._until_next_decision()
        status = self.game.status()
        reward, self._score = float(status.score - self._score), status.score
        terminated = status.result != "running"
        truncated = not terminated and self._capped()
        return self._observation(), reward, terminated, truncated, self._info(status)

    def render(self) -> np.ndarray | None:
        """``rgb_array``: the current frame, ``(height, width, 3)`` uint8; otherwise ``None``."""
        if self.render_mode != "rgb_array":
            return None
        from ..app.headless import offscreen_window, screenshot

        if not _gl_possible():  # arcade was imported before us, for a display there is not
            if self._painter is None:
                self._painter = _Painter()
            return self._painter.paint(self)
        player = self._player_now()
        return np.asarray(screenshot(player, offscreen_window(player.size)), dtype=np.uint8)

    def close(self) -> None:
        """Close the window (``human``) and free the game's world."""
        if self._window:
            self._window.close()
        self._window = None
        if self._painter is not None:
            self._painter.close()
            self._painter = None
        self.game.world.close()

    # -- copies and snapshots ------------------------------------------------------------

    def get_state(self) -> dict[str, Any]:
        """A snapshot of the episode (game, world, seeding, score so far) for ``set_state``.

        Independent of the environment: stepping on does not change it, and it can
        be restored any number of times.
        """
        return {"env": self._detached(), "world": self.game.world.clone()}

    def set_state(self, state: dict[str, Any]) -> None:
        """Continue from a ``get_state()`` snapshot (of this environment or a copy of it)."""
        if not (isinstance(state, dict) and state.keys() == {"env", "world"}
                and isinstance(state["env"], dict) and state["env"].keys() == self.__dict__.keys()
                and isinstance(state["world"], World)):
            raise ValueError(f"{type(self).__name__}.set_state: state must be what get_state() "
                             "returned")
        old = self.game.world
        self.__dict__.update(copy.deepcopy(state["env"]))
        self.game.adopt(state["world"].clone())
        old.close()
        self._player = None

    def __deepcopy__(self, memo: dict[int, Any]) -> GameEnv:
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        new.__dict__.update(self._detached(memo))
        new.game.adopt(self.game.world.clone())
        return new

    def __getstate__(self) -> dict[str, Any]:
        from ..saving import dumps

        return {**self._detached(), "_world_text": dumps(self.game.world)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        from ..saving import loads

        state = dict(state)
        text = state.pop("_world_text")
        self.__dict__.update(state)
        self.game.adopt(loads(text, "<pickled environment>"))

    def _detached(self, memo: dict[int, Any] | None = None) -> dict[str, Any]:
        """A deep copy of the environment's fields without the world (``game.world`` and
        every other reference to it are ``None``: ``adopt`` gives the copy its world),
        the window and the drawing player."""
        memo = {} if memo is None else memo
        memo[id(self.game.world)] = None
        fields = {k: v for k, v in self.__dict__.items() if k not in _NOT_COPIED}
        return {**copy.deepcopy(fields, memo), **dict.fromkeys(_NOT_COPIED)}

    # -- helpers -----------------------------------------------------------------------------

    def _checked(self, action: Any) -> Any:
        """``action`` as an element of ``action_space``, or ValueError naming the env, the
        space and what is wrong (the same checks, in the same order, for every env: an
        array of that shape, real numbers, finite, in the space)."""
        space = self.action_space
        fast = _binary_action(space, action)
        if fast is None:
            fast = _box_action(space, action)
        if fast is not None:
            return fast
        problem, value = _action_problem(space, action)
        if problem is not None:
            shown = repr(action)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise ValueError(f"{type(self).__name__}: action must be an element of {space} "
                             f"({problem}), got {shown}")
        return value

    def _observation(self) -> Any:
        """The observation of ``obs``: the Dict, or the picture of ``pixels.draw``."""
        if self.obs == "dict":
            return self._observe()
        picture = pixels.draw(self.game.world, self._view(), self._marks())
        return pixels.grey(picture) if self.obs == "pixels" else picture

    def _capped(self) -> bool:
        return self.max_frames is not None and self.game.world.frame - self._start >= \
            self.max_frames

    def _frame(self) -> None:
        """One fixed 1/60 s step of the game (and, in ``human`` mode, its picture)."""
        self.game.step()
        self._show()

    def _frames(self, count: int) -> None:
        """Up to ``count`` frames, fewer if the game ends or the frame cap is reached."""
        for _ in range(count):
            if self._over() or self._capped():
                return
            self._frame()

    def _info(self, status: Any) -> dict[str, Any]:
        return {**status.as_dict(), "seed": self.seed_used,
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
        if self.render_mode != "human" or self._window is False:
            return
        if no_display():
            warnings.warn(f"{type(self).__name__}: render_mode='human' but there is no display "
                          "(DISPLAY unset or ARCADE_HEADLESS set): nothing is shown; use "
                          "render_mode='rgb_array'", stacklevel=3)
            self._window = False  # said once
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
        wait = self._shown_at + 1 / GAME_FPS - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        self._shown_at = time.perf_counter()


def _gl_possible() -> bool:
    """Whether arcade can make a GL context in this process: not when it was imported
    for a window system (not headless) and there is no display."""
    pyglet = sys.modules.get("pyglet")
    if "arcade" not in sys.modules or pyglet is None or pyglet.options.get("headless"):
        return True
    return not no_display()


class _Painter:
    """Draws ``rgb_array`` frames in a helper process with arcade's headless GL.

    For a process that imported arcade for a window system before ``ecsgoo.envs``
    and has no display: arcade cannot switch to headless once imported, so the
    environment is pickled (its world as saved text) to a child interpreter started
    with ``ARCADE_HEADLESS=1``, which draws it and sends the pixels back. Slower than
    drawing here (the child loads the world every frame), but the picture is the same.
    """

    def __init__(self) -> None:
        path = os.pathsep.join(p for p in sys.path if p)
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from ecsgoo.envs.base import _paint_forever; "
             "_paint_forever()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env={**os.environ, "ARCADE_HEADLESS": "1", "PYTHONPATH": path})

    def paint(self, env: GameEnv) -> np.ndarray:
        """The frame of ``env`` as it is now, drawn in the child."""
        _send(self.process.stdin, env)
        answer = _receive(self.process.stdout)
        if isinstance(answer, BaseException):
            raise RuntimeError(f"rgb_array: the headless drawing process failed: {answer!r}")
        return answer

    def close(self) -> None:
        """End the child (it exits when its input closes)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _send(stream: Any, value: Any) -> None:
    data = pickle.dumps(value)
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def _receive(stream: Any) -> Any:
    size = stream.read(8)
    if len(size) < 8:
        raise RuntimeError("rgb_array: the headless drawing process ended")
    return pickle.loads(stream.read(int.from_bytes(size, "little")))


def _paint_forever() -> None:
    """The child of ``_Painter``: read pickled environments, answer with their frames."""
    source, answer = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answers
    while True:
        try:
            env = _receive(source)
        except RuntimeError:
            return
        try:
            frame: Any = env.render()
        except Exception as exc:  # sent back, raised in the parent
            frame = exc
        _send(answer, frame)
        env.game.world.close()


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
