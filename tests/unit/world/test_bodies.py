"""The body builders and the Body handle: sizes, stacking, moving, pushing, deleting."""

from __future__ import annotations

import pytest

from ecsgoo import Anchor, Particle, Spring, World, WorldError, dumps, loads, systems
from ecsgoo.bodies import box, jelly_ball, rope


def _world(**kw) -> World:
    return World(**kw).use(*(s() for s in systems.SOLVER))


def _extent(w: World, body) -> tuple[float, float, float, float]:
    views = [w.component(e, Particle) for e in body.particles]
    return (min(v.x - v.radius for v in views), min(v.y - v.radius for v in views),
            max(v.x + v.radius for v in views), max(v.y + v.radius for v in views))


def test_a_box_spans_its_size_with_its_discs_inside():
    w = _world()
    x0, y0, x1, y1 = _extent(w, box(w, 400, 300, 40, 30))
    assert (x0, y0, x1, y1) == pytest.approx((380, 285, 420, 315))


def test_a_tower_of_boxes_stands_like_boxes():
    w = _world(bounds=(0, 0, 800, 600))
    tower = [box(w, 400, 20 + 40.5 * k, 40, 40) for k in range(5)]
    w.step(300)
    for k, b in enumerate(tower):
        x, y = b.centroid()
        assert abs(x - 400) < 0.5, (k, x)
        # resting on each other's outlines, each edge as thick as its discs
        # (soft contacts hold each joint up to half a px deep)
        assert 20 + 40 * k - 0.5 * (k + 1) <= y <= 20 + 40.5 * k, (k, y)  # where drawn


def test_body_handles_move_push_and_delete():
    w = _world(gravity=(0, 0), bounds=None, damping=1.0)
    ball = jelly_ball(w, 200, 200, radius=30)
    assert ball.centre == ball.particles[-1] and ball.world is w
    assert ball.centroid() == pytest.approx((200, 200), abs=1e-9)
    ball.translate(50, -20)
    assert ball.centroid() == pytest.approx((250, 180), abs=1e-9)
    ball.set_velocity(60, 0)
    w.step(1)
    assert ball.centroid() == pytest.approx((251, 180), abs=1e-6)
    other = w.create_entity(Particle(10, 10))
    ball.delete()
    assert w.entities() == [other] and not ball.alive
    with pytest.raises(WorldError, match="gone"):
        ball.centroid()
    w2 = loads(dumps(w))
    assert w2.entities() == [other] and w2.store.springs.n == 0


def test_deleting_a_particle_removes_the_links_that_cannot_exist():
    w = _world()
    ball = jelly_ball(w, 300, 300, radius=40)
    w.delete_entity(ball.particles[0])
    gone = {ball.particles[0], ball.constraint}
    left = set(w.entities())
    assert ball.constraint not in left, "the ring lost a vertex: its constraint goes"
    dead_springs = [s for s in ball.springs if s not in left]
    assert len(dead_springs) == 5, "its two ring springs, two skip-one springs, its spoke"
    assert not gone & left
    for s in ball.springs:
        if s in left:
            assert w.has_component(s, Spring)
    w.step(2)  # and the world still steps
    loads(dumps(w)).step(1)


def test_rope_body_and_grounded_entities():
    w = World().use(*(s() for s in systems.SOLVER), systems.Analyze())
    r = rope(w, (400, 500), (500, 500), 5)
    loose = w.create_entity(Particle(100, 100))
    a = w.create_entity(Particle(600, 300))
    b = w.create_entity(Particle(620, 300))
    w.create_entity(Spring(a, b))
    w.step()
    report = w.resource(systems.StructureReport)
    assert report.grounded_entities.tolist() == sorted(r.particles)
    assert report.is_grounded(r.particles[3]) and not report.is_grounded(a)
    assert not report.is_grounded(loose)
    assert w.has_component(r.particles[0], Anchor)


def test_a_pyramid_of_shape_matched_boxes_base_5_stands():
    """Soft boxes stack: ``bodies.box`` defaults, a 2 px gap, 10 s."""
    import numpy as np

    from ecsgoo import World, systems
    from ecsgoo.bodies import box

    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    boxes = [box(w, 400 + (k - (4 - r) / 2) * 42, 20 + r * 40.5)
             for r in range(5) for k in range(5 - r)]
    start = np.array([b.centroid() for b in boxes])
    w.step(600)
    drift = np.hypot(*(np.array([b.centroid() for b in boxes]) - start).T)
    assert drift.max() < 5.0
