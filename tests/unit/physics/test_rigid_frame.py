"""A world of rigid bodies only: the frame's later substeps in one kernel call
(``physics.rigid_frame``) give the same bits as the stages one substep at a time."""

from __future__ import annotations

import numpy as np
import pytest
import spy

import scenes
from ecsgoo import Anchor, Joint, RigidBody, World, systems
from ecsgoo.physics import rigid_frame

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


SCENES = {"one box": _one_box, "chain": _chain, "column": _column, "dart": _dart,
          "pyramid": lambda: scenes.box_pyramid(6)[0]}


def _run(make, fused: bool, frames: int = 90) -> dict[str, np.ndarray]:
    rigid_frame.ENABLED = fused
    try:
        w = make()
        w.step(frames)
        b = w.store.bodies
        state = {k: b.cols[k][: b.n].copy() for k in COLUMNS}
        state["impulses"] = w.contacts.cf[: w.contacts.n].copy()
        state["joints"] = w.store.joints.cols["impulse"][: w.store.joints.n].copy()
        return state
    finally:
        rigid_frame.ENABLED = True


@pytest.mark.parametrize("name", sorted(SCENES))
def test_the_fused_substeps_give_the_same_bits_as_the_stages(name):
    one, other = _run(SCENES[name], True), _run(SCENES[name], False)
    for key in one:
        assert one[key].tobytes() == other[key].tobytes(), key


def test_it_fuses_where_it_may_and_not_where_it_may_not():
    with spy.returns(rigid_frame, "fuse") as seen:
        _one_box().step(3)
        assert seen == [True, True, True]
        seen.clear()
        w = _one_box()
        w.profile = {}
        w.step(2)  # a profile times every stage: no fusing
        assert seen == []
        w = _dart()
        w.step(1)
        assert seen == [False]  # the dart is swept
