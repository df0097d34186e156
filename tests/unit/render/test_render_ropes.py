"""render.ropes: chains found in the spring graph, and drawn as smooth Bézier pieces."""

from __future__ import annotations

import numpy as np

from ecsgoo.render.ropes import BEZIER_SAMPLES, find_ropes, rope_curves


def _chain_with_candy():
    """Particles 0-1-2-3 in group 1 (a rope), 4 a candy tied to 3, 5-6 a plain pair."""
    a = np.array([0, 1, 2, 3, 5])
    b = np.array([1, 2, 3, 4, 6])
    group = np.array([1, 1, 1, 1, 0, 0, 0])
    return a, b, group


def test_a_chain_in_one_group_is_a_rope_and_a_tied_candy_continues_it():
    a, b, group = _chain_with_candy()
    ropes = find_ropes(7, a, b, group, np.ones(5, bool))
    assert ropes.row.tolist() == [0, 1, 2, 3], "the tie (row 3) continues the rope"
    assert ropes.a.tolist() == [0, 1, 2, 3] and ropes.b.tolist() == [1, 2, 3, 4]
    assert set(ropes.nodes.tolist()) == {0, 1, 2, 3}, "the candy is not a rope node"
    assert np.flatnonzero(ropes.end).tolist() == [0, 4]


def test_a_branching_group_is_no_rope():
    a, b = np.array([0, 1, 1, 1]), np.array([1, 2, 3, 4])
    ropes = find_ropes(5, a, b, np.ones(5, np.int64), np.ones(4, bool))
    assert len(ropes.row) == 0


def test_curves_are_smooth_and_break_at_a_broken_link():
    a, b, group = _chain_with_candy()
    ropes = find_ropes(7, a, b, group, np.ones(5, bool))
    pos = np.array([[0, 0], [10, 5], [20, 0], [30, 5], [40, 0], [0, 0], [1, 1]], float)
    radius, color = np.full(7, 3.0), np.ones((4, 4), np.float32)
    whole = rope_curves(pos, radius, ropes, np.ones(4, bool), color)
    assert len(whole) == 2 + 3 * BEZIER_SAMPLES, "two half links, three joints"
    cut = rope_curves(pos, radius, ropes, np.array([True, False, True, True]), color)
    assert len(cut) == 4 + 1 * BEZIER_SAMPLES
