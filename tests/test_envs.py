"""The games as Gymnasium environments: the checker, seeding, episode ends, pictures, bots."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import ecsgoo.envs as envs  # noqa: E402

IDS = list(envs.ENVS)


def _same(a, b) -> bool:
    """Observations equal bit for bit (Dicts of arrays and ints)."""
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def _run(env, seed: int, steps: int) -> tuple[list, list]:
    """Observations and rewards of ``steps`` actions sampled from a seeded action space."""
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    seen, rewards = [obs], []
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        seen.append(obs)
        rewards.append(reward)
        if terminated or truncated:
            break
    return seen, rewards


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_checker_passes(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped)  # also renders each mode, through the spec
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_and_actions_same_observations_and_rewards(env_id):
    first, second = gym.make(env_id), gym.make(env_id)
    obs_a, rewards_a = _run(first, 7, 6)
    obs_b, rewards_b = _run(second, 7, 6)
    assert len(obs_a) == len(obs_b) and all(map(_same, obs_a, obs_b))
    assert rewards_a == rewards_b
    again, _ = first.reset(seed=7)
    assert _same(again, obs_a[0])


def test_the_seed_is_the_games_seed_and_reset_without_one_is_seeded_too():
    env = gym.make("ecsgoo/Suika-v0")
    _, info = env.reset(seed=5)
    assert info["seed"] == 5 and env.unwrapped.game.seed == 5
    draws = [env.reset()[1]["seed"] for _ in range(2)]
    other = gym.make("ecsgoo/Suika-v0")
    other.reset(seed=5)
    assert draws == [other.reset()[1]["seed"] for _ in range(2)] and draws[0] != draws[1]


@pytest.mark.parametrize("env_id", IDS)
def test_an_episode_of_random_actions_ends(env_id):
    env = gym.make(env_id)
    env.reset(seed=3)
    env.action_space.seed(3)
    for _ in range(env.spec.max_episode_steps):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs) and np.isfinite(reward)
        if terminated or truncated:
            break
    assert terminated or truncated
    assert terminated == (info["result"] != "running")


@pytest.mark.parametrize("env_id", IDS)
def test_rgb_array_frames_are_pictures_of_the_game(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    width, height = env.unwrapped.game.size
    assert before.shape == (height, width, 3) and before.dtype == np.uint8
    assert before.std() > 10 and len(np.unique(before.reshape(-1, 3), axis=0)) > 50
    policy = envs.bot_policy(env, envs.bot_names(env)[0])
    obs = env.reset(seed=0)[0]
    for _ in range(3):
        obs = env.step(policy(obs))[0]
    assert not np.array_equal(env.render(), before), "the picture follows the game"
    env.close()


def test_sync_vector_environments():
    vec = gym.make_vec("ecsgoo/Rope-v0", num_envs=2, vectorization_mode="sync")
    obs, _ = vec.reset(seed=[0, 1])
    assert obs["candy"].shape == (2, 4) and obs["ropes"].shape == (2, 3, 3)
    obs, rewards, terminated, truncated, _ = vec.step(np.zeros((2, 3), np.int8))
    assert rewards.shape == (2,) and not terminated.any() and not truncated.any()
    vec.close()


def test_bots_as_policies_play_the_environment_like_the_game():
    rope = gym.make("ecsgoo/Rope-v0")
    assert envs.episode_return(rope, envs.bot_policy(rope, "cutter"), seed=0) >= 1500
    goo = gym.make("ecsgoo/Goo-v0")
    builder = envs.bot_policy(goo, "builder")
    obs, _ = goo.reset(seed=0)
    action = builder(obs)
    assert goo.action_space.contains(action)
    assert goo.step(action)[0]["supply"][0] == obs["supply"][0] - 1, "the ball attached"
    suika = gym.make("ecsgoo/Suika-v0")
    for name in envs.bot_names(suika):
        assert suika.action_space.contains(envs.bot_policy(suika, name)(suika.reset(seed=1)[0]))
    with pytest.raises(ValueError, match="no bot 'nope'"):
        envs.bot_policy(suika, "nope")


def test_make_finds_the_environments_by_module_without_an_import():
    code = ("import gymnasium as gym; env = gym.make('ecsgoo.envs:ecsgoo/Rope-v0'); "
            "env.reset(seed=0); print(env.spec.id)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "ARCADE_HEADLESS": "1"})
    assert proc.stdout.strip() == "ecsgoo/Rope-v0", proc.stderr
