"""The benchmarks' peer scenes (tools/peers.py) build what the bench times."""

import os
import sys

import pytest

import scenes

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
import peers  # noqa: E402


def test_pyramid_layout_rows_rest_on_each_other_centred():
    layout = scenes.pyramid_layout(4, size=40.0, gap=2.0)
    assert len(layout) == 10
    assert layout[:4] == [(-63.0, 20.0), (-21.0, 20.0), (21.0, 20.0), (63.0, 20.0)]
    assert layout[-1] == (0.0, 140.0)
    gx, gy, gw, gh = scenes.pyramid_ground(4)
    assert gy + gh / 2 == 0.0 and gw > 4 * 42


@pytest.mark.parametrize("module, build", [("pymunk", "PymunkPyramid"),
                                           ("Box2D", "Box2DPyramid")])
def test_peer_pyramids_place_every_box_as_the_layout_does(module, build):
    pytest.importorskip(module)
    scene = getattr(peers, build)(5)
    placed = scene.centres()
    assert len(placed) == 15
    assert [(round(x, 3), round(y, 3)) for x, y, _ in placed] == \
        [(round(x, 3), round(y, 3)) for x, y in scenes.pyramid_layout(5)]


@pytest.mark.parametrize("module, build", [("pymunk", "PymunkPyramid"),
                                           ("Box2D", "Box2DPyramid")])
def test_peer_pyramid_still_stands_after_30_frames(module, build):
    pytest.importorskip(module)
    scene = getattr(peers, build)(5)
    placed = scene.centres()
    for _ in range(30):
        scene.step()
    for (x0, y0, _), (x, y, angle) in zip(placed, scene.centres(), strict=True):
        assert abs(x - x0) < 2 and abs(y - y0) < 2 and abs(angle) < 0.05
