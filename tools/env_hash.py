"""State hashes of the environments and the games' bots, to check a speed change keeps
the bits (``python tools/env_hash.py > before.txt``, change, run again, ``diff``).

Each ecsgoo environment plays ``STEPS`` random seeded steps (episodes of seeds 0, 1, …,
as ``bench_env_speed`` plays them): a line per episode with the world's state hash, the
score and the observations' hash. Then every bundled game's bots play each level
``FRAMES`` frames headless: a line per run with the state hash, the status and, for a
game's own components, their fields (``repr``).
"""

from __future__ import annotations

import hashlib
import os
import sys

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import numpy as np  # noqa: E402

#: Random steps per environment.
STEPS = {"ecsgoo/Suika-v0": 200, "ecsgoo/Rope-v0": 600, "ecsgoo/Goo-v0": 40}
#: Frames each bot plays each level.
FRAMES = 900


def _digest(value: object) -> str:
    h = hashlib.sha256()
    if isinstance(value, dict):
        for k in sorted(value):
            h.update(k.encode())
            h.update(_digest(value[k]).encode())
    else:
        h.update(np.ascontiguousarray(np.asarray(value)).tobytes())
    return h.hexdigest()[:16]


def envs() -> None:
    import gymnasium as gym

    import ecsgoo.envs  # noqa: F401

    for env_id, steps in STEPS.items():
        env = gym.make(env_id)
        done, episode, obs_hash = True, 0, hashlib.sha256()
        for _ in range(steps):
            if done:
                if episode:
                    print(env_id, episode - 1, env.unwrapped.game.world.state_hash()[:16],
                          obs_hash.hexdigest()[:16])
                obs, _ = env.reset(seed=episode)
                env.action_space.seed(episode)
                episode += 1
                obs_hash = hashlib.sha256(_digest(obs).encode())
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            obs_hash.update(f"{_digest(obs)} {reward!r}".encode())
            done = terminated or truncated
        print(env_id, episode - 1, env.unwrapped.game.world.state_hash()[:16],
              obs_hash.hexdigest()[:16])
        env.close()


def _own_components(world: object) -> str:
    """The fields of the components games define (their module under ``games.``)."""
    out = []
    esper_world = world
    for entity in sorted(esper_world.entities()):
        for comp in esper_world.components_for_entity(entity):
            if type(comp).__module__.startswith("games."):
                fields = {k: v for k, v in vars(comp).items() if not k.startswith("_")}
                out.append(f"{entity}:{type(comp).__name__}:{sorted(fields.items())!r}")
    return hashlib.sha256("\n".join(out).encode()).hexdigest()[:16]


def bots() -> None:
    from ecsgoo.app.games import find_game

    for name in ("goo", "rope", "suika", "jelly"):
        cls = find_game(name)
        for level in range(1, len(cls.levels) + 1):
            for bot in cls.bots:
                game = cls(level=level, seed=level)
                for _ in range(FRAMES):
                    game.bot_act(bot)
                    game.step()
                    if game.status().result != "running":
                        break
                w = game.world
                print(name, level, bot, w.frame, w.state_hash()[:16], game.status().result,
                      game.status().score, _own_components(w))


if __name__ == "__main__":
    what = sys.argv[1:] or ["envs", "bots"]
    if "envs" in what:
        envs()
    if "bots" in what:
        bots()
