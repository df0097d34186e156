"""Heavy bodies on light ones (``kernels.stacks``): the shock pass keeps a 1:1000 stack
standing, and leaves scenes of like masses and sideways hits alone."""

from __future__ import annotations

import pytest

from ecsgoo import RigidBody, World, systems


def _stack(masses: list[float], sizes: list[float]) -> tuple[World, list[RigidBody]]:
    """Boxes stacked on the bounds' floor, bottom first: ``sizes`` their heights (px, 40
    wide), ``masses`` theirs."""
    w = World(bounds=(-1000, 0, 1000, 2000)).use(*(s() for s in systems.SOLVER))
    y, out = 0.0, []
    for mass, size in zip(masses, sizes, strict=True):
        e = w.create_entity(RigidBody.box(0, y + size / 2, 40, size, mass=mass))
        out.append(w.component(e, RigidBody))
        y += size
    return w, out


@pytest.mark.parametrize("ratio", [100.0, 1000.0, 10000.0])
def test_a_heavy_box_stays_on_top_of_a_light_one(ratio: float) -> None:
    """Before: 1:1000 squeezed the light box out within 100 frames (it ended beside the
    heavy one, both on the floor); 1:400 sank 2 px into it."""
    w, (light, heavy) = _stack([1.0, ratio], [20.0, 40.0])
    w.step(300)
    assert light.y == pytest.approx(10.0, abs=1.0)
    assert heavy.y == pytest.approx(40.0, abs=1.5)  # resting on it: overlap ≤ slop
    assert abs(light.x) < 1.0 and abs(heavy.x) < 3.0
    assert abs(heavy.angle) < 0.01


def test_a_column_each_ten_times_heavier_than_the_one_below_stands() -> None:
    w, boxes = _stack([1.0, 10.0, 100.0, 1000.0], [20.0] * 4)
    w.step(300)
    for k, box in enumerate(boxes):
        assert box.y == pytest.approx(10.0 + 20.0 * k, abs=1.0 + 0.5 * k)
        assert abs(box.x) < 2.0 * (k + 1)  # some drift up the column, no squeezing out
        assert abs(box.angle) < 0.03


def test_a_light_box_thrown_sideways_does_not_launch_a_heavy_one() -> None:
    """A side contact is no support: the light box bounces off as masses say, the heavy
    one barely moves (momentum: at most the light one's 1/1000 share)."""
    w = World(bounds=(-1000, 0, 1000, 2000)).use(*(s() for s in systems.SOLVER))
    heavy = w.component(w.create_entity(RigidBody.box(0, 20, 40, 40, mass=1000.0)), RigidBody)
    light = w.component(w.create_entity(RigidBody.box(-100, 10, 20, 20, mass=1.0)), RigidBody)
    w.step(10)
    light.vx = 600.0
    w.step(60)
    assert abs(heavy.x) < 1.0
    assert light.x < -25.0  # stopped at (or bounced off) the heavy box's face
