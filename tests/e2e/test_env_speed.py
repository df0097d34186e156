"""What the environments' fast paths keep: the same worlds, bit for bit.

Levels are read once a process and every episode plays a clone (``envs.levels``);
rope's cut pieces are found once per cut (``games.rope.cut_pieces``), its candy, ropes and
stars once per change of structure (``games.rope.index``, shared with the environment:
``rules.RulesIndex``); a sampled MultiBinary action skips the full checks; the rope
observation is made in Python floats; the rope components deep-copy themselves. Each is
checked against what it replaces: a fresh load, a look-up per component, the full
checks, ``np.clip``, ``copy``'s own walk, calm as first written.
"""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import ecsgoo.envs as envs  # noqa: E402
from ecsgoo import Particle, Spring, load  # noqa: E402
from ecsgoo.envs.levels import CachedLevels  # noqa: E402
from games.rope import RopeGame  # noqa: E402
from games.rope.components import Candy, Monster, Rope, Star  # noqa: E402
from games.rope.cut_pieces import PieceFinder  # noqa: E402
from games.rope.index import IndexFinder  # noqa: E402
from games.rope.rules import board_of, candy_of, holding  # noqa: E402
from games.rope.swipe import swipe_across  # noqa: E402

IDS = list(envs.ENVS)


def _hashes(env, seed: int, steps: int) -> list[str]:
    """World hashes after each of ``steps`` seeded random actions from ``reset(seed)``."""
    env.reset(seed=seed)
    env.action_space.seed(seed)
    out = []
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        out.append(env.unwrapped.game.world.state_hash())
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("env_id", IDS)
def test_an_episode_after_others_is_the_episode_of_a_new_environment(env_id):
    """Episodes play clones of one loaded level: what an episode did to its world does not
    reach the next one (seed 7 after seed 3 = seed 7 in a new environment)."""
    steps = 12
    used = gym.make(env_id)
    _hashes(used, 3, steps)
    again = _hashes(used, 7, steps)
    fresh = _hashes(gym.make(env_id), 7, steps)
    assert again == fresh and len(fresh) >= 2


@pytest.mark.parametrize("env_id", IDS)
def test_the_cached_level_is_the_level_file_as_loaded_and_runs_the_same(env_id):
    """The clone an episode starts from hashes like a fresh load of the file, and so do both
    after 60 frames."""
    game_class = gym.make(env_id).unwrapped.play_class
    assert issubclass(game_class, CachedLevels)
    game = game_class(level=1, seed=0)
    loaded = load(game.level_file(1))
    clone = game.load_level()
    assert clone.state_hash() == loaded.state_hash()
    clone.step(60)
    loaded.step(60)
    assert clone.state_hash() == loaded.state_hash()


def _pieces_by_lookup(world) -> tuple[list[int], list[int]]:
    """The stub and tail particle rows (tails then the candy) found as the rules once did: a
    component look-up per link and node."""
    candy = [e for e, _ in world.get_component(Candy)]
    stubs, tails = [], []
    for _, rope in world.get_component(Rope):
        springs = [world.try_component(s, Spring) for s in rope.springs]
        cut = [k for k, s in enumerate(springs) if s is None or s.broken]
        if not cut:
            continue
        stubs += [n for n in rope.nodes[1:cut[0] + 1] if world.entity_exists(n)]
        tails += [n for n in rope.nodes[cut[-1] + 1:] if world.entity_exists(n)] if candy else []
    rows = [world.particles.row(e) for e in stubs]
    tail_rows = [world.particles.row(e) for e in [*tails, *candy[:1]]] if tails else []
    return rows, tail_rows


def _cut_one(game: RopeGame) -> None:
    """Swipe across the first rope still holding the candy, as a player would."""
    p, q = swipe_across(game.world, holding(game.world)[0])
    game.on_press(*p, 1)
    game.on_drag(*q)
    game.on_release(*q, 1)


