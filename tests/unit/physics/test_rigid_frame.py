"""A world of rigid bodies only: the whole frame in one kernel call, or its later substeps
(``physics.rigid_frame``), give the same bits as the stages one substep at a time, the
way games use it too (spawning, deleting, saving mid-run)."""

from __future__ import annotations

import numpy as np
import pytest
import spy
from numba import njit

import scenes
from ecsgoo import Anchor, Joint, RigidBody, World, saving, systems
from ecsgoo.physics import rigid_frame
from ecsgoo.systems import pipeline

COLUMNS = ("pos", "prev", "angle", "prev_angle")


def _one_box() -> World:
    w = World(bounds=None).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(0, 0, 400, 20), Anchor())
    w.create_entity(RigidBody.box(0, 60, 40, 40, mass=1.0, angle=0.3))
    return w


def _chain() -> World:
    w = World(bounds=None).use(*(s() for s in systems.SOLVER))
    prev = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    for k in range(12):
        link = w.create_entity(RigidBody.box(20 * (k + 0.5), 0, 20, 4, mass=1.0 + 99 * (k % 2)))
        w.create_entity(Joint(prev, link, 20 * k, 0))
        prev = link
    w.create_entity(RigidBody.box(120, -200, 300, 20), Anchor())  # the chain swings onto it
    return w


def _column() -> World:
    w = World(bounds=(-300, -50, 300, 600)).use(systems.Integrate(), systems.Collide())
    w.create_entity(RigidBody.box(0, 0, 400, 20), Anchor())
    for k in range(5):
        w.create_entity(RigidBody.box(0, 30 + 40 * k, 40, 40, mass=100.0 if k == 4 else 1.0))
    return w


def _dart() -> World:  # fast: swept, so its frames go through the stages
    w = _one_box()
    dart = w.create_entity(RigidBody.box(-150, 40, 20, 2, mass=1.0))
    w.component(dart, RigidBody).vx = 6000.0
    return w


def _dart_without_project() -> World:  # the stages' Collide is the second stage
    w = _dart()
    w.use(systems.Integrate(), systems.Collide())
    return w


def _spinner() -> World:  # turns fast: its contacts are found every substep
    w = _one_box()
    top = w.create_entity(RigidBody.box(0, 100, 80, 6, mass=1.0))
    w.component(top, RigidBody).omega = 40.0
    return w


def _tumblers() -> World:  # turn fast against each other, the walls, a ramp and a crate
    w = World(bounds=(-300, -50, 300, 400)).use(*(s() for s in systems.SOLVER))
    w.add_segment((-300, 60), (0, -40))
    w.create_entity(RigidBody.box(150, -30, 60, 40, mass=50.0))
    for k in range(4):
        e = w.create_entity(RigidBody.box(-200 + 110 * k, 120 + 30 * k, 50, 8, mass=1.0))
        w.component(e, RigidBody).omega = 35.0 * (-1) ** k
    return w


def _spinner_among_segments() -> World:  # a turner's rows may pass the rows made at first
    w = _spinner()
    for k in range(150):
        w.add_segment((-300 + 4 * k, -200), (-298 + 4 * k, -200))
    return w


def _heap() -> World:  # more pairs and contacts than the rows made for them at first
    return scenes.box_pyramid(12)[0]


def _heap_and_dart() -> World:  # outgrows its rows with a fast body: the stages, then fused
    w = _heap()
    dart = w.create_entity(RigidBody.box(-400, 30, 20, 2, mass=1.0))
    w.component(dart, RigidBody).vx = 6000.0
    return w


def _sleepy() -> World:  # a pyramid and a chain that fall asleep, a dart that wakes them
    w, _ = scenes.box_pyramid(6)
    w.sleep = True
    prev = w.create_entity(RigidBody.box(-300, 200, 10, 10), Anchor())
    for k in range(6):
        link = w.create_entity(RigidBody.box(-300 + 20 * (k + 0.5), 200, 20, 4))
        w.create_entity(Joint(prev, link, -300 + 20 * k, 200))
        prev = link
    dart = w.create_entity(RigidBody.box(0, 2000, 20, 20))
    w.component(dart, RigidBody).vy = -100.0  # lands after the rest sleeps
    return w


def _one_substep() -> World:
    w = _chain()
    w.substeps = 1
    return w


SCENES = {"one box": _one_box, "chain": _chain, "column": _column, "dart": _dart,
          "dart without Project": _dart_without_project, "spinner": _spinner,
          "tumblers": _tumblers, "spinner among segments": _spinner_among_segments,
          # below ``rigid_solver.LANES_FROM`` contacts (one at a time), and over (in lanes)
          "pyramid": lambda: scenes.box_pyramid(5)[0], "heap": _heap,
          "pyramid in lanes": lambda: scenes.box_pyramid(8)[0],
          "heap and dart": _heap_and_dart, "sleepy": _sleepy,
          "one substep": _one_substep}
#: Scenes that take longer than 90 frames to show what they test (sleep, then a wake), or
#: fewer (the lanes' pyramid: its first frames hold every kind of substep).
LONGER = {"sleepy": 300, "pyramid in lanes": 30}


def _games(world: World, frames: int) -> World:
    """Step ``frames`` frames, dropping a box every 7th and deleting the oldest every 11th
    (from outside the step, as a game's input would), reloaded from a save halfway."""
    made = []
    for f in range(frames):
        if f % 7 == 0:
            made.append(world.create_entity(RigidBody.box(10 * (f % 5), 150, 20, 20)))
        if f % 11 == 0 and made:
            world.delete_entity(made.pop(0))
        if f == frames // 2:
            world = saving.loads(saving.dumps(world))
        world.step()
    return world


