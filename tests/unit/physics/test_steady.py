"""A steady frame (``physics.steady``): a rigid world stepped again as it was skips the
looks that found it so, to the same bits and the same events as the usual frame,
whatever a game changes between frames, from a handler or from a stage."""

from __future__ import annotations

import random

import pytest
import spy

from ecsgoo import Anchor, Joint, RigidBody, Sensor, World, WorldError, saving, systems
from ecsgoo.physics import rigid_frame, steady


def _ground_and_box() -> World:
    w = World(bounds=None).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(0, 0, 600, 20), Anchor())
    w.create_entity(RigidBody.box(0, 60, 40, 40, mass=1.0, angle=0.2))
    # bounces all along: contacts begin and end in steady frames too
    w.create_entity(RigidBody.box(150, 120, 30, 30, mass=1.0, restitution=0.7))
    return w


def _chain() -> World:
    w = _ground_and_box()
    prev = w.create_entity(RigidBody.box(-200, 300, 10, 10), Anchor())
    for k in range(6):
        link = w.create_entity(RigidBody.box(-200 + 20 * (k + 0.5), 300, 20, 4))
        w.create_entity(Joint(prev, link, -200 + 20 * k, 300))
        prev = link
    return w


def _boxes(w: World) -> list[int]:
    return [e for e, _ in w.get_component(RigidBody) if not w.has_component(e, Anchor)]


def _poke(w: World, rng: random.Random, log: list) -> bool:
    """One of the changes a game makes between frames, each touching what a steady frame
    must notice (a row, a flag, a setting, a force, the level, a stage, a handler).
    True: it is one a game undoes soon (watching, a sensor, a grab, sleep, a profile, a
    kinematic body: a world with any of them is never steady); a second call undoes it."""
    boxes = _boxes(w)
    box = rng.choice(boxes) if boxes else None
    kind = rng.randrange(18)
    if kind == 0:
        w.create_entity(RigidBody.box(rng.uniform(-100, 100), 200, 20, 20, mass=1.0))
    elif kind == 1 and box is not None:
        w.delete_entity(box)
    elif kind == 2 and box is not None:
        w.apply_force(box, rng.uniform(-5e4, 5e4), 3e4)
    elif kind == 3:
        w.gravity = (rng.uniform(-50, 50), -980.0)
    elif kind == 4:
        w.pipeline[-2 if isinstance(w.pipeline[-1], systems.Break) else -1].bounce_speed = \
            rng.uniform(10, 200)
    elif kind == 5:  # under the bouncing box: it lands on it
        w.add_segment((60, rng.uniform(12, 40)), (300, 20))
    elif kind == 6 and w.get_component(RigidBody):  # the first (the ground): bounces reported
        body = w.get_component(RigidBody)[0][1]
        body.events = not body.events
        w.set_handler("contact_began", lambda *a: log.append(("began", a[1:])))
    elif kind == 7:  # a sensor, or none again
        sensors = w.get_component(Sensor)
        if sensors:
            w.delete_entity(sensors[0][0])
        else:
            w.create_entity(Sensor.box(150, 40, 200, 60))
            w.set_handler("sensor_entered", lambda *a: log.append(("entered", a[-2:])))
    elif kind == 8 and box is not None:
        w.component(box, RigidBody).vx = rng.uniform(-300, 300)
    elif kind == 9 and (box is not None or w.grabbed != -1):  # a grab, or a release
        w.release() if w.grabbed != -1 else w.grab(box, 0.0, 150.0)
    elif kind == 10:
        w.release()
    elif kind == 11:
        w.sleep = not w.sleep
    elif kind == 12:
        w.profile = {} if w.profile is None else None
    elif kind == 13 and len(boxes) >= 2:
        w.create_entity(Joint(boxes[0], boxes[1], 0.0, 60.0, max_force=rng.uniform(50, 5e4)))
        w.set_handler("joint_broke", lambda *a: log.append(("broke", a[1:])))
    elif kind == 14:
        w.contact_slop = rng.uniform(0.5, 2.0)
    elif kind == 15 and box is not None:
        w.component(box, RigidBody).mass = rng.uniform(0.1, 50)
    elif kind == 16:
        w.level.lines.append((60.0, rng.uniform(12, 40), 300.0, 25.0))
        w.level._arrays = None  # (as the editor does after writing its pieces)
    elif kind == 17:  # a kinematic paddle swept where the boxes are, or none again
        paddles = [e for e, b in w.get_component(RigidBody) if b.kind == "kinematic"]
        if paddles:
            w.delete_entity(paddles[0])
        else:
            paddle = w.create_entity(RigidBody.box(-250, 30, 60, 10, kind="kinematic"))
            w.move_to(paddle, rng.uniform(-200, 200), rng.uniform(15, 60))
    return kind in (6, 7, 9, 11, 12, 17)