@pytest.mark.parametrize("level", [2, 3, 5])
def test_cut_pieces_are_the_rows_a_lookup_per_component_finds(level):
    """Cut the ropes one by one (and play until the candy is eaten or lost): every frame the
    kept pieces are those a look-up per component finds."""
    game = RopeGame(level=level)
    world, finder = game.world, PieceFinder()
    checked = 0
    for frame in range(240):
        if frame % 50 == 10 and holding(world):
            _cut_one(game)
        game.step()
        pieces = finder.pieces(world)
        stubs, tails = _pieces_by_lookup(world)
        if pieces is None:
            assert not stubs and not tails
            continue
        assert pieces.stubs.tolist() == stubs and pieces.tails.tolist() == tails
        checked += 1
    assert checked > 100, "the ropes were cut and their pieces checked"


def test_a_cut_piece_moved_in_its_table_is_found_again():
    """Deleting a node moves the last row into its place and takes its links: the kept
    rows are found again."""
    game = RopeGame(level=3)
    world, finder = game.world, PieceFinder()
    _cut_one(game)
    game.step()
    before = finder.pieces(world)
    assert before is not None and len(before.stubs)
    first = int(world.particles.entity[before.stubs[0]])  # its links go with it
    world.delete_entity(first)  # the last row moves into its place
    world.step()
    stubs, tails = _pieces_by_lookup(world)
    after = finder.pieces(world)
    assert after.stubs.tolist() == stubs and after.tails.tolist() == tails
    assert not np.array_equal(after.stubs, before.stubs)


def test_the_index_is_kept_until_the_structure_changes():
    """Frames, cuts and moves keep the index; a deleted entity or an added component makes
    a new one, whose rows are the table's rows now."""
    game = RopeGame(level=3)
    world, finder = game.world, IndexFinder()
    first = finder.of(world)
    game.step()
    _cut_one(game)
    game.step()
    assert finder.of(world) is first, "nothing was added or removed"
    node = first.ropes[0].rope.nodes[2]
    world.delete_entity(node)
    again = finder.of(world)
    assert again is not first
    for r in again.ropes:
        assert r.pin == world.particles.row(r.rope.pin)
        assert r.links.tolist() == [world.springs.row(s) if world.try_component(s, Spring)
                                    else -1 for s in r.rope.springs]
    world.create_entity(Star(10.0, 10.0))
    assert finder.of(world) is not again and len(finder.of(world).stars) == \
        len(world.get_component(Star))


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_holding_from_the_index_is_holding_by_lookup_every_frame(level):
    """Cut the ropes one by one (hooks tie new ones on level 4 and 5) until the level
    ends: each frame the index's ropes holding the candy are those a look-up finds."""
    game = RopeGame(level=level)
    world, finder = game.world, IndexFinder()
    for frame in range(300):
        if frame % 40 == 10 and holding(world):
            _cut_one(game)
        game.step()
        assert finder.of(world).holding() == holding(world)
        if game.status().result != "running":
            break


def _observe_by_lookup(env) -> dict:
    """The rope environment's observation as it was made: a look-up per component."""
    world = env.game.world
    left, bottom, right, top = board_of(world).view
    scale = np.array([right - left, top - bottom], np.float64)
    origin = np.array([left, bottom], np.float64)
    candy = np.zeros(4, np.float32)
    entity = candy_of(world)
    if entity is not None:
        p = world.component(entity, Particle)
        candy[:] = np.clip(np.concatenate([(np.array([p.x, p.y]) - origin) / scale,
                                           np.array([p.vx, p.vy]) / scale]), -10.0, 10.0)
    held = holding(world)
    ropes = sorted(world.get_component(Rope))[:3]
    stars = [s for _, s in sorted(world.get_component(Star))[:3]]
    monster = world.get_component(Monster)[0][1]
    pins = [world.component(r.pin, Particle) for _, r in ropes]
    points = [(p.x, p.y) for p in pins] + [(s.x, s.y) for s in stars] + \
        [(monster.x, monster.y)]
    at = np.clip((np.array(points, np.float64) - origin) / scale, 0.0, 1.0)
    rope_rows = np.zeros((3, 3), np.float32)
    for i, (r, _) in enumerate(ropes):
        rope_rows[i] = (*at[i], float(r in held))
    star_rows = np.zeros((3, 4), np.float32)
    for i, s in enumerate(stars):
        star_rows[i] = (*at[len(ropes) + i], 1.0, float(s.collected))
    return {"candy": candy, "ropes": rope_rows, "stars": star_rows,
            "monster": at[-1].astype(np.float32)}


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_rope_observations_are_the_lookups_to_the_bit(level):
    """Random episodes of each level: every observation is, byte for byte, the one a
    look-up per component makes."""
    env = gym.make("ecsgoo/Rope-v0", level=level)
    checked = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        for _ in range(60):
            want = _observe_by_lookup(env.unwrapped)
            assert {k: v.tobytes() for k, v in obs.items()} == \
                {k: v.tobytes() for k, v in want.items()}
            checked += 1
            obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                break
    assert checked > 40


