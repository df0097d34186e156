"""Rays that pass over what a game names: ``ignore`` (an entity, entities, a Body) and
``group``."""

from __future__ import annotations

import pytest

from ecsgoo import Particle, RigidBody, World, WorldError, bodies


def _scene() -> tuple[World, bodies.Body, int, int]:
    w = World(gravity=(0, 0), bounds=None)
    ball = bodies.jelly_ball(w, 0, 0, radius=30)  # the player's own ball
    disc = w.create_entity(Particle(100, 0, radius=10))
    crate = w.create_entity(RigidBody.box(200, 0, 20, 20))
    return w, ball, disc, crate


def test_a_ray_from_inside_the_players_ball_ignores_it():
    w, ball, disc, crate = _scene()
    hit = w.raycast((0, 0), (300, 0))
    assert hit is not None and hit.entity in (*ball.particles, ball.constraint)
    hit = w.raycast((0, 0), (300, 0), ignore=ball)
    assert hit.entity == disc and hit.x == pytest.approx(90)
    hits = w.raycast_all((0, 0), (300, 0), ignore=[*ball.particles, ball.constraint, disc])
    assert [h.entity for h in hits] == [crate]
    assert w.raycast((0, 0), (300, 0), ignore=ball).entity == disc  # nothing was changed


def test_a_group_filter_passes_over_that_collision_group():
    w, ball, disc, crate = _scene()
    assert w.raycast((0, 0), (300, 0), group=ball.group).entity == disc
    w.component(crate, RigidBody).group = 7
    hits = w.raycast_all((150, 0), (300, 0), group=7)
    assert hits == []


def test_a_bad_ignore_or_group_is_a_clear_error():
    w, *_ = _scene()
    with pytest.raises(WorldError, match="ignore"):
        w.raycast((0, 0), (1, 0), ignore="ball")
    with pytest.raises(WorldError, match="group"):
        w.raycast((0, 0), (1, 0), group="x")
