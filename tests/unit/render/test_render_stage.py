"""Render (the stage): what a frame looks like (pixels, headless GL), and what it costs."""

from __future__ import annotations

import numpy as np
import pytest

from ecsgoo import Anchor, Fruit, Look, Particle, Spring, World, dumps, fruit, loads, systems
from ecsgoo.look import RED, SKY_BOTTOM, SKY_TOP
from ecsgoo.render import Render


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


def _truss(particles: int, seed: int = 0) -> World:
    rng = np.random.default_rng(seed)
    w = World(bounds=(0, 0, 800, 600))
    # in bulk (the same world as one at a time: ``World.create_entities``)
    ids = w.create_entities([Particle(*rng.uniform(20, 580, 2), radius=3)
                             for _ in range(particles)])
    w.create_entities([Spring(ids[k], ids[k + 1]) for k in range(particles - 1)])
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


def test_render_stage_does_not_draw_while_stepping():
    w = World().use(*(s() for s in systems.SOLVER), Render(wireframe=True))
    w.create_entity(Particle(10, 10))
    w.step(3)  # no GL context needed
    assert Render.of(w).wireframe and Render.of(w).settings()["wireframe"] is True
    assert Render.of(World()) is not None


def test_saved_worlds_keep_the_stage_name():
    text = 'format_version = 1\n[[pipeline]]\nstage = "render"\nwireframe = true\n'
    world = loads(text)  # as worlds were saved before rendering moved to ecsgoo.render
    assert world.pipeline[0] is Render.of(world) and Render.of(world).wireframe
    assert 'stage = "render"' in dumps(world)


def test_old_import_paths_still_work():
    import ecsgoo.render
    import ecsgoo.systems.render as old

    assert systems.Render is old.Render is Render and systems.Look is old.Look is Look
    assert old.Fit is ecsgoo.render.Fit and old.fit is ecsgoo.render.fit