def test_the_stage_profile_names_every_stage_and_its_parts_fit_in_the_frame():
    """tools/bench_env_speed.stage_profile: each pipeline stage, begin_frame, end_frame and
    what is outside World.step, none negative, the parts within the whole; World's methods
    are its own again afterwards (a profile left patched would time every later step)."""
    import sys
    from pathlib import Path

    from ecsgoo.world import World

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import bench_env_speed

    before = (World.step, World.begin_frame, World.end_frame)
    frame, parts = bench_env_speed.stage_profile("ecsgoo/Rope-v0", 20)
    assert (World.step, World.begin_frame, World.end_frame) == before
    names = {s.name for s in gym.make("ecsgoo/Rope-v0").unwrapped.game.world.pipeline}
    assert names | {"begin_frame", "end_frame", "outside World.step"} == set(parts)
    assert all(v >= 0 for v in parts.values()) and frame > 0
    assert sum(parts.values()) <= frame * (1 + 1e-9)
    split = bench_env_speed.time_split("ecsgoo/Rope-v0", 20)
    assert split.keys() == {"physics", "game", "env"} and split["game"] > 0
    assert sum(split.values()) == pytest.approx(1.0)


def test_a_sampled_binary_action_is_taken_as_the_full_checks_take_it():
    """``base._binary_action``: for every int8 array of a MultiBinary space's shape, the
    value ``_action_problem`` returns (a copy, never the caller's array), and for anything
    else ``None`` (the full checks decide: their errors stay theirs)."""
    from itertools import product

    from ecsgoo.envs.base import _action_problem, _binary_action

    space = gym.spaces.MultiBinary(3)
    for bits in product([0, 1, 2, -1, 127], repeat=3):
        action = np.array(bits, np.int8)
        fast = _binary_action(space, action)
        problem, full = _action_problem(space, action)
        if problem is not None:
            assert fast is None
            continue
        assert fast is not None and fast is not action
        assert fast.dtype == full.dtype and fast.tobytes() == full.tobytes()
    ones = np.ones(3, np.int8)
    for other in (ones.astype(np.int64), ones.astype(np.float32), ones.astype(bool),
                  ones.tolist(), np.ones(2, np.int8), np.ones((1, 3), np.int8)):
        assert _binary_action(space, other) is None
    assert _binary_action(gym.spaces.MultiDiscrete([2, 2, 2]), ones) is None
    grid = gym.spaces.MultiBinary([2, 2])
    assert _binary_action(grid, np.eye(2, dtype=np.int8)).tolist() == [[1, 0], [0, 1]]


def test_the_observations_clip_is_numpys_clip_to_the_bit():
    """``envs.rope._clip`` (the rope observation's numbers, one at a time) gives the bytes
    ``np.clip`` gives a float64 array, then as float32: NaN of either sign, ±0.0, the
    bounds themselves, infinities, the smallest subnormals."""
    import random

    from ecsgoo.envs.rope import _clip

    special = [-0.0, 0.0, 1.0, -1.0, 10.0, -10.0, np.nextafter(1.0, 2.0), np.nextafter(10, 0),
               5e-324, -5e-324, 1e300, -1e300, np.inf, -np.inf, np.nan, -np.nan]
    rng = random.Random(0)
    values = special + [rng.uniform(-20.0, 20.0) for _ in range(200)]
    for low, high in ((0.0, 1.0), (-10.0, 10.0)):
        array = np.array(values, np.float64)
        ours = [_clip(v, low, high) for v in values]
        assert np.array(ours).tobytes() == array.clip(low, high).tobytes()
        assert np.array(ours, np.float32).tobytes() == \
            array.clip(low, high).astype(np.float32).tobytes()