def _play(make, seed: int, on: bool, frames: int = 300) -> tuple[list[str], list, int]:
    """Each frame's state hash, the events and how many frames were steady, with steady
    frames ``on`` or off (a world stopped by an error: its message last)."""
    steady.ENABLED = on
    try:
        w, rng, log, hashes = make(), random.Random(seed), [], []
        undo: dict[int, int] = {}  # frame → the poke's kind to call again then
        with spy.returns(steady, "holds") as steady_frames:
            for f in range(frames):
                if f in undo:
                    _poke(w, random.Random(undo.pop(f)), log)
                elif rng.random() < 0.06:
                    seed = rng.randrange(1 << 30)
                    if _poke(w, random.Random(seed), log):
                        undo[f + rng.randrange(3, 20)] = seed
                if f == frames // 2:
                    w = saving.loads(saving.dumps(w))
                try:
                    w.step()
                except WorldError as error:  # (what fell off the ground, then grabbed)
                    hashes.append(str(error))
                    break
                hashes.append(w.state_hash())
        return hashes, log, sum(steady_frames)
    finally:
        steady.ENABLED = True


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("make", [_ground_and_box, _chain])
def test_steady_frames_give_the_same_bits_and_events_as_the_usual_ones(make, seed):
    on, off = _play(make, seed, True), _play(make, seed, False)
    assert on[1] == off[1]
    assert on[0] == off[0]
    assert on[2] > 30 and off[2] == 0  # (what is compared: a tenth of the frames or more steady)


def test_a_world_as_it_was_skips_the_looks():
    w = _ground_and_box()
    w.step(3)
    assert w._steady is not None
    with spy.returns(rigid_frame, "can_fuse") as asked:
        w.step(5)
    assert asked == []  # none of the looks: the frames were steady
    w.gravity = (0.0, -500.0)  # a setting: the next frame looks again
    with spy.returns(rigid_frame, "can_fuse") as asked:
        w.step(1)
    assert asked == [True, True]  # the solver's look, then whether the next may be steady


@pytest.mark.parametrize("change", [
    lambda w: w.create_entity(Sensor.box(0, 40, 200, 60)),
    lambda w: setattr(w.component(_boxes(w)[0], RigidBody), "events", True),
    lambda w: w.apply_force(_boxes(w)[0], 0.0, 1e4),
    lambda w: setattr(w, "sleep", True),
    lambda w: setattr(w, "profile", {}),
    lambda w: w.add_segment((-300, -5), (300, -5)),
    lambda w: w.grab(_boxes(w)[0], 0.0, 100.0),
    lambda w: setattr(w.component(_boxes(w)[0], RigidBody), "kind", "kinematic"),
    lambda w: setattr(w.pipeline[2], "bounce_speed", 5.0),
    lambda w: w.create_entity(Joint(_boxes(w)[0], _boxes(w)[1], 0.0, 60.0)),
    lambda w: setattr(w, "contact_slop", 2.0),
    lambda w: setattr(w, "substeps", 4),
    lambda w: w.use(*(s() for s in systems.SOLVER)),
    lambda w: w.create_entity(RigidBody.box(0, 300, 10, 10)),
])
def test_what_a_game_changes_between_frames_ends_the_steady_ones(change):
    w = _ground_and_box()
    w.step(3)
    assert steady.holds(w, w.pipeline)
    change(w)
    assert not steady.holds(w, w.pipeline)


def test_a_chain_without_break_is_steady_too():
    """A pipeline of the solver stages alone (no Break after them), with joints."""
    w = World(bounds=None).use(systems.Integrate(), systems.Project(), systems.Collide())
    prev = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    for k in range(4):
        link = w.create_entity(RigidBody.box(20 * (k + 0.5), 0, 20, 4))
        w.create_entity(Joint(prev, link, 20 * k, 0))
        prev = link
    twin = w.clone()
    w.step(30)
    assert steady.holds(w, w.pipeline)
    steady.ENABLED = False
    try:
        twin.step(30)
    finally:
        steady.ENABLED = True
    assert w.state_hash() == twin.state_hash()
