"""Continuous collision (``kernels.continuous``): no rigid body passes static geometry.

Each case is one a game meets: a thin plank or a small ball shot at a thin wall (a
static body, a level polygon, a level segment), head on, at an angle, spinning; a
plank spinning at 5,000 rad/s beside a wall; a body pushed by the largest force the
API takes against the bounds. "Through" means the centre's path over a frame crosses
the wall's line within its span.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ecsgoo import Anchor, Joint, RigidBody, World, systems
from ecsgoo.kernels.continuous import may_be_fast
from ecsgoo.physics.contacts import HEADROOM

SPAN = 200.0
OMEGA = 60.0  # the wall: x = 0, |y| < SPAN


def _world(wall: str, bounds: tuple[float, float, float, float] = (-2e4, -2e4, 2e4, 2e4),
           gravity: tuple[float, float] = (0.0, 0.0)) -> World:
    w = World(bounds=bounds, gravity=gravity).use(*(s() for s in systems.SOLVER))
    if wall == "body":
        w.create_entity(RigidBody.box(0, 0, 2, 2 * SPAN), Anchor())
    elif wall == "polygon":
        w.add_polygon([(-1, -SPAN), (1, -SPAN), (1, SPAN), (-1, SPAN)])
    else:
        w.add_segment((0, -SPAN), (0, SPAN))
    return w


def _shot(shape: str, angle: float) -> RigidBody:
    if shape == "tall":
        return RigidBody.box(-300, 0, 2, 100, angle=angle, mass=1.0)
    if shape == "flat":
        return RigidBody.box(-300, 0, 100, 2, angle=angle, mass=1.0)
    return RigidBody.circle(-300, 0, 3, mass=1.0)


def _crossed(w: World, body: RigidBody, frames: int) -> float | None:
    """Where (|y|) the body's centre crossed the wall's line within its span, or None."""
    for _ in range(frames):
        x0, y0 = body.x, body.y
        w.step(1)
        assert math.isfinite(body.x) and math.isfinite(body.y)
        if (body.x > 0) != (x0 > 0):
            y = y0 + (body.y - y0) * -x0 / (body.x - x0)
            if abs(y) < SPAN - 1:
                return abs(y)
    return None


@pytest.mark.parametrize("wall", ["body", "polygon", "segment"])
@pytest.mark.parametrize("shape", ["tall", "flat", "circle"])
@pytest.mark.parametrize("speed", [10_000.0, 50_000.0, 200_000.0])
@pytest.mark.parametrize("heading", [0.0, 0.3])
@pytest.mark.parametrize("spin", [0.0, 300.0])
def test_a_fast_body_never_passes_a_thin_wall(wall: str, shape: str, speed: float,
                                              heading: float, spin: float) -> None:
    w = _world(wall)
    body = w.component(w.create_entity(_shot(shape, 3 * heading)), RigidBody)
    body.vx, body.vy, body.omega = speed * math.cos(heading), speed * math.sin(heading), spin
    assert _crossed(w, body, 40) is None


@pytest.mark.parametrize("wall", ["body", "polygon", "segment"])
def test_a_fast_body_shot_from_far_away_is_swept_once_the_wall_is_in_reach(wall: str) -> None:
    """No sweep while nothing static is within a fast body's reach (a frame at four times
    its speed: ~670 px here); shot from 5,000 px at 10,000 px/s, the sweep takes it when
    the wall comes that near, and it never passes."""
    w = _world(wall)
    body = w.component(w.create_entity(RigidBody.box(-5000, 0, 2, 100, mass=1.0)), RigidBody)
    body.vx = 10_000.0
    assert _crossed(w, body, 60) is None
    assert body.x < 0


def _gate(x: float = 0.0, vx: float = 600.0, wall_x: float | None = None,
          seg_x: float | None = None, bound_x: float | None = None,
          platform: tuple[float, float] | None = None) -> bool:
    """``may_be_fast`` for a 2 × 2 px box at (x, 0) moving ``vx`` px/s (6 substeps of
    1/360 s, no gravity), and one static thing: a 2 px box at ``wall_x``, a vertical
    segment at ``seg_x``, bounds from −10⁵ to ``bound_x``, or a static box at
    ``platform[0]`` moving ``platform[1]`` px/s."""
    h = 1 / 360
    pos = np.array([[x, 0.0], [1e5, 1e5]])
    prev = pos - np.array([[vx * h, 0.0], [0.0, 0.0]])
    if wall_x is not None or platform is not None:
        px, pv = (wall_x, 0.0) if wall_x is not None else platform
        pos[1] = (px, 0.0)
        prev[1] = (px - pv * h, 0.0)
    w = np.array([1.0, 0.0])
    segs = np.zeros((0, 4)) if seg_x is None else np.array([[seg_x, -50.0, seg_x, 50.0]])
    walls = np.array([-1e5, -1e5, bound_x if bound_x is not None else 1e5, 1e5])
    zeros = np.zeros(2)
    return may_be_fast(2, pos, prev, zeros, zeros, w, np.array([1.5, 1.5]), np.zeros((2, 2)),
                       0.0, 0.0, np.array([1.0, 1.0]), h, HEADROOM, 6, w, segs, walls,
                       bound_x is not None, 1.0)


def test_the_sweep_is_asked_for_only_where_a_fast_body_may_reach_static_geometry() -> None:
    """600 px/s is 1.7 px a substep: fast for a 2 px box; its reach is a frame's six
    substeps at four times that (40 px) and the slop's margin."""
    assert not _gate()  # nothing static near
    assert not _gate(wall_x=100.0) and _gate(wall_x=40.0)
    assert not _gate(seg_x=100.0) and _gate(seg_x=40.0)
    assert not _gate(bound_x=100.0) and _gate(bound_x=40.0)
    assert not _gate(platform=(150.0, 0.0)) and _gate(platform=(150.0, -9000.0))
    assert not _gate(vx=30.0, wall_x=10.0)  # slow: the contacts hold it