def _run(make, fused: bool, frames: int = 90, games: bool = False) -> dict[str, np.ndarray]:
    rigid_frame.ENABLED = fused
    try:
        w = make()
        w = _games(w, frames) if games else (w.step(frames) or w)
        b = w.store.bodies
        state = {k: b.cols[k][: b.n].copy() for k in COLUMNS}
        state["impulses"] = w.contacts.cf[: w.contacts.n].copy()
        state["joints"] = w.store.joints.cols["impulse"][: w.store.joints.n].copy()
        return state
    finally:
        rigid_frame.ENABLED = True


@pytest.mark.parametrize("name", sorted(SCENES))
def test_the_fused_substeps_give_the_same_bits_as_the_stages(name):
    frames = LONGER.get(name, 90)
    one, other = _run(SCENES[name], True, frames), _run(SCENES[name], False, frames)
    for key in one:
        assert one[key].tobytes() == other[key].tobytes(), key


@pytest.mark.parametrize("make", [_one_box, _chain, _column, _sleepy, _tumblers])
def test_the_same_bits_while_a_game_spawns_deletes_and_saves(make):
    one, other = _run(make, True, 60, games=True), _run(make, False, 60, games=True)
    for key in one:
        assert one[key].tobytes() == other[key].tobytes(), key


def _spied(world: World, frames: int, name: str = "whole") -> list:
    with spy.returns(rigid_frame, name) as seen:
        world.step(frames)
    return seen


def test_it_takes_whole_frames_where_it_may_and_not_where_it_may_not():
    assert _spied(_one_box(), 3) == [(6, 0)] * 3
    assert _spied(_chain(), 2) == [(6, 0)] * 2  # the joints: Project's part of the kernel
    w = _one_box()
    w.profile = {}
    assert _spied(w, 2) == [] and _spied(w, 2, "fuse") == []  # a profile times every stage
    for make in (_dart, _dart_without_project):
        assert _spied(make(), 2) == [(6, 0)] * 2  # swept each substep in the kernel too
    w = _spinner()
    with spy.returns(rigid_frame, "fuse") as later:
        assert _spied(w, 2) == [(6, 0)] * 2  # its contacts found every substep, in the kernel
    assert later == [] and w.contacts.nfast == 1 and w.contacts.n > w.contacts.bodies
    w = _spinner_among_segments()  # rows for its looks at 150 segments: grown, then in the call
    assert _spied(w, 2) == [(0, 2), (6, 0)] and w.contacts.nfast == 1
    w = _heap_and_dart()
    with spy.returns(rigid_frame, "fuse") as later:
        assert _spied(w, 1) == [(0, 2)]
    assert later == [True] and w.contacts.sweep  # the rest fused, swept
    w = _heap()
    with spy.returns(rigid_frame, "fuse") as later:
        assert _spied(w, 1) == [(0, 2)]  # outgrew its rows: grown by the stages' Collide
    assert later == [True] and _spied(w, 1) == [(6, 0)]  # room enough the next frame
    w = saving.loads(saving.dumps(_one_box()))
    assert _spied(w, 2) == [(0, 0), (6, 0)]  # the loaded memory given by the stages first


@njit
def graph_arrays(a):
    """The contact graph's arrays ``a`` (a ``frame_args.RigidFrameArgs``) holds."""
    return (a.pairs, a.sap, a.swept, a.fast, a.sorted_pairs, a.linked, a.ci, a.cf, a.old_ci,
            a.old_cf, a.otable, a.boxes, a.trig, a.order, a.lanes, a.ends, a.pose, a.angle0,
            a.rows, a.before)


def _same_arrays(world: World) -> None:
    """The object the next whole frame's kernel would be handed holds the graph's arrays
    of now (the same memory, the same shape): every replacement was counted."""
    found = world.contacts
    stages = world.pipeline.groups[0][1]
    kept = rigid_frame._held(world, pipeline._contexts(world.dt, world.substeps)[0], stages[-1])
    theirs = (found.pairs, found.sap, found.swept, found.fast, found.sorted_pairs, found.linked,
              found.ci, found.cf, found.old_ci, found.old_cf, found.otable, found.boxes, found.trig,
              found.order, found.lanes, found.ends, found.pose, found.frame_angle0,
              found.frame_rows, found.frame_before)
    for ours, its in zip(graph_arrays(kept), theirs, strict=True):
        assert ours.ctypes.data == its.ctypes.data and ours.shape == its.shape


def test_the_kept_graph_object_holds_the_graphs_arrays_as_they_grow_and_change():
    w = _one_box()
    w.step()
    _same_arrays(w)
    first = w.__dict__["_rigid_held"][1]
    w.step()
    assert w.__dict__["_rigid_held"][1] is first  # nothing replaced: the same object
    for k in range(40):  # a heap: more pairs, contacts, boxes and scratch than at first
        w.create_entity(RigidBody.box(-100 + 25 * (k % 9), 80 + 30 * (k // 9), 20, 20))
        w.step()
        _same_arrays(w)
    links = [w.create_entity(RigidBody.box(300 + 25 * k, 200, 20, 4)) for k in range(4)]
    for a, b in zip(links, links[1:], strict=False):  # a joint: another linked array
        w.create_entity(Joint(a, b, w.component(a, RigidBody).x + 12, 200))
    w.step()
    _same_arrays(w)
    twin = w.clone()
    twin.step(2)
    _same_arrays(twin)
    assert twin.__dict__["_rigid_held"][1] is not w.__dict__["_rigid_held"][1]
    _same_arrays(w)
    w = saving.loads(saving.dumps(w))  # a loaded memory: last frame's rows are another
    w.step(2)
    _same_arrays(w)
