"""``physics.direct``: a kernel called on its compiled entry gives what the dispatcher
gives, keeps one entry for each StructRef type it meets, and the fused rigid frame
through it steps to the same bits as through numba's dispatch."""

from __future__ import annotations

import numpy as np
from numba import njit

import scenes
from ecsgoo import RigidBody, World, systems
from ecsgoo.kernels.rigid_frame import rigid_frame_held
from ecsgoo.physics import rigid_frame
from ecsgoo.physics.direct import Direct


@njit(cache=True)
def _count_plus(held, k, x, column):
    """Something of every argument: ``k + x + column.sum()`` (``held`` only typed)."""
    return k + x + column.sum()


def _rigid_held() -> object:
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(400, 100, 40, 40, mass=1.0))
    w.step(2)
    return w._rigid_held[1]


def _disc_held() -> object:
    w = scenes.circle_pile(20)
    w.step(2)
    return w.discs.held[0]


def test_the_entry_gives_what_the_dispatcher_gives_for_each_type_it_meets() -> None:
    direct, column = Direct(_count_plus), np.arange(4.0)
    rigid, disc = _rigid_held(), _disc_held()
    assert direct(rigid, 2, 0.5, column) == _count_plus(rigid, 2, 0.5, column) == 8.5
    assert direct.last[0] is rigid._numba_type_  # kept after the first call
    assert direct(rigid, 3, 0.25, column) == 9.25  # (on the entry)
    assert direct(disc, 1, 0.0, column) == 7.0  # another type: the dispatcher, then kept
    assert direct(rigid, 1, 1.0, column) == 8.0 and direct(disc, 0, 2.0, column) == 8.0
    assert len(direct.entries) == 2


def _pyramid_hash(frame: object) -> str:
    kept = rigid_frame._FRAME
    rigid_frame._FRAME = frame
    try:
        w = scenes.box_pyramid(6)[0]
        w.step(60)
        return w.state_hash()
    finally:
        rigid_frame._FRAME = kept


class _Dispatched(Direct):
    """Keeps no entry: every call goes through numba's dispatcher (counted)."""

    calls = 0

    def _first(self, held: object, rest: tuple) -> object:
        self.calls += 1
        return self.kernel(held, *rest)


def test_the_fused_frame_on_its_entry_makes_the_bits_of_the_dispatched_one() -> None:
    dispatched = _Dispatched(rigid_frame_held)
    assert _pyramid_hash(Direct(rigid_frame_held)) == _pyramid_hash(dispatched)
    assert dispatched.calls >= 60 and dispatched.last == (None, None)  # a call a frame
