"""The benchmarks' peer scenes (tools/peers.py) build what the bench times."""

import os
import sys

import numpy as np
import pytest

import scenes
from ecsgoo import Particle, World

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools"))
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


def test_ray_batch_gives_1000_finite_rays_inside_the_box():
    rays = scenes.ray_batch(1200.0, 2000.0, (300.0, 900.0))
    assert rays.shape == (1000, 4) and np.isfinite(rays).all()
    assert (rays[:, 0::2] > 0).all() and (rays[:, 0::2] < 1200).all()
    assert (rays[:, 1::2] > 0).all() and (rays[:, 1::2] < 2000).all()
    flat = rays[:, 1] == rays[:, 3]
    assert 100 < flat.sum() < 400 and ((rays[flat, 1] >= 300) & (rays[flat, 1] <= 900)).all()
    assert (scenes.ray_batch(1200.0, 2000.0, (300.0, 900.0)) == rays).all()  # fixed seed


def test_ecsgoo_and_pymunk_hit_the_same_of_three_circles():
    pytest.importorskip("pymunk")
    w = World(bounds=None, gravity=(0, 0))
    circles = [(100.0, 100.0, 10.0), (130.0, 104.0, 12.0), (160.0, 60.0, 15.0)]
    ids = [w.create_entity(Particle(x, y, radius=r)) for x, y, r in circles]
    xyr = np.array(circles)
    peer = peers.PymunkCircles(xyr[:, :2], xyr[:, 2])
    for ray, want in [((0, 100, 300, 100), 0), ((300, 104, 0, 104), 1), ((160, 200, 160, 0), 2),
                      ((130, 0, 130, 200), 1), ((0, 0, 0, 200), None)]:
        hit = w.raycast(ray[:2], ray[2:])
        assert (None if hit is None else ids.index(hit.entity)) == want == peer.first(*ray)
