"""render.colors: stress colours run blue → green → yellow → red."""

from __future__ import annotations

import numpy as np

from ecsgoo.look import BLUE, GREEN, RED, rgba
from ecsgoo.render.colors import stress_colors


def test_stress_colours_run_green_yellow_red():
    c = stress_colors(np.array([1.0, 1.5, 2.0, 9.0]), np.array([2.0, 2.0, 2.0, np.inf]))
    assert np.allclose(c[0], rgba(GREEN)) and np.allclose(c[2], rgba(RED))
    assert c[1][0] > c[0][0] and c[1][1] > c[2][1]  # yellow in between
    assert np.allclose(c[3], rgba(RED))  # unbreakable springs saturate at 2×


def test_compressed_springs_turn_blue():
    c = stress_colors(np.array([0.5, 0.96]), np.array([2.0, 2.0]))
    assert np.allclose(c[0], rgba(BLUE)) and np.allclose(c[1], rgba(GREEN))