def test_a_plank_spinning_at_5000_rad_s_beside_a_wall_stays_on_its_side() -> None:
    w = _world("body")
    body = w.component(w.create_entity(RigidBody.box(-52, 0, 100, 4, mass=1.0)), RigidBody)
    body.omega = 5000.0
    assert _crossed(w, body, 60) is None
    assert body.x < 0


def test_a_head_on_hit_stops_at_the_wall_and_keeps_no_speed_into_it() -> None:
    """Restitution 0: the 2 × 100 box ends touching the wall's face (x = −1 − 1), at rest
    along x; the speed it had (50,000 px/s) is gone, none of it into the wall."""
    w = _world("none")
    w.level.clear()
    w.create_entity(RigidBody.box(0, 0, 2, 2 * SPAN, restitution=0.0), Anchor())
    body = w.component(w.create_entity(RigidBody.box(-300, 0, 2, 100, mass=1.0,
                                                     restitution=0.0)), RigidBody)
    body.vx = 50_000.0
    w.step(30)
    assert body.x == pytest.approx(-2.0, abs=1.5)
    assert abs(body.vx) < 50.0


def test_the_largest_force_does_not_push_a_body_out_of_the_bounds() -> None:
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    e = w.create_entity(RigidBody.box(400, 300, 20, 20, mass=1.0))
    body = w.component(e, RigidBody)
    for k in range(120):
        w.apply_force(e, 1e9 if k % 40 < 30 else -1e9, 1e9)
        w.step(1)
        slop = max(4 * w.contact_slop, 5.0)  # the deepest a body may sit past a bound
        assert 10 - slop <= body.x <= 790 + slop
        assert 10 - slop <= body.y <= 590 + slop


def _whirl(hub_size: float) -> tuple[float, float]:
    w = World(bounds=None, gravity=(0.0, 0.0)).use(*(s() for s in systems.SOLVER))
    hub = w.create_entity(RigidBody.box(0, 0, hub_size, hub_size), Anchor())
    arm = w.create_entity(RigidBody.box(40, 0, 80, 2, mass=1.0))
    w.create_entity(Joint(hub, arm, 0, 0))
    body = w.component(arm, RigidBody)
    body.omega = OMEGA  # its far end at 4,800 px/s: a fast body, swept every substep
    w.step(30)
    return body.angle, body.omega


def test_a_body_jointed_to_a_static_one_turns_through_it() -> None:
    """A hinged arm whirling about a static hub it passes through: what a joint links is
    not in its way, so a big hub and a tiny one make the same bits."""
    assert _whirl(30.0) == _whirl(0.5)
    assert _whirl(30.0)[0] > math.pi  # it went round (the hub did not stop it)


def test_a_box_sliding_at_game_speed_stops_at_a_wall_on_the_floor() -> None:
    """A box sliding on the floor into a thin wall stops at its face, still on the floor
    (the floor it touches is never mistaken for what it meets)."""
    w = _world("segment", gravity=(0.0, -980.0))
    w.add_segment((-1000, -50), (1000, -50))
    e = w.create_entity(RigidBody.box(-300, -40, 40, 20, mass=1.0))
    body = w.component(e, RigidBody)
    body.vx = 600.0
    w.step(120)
    assert body.x < -21  # stopped by the wall's face, on its own side
    assert body.y == pytest.approx(-40.0, abs=1.5)
