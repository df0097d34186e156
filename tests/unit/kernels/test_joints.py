"""``kernels.joints``' position pass turning an end's rotation (``_turn``)."""

import math

import numpy as np
import pytest

from ecsgoo.kernels.joints import FIRST_ORDER_TURN, _turn


@pytest.mark.parametrize("turn", [0.3, -0.3, 1.0, 2.5, -3.0, FIRST_ORDER_TURN * 1.01])
def test_a_large_turn_is_the_rotation_of_the_summed_angle_and_stays_unit(turn):
    angle = 0.7
    rot = np.array([[math.cos(angle), math.sin(angle)]])
    _turn(rot, 0, turn)
    assert rot[0] == pytest.approx([math.cos(angle + turn), math.sin(angle + turn)], abs=1e-14)
    assert math.hypot(*rot[0]) == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("turn", [0.0, 1e-6, -0.01, FIRST_ORDER_TURN])
def test_a_small_turn_is_taken_to_first_order_as_before(turn):
    c, s = math.cos(0.7), math.sin(0.7)
    rot = np.array([[c, s]])
    _turn(rot, 0, turn)
    # the first-order step as before (numba may fuse its multiply-adds: within an ulp)
    assert rot[0] == pytest.approx([c - s * turn, s + c * turn], rel=0, abs=2e-16)
    assert math.hypot(*rot[0]) == pytest.approx(math.hypot(1.0, turn), abs=1e-15)


def test_a_particle_end_has_no_rotation_to_turn():
    rot = np.array([[1.0, 0.0]])
    _turn(rot, -1, 2.0)
    assert rot[0].tolist() == [1.0, 0.0]
