"""``kernels.contacts``: the level polygons' box test skips only what the ring test would
not find inside, and the polygon pass pushes out as it did without it."""

import math

import numpy as np
import pytest

from ecsgoo.kernels.contacts import (
    collide_polygons,
    inside_ring,
    nearest_edge,
    resolve_static,
    ring_boxes,
    surface,
)


def _rings(rng, count):
    """``count`` random rings (convex and not: a star's corners at random radii), packed
    as the level packs its polygons."""
    pts, off = [], [0]
    for _ in range(count):
        k = int(rng.integers(3, 9))
        cx, cy = rng.uniform(-500, 500, 2)
        angles = np.sort(rng.uniform(0, 2 * math.pi, k))
        radii = rng.uniform(5, 120, k)
        pts += [(cx + r * math.cos(a), cy + r * math.sin(a)) for a, r in
                zip(angles, radii, strict=True)]
        off.append(len(pts))
    xy = np.array(pts)
    return np.array(off, dtype=np.int64), xy, np.arange(len(xy), dtype=np.int64)


def _skipped(box, p, x, y):
    return x < box[p, 0] or x > box[p, 1] or y < box[p, 2] or y >= box[p, 3]


@pytest.mark.parametrize("seed", range(4))
def test_a_point_the_box_skips_is_never_inside_its_ring(seed):
    rng = np.random.default_rng(seed)
    off, xy, idx = _rings(rng, 12)
    box = ring_boxes(off, xy, idx)
    for p in range(len(off) - 1):
        corners = xy[off[p]:off[p + 1]]
        x0, y0 = corners.min(axis=0)
        x1, y1 = corners.max(axis=0)
        # on and about the box's edges and the corners' own coordinates, where a rounded
        # crossing could fall on either side
        xs = [x0, x1, np.nextafter(x0, -np.inf), np.nextafter(x1, np.inf), *corners[:, 0],
              *rng.uniform(x0 - 5, x1 + 5, 40)]
        ys = [y0, y1, np.nextafter(y0, -np.inf), np.nextafter(y1, np.inf), *corners[:, 1],
              *rng.uniform(y0 - 5, y1 + 5, 40)]
        for x in xs:
            for y in ys:
                if _skipped(box, p, x, y):
                    assert not inside_ring(x, y, xy, idx, off[p], off[p + 1]), (p, x, y)


def _polygons_without_box(n, pos, prev, w, radius, friction, restitution, off, xy, idx, vmin,
                          push, hold, calm, surf, layers, mask):
    """``collide_polygons`` as it was before its box test: every ring tested."""
    for i in range(n):
        if w[i] == 0.0:
            continue
        px, py = pos[i, 0], pos[i, 1]
        for p in range(len(off) - 1):
            s, e = off[p], off[p + 1]
            if not inside_ring(px, py, xy, idx, s, e):
                continue
            meets, mu, el = surface(friction[i], restitution[i], p, surf, layers, mask[i])
            if not meets:
                continue
            _, qx, qy, _, d = nearest_edge(px, py, xy, idx, s, e)
            if d > 1e-12:
                resolve_static(i, (qx - px) / d, (qy - py) / d, d + radius[i], pos, prev,
                               mu, el, vmin, push, hold, calm)
            break


@pytest.mark.parametrize("seed", range(4))
def test_the_polygon_pass_pushes_out_as_without_its_box_test(seed):
    rng = np.random.default_rng(seed)
    off, xy, idx = _rings(rng, 6)
    n = 300
    pos = rng.uniform(-600, 600, (n, 2))
    pos[:40] = xy[rng.integers(0, len(xy), 40)]  # on corners, where the tests are closest
    prev = pos + rng.normal(0, 2, (n, 2))
    w = np.where(rng.random(n) < 0.1, 0.0, 1.0)
    radius, friction = rng.uniform(2, 10, n), rng.uniform(0, 1, n)
    restitution, mask = rng.uniform(0, 0.5, n), np.full(n, -1, dtype=np.int64)
    surf = np.full((len(off) - 1, 2), np.nan)
    layers = np.ones(len(off) - 1, dtype=np.int64)
    got, got_prev = pos.copy(), prev.copy()
    want, want_prev = pos.copy(), prev.copy()
    args = (w, radius, friction, restitution, off, xy, idx, 100.0, 5.0, 0.0, True, surf,
            layers, mask)
    collide_polygons(n, got, got_prev, *args)
    _polygons_without_box(n, want, want_prev, *args)
    assert np.array_equal(got, want) and np.array_equal(got_prev, want_prev)
    assert not np.array_equal(got, pos), "some were inside and pushed out"
