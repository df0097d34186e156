"""render.scene: one frame's rows: links, halos, bodies, discs, Looks and the wireframe."""

from __future__ import annotations

import numpy as np

from ecsgoo import Anchor, Look, Particle, Spring, World, systems
from ecsgoo.bodies import jelly_ball
from ecsgoo.render import Render


def test_broken_links_are_gone_and_looks_apply():
    w = World(bounds=(0, 0, 800, 600))
    a, b, c = (w.create_entity(Particle(x, 100, radius=5)) for x in (100, 200, 300))
    s1 = w.create_entity(Spring(a, b), Look((1, 2, 3)))
    w.create_entity(Spring(b, c))
    render = Render()
    assert len(render.scene(w).capsules) == 2
    assert np.allclose(render.scene(w).capsules[0, 5:8], np.array([1, 2, 3]) / 255)
    w.component(s1, Spring).broken = True
    assert len(render.scene(w).capsules) == 1
    w.add_component(c, Look(visible=False))
    assert len(render.scene(w).discs) == 2
    render.wireframe = True
    scene = render.scene(w)
    assert len(scene.discs) == 3 and (scene.discs[:, 3] > 0).all(), "wireframe: every ring"


def test_critical_links_get_a_halo():
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER), systems.Analyze())
    a = w.create_entity(Particle(100, 100, radius=5), Anchor())
    b = w.create_entity(Particle(150, 100, radius=5))
    w.create_entity(Spring(a, b))
    w.step()
    render = Render()
    with_halo = len(render.scene(w).capsules)
    render.critical_count = 0
    assert with_halo == len(render.scene(w).capsules) + 1


def test_a_body_is_a_filled_outline_over_its_particles():
    w = World(bounds=(0, 0, 800, 600))
    ball = jelly_ball(w, 200, 300, radius=40, vertices=12)
    scene = Render().scene(w)
    assert len(scene.discs) == 0, "a jelly ball's particles are under its fill"
    assert len(scene.triangles) == 3 * 12 and len(scene.capsules) == 12, "a fan and its edge"
    w.add_component(ball.constraint, Look(visible=False))
    assert len(Render().scene(w).triangles) == 0
    assert len(scene.backdrop) == 6, "the sky: two triangles"


def test_a_scene_within_a_rectangle_keeps_the_shapes_that_reach_into_it():
    from ecsgoo.rigid import RigidBody
    from tests.naive import scene_within_naive

    w = World().use(*(s() for s in systems.SOLVER))
    for k in range(12):
        jelly_ball(w, 60 + 70 * k, 200, radius=25, vertices=10)
        w.create_entity(RigidBody.box(60 + 70 * k, 400, 30, 20, angle=0.1 * k))
        w.create_entity(RigidBody.circle(60 + 70 * k, 500, 12))
    scene = Render().scene(w, 1.0)
    rects = ((0, 0, 1e4, 1e4), (200, 180, 260, 420), (500, 495, 501, 505), (-50, -50, -40, -40))
    for rect in rects:
        got = scene.within(rect)
        tri, caps, discs = scene_within_naive(scene.triangles, scene.capsules, scene.discs, rect)
        assert np.array_equal(got.triangles, tri) and np.array_equal(got.capsules, caps)
        assert np.array_equal(got.discs, discs) and got.backdrop is scene.backdrop
    whole = scene.within((0, 0, 1e4, 1e4))
    assert len(whole.triangles) == len(scene.triangles) and len(whole.discs) == len(scene.discs)
    assert 0 < len(scene.within((200, 180, 260, 420)).triangles) < len(scene.triangles)
