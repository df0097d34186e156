"""The games as Gymnasium environments: the checker, seeding, episode ends, pictures, bots,
copies, checked actions, no user files."""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

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
    assert goo.action_space.contains(action) and action[2] == 1.0
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
                          timeout=300, env={**os.environ, "ARCADE_HEADLESS": "1"})
    assert proc.stdout.strip() == "ecsgoo/Rope-v0", proc.stderr


ROOT = Path(__file__).resolve().parents[2]


def _bare_python(code: str, **env: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter with no environment variables but the import path."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT), **env})


def test_checker_and_pictures_in_a_fresh_process_with_no_display_and_no_variables():
    code = ("import gymnasium as gym, warnings\n"
            "from gymnasium.utils.env_checker import check_env\n"
            "for name in ('Suika', 'Rope', 'Goo'):\n"
            "    env = gym.make(f'ecsgoo.envs:ecsgoo/{name}-v0')\n"
            "    check_env(env.unwrapped)\n"
            "with warnings.catch_warnings(record=True) as said:\n"
            "    warnings.simplefilter('always')\n"
            "    human = gym.make('ecsgoo/Rope-v0', render_mode='human')\n"
            "    human.reset(seed=0)\n"
            "    assert human.render() is None\n"
            "assert any('no display' in str(w.message) for w in said)\n"
            "frame = gym.make('ecsgoo/Rope-v0', render_mode='rgb_array')\n"
            "frame.reset(seed=0)\n"
            "print(frame.render().shape)\n")
    proc = _bare_python(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "(600, 800, 3)"


def test_arcade_imported_first_without_a_display_still_renders(tmp_path):
    """arcade cannot switch to headless once imported: a helper process draws instead."""
    code = ("import sys, numpy as np\n"
            "if sys.argv[1] == 'arcade-first':\n"
            "    import arcade\n"
            "import gymnasium as gym, ecsgoo.envs\n"
            "env = gym.make('ecsgoo/Rope-v0', render_mode='rgb_array')\n"
            "env.reset(seed=3)\n"
            "env.step(np.array([0, 0, 0], np.int8))\n"
            "np.save(sys.argv[2], env.render())\n"
            "print(env.unwrapped._painter is not None)\n"
            "env.close()\n")
    frames = []
    for order in ("arcade-first", "envs-first"):
        out = tmp_path / f"{order}.npy"
        proc = subprocess.run([sys.executable, "-c", code, order, str(out)], capture_output=True,
                              text=True, timeout=300, env={"PYTHONPATH": str(ROOT)})
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert proc.stdout.strip() == str(order == "arcade-first")
        frames.append(np.load(out))
    assert frames[0].shape == (600, 800, 3) and frames[0].std() > 10
    assert np.array_equal(frames[0], frames[1]), "the same picture either way"


def _continue(env, actions) -> tuple[list, list, str]:
    """Observations, rewards and the final world hash of ``actions`` stepped on ``env``."""
    steps = [env.step(a) for a in actions]
    return ([s[0] for s in steps], [s[1] for s in steps],
            env.unwrapped.game.world.state_hash())


def _same_run(a, b) -> bool:
    return len(a[0]) == len(b[0]) and all(map(_same, a[0], b[0])) and a[1:] == b[1:]


def _played(env_id: str, seed: int = 4):
    """An environment a few sampled steps into an episode, and the next actions to take."""
    env = gym.make(env_id)
    env.reset(seed=seed)
    env.action_space.seed(seed)
    for _ in range(3):
        env.step(env.action_space.sample())
    return env, [env.action_space.sample() for _ in range(5)]


@pytest.mark.parametrize("env_id", IDS)
def test_deepcopy_pickle_and_state_snapshots_continue_bit_for_bit(env_id):
    cloudpickle = pytest.importorskip("cloudpickle")
    env, actions = _played(env_id)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)),
              cloudpickle.loads(cloudpickle.dumps(env))]
    snapshot = env.unwrapped.get_state()
    original = _continue(env, actions)
    assert original[2] != _played(env_id)[0].unwrapped.game.world.state_hash(), "it moved on"
    for other in copies:
        assert _same_run(_continue(other, actions), original)
    env.unwrapped.set_state(snapshot)
    assert _same_run(_continue(env, actions), original), "restored from get_state"
    env.unwrapped.set_state(snapshot)
    assert _same_run(_continue(env, actions), original), "a snapshot restores again"


def test_a_copy_is_independent_of_the_original():
    env, actions = _played("ecsgoo/Suika-v0")
    twin = copy.deepcopy(env)
    before = twin.unwrapped.game.world.state_hash()
    _continue(env, actions)
    assert twin.unwrapped.game.world.state_hash() == before
    env.close()
    assert twin.step(actions[0])[0]["kinds"].any(), "the copy steps on after the original closed"


