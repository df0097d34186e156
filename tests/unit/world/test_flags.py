"""``ecsgoo.flags``: the kept answers follow every write of the flags they are of."""

from __future__ import annotations

import numpy as np

from ecsgoo import RigidBody, World, systems
from ecsgoo.flags import any_set, kinematic, stopping


def _truth(world: World) -> tuple[bool, bool]:
    b = world.store.bodies
    return any_set(b.cols["kinematic"][: b.n]), any_set(b.cols["stop"][: b.n])


def _check(world: World) -> None:
    b = world.store.bodies
    assert (kinematic(b), stopping(b)) == _truth(world)


def test_kinematic_and_stopping_follow_kinds_moves_stops_deletes_and_copies() -> None:
    w = World(bounds=(0, 0, 600, 400)).use(*(s() for s in systems.SOLVER))
    a = w.create_entity(RigidBody.box(100, 100, 40, 40))
    b = w.create_entity(RigidBody.box(300, 100, 40, 40, kind="kinematic"))
    _check(w)
    assert kinematic(w.store.bodies) and not stopping(w.store.bodies)
    w.move_to(b, 320, 120)
    _check(w)
    assert stopping(w.store.bodies)
    w.step()  # the move ends with the frame
    _check(w)
    assert not stopping(w.store.bodies)
    w.component(b, RigidBody).kind = "dynamic"
    _check(w)
    assert not kinematic(w.store.bodies)
    w.component(a, RigidBody).kind = "kinematic"
    _check(w)
    twin = w.clone()
    w.component(a, RigidBody).kind = "dynamic"  # the copy keeps its own answer
    _check(w)
    _check(twin)
    assert kinematic(twin.store.bodies) and not kinematic(w.store.bodies)
    twin.delete_entity(a)  # the kinematic row gone (its flag left past the rows)
    _check(twin)
    assert not kinematic(twin.store.bodies)
    c = w.store.bodies.cols
    assert not np.any(c["kinematic"][: w.store.bodies.n])
