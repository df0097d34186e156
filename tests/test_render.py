"""Render: what a frame looks like (pixels, headless GL), and that its cost does not grow."""

from __future__ import annotations

import numpy as np
import pytest

from ecsgoo import Anchor, Fruit, Particle, Spring, World, fruit, systems
from ecsgoo.bodies import jelly_ball, rope
from ecsgoo.systems.render import (
    GREEN,
    RED,
    SKY_BOTTOM,
    SKY_TOP,
    Look,
    Render,
    fit,
    rgba,
    stress_colors,
)


@pytest.fixture(scope="module")
def window():
    from ecsgoo.app.headless import offscreen_window

    return offscreen_window((800, 600))


def _pixel(image, x: float, y: float) -> np.ndarray:
    """The RGB pixel at world (x, y) of an 800×600 frame of an 800×600 world (y up)."""
    return np.array(image.getpixel((int(x), 599 - int(y)))[:3], float)


def _grab(window, world: World, render: Render | None = None):
    import arcade

    (render or Render()).draw(world, window)
    return arcade.get_image(0, 0, 800, 600).convert("RGB")


def _near(got: np.ndarray, want, tol: float) -> bool:
    return bool(np.all(np.abs(got - np.array(want[:3], float)) <= tol))


def test_known_scene_pixels(window):
    w = World(bounds=(0, 0, 800, 600))
    w.create_entity(Particle(200, 300, radius=0), Fruit(5))
    a = w.create_entity(Particle(300, 100, radius=6), Anchor())
    b = w.create_entity(Particle(500, 100, radius=6), Anchor())
    w.create_entity(Spring(a, b, rest=50.0, max_stretch=1.5))  # stretched 4×: red
    image = _grab(window, w)
    sky = np.array(SKY_BOTTOM) + (np.array(SKY_TOP) - np.array(SKY_BOTTOM)) * 500 / 600
    assert _near(_pixel(image, 700, 500), sky, 3), "background is the sky gradient"
    assert _near(_pixel(image, 200, 300), fruit.COLORS[5], 14), "the fruit in its kind's colour"
    assert _pixel(image, 200 + fruit.RADII[5] + 4, 300).sum() < 200, "…and its kind's size"
    assert _near(_pixel(image, 400, 100), RED, 10), "an over-stretched spring is red"


def test_discs_have_a_smooth_edge(window):
    w = World(bounds=(0, 0, 800, 600))
    w.create_entity(Particle(400.3, 300.6, radius=40), Look((255, 255, 255)))
    image = _grab(window, w)
    row = np.array([image.getpixel((x, 599 - 300))[0] for x in range(350, 380)])
    rim = 0.62 * 255  # shaded balls have a darker rim, then the fill
    edge = row[: np.argmax(row >= rim - 5)]
    partial = (edge > row.min() + 20) & (edge < rim - 20)
    assert 1 <= partial.sum() <= 2, "antialiased: a pixel or two between edge and background"


def test_camera_fits_the_bounds_with_aspect_preserved():
    f = fit((0, 0, 400, 100), 800, 600)
    assert f.scale == 2.0
    assert f.to_screen(0, 50) == (0.0, 300.0)  # letterboxed vertically, centred
    assert f.to_world(*f.to_screen(123.0, 45.0)) == pytest.approx((123.0, 45.0))


def test_stress_colours_run_green_yellow_red():
    c = stress_colors(np.array([1.0, 1.5, 2.0, 9.0]), np.array([2.0, 2.0, 2.0, np.inf]))
    assert np.allclose(c[0], rgba(GREEN)) and np.allclose(c[2], rgba(RED))
    assert c[1][0] > c[0][0] and c[1][1] > c[2][1]  # yellow in between
    assert np.allclose(c[3], rgba(RED))  # unbreakable springs saturate at 2×


def _truss(particles: int, seed: int = 0) -> World:
    rng = np.random.default_rng(seed)
    w = World(bounds=(0, 0, 800, 600))
    ids = [w.create_entity(Particle(*rng.uniform(20, 580, 2), radius=3)) for _ in range(particles)]
    for k in range(particles - 1):
        w.create_entity(Spring(ids[k], ids[k + 1]))
    return w


def test_draw_calls_do_not_grow_with_entities(window, monkeypatch):
    from arcade.gl import Geometry

    calls = []
    real = Geometry.render

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Geometry, "render", counting)
    counts = []
    for n in (100, 10_000):
        world = _truss(n)
        Render().draw(world, window)
        counts.append(len(calls))
        calls.clear()
    assert counts[0] == counts[1] <= 4


def test_roles_bodies_ropes_links():
    w = World(bounds=(0, 0, 800, 600))
    ball = jelly_ball(w, 200, 300, radius=40, vertices=12)
    line = rope(w, (500, 550), (650, 550), 6)
    candy = w.create_entity(Particle(660, 550, radius=10))
    tie = w.create_entity(Spring(line.particles[-1], candy))
    link = w.create_entity(Spring(w.create_entity(Particle(50, 50)),
                                  w.create_entity(Particle(90, 50))))
    scene = Render().scene(w)
    discs = {tuple(np.round(d[:2]).astype(int)) for d in scene.discs}
    assert (200, 300) not in discs, "a jelly ball's particles are under its fill"
    assert (660, 550) in discs and (50, 50) in discs
    # the body: a fan of 12 triangles; the rope: smooth pieces, more segments than links
    assert len(scene.triangles) >= 3 * 12
    links = len(scene.capsules) - 12  # minus the body outline
    assert links > 6 + 1 + 1, "ropes are drawn as Bézier pieces"
    render = Render()
    render.scene(w)
    layout = render._layout
    springs = w.store.springs.cols["entity"][: w.store.springs.n].tolist()
    assert layout.spring_role[springs.index(tie)] == 2, "the candy's tie continues the rope"
    assert layout.spring_role[springs.index(link)] == 0
    assert all(layout.spring_role[springs.index(s)] == 1 for s in ball.springs)


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


def test_render_stage_does_not_draw_while_stepping():
    w = World().use(*(s() for s in systems.SOLVER), Render(wireframe=True))
    w.create_entity(Particle(10, 10))
    w.step(3)  # no GL context needed
    assert Render.of(w).wireframe and Render.of(w).settings()["wireframe"] is True
    assert Render.of(World()) is not None