def test_a_cloudpickled_environment_continues_in_a_new_process(tmp_path):
    cloudpickle = pytest.importorskip("cloudpickle")
    env, actions = _played("ecsgoo/Goo-v0")
    (tmp_path / "env.pkl").write_bytes(cloudpickle.dumps((env, actions)))
    here = _continue(env, actions)
    code = ("import cloudpickle, json, sys\n"
            f"env, actions = cloudpickle.loads(open({str(tmp_path / 'env.pkl')!r}, 'rb').read())\n"
            "rewards = [env.step(a)[1] for a in actions]\n"
            "print(json.dumps([rewards, env.unwrapped.game.world.state_hash()]))\n")
    proc = _bare_python(code)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == [here[1], here[2]]


@pytest.mark.parametrize(("env_id", "rate"), [("ecsgoo/Suika-v0", 2.0), ("ecsgoo/Rope-v0", 20.0),
                                              ("ecsgoo/Goo-v0", 60 / 56)])
def test_render_fps_is_the_step_rate(env_id, rate):
    env = gym.make(env_id)
    assert env.metadata["render_fps"] == pytest.approx(rate)
    env.reset(seed=0)
    policy = envs.bot_policy(env, envs.bot_names(env)[0])
    obs, info = env.reset(seed=0)
    frames = [info["frame"]]
    for _ in range(3):
        obs, *_, info = env.step(policy(obs))
        frames.append(info["frame"])
    assert np.diff(frames).tolist() == [round(60 / rate)] * 3
    assert gym.make("ecsgoo/Rope-v0", frames_per_step=15).metadata["render_fps"] == 4.0


@pytest.mark.parametrize(("env_id", "bad", "says"), [
    ("ecsgoo/Suika-v0", [np.nan], "finite"),
    ("ecsgoo/Suika-v0", [0.5, 0.5], "shape (1,)"),
    ("ecsgoo/Suika-v0", 0.5, "shape (1,)"),
    ("ecsgoo/Suika-v0", [1.5], "in [0, 1]"),
    ("ecsgoo/Suika-v0", ["left"], "numbers"),
    ("ecsgoo/Goo-v0", [0.5, 0.5], "shape (3,)"),
    ("ecsgoo/Goo-v0", [0.5, np.inf, 1], "finite"),
    ("ecsgoo/Rope-v0", [0, 2, 0], "MultiBinary"),
    ("ecsgoo/Rope-v0", [0.5, 0, 0], "MultiBinary"),
    ("ecsgoo/Rope-v0", [1, 0], "shape (3,)"),
])
def test_actions_are_checked_with_a_clear_error(env_id, bad, says):
    env = gym.make(env_id).unwrapped
    env.reset(seed=0)
    hash_before = env.game.world.state_hash()
    with pytest.raises(ValueError, match=r"action .*" + __import__("re").escape(says)):
        env.step(bad)
    assert env.game.world.state_hash() == hash_before, "a refused action changes nothing"


def test_goo_waits_when_told_to_and_its_builder_wins_level_one_through_the_environment():
    env = gym.make("ecsgoo/Goo-v0")
    obs, info = env.reset(seed=0)
    obs2, reward, terminated, _, info2 = env.step(np.array([0.5, 0.5, 0.0], np.float32))
    assert obs2["supply"][0] == obs["supply"][0] and info2["placed"] == info["placed"] == 0
    assert info2["frame"] == 56 and reward == 0 and not terminated
    builder = envs.bot_policy(env, "builder")
    assert envs.episode_return(env, builder, seed=0) >= 3  # the balls the pipe collected


@pytest.mark.parametrize("env_id", ["ecsgoo/Rope-v0", "ecsgoo/Goo-v0"])
def test_seeds_mean_something_in_every_environment(env_id):
    env = gym.make(env_id)
    wait = np.zeros(env.action_space.shape, env.action_space.dtype)
    runs = []
    for seed in (0, 1, 0):
        env.reset(seed=seed)
        runs.append(env.step(wait)[0])
    assert _same(runs[0], runs[2]) and not _same(runs[0], runs[1])


