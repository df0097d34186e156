"""Malformed actions (issue 29): every environment refuses them alike, with a ValueError
naming the environment and its action space; NaN is never an action."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import ecsgoo.envs  # noqa: F401  (registers the environments)

ENVS = ("ecsgoo/Suika-v0", "ecsgoo/Rope-v0", "ecsgoo/Goo-v0")


class Weird:
    """Converting it to an array raises something that is not a ValueError."""

    def __array__(self, *args, **kwargs):
        raise RuntimeError("no")


def _bad(n: int) -> dict:
    return {"empty": [], "scalar for a vector": 0.5, "string": "left", "None": None,
            "dict": {"x": 1}, "object": object(), "NaN": float("nan"),
            "NaN vector": [float("nan")] * n, "inf vector": [np.inf] * n,
            "complex": [1j] * n, "strings": ["1"] * n, "nested": [[0] * n],
            "huge ints": [10**30] * n, "ragged": [[1], [1, 2]], "weird": Weird(),
            "negative": [-1] * n, "above": [2] * n}


@pytest.fixture(scope="module", params=ENVS)
def env(request):
    env = gym.make(request.param)
    env.reset(seed=1)
    yield env
    env.close()


def test_every_malformed_action_is_a_value_error_naming_env_and_space(env):
    inner = env.unwrapped
    n = inner.action_space.shape[0]
    hash_before = inner.game.world.state_hash()
    for what, action in _bad(n).items():
        with pytest.raises(ValueError) as info:
            env.step(action)
        assert type(info.value) is ValueError, what
        message = str(info.value)
        assert message.startswith(f"{type(inner).__name__}: action must be an element of "
                                  f"{inner.action_space}"), (what, message)
    assert inner.game.world.state_hash() == hash_before, "a refused action changes nothing"


def test_nan_is_refused_in_the_same_words_everywhere(env):
    n = env.unwrapped.action_space.shape[0]
    for action in (np.full(n, np.nan), [0.0] * (n - 1) + [np.nan]):
        with pytest.raises(ValueError, match=r"\(finite numbers: NaN and inf are refused\)"):
            env.step(action)


def test_a_good_action_of_another_dtype_is_taken(env):
    inner = env.unwrapped
    n = inner.action_space.shape[0]
    action = [1] * n if isinstance(inner.action_space, gym.spaces.MultiBinary) else [0.5] * n
    env.step(action)
    env.step(np.asarray(action, dtype=np.float64))


@pytest.mark.parametrize("kwargs", [{"level": "1"}, {"level": 1.5}, {"level": True},
                                    {"level": 0}, {"max_frames": "10"},
                                    {"max_frames": float("nan")}, {"max_frames": 1.5},
                                    {"max_frames": 0}])
def test_a_bad_level_or_frame_cap_is_a_value_error_naming_the_game(kwargs):
    """``level="1"`` compared a str with an int (TypeError), 1.5 looked for 1.5.toml
    (FileNotFoundError), NaN frames were taken as no cap."""
    with pytest.raises(ValueError, match=r"(rope: level|RopeEnv: max_frames) must be"):
        gym.make("ecsgoo/Rope-v0", **kwargs)


def test_bad_seeds_are_value_errors_and_numpy_integers_seed_alike(env):
    inner = env.unwrapped
    for seed in ("a", 1.5, -1, 2**64, True):
        with pytest.raises(ValueError, match=rf"{type(inner).__name__}: seed must be"):
            env.reset(seed=seed)
    env.reset(seed=np.int64(5))
    after_numpy = inner.game.world.state_hash()
    env.reset(seed=5)
    assert inner.game.world.state_hash() == after_numpy


def test_a_state_that_get_state_did_not_return_is_refused(env):
    inner = env.unwrapped
    good = inner.get_state()
    for state in ({"env": 5, "world": 5}, {"env": {}, "world": good["world"]},
                  {"env": good["env"], "world": "world"}):
        with pytest.raises(ValueError, match=r"set_state: state must be what get_state"):
            inner.set_state(state)
    inner.set_state(good)
