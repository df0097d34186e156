"""``World(threads=k)``: the shared contacts' look and Project's islands
(``physics.threads``) give the bits of one thread, the way games use a world too
(spawning, deleting, springs snapping, saving mid-run); the setting saves, loads and
clones, and what it cannot split runs on one thread."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
import spy

import scenes
from ecsgoo import (
    AreaConstraint,
    Particle,
    ShapeMatch,
    Spring,
    World,
    WorldError,
    WorldFileError,
    saving,
)
from ecsgoo.bodies import box, jelly_ball
from ecsgoo.physics import disc_frame, threads
from ecsgoo.systems import Stage, project


@pytest.fixture(autouse=True)
def _small_worlds_share(monkeypatch):
    """Small scenes take the threads' path (the figures are for speed, not for bits): the
    stages' (a world of at most ``WHOLE_MAX`` discs steps its frame in one call, on one
    thread)."""
    monkeypatch.setattr(disc_frame, "WHOLE_MAX", 16)
    monkeypatch.setattr(threads, "FIND_MIN", 32)
    monkeypatch.setattr(threads, "PROJECT_MIN", 32)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", max(2, numba.config.NUMBA_NUM_THREADS))


def _soft() -> World:
    """Jelly balls (springs and areas), shape-matched boxes and loose discs, in a cup of
    the level's segments; one ball's springs snap when stretched."""
    w = scenes.solver(World(bounds=(0, 0, 900, 700)))
    w.level.add_segment((0, 200), (300, 40))
    for k in range(6):
        jelly_ball(w, 120 + 120 * k, 300 + 40 * (k % 2), radius=36, vertices=12,
                   max_stretch=1.2 if k == 2 else None)
    for k in range(4):
        box(w, 150 + 160 * k, 520, alpha=0.8)
    rng = np.random.default_rng(2)
    for k in range(40):
        w.create_entity(Particle(100 + 18 * k, 640 + rng.uniform(-3, 3), radius=7,
                                 vy=-300.0))
    return w


def _state(world: World) -> bytes:
    p, sc = world.store.particles, world.store.springs
    cols = [p.cols[k][: p.n].tobytes() for k in ("pos", "prev")]
    cols += [sc.cols[k][: sc.n].tobytes() for k in ("lam", "broken")]
    return b"".join(cols + [world.discs.keys.tobytes(), world.discs.memory.tobytes()])


def _games(world: World, frames: int) -> World:
    """Frames with a game's calls between them: a disc spawned every 5th, the oldest
    deleted every 9th, a ball dropped in at 20, the world saved and loaded at 30."""
    made = []
    for f in range(frames):
        if f % 5 == 0:
            made.append(world.create_entity(Particle(450 + f % 7, 650, radius=8, vy=-500.0)))
        if f % 9 == 0 and made:
            world.delete_entity(made.pop(0))
        if f == 20:
            jelly_ball(world, 450, 600, radius=30, vertices=10)
        if f == 30:
            world = saving.loads(saving.dumps(world))
        world.step()
    return world


def _run(make, count: int, frames: int, games: bool = False) -> bytes:
    w = make()
    w.threads = count
    return _state(_games(w, frames) if games else (w.step(frames) or w))


@pytest.mark.parametrize("games", [False, True], ids=["stepped", "spawning, deleting, saving"])
def test_two_threads_give_the_bits_of_one(games):
    with spy.returns(threads, "find_frame_banded") as looks, \
            spy.returns(threads, "project_parts") as parts:
        two = _run(_soft, 2, 45, games)
    assert looks and parts  # both phases were shared
    assert two == _run(_soft, 1, 45, games)


def test_a_pile_looks_for_its_contacts_in_bands_to_the_same_bits():
    make = lambda: scenes.circle_pile(300, width=400.0)  # noqa: E731
    with spy.returns(threads, "find_frame_banded") as looks:
        two = _run(make, 2, 60)
    assert looks and all(m > 0 for m, _, _ in looks)
    assert two == _run(make, 1, 60)


def test_contacts_that_outgrow_their_rows_are_found_again_in_bands():
    def crowd() -> World:
        w = scenes.solver(World(bounds=(0, 0, 400, 400)))
        rng = np.random.default_rng(3)
        for _ in range(60):
            w.create_entity(Particle(200 + rng.uniform(-3, 3), 100 + rng.uniform(-3, 3),
                                     radius=10))
        return w
    with spy.returns(threads, "find_frame_banded") as looks:
        two = _run(crowd, 2, 20)
    assert any(m == -1 for m, _, _ in looks)  # did not fit once: more rows, then again
    assert two == _run(crowd, 1, 20)


def test_one_island_ropes_and_tethers_stay_on_one_thread():
    one_ball = scenes.solver(World(bounds=(0, 0, 800, 600)))
    jelly_ball(one_ball, 400, 300, radius=60, vertices=16)
    rope = scenes.solver(World(bounds=(0, 0, 800, 600)))
    for x in (200.0, 500.0):
        beads = [rope.create_entity(Particle(x + 12 * k, 400, radius=3)) for k in range(20)]
        rope.create_entities([Spring(a, b) for a, b in zip(beads, beads[1:], strict=False)])
    for w in (one_ball, rope):
        w.threads = 2
        with spy.returns(threads, "project_parts") as parts:
            w.step(5)
        assert parts == []


def test_the_islands_split_so_no_thread_has_most_of_the_work():
    assert threads._balance(np.array([8.0, 1.0, 1.0]), 2) is None
    part = threads._balance(np.array([3.0, 2.0, 2.0, 1.0]), 2)
    assert list(part) == [0, 1, 1, 0]


def test_threads_are_at_most_numbas(monkeypatch):
    w = World(threads=8)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 2)
    assert threads.count(w) == 2
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 1)
    assert threads.count(w) == 1


def test_threads_save_load_and_clone():
    w = World(threads=2)
    assert w.clone().threads == 2
    assert "threads = 2" in saving.dumps(w)
    assert saving.loads(saving.dumps(w)).threads == 2
    assert "threads" not in saving.dumps(World())
    assert saving.loads(saving.dumps(World())).threads == 1


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", 10**6])
def test_a_bad_thread_count_is_refused_naming_the_field(bad):
    with pytest.raises(WorldError, match="threads"):
        World(threads=bad)


def test_a_world_file_with_a_bad_thread_count_names_file_and_field(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text(saving.dumps(World()).replace("[world]", "[world]\nthreads = 0", 1))
    with pytest.raises(WorldFileError, match=r"w\.toml.*threads"):
        saving.load(path)


def test_project_keeps_its_parts_out_of_its_settings():
    stage = project.Project(iterations=4)
    assert stage.settings() == {"iterations": 4}
    assert stage.clone()._parts is not stage._parts


def _forked_hash(conn) -> None:
    w = _soft()
    w.threads = 2
    w.step(10)
    conn.send(w.state_hash())


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_a_process_forked_after_shared_frames_steps_on_one_thread_to_the_same_bits():
    import multiprocessing

    w = _soft()
    w.threads = 2
    w.step(10)  # the threads' pool is made in this process
    assert threads.count(w) == 2
    ctx = multiprocessing.get_context("fork")
    here, there = ctx.Pipe()
    child = ctx.Process(target=_forked_hash, args=(there,))
    child.start()
    assert here.poll(120), "the forked child did not finish its frames"
    assert here.recv() == w.state_hash()
    child.join(30)


class _Breathe(Stage):
    """A game's own per-substep stage: the balls' pressure and the boxes' size change
    every substep (Project reads them each substep, on any number of threads)."""

    name = "test_breathe"
    per_substep = True

    def solve(self, world, ctx) -> None:
        for k, (_, area) in enumerate(world.get_component(AreaConstraint)):
            area.pressure = 1.0 + 0.2 * math.sin(world.frame * 0.3 + ctx.substep + k)
        for _, shape in world.get_component(ShapeMatch):
            shape.scale = 1.0 + 0.1 * math.sin(world.frame * 0.2 + ctx.substep)


def test_settings_written_between_substeps_act_alike_on_two_threads():
    def breathing() -> World:
        w = _soft()
        stages = list(w.pipeline)
        return w.use(stages[0], _Breathe(), *stages[1:])
    with spy.returns(threads, "project_parts") as parts:
        two = _run(breathing, 2, 30)
    assert parts
    assert two == _run(breathing, 1, 30)