def test_environments_touch_no_file_of_the_player(tmp_path, monkeypatch):
    """The env's games neither read nor write the data folder (suika's best, progress)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from ecsgoo.app import data_dir

    folder = data_dir()
    folder.mkdir(parents=True)
    (folder / "suika-best.json").write_text('{"1": 99999}')
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    env = gym.make("ecsgoo/Suika-v0", render_mode="rgb_array", max_frames=None)
    obs, info = env.reset(seed=0)
    assert info["best"] == 0
    done = False
    while not done:  # the leftmost drop every time: the box overflows soon
        obs, _, terminated, truncated, info = env.step(np.zeros(1, np.float32))
        done = terminated or truncated
    assert terminated and info["best"] == info["score"] < 99999
    env.render()
    for env_id in ("ecsgoo/Rope-v0", "ecsgoo/Goo-v0"):
        other = gym.make(env_id)
        envs.episode_return(other, envs.bot_policy(other, envs.bot_names(other)[0]), seed=0)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


@pytest.mark.parametrize("env_id", IDS)
def test_pixel_observations_are_small_pictures_of_the_game(env_id):
    grey = gym.make(env_id, obs="pixels")
    rgb = gym.make(env_id, obs="pixels_rgb")
    assert grey.observation_space.shape == (84, 84, 1)
    assert rgb.observation_space.shape == (84, 84, 3)
    check_env(grey.unwrapped, skip_render_check=True)
    pictures = []
    for env in (grey, rgb):
        policy = envs.bot_policy(env, envs.bot_names(env)[0])
        obs, _ = env.reset(seed=0)
        first = obs
        for _ in range(4):
            obs = env.step(policy(obs))[0]
        assert env.observation_space.contains(obs) and not np.array_equal(obs, first)
        pictures.append(obs)
    assert np.count_nonzero(pictures[1].any(axis=2)) > 40, "the picture shows the world"
    from ecsgoo.envs.pixels import grey as to_grey

    assert np.array_equal(to_grey(pictures[1]), pictures[0]), "the same picture, in grey"
    with pytest.raises(ValueError, match="obs must be one of dict, pixels, pixels_rgb"):
        gym.make(env_id, obs="atari")


def test_pixels_draw_discs_and_lines_where_the_world_has_them():
    from ecsgoo import Particle, Spring, World
    from ecsgoo.envs import pixels

    world = World(gravity=(0, 0), bounds=(0, 0, 84, 84))
    a = world.create_entity(Particle(10.5, 10.5, radius=3))
    b = world.create_entity(Particle(70.5, 10.5, radius=0.2))
    world.create_entity(Spring(a, b))
    world.add_segment((0, 80.5), (84, 80.5))
    picture = pixels.draw(world, world.bounds)
    row = lambda y: 83 - int(y)  # noqa: E731 - picture rows count down from the top
    assert tuple(picture[row(10.5), 10]) == pixels.PARTICLE and picture[row(10.5), 13].any()
    assert not picture[row(16), 10].any(), "a disc of radius 3 ends there"
    assert tuple(picture[row(10.5), 40]) == pixels.SPRING
    assert tuple(picture[row(80.5), 42]) == pixels.LEVEL
    assert np.count_nonzero(picture.any(axis=2)) < 84 * 4, "nothing else is drawn"


def test_async_vector_environments_with_spawn():
    import functools

    make = functools.partial(gym.make, "ecsgoo.envs:ecsgoo/Rope-v0")
    vec = gym.vector.AsyncVectorEnv([make, make], context="spawn")
    try:
        obs, _ = vec.reset(seed=[0, 1])
        assert not np.array_equal(obs["candy"][0], obs["candy"][1]), "two seeds, two games"
        alone, _ = gym.make("ecsgoo/Rope-v0").reset(seed=1)
        assert np.array_equal(obs["candy"][1], alone["candy"])
        _, rewards, terminated, _, _ = vec.step(np.zeros((2, 3), np.int8))
        assert rewards.shape == (2,) and not terminated.any()
    finally:
        vec.close()


def test_goo_supply_counts_the_goo_balls_to_place_not_the_free_balloons():
    from games.goo.components import GooBall

    env = gym.make("ecsgoo/Goo-v0", level=6).unwrapped  # the balloon level
    obs, info = env.reset(seed=0)
    kinds = [g.kind for _, g in env.game.world.get_component(GooBall) if g.free]
    assert kinds.count("balloon") > 0, "the level has free balloons"
    goo = len(kinds) - kinds.count("balloon")
    assert obs["supply"][0] == info["balls_left"] == goo
    obs, *_, info = env.step(envs.bot_policy(env, "builder")(obs))
    assert info["placed"] == 1 and obs["supply"][0] == info["balls_left"] == goo - 1


def _suika_observation_one_by_one(env) -> dict:
    """Suika's observation as first written: each fruit's components read one by one,
    sorted by height in Python, each row written on its own."""
    from ecsgoo import Fruit, Particle
    from ecsgoo.envs.suika import MAX_FRUITS
    from games.suika import rules

    world = env.game.world
    st = rules.state(world)
    found = [(p.y, p.x, f.kind) for _, (p, f) in world.get_components(Particle, Fruit)]
    found.sort(key=lambda row: -row[0])
    positions = np.zeros((MAX_FRUITS, 2), np.float32)
    kinds = np.zeros(MAX_FRUITS, np.int64)
    for i, (y, x, kind) in enumerate(found[:MAX_FRUITS]):
        positions[i] = (x / rules.WIDTH, y / rules.HEIGHT)
        kinds[i] = kind + 1
    return {"fruits": np.clip(positions, 0.0, 1.0), "kinds": kinds,
            "current": int(st.current), "next": int(st.next),
            "box": np.array([st.left, st.right], np.float32) / np.float32(rules.WIDTH)}


def _same_bits(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.asarray(a[k]).dtype == np.asarray(b[k]).dtype
        and np.asarray(a[k]).tobytes() == np.asarray(b[k]).tobytes() for k in a)


def test_suikas_observation_reads_the_fruits_columns_as_their_components_read():
    """``SuikaEnv._observe`` reads the fruits' rows as columns: the same bytes as reading
    each fruit's components, through a game (drops, merges: rows deleted and moved), with
    plain particles among the fruits, fruits of one height (their order kept: the
    components' order), no fruit at all and more fruits than rows."""
    from ecsgoo import Anchor, Fruit, Particle

    env = gym.make("ecsgoo/Suika-v0").unwrapped
    env.reset(seed=2)
    assert _same_bits(env._observe(), _suika_observation_one_by_one(env))  # no fruit yet
    env.action_space.seed(2)
    world = env.game.world
    world.create_entity(Particle(700.0, 400.0, radius=9.0), Anchor())  # not a fruit
    for _ in range(25):
        env.step(env.action_space.sample())
        assert _same_bits(env._observe(), _suika_observation_one_by_one(env))
    world = env.game.world
    level = [world.create_entity(Particle(x, 300.0), Fruit(2), Anchor())
             for x in (420.0, 380.0, 460.0, 400.0)]  # one height, not in x order
    world.delete_entity(level[1])
    assert _same_bits(env._observe(), _suika_observation_one_by_one(env))
    for k in range(70):  # past MAX_FRUITS: the highest 64 shown, ties at the cut kept
        world.create_entity(Particle(360.0 + 5 * (k % 80), 100.0 + 10 * (k // 7)),
                            Fruit(k % 3), Anchor())
    ours = env._observe()
    assert _same_bits(ours, _suika_observation_one_by_one(env))
    assert ours["kinds"].all() and len(set(ours["fruits"][:, 1].tolist())) < 64


def test_a_sampled_box_action_is_taken_as_the_full_checks_take_it():
    """``base._box_action``: for a Box's own dtype and shape, the value ``_action_problem``
    returns (a copy, never the caller's array) when the checks pass, else ``None`` (the
    full checks decide: their errors stay theirs), at the bounds, just past them, for
    NaN, infinities and -0.0; and ``None`` for anything not an ndarray of the space's
    dtype and shape, or a box too large for it."""
    from itertools import product

    from ecsgoo.envs.base import _BOX_FAST, _action_problem, _box_action

    edges = [0.0, -0.0, 1.0, 0.5, np.nextafter(np.float32(1), np.float32(2)),
             np.nextafter(np.float32(0), np.float32(-1)), np.nan, np.inf, -np.inf]
    for space in (gym.spaces.Box(0.0, 1.0, (2,), np.float32),
                  gym.spaces.Box(np.array([0.0, -np.inf]), np.array([1.0, np.inf]), (2,),
                                 np.float64)):
        for pair in product(edges, repeat=2):
            action = np.array(pair, space.dtype)
            fast = _box_action(space, action)
            problem, full = _action_problem(space, action)
            if problem is not None:
                assert fast is None, pair
                continue
            assert fast is not None and fast is not action, pair
            assert fast.dtype == full.dtype and fast.tobytes() == full.tobytes()
    ints = gym.spaces.Box(0, 5, (3,), np.int64)
    assert _box_action(ints, np.array([0, 5, 2])).tolist() == [0, 5, 2]
    assert _box_action(ints, np.array([0, 6, 2])) is None
    space = gym.spaces.Box(0.0, 1.0, (2,), np.float32)
    half = np.full(2, 0.5, np.float32)
    for other in (half.astype(np.float64), half.tolist(), half[:1], half.reshape(1, 2)):
        assert _box_action(space, other) is None
    assert _box_action(gym.spaces.MultiBinary(2), np.ones(2, np.int8)) is None
    big = gym.spaces.Box(0.0, 1.0, (_BOX_FAST + 1,), np.float32)
    assert _box_action(big, big.sample()) is None
