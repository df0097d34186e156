"""query_box, query_point and nearest_particle pass over what ``ignore`` and ``group`` name,
as raycast does (issue 25: a group filter on every query)."""

from __future__ import annotations

import pytest

from ecsgoo import Particle, RigidBody, World, WorldError
from ecsgoo.bodies import jelly_ball


def _scene() -> tuple[World, int, int, int, object]:
    w = World(bounds=None, gravity=(0.0, 0.0))
    mine = w.create_entity(Particle(0, 0, radius=5, group=7))
    other = w.create_entity(Particle(3, 0, radius=5))
    crate = w.create_entity(RigidBody.box(0, 0, 20, 20, mass=1.0, group=7))
    ball = jelly_ball(w, 0, 0, 30, vertices=12)
    return w, mine, other, crate, ball


def test_query_box_and_point_pass_over_ignored_entities_and_a_group() -> None:
    w, mine, other, crate, ball = _scene()
    everything = w.query_point(0, 0)
    assert {mine, other, crate} <= set(everything)
    assert mine not in w.query_point(0, 0, ignore=mine)
    assert not {mine, crate} & set(w.query_box(-1, -1, 1, 1, group=7))
    assert other in w.query_box(-1, -1, 1, 1, group=7)
    kept = w.query_point(0, 0, ignore=ball)  # a Body: its particles and its constraint
    assert not set(ball.particles) & set(kept)
    assert ball.constraint not in kept
    assert w.query_point(0, 0, ignore=[mine, other, crate]) == sorted(
        set(everything) - {mine, other, crate})


def test_nearest_particle_passes_over_them_too() -> None:
    w, mine, other, _, _ = _scene()
    assert w.nearest_particle(0, 0, ignore=mine, movable=False) != mine
    assert w.nearest_particle(-10, 0, group=7) != mine


def test_a_bad_ignore_names_the_query() -> None:
    w, *_ = _scene()
    with pytest.raises(WorldError, match="query_box: ignore must be"):
        w.query_box(0, 0, 1, 1, ignore="me")
    with pytest.raises(WorldError, match="nearest_particle: ignore must be"):
        w.nearest_particle(0, 0, ignore=1.5)
