"""render.rigid: rigid bodies' fills and outlines, circles' spokes, joints by stress, pixels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ecsgoo import Anchor, Look, World, systems
from ecsgoo.look import CRATE, RED, STATIC_BODY
from ecsgoo.render import Render
from ecsgoo.render.colors import ANCHOR_RGBA, stress_colors
from ecsgoo.render.rigid import CIRCLE_SIDES, joint_colors
from ecsgoo.rigid import Joint, RigidBody

L_SHAPE = [(0, 0), (60, 0), (60, 20), (20, 20), (20, 60), (0, 60)]


def _same_edges(capsules: np.ndarray, edges: list) -> bool:
    """Whether the capsules run along exactly ``edges`` (pairs of points), either way."""
    if len(capsules) != len(edges):
        return False
    for p, q in edges:
        ends = capsules[:, 0:4]
        hit = (np.abs(ends - np.r_[p, q]).max(axis=1) < 1e-3) | (
            np.abs(ends - np.r_[q, p]).max(axis=1) < 1e-3)
        if hit.sum() != 1:
            return False
    return True


def test_a_rotated_box_is_outlined_along_its_piece():
    w = World(bounds=(0, 0, 800, 600))
    e = w.create_entity(RigidBody.box(300, 200, 80, 30, angle=0.7))
    scene = Render().scene(w)
    assert len(scene.triangles) == 6 and len(scene.capsules) == 4
    corners = w.component(e, RigidBody).outline()[0]
    assert _same_edges(scene.capsules, [(corners[k], corners[(k + 1) % 4]) for k in range(4)])
    fill = scene.triangles[:, 0:2]
    assert np.allclose(fill.mean(axis=0), (300, 200), atol=20)
    assert np.abs(fill - (300, 200)).max() <= math.hypot(40, 15) + 1e-3


def test_a_concave_body_is_outlined_without_its_internal_diagonal():
    w = World(bounds=(0, 0, 800, 600))
    e = w.create_entity(RigidBody.polygon(300, 200, L_SHAPE, angle=0.3))
    body = w.component(e, RigidBody)
    assert len(body.pieces) == 2
    scene = Render().scene(w)
    assert len(scene.capsules) == 6, "the L's six outer edges, not the pieces' eight"
    assert len(scene.triangles) == 3 * 4, "each convex piece filled"
    # the L's centre of mass is (22, 22) from its first point (a 60×20 and a 20×40 rectangle)
    c, si = math.cos(body.angle), math.sin(body.angle)
    local = np.array(L_SHAPE, float) - 22.0
    corners = np.stack([body.x + c * local[:, 0] - si * local[:, 1],
                        body.y + si * local[:, 0] + c * local[:, 1]], axis=1)
    assert _same_edges(scene.capsules, [(corners[k], corners[(k + 1) % 6]) for k in range(6)])


def test_circles_show_their_rotation_and_static_bodies_are_earthy():
    w = World(bounds=(0, 0, 800, 600))
    e = w.create_entity(RigidBody.circle(400, 300, 30))
    ground = w.create_entity(RigidBody.box(400, 20, 600, 20), Anchor())
    render = Render()
    scene = render.scene(w)
    assert len(scene.capsules) == 4 + CIRCLE_SIDES + 1, "ground outline, rim and a spoke"
    spoke = scene.capsules[-1]
    assert np.allclose(spoke[0:4], (400, 300, 430, 300), atol=1e-3)
    w.component(e, RigidBody).angle = math.pi / 2
    assert np.allclose(render.scene(w).capsules[-1][2:4], (400, 330), atol=1e-3)
    ground_fill = scene.triangles[-3 * CIRCLE_SIDES - 1, 2:5]
    assert np.allclose(ground_fill * 255, STATIC_BODY, atol=1)
    w.add_component(ground, Look(CRATE))
    w.add_component(e, Look(visible=False))
    scene = render.scene(w)
    assert len(scene.triangles) == 6 and np.allclose(scene.triangles[0, 2:5] * 255, CRATE, atol=1)


def test_joints_are_coloured_by_stress_like_springs():
    colors = joint_colors(np.array([0.0, 50.0, 100.0, 5.0]), np.array([100, 100, 100, np.inf]))
    assert np.allclose(colors[:3], stress_colors(np.array([1.0, 1.5, 2.0]), np.full(3, 2.0)))
    assert np.allclose(colors[2, :3] * 255, RED, atol=1), "red at breaking"
    assert np.allclose(colors[3], ANCHOR_RGBA), "unbreakable: steel"
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    post = w.create_entity(RigidBody.box(300, 300, 20, 20), Anchor())
    plank = w.create_entity(RigidBody.box(360, 300, 120, 10, mass=2.0))
    crate = w.create_entity(RigidBody.box(500, 300, 20, 20))
    hinge = w.create_entity(Joint(post, plank, 300, 300, max_force=1e6))
    w.create_entity(Joint(plank, crate, 420, 300, weld=True))
    w.step(5)
    scene = Render().scene(w)
    rings = scene.discs[scene.discs[:, 3] > 0]
    assert len(rings) == 1 and np.allclose(rings[0, 0:2], (300, 300), atol=1.0)
    assert len(scene.capsules) == 3 * 4 + 2 * 4, "three outlines and the weld's square"
    j = w.component(hinge, Joint)
    assert j.force > 0
    want = joint_colors(np.array([j.force]), np.array([j.max_force]))[0]
    assert np.allclose(rings[0, 5:9], want)
    w.add_component(hinge, Look(visible=False))
    assert (Render().scene(w).discs[:, 3] > 0).sum() == 0


@pytest.fixture(scope="module")
def window():
    from ecsgoo.app.headless import offscreen_window

    return offscreen_window((800, 600))


def test_a_headless_frame_shows_the_bodies(window):
    import arcade

    w = World(bounds=(0, 0, 800, 600))
    w.create_entity(RigidBody.box(200, 300, 120, 80, angle=0.4), Look(CRATE))
    w.create_entity(RigidBody.polygon(500, 250, L_SHAPE))
    w.create_entity(RigidBody.box(400, 20, 800, 40), Anchor())
    Render().draw(w, window)
    image = np.asarray(arcade.get_image(0, 0, 800, 600).convert("RGB"), float)
    assert image.std() > 10, "not blank"
    assert np.abs(image[599 - 300, 200] - CRATE).max() < 8, "the crate's fill"
    assert np.abs(image[599 - 10, 100] - STATIC_BODY).max() < 8, "the static ground"
    assert np.abs(image[599 - 300, 300 + 100] - CRATE).max() > 40, "nothing beside it"


def test_unshared_edges_match_the_naive_set_lookup():
    from ecsgoo.render.rigid import _unshared
    from tests.naive import unshared_edges_naive

    rng = np.random.default_rng(3)
    for _ in range(100):
        n = int(rng.integers(1, 40))
        owner = rng.integers(0, 3, n)
        ends = rng.integers(0, 4, (n, 4)) * 0.5  # few points: many edges shared
        got = _unshared(owner, ends[:, :2], ends[:, 2:])
        assert (got == unshared_edges_naive(owner, ends[:, :2], ends[:, 2:])).all()
    assert _unshared(np.zeros(0, int), np.zeros((0, 2)), np.zeros((0, 2))).shape == (0,)
