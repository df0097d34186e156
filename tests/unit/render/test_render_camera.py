"""render.camera: a world rectangle fitted into the window, world px ↔ window pixels."""

from __future__ import annotations

import pytest

from ecsgoo import Particle, World
from ecsgoo.render import Render, fit


def test_camera_fits_the_bounds_with_aspect_preserved():
    f = fit((0, 0, 400, 100), 800, 600)
    assert f.scale == 2.0
    assert f.to_screen(0, 50) == (0.0, 300.0)  # letterboxed vertically, centred
    assert f.to_world(*f.to_screen(123.0, 45.0)) == pytest.approx((123.0, 45.0))
    assert f.visible == pytest.approx((0.0, -100.0, 400.0, 200.0))
    assert not f.covered_by((0, 0, 400, 100)), "letterbox bands above and below"
    assert f.covered_by(f.visible)


def test_a_world_without_bounds_shows_the_window_and_its_contents():
    w = World(bounds=None)
    w.create_entity(Particle(900, 50))
    assert Render().view_rect(w, (800, 600)) == (0.0, 0.0, 900.0, 600.0)
    assert Render(view=(1, 2, 3, 4)).view_rect(w) == (1.0, 2.0, 3.0, 4.0)
