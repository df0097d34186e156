"""The bundled games as Gymnasium environments, and their bots as policies.

``import ecsgoo.envs`` registers ``ecsgoo/Suika-v0``, ``ecsgoo/Rope-v0`` and
``ecsgoo/Goo-v0``; ``gymnasium.make("ecsgoo.envs:ecsgoo/Suika-v0")`` imports it
itself (Gymnasium 1.0 dropped its entry-point plugins: a module named in the
id is how it finds environments now). Each environment's module docstring
gives its observation, action, reward and episode end; ``make`` takes
``level=N`` and ``render_mode="rgb_array"`` or ``"human"``, and the rope one
``frames_per_step=K``. Needs ``pip install ecsgoo[rl]``.

``reset(seed=s)`` plays the game of seed ``s`` (``ecsgoo eval`` seed ``s``,
which plays through the environment; ``ecsgoo play --seed s`` plus, on rope
and goo, the environment's reset noise); the same seed and actions give the
same observations and rewards, bit for bit. ``obs="pixels"`` gives 84 × 84
pictures instead of Dicts; copies (``copy.deepcopy``, pickle, cloudpickle,
``get_state``/``set_state``) continue bit for bit; no file of the player's is
read or written.

    import gymnasium as gym
    import ecsgoo.envs

    env = gym.make("ecsgoo/Suika-v0")
    greedy = ecsgoo.envs.bot_policy(env, "greedy")      # the bundled bot, as a policy
    print(ecsgoo.envs.episode_return(env, greedy, seed=0))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    import gymnasium as gym
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError("ecsgoo.envs needs Gymnasium: pip install 'ecsgoo[rl]'") from exc

from .base import GameEnv, headless_if_no_display
from .goo import GooBot, GooEnv
from .rope import RopeBot, RopeEnv
from .suika import SuikaBot, SuikaEnv

#: Environment id -> (environment class, bot policy class, step limit of ``gymnasium.make``).
ENVS: dict[str, tuple[type[GameEnv], type, int]] = {
    "ecsgoo/Suika-v0": (SuikaEnv, SuikaBot, 1000),
    "ecsgoo/Rope-v0": (RopeEnv, RopeBot, 500),
    "ecsgoo/Goo-v0": (GooEnv, GooBot, 100),
}
_BOTS = {env: bots for env, bots, _ in ENVS.values()}

#: A policy: observation -> action.
Policy = Callable[[Any], Any]


def register() -> None:
    """Register the environments with Gymnasium (done on import; calling again is harmless)."""
    for env_id, (cls, _, limit) in ENVS.items():
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=f"{cls.__module__}:{cls.__name__}",
                         max_episode_steps=limit)


def bot_names(env: gym.Env) -> tuple[str, ...]:
    """The bundled bots ``bot_policy`` offers for ``env`` (the game's own, default first)."""
    return _BOTS[type(env.unwrapped)].names


def bot_policy(env: gym.Env, name: str) -> Policy:
    """The game's bot ``name`` as a policy of ``env``: ``action = policy(observation)``.

    It reads the game behind ``env`` (not only the observation) as the bot
    does in the game, so an agent can be compared with it on the same seeds.
    """
    base = env.unwrapped
    if type(base) not in _BOTS:
        raise ValueError(f"{type(base).__name__} is not an ecsgoo environment")
    return _BOTS[type(base)](base, name)


def episode_return(env: gym.Env, policy: Policy, seed: int) -> float:
    """Play one episode of ``policy`` on ``env`` from ``reset(seed=seed)``; the summed reward."""
    observation, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(policy(observation))
        total += float(reward)
        done = terminated or truncated
    return total


register()
headless_if_no_display()  # arcade, imported after this, then draws without a display

__all__ = ["ENVS", "GameEnv", "GooEnv", "Policy", "RopeEnv", "SuikaEnv", "bot_names",
           "bot_policy", "episode_return", "register"]