def test_the_environment_reads_the_index_its_rules_stage_keeps():
    """``rules.RulesIndex``: the index the rope environment reads is the one its world's
    RopeRules stage made (one look-up for both), a new game's after a reset; a world with
    no such stage gets one of its own, the index a finder makes."""
    import copy

    from games.rope.rules import RopeRules, RulesIndex

    env = gym.make("ecsgoo/Rope-v0", level=3).unwrapped
    for seed in (0, 1):
        env.reset(seed=seed)
        env.step(np.zeros(3, np.int8))
        world = env.game.world
        stage = next(s for s in world.pipeline if isinstance(s, RopeRules))
        assert env._index.of(world) is stage._index.of(world)
    assert copy.deepcopy(env._index)._pipeline is None
    bare = RopeGame(level=3).world
    bare.use(*(s for s in bare.pipeline if not isinstance(s, RopeRules)))
    shared = RulesIndex().of(bare)
    assert shared.candy == IndexFinder().of(bare).candy and len(shared.ropes) == 3


def _calm_as_it_was(world, pieces, index) -> None:
    """``cut_pieces.calm`` as it was written: gravity's direction made every call, the
    touched rows fancy-indexed."""
    from ecsgoo.kernels.calm import calm_pieces
    from games.rope import cut_pieces as cp

    prev = index.prev.copy()
    calm_pieces(index.pos, prev, index.mass, index.pinned, pieces.stubs, pieces.stub_pins,
                pieces.tails, pieces.a, pieces.m, pieces.b, pieces.bent,
                np.asarray(world.down, dtype=np.float64), world.substeps, cp.CUT_DRAG,
                cp.BUCKLE, cp.TAIL_DAMP, cp.BEND)
    world.particles.write("prev", prev[pieces.touched], pieces.touched)


def test_calm_writes_the_previous_positions_it_wrote_as_first_written():
    """``cut_pieces.calm`` (its direction of gravity kept while the gravity is the same
    tuple, its rows taken) and its first form calm a world and its clone to the same
    hash, frame after frame, through changes of gravity (-0.0 too: another direction)."""
    from games.rope.cut_pieces import calm

    game = RopeGame(level=3)
    _cut_one(game)
    for _ in range(5):
        game.step()
    world = game.world
    twin = world.clone()
    gravities = [None] * 4 + [(-0.0, -700.0), (0.0, -700.0), (300.0, -100.0)]
    for gravity in gravities:
        for w, how in ((world, calm), (twin, _calm_as_it_was)):
            if gravity is not None:
                w.gravity = gravity
            index = IndexFinder().of(w)
            how(w, PieceFinder().pieces(w, index), index)
        assert world.state_hash() == twin.state_hash()
        world.step()
        twin.step()


@pytest.mark.parametrize("env_id", IDS)
def test_the_cached_levels_files_are_the_games_own(env_id):
    """``CachedLevels.level_file``, found once a class and level, is the game's own path."""
    play = gym.make(env_id).unwrapped.play_class
    game = next(c for c in play.__mro__ if c is not play and not issubclass(c, CachedLevels))
    for level in range(1, len(game.levels) + 1):
        assert play.level_file(level) == game.level_file(level)
        assert play.level_file(level) is play.level_file(level)


def test_a_wait_plays_as_bits_for_ropes_already_cut():
    """A rope step with no bit set returns before looking anything up; it plays as bits set
    only for rows with no rope holding the candy (which ignore theirs), world for world."""
    env = gym.make("ecsgoo/Rope-v0", level=1)
    twin = gym.make("ecsgoo/Rope-v0", level=1)
    for e in (env, twin):
        e.reset(seed=2)
    for _ in range(40):
        env.step(np.zeros(3, np.int8))
        twin.step(np.array([0, 1, 1], np.int8))  # level 1 has one rope: rows 1, 2 are empty
        assert env.unwrapped.game.world.state_hash() == twin.unwrapped.game.world.state_hash()
