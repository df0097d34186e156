"""Asking the world: rays, points and boxes against discs, soft bodies and level geometry."""

from __future__ import annotations

import math

import numpy as np
import pytest

import naive
from ecsgoo import Particle, World, WorldError
from ecsgoo.bodies import jelly_ball
from ecsgoo.queries import ALL, Hit


def _scattered(seed: int, count: int = 300) -> tuple[World, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    w = World(bounds=None)
    xy = rng.uniform(0, 1000, (count, 2))
    r = rng.uniform(2, 15, count)
    for (x, y), radius in zip(xy, r, strict=True):
        w.create_entity(Particle(float(x), float(y), radius=float(radius)))
    return w, xy, r


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_raycast_all_matches_the_brute_force_reference(seed):
    w, xy, r = _scattered(seed)
    rng = np.random.default_rng(100 + seed)
    for _ in range(20):
        p, q = rng.uniform(-200, 1200, 2), rng.uniform(-200, 1200, 2)
        got = [(h.entity - 1, h.fraction) for h in w.raycast_all(tuple(p), tuple(q))]
        want = naive.raycast_discs_naive(p, q, xy, r)
        assert [k for k, _ in got] == [k for k, _ in want]
        assert [t for _, t in got] == pytest.approx([t for _, t in want], abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_first_hit_is_the_first_of_all_hits_with_the_level_and_bounds(seed):
    w, _, _ = _scattered(seed, 60)
    w.bounds = (-100.0, -100.0, 1100.0, 1100.0)
    rng = np.random.default_rng(200 + seed)
    for _ in range(12):  # crossing segments, some on another layer
        a, b = rng.uniform(0, 1000, 2), rng.uniform(0, 1000, 2)
        w.level.add_segment(tuple(a), tuple(b), layer=int(rng.choice([1, 2])))
    for _ in range(60):
        p, q = rng.uniform(-300, 1300, 2), rng.uniform(-300, 1300, 2)
        for mask in (ALL, 1, 2):
            every = w.raycast_all((float(p[0]), float(p[1])), tuple(q), mask=mask)
            first = w.raycast(tuple(p), (float(q[0]), float(q[1])), mask=mask)
            assert first == (every[0] if every else None)


def test_the_first_hit_passes_over_what_it_ignores_as_all_hits_do():
    # discs of three layers and groups, some rays starting inside one or of no length
    w, xy, _ = _scattered(3, 120)
    rng = np.random.default_rng(7)
    for e, _ in w.get_component(Particle):
        w.component(e, Particle).layer = int(rng.choice([1, 2, 4]))
        w.component(e, Particle).group = int(rng.choice([0, 0, 3]))
    w.level.add_segment((0.0, 500.0), (1000.0, 520.0), layer=2)
    for k in range(80):
        p = tuple(xy[k % len(xy)]) if k % 5 == 0 else tuple(rng.uniform(-100, 1100, 2))
        q = p if k % 11 == 0 else tuple(rng.uniform(-100, 1100, 2))
        ignore, group = (k % 7 + 1, 0) if k % 2 else (None, 3 * (k % 3 == 0))
        for mask in (ALL, 1, 6):
            every = w.raycast_all(p, q, mask=mask, ignore=ignore, group=group)
            first = w.raycast(p, q, mask=mask, ignore=ignore, group=group)
            assert first == (every[0] if every else None)


def test_a_ray_meets_a_circle_where_the_closed_form_says():
    w = World(bounds=None)
    e = w.create_entity(Particle(300.0, 200.0, radius=25.0))
    p, q = (0.0, 210.0), (600.0, 210.0)
    hit = w.raycast(p, q)
    x = 300.0 - math.sqrt(25.0**2 - 10.0**2)  # the near root of (x − 300)² + 10² = 25²
    assert hit.entity == e and abs(hit.x - x) <= 1e-9 and hit.y == 210.0
    assert hit.fraction == pytest.approx(x / 600.0, abs=1e-12)
    assert math.hypot(hit.nx, hit.ny) == pytest.approx(1.0)
    assert (hit.nx, hit.ny) == pytest.approx(((x - 300) / 25, 10 / 25))
    assert w.raycast((0, 300), (600, 300)) is None


def test_level_geometry_and_bounds_hit_with_no_entity_and_a_facing_normal():
    w = World(bounds=(0, 0, 800, 600))
    w.add_segment((100, 0), (100, 600))
    hits = w.raycast_all((50, 300), (900, 300))
    assert [h.entity for h in hits] == [None, None]
    assert [h.x for h in hits] == pytest.approx([100, 800])
    assert (hits[0].nx, hits[0].ny) == pytest.approx((-1, 0))
    assert isinstance(hits[0], Hit)


def test_soft_bodies_are_found_as_their_constraint():
    w = World(bounds=None)
    ball = jelly_ball(w, 400, 300, radius=50)
    inside = w.query_point(400 + 20, 300)
    assert ball.constraint in inside and ball.centre not in inside
    assert w.query_point(400, 300) == sorted([ball.constraint, ball.centre])
    hit = w.raycast((0, 300), (800, 300))
    assert hit.entity in ball.particles, "the rim's disc is met first"
    outline = [h for h in w.raycast_all((0, 300), (800, 300)) if h.entity == ball.constraint]
    assert len(outline) == 1 and outline[0].x == pytest.approx(350, abs=1.0)
    assert ball.constraint in w.query_box(430, 280, 500, 320)
    assert ball.constraint not in w.query_box(0, 0, 100, 100)


@pytest.mark.parametrize("seed", [3, 4])
def test_query_box_matches_the_reference(seed):
    w, xy, r = _scattered(seed)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        a, b = rng.uniform(0, 1000, 2), rng.uniform(0, 1000, 2)
        got = [e - 1 for e in w.query_box(a[0], a[1], b[0], b[1])]
        want = naive.discs_in_box_naive(xy, r, min(a[0], b[0]), min(a[1], b[1]),
                                        max(a[0], b[0]), max(a[1], b[1]))
        assert got == want


def test_masks_and_bad_points():
    w, _, _ = _scattered(5, 30)
    assert w.query_box(0, 0, 1000, 1000, mask=ALL)
    assert w.query_box(0, 0, 1000, 1000, mask=0b10) == [], "by default everything is on layer 1"
    with pytest.raises(WorldError, match="finite"):
        w.raycast((0, 0), (math.nan, 1))
    # each was float()'s ValueError or a TypeError from inside the query
    for call in (lambda: w.raycast("ab", (1, 1)), lambda: w.raycast((0, 0), (1,)),
                 lambda: w.raycast_all((0, 0), None), lambda: w.query_box("a", 0, 1, 1),
                 lambda: w.query_point(None, 0), lambda: w.raycast((0, 0), (1, 2, 3))):
        with pytest.raises(WorldError, match="the point must be two finite numbers"):
            call()
    assert World(bounds=None).raycast((0, 0), (10, 10)) is None


# --- rigid bodies ------------------------------------------------------------------------


def test_a_ray_meets_a_rigid_circle_at_the_closed_form_point():
    from ecsgoo import RigidBody

    w = World(bounds=None)
    e = w.create_entity(RigidBody.circle(100.0, 7.0, 10.0))
    hit = w.raycast((0.0, 0.0), (300.0, 0.0))
    x = 100.0 - math.sqrt(10.0**2 - 7.0**2)  # where y = 0 meets the circle
    assert hit.entity == e
    assert hit.x == pytest.approx(x, abs=1e-9) and hit.y == 0.0
    assert math.hypot(hit.nx, hit.ny) == pytest.approx(1.0)
    assert (hit.nx, hit.ny) == pytest.approx(((x - 100.0) / 10.0, -7.0 / 10.0), abs=1e-9)


def test_rays_and_points_find_rigid_shapes_as_they_are_turned_and_bent():
    from ecsgoo import RigidBody

    w = World(bounds=None)
    box = w.create_entity(RigidBody.box(200, 0, 20, 20, angle=math.pi / 4))
    ell = w.create_entity(RigidBody.polygon(300, 0, [(0, 0), (40, 0), (40, 10), (10, 10),
                                                     (10, 40), (0, 40)]))
    hits = w.raycast_all((0, 5), (400, 5))
    assert [h.entity for h in hits] == [box, ell]
    assert hits[0].x == pytest.approx(200 - 10 * math.sqrt(2) + 5, abs=1e-9)  # the corner's edge
    assert w.query_point(200, 13) == [box] and w.query_point(200, 15) == []
    assert w.query_point(305, 20) == [ell]  # in the L's upright
    assert w.query_point(325, 25) == []  # in its notch, not its hull
    assert w.query_box(320, 2, 330, 8) == [ell]
    assert w.raycast((0, 5), (400, 5), mask=2) is None or w.raycast((0, 5), (400, 5),
                                                                    mask=2).entity is None


def _rigid_circles(seed: int, count: int = 200) -> tuple[World, list[int], np.ndarray, np.ndarray]:
    """Rigid circles of very different sizes (one as wide as the field: a 'big' body)."""
    from ecsgoo import RigidBody

    rng = np.random.default_rng(seed)
    w = World(bounds=None)
    xy = rng.uniform(0, 1000, (count, 2))
    r = rng.uniform(2, 30, count)
    r[0] = 600.0  # covers more cells than the body grid bins: tested by every query
    ids = [w.create_entity(RigidBody.circle(float(x), float(y), float(radius)))
           for (x, y), radius in zip(xy, r, strict=True)]
    return w, ids, xy, r


@pytest.mark.parametrize("seed", [0, 1])
def test_rays_and_boxes_through_the_body_grid_match_the_brute_force_reference(seed):
    w, ids, xy, r = _rigid_circles(seed)
    rng = np.random.default_rng(200 + seed)
    for _ in range(20):
        p, q = rng.uniform(-200, 1200, 2), rng.uniform(-200, 1200, 2)
        got = [(ids.index(h.entity), h.fraction) for h in w.raycast_all(tuple(p), tuple(q))]
        want = naive.raycast_discs_naive(p, q, xy, r)
        assert [k for k, _ in got] == [k for k, _ in want]
        assert [t for _, t in got] == pytest.approx([t for _, t in want], abs=1e-9)
        x0, y0 = rng.uniform(-100, 1000, 2)
        x1, y1 = x0 + rng.uniform(0, 300), y0 + rng.uniform(0, 300)
        found = w.query_box(x0, y0, x1, y1)
        assert found == sorted(ids[k] for k in naive.discs_in_box_naive(xy, r, x0, y0, x1, y1))


def test_the_kept_query_grids_follow_moves_between_queries():
    from ecsgoo import RigidBody

    w = World(bounds=None)
    disc = w.create_entity(Particle(100.0, 100.0, radius=5.0))
    crate = w.create_entity(RigidBody.box(300.0, 100.0, 20.0, 20.0))
    for e in range(10):  # company, so the grids have cells to be wrong about
        w.create_entity(Particle(500.0 + 20 * e, 500.0, radius=5.0))
        w.create_entity(RigidBody.circle(500.0 + 30 * e, 800.0, 8.0))
    assert w.query_point(100, 100) == [disc] and w.query_point(300, 100) == [crate]
    w.component(disc, Particle).x = 900.0
    w.component(crate, RigidBody).y = -400.0
    assert w.query_point(100, 100) == [] and w.query_point(900, 100) == [disc]
    assert w.query_point(300, 100) == [] and w.query_point(300, -400) == [crate]
    hit = w.raycast((300.0, -300.0), (300.0, -500.0))
    assert hit is not None and hit.entity == crate


def test_a_ray_after_each_kind_of_change_is_the_first_of_all_its_hits():
    # the first hit's kept look (``queries._disc_look``) against the full look, after each
    # change a game makes between rays
    w = World(bounds=(0.0, 0.0, 800.0, 600.0))
    disc = w.create_entity(Particle(400.0, 300.0, radius=10.0))
    for k in range(30):
        w.create_entity(Particle(50.0 + 25 * k, 100.0 + 13 * (k % 7), radius=6.0))
    rays = [((400.0, 590.0), (400.0, 5.0)), ((5.0, 300.0), (795.0, 300.0)),
            ((10.0, 10.0), (790.0, 590.0)), ((700.0, 590.0), (120.0, 5.0))]

    def same() -> list[Hit | None]:
        firsts = [w.raycast(p, q) for p, q in rays]
        for (p, q), first in zip(rays, firsts, strict=True):
            every = w.raycast_all(p, q)
            assert first == (every[0] if every else None)
        return firsts

    assert same()[0].entity == disc
    changes = [lambda: setattr(w.component(disc, Particle), "x", 200.0),
               lambda: w.step(),
               lambda: w.particles.write("radius", 30.0, [1]),
               lambda: w.create_entity(Particle(400.0, 450.0, radius=20.0)),
               lambda: w.delete_entity(disc),
               lambda: w.level.add_segment((300.0, 500.0), (500.0, 520.0)),
               lambda: setattr(w, "bounds", (0.0, 0.0, 780.0, 560.0)),
               lambda: setattr(w, "contact_slop", 4.0)]
    seen = [same()]
    for change in changes:
        change()
        seen.append(same())
    assert len({tuple(hits) for hits in seen}) > 5  # the rays met what changed
    hit = seen[-1][0]
    assert hit == Hit(hit.entity, hit.x, hit.y, hit.nx, hit.ny, hit.fraction)
    assert hash(hit) == hash(Hit(hit.entity, hit.x, hit.y, hit.nx, hit.ny, hit.fraction))
    with pytest.raises(AttributeError):  # frozen, however it was made
        hit.x = 1.0
