"""Collide: momentum, piles that settle without overlap, bounds, level geometry, outlines."""

import math

import numpy as np
import pytest

from ecsgoo import Particle, World, dumps, fruit, loads, systems
from ecsgoo.bodies import jelly_ball
from ecsgoo.systems.collide import SLOP_PX
from scenes import chaos, circle_pile, solver

#: px a particle may rest inside a bound: the soft contacts' slop (``physics.discs``)
SLOP = SLOP_PX + 1e-9


def _momentum(w):
    p = w.store.particles
    v = (p.cols["pos"][: p.n] - p.cols["prev"][: p.n]) / w.h
    return (p.cols["mass"][: p.n, None] * v).sum(axis=0)


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
def test_head_on_collision_conserves_momentum(restitution):
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    a = w.create_entity(Particle(0, 0, mass=1.0, radius=10, vx=300, restitution=restitution))
    b = w.create_entity(Particle(100, 0, mass=10.0, radius=10, vx=-30, restitution=restitution))
    before = _momentum(w)
    w.step(60)
    np.testing.assert_allclose(_momentum(w), before, atol=1e-9)
    pa, pb = w.component(a, Particle), w.component(b, Particle)
    assert pb.x - pa.x >= 20 - 1e-9  # they separated
    # relative speed after = restitution × before (1-D impact, both moving apart)
    assert pb.vx - pa.vx == pytest.approx(restitution * 330, abs=1.0)


def test_many_body_collisions_conserve_momentum_without_walls():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    rng = np.random.default_rng(3)
    for _ in range(80):
        w.create_entity(Particle(*rng.uniform(0, 300, 2), mass=float(rng.choice([1.0, 10.0])),
                                 radius=8, vx=rng.uniform(-200, 200), vy=rng.uniform(-200, 200)))
    before = _momentum(w)
    w.step(120)
    np.testing.assert_allclose(_momentum(w), before, atol=1e-6)


def test_pile_settles_in_the_box_without_overlap():
    w = circle_pile(200, width=400)
    w.step(600)
    p = w.store.particles
    pos, r = p.cols["pos"][: p.n], p.cols["radius"][: p.n]
    d = np.hypot(*(pos[:, None] - pos[None]).transpose(2, 0, 1)) + np.eye(p.n) * 1e9
    overlap = (r[:, None] + r[None]) - d
    assert overlap.max() < 1.5  # px, at the bottom of a 10-layer pile; more would show
    before = pos.copy()
    w.step(60)
    moved = np.hypot(*(pos - before).T)
    # at rest to the eye: a granular pile may still creep a little (GS solver), no more
    assert np.median(moved) < 1.0 and moved.max() < 10.0
    assert (pos[:, 0] - r >= -SLOP).all() and (pos[:, 1] - r >= -SLOP).all()


def _resting(world, settle):
    """Step ``world`` ``settle`` frames, then how far each particle moves in the next second."""
    world.step(settle)
    p = world.store.particles
    before = p.cols["pos"][: p.n].copy()
    world.step(60)
    return np.hypot(*(p.cols["pos"][: p.n] - before).T)


#: Collide settings that bring piles to rest: static friction, pairs swept along gravity
HOLD = {"hold_speed": math.inf, "along_gravity": True}


def _jammed_box(*stages):
    """The suika box (walls as polygons) filled with 66 discs up to the line, 6 fruits on top."""
    w = World(bounds=(0, 0, 960, 700)).use(*stages)
    w.add_polygon([(0, 0), (350, 0), (350, 700), (0, 700)])
    w.add_polygon([(770, 0), (960, 0), (960, 700), (770, 700)])
    for row in range(11):
        for col in range(6):
            w.create_entity(Particle(390 + col * 66 + (row % 2) * 12, 31 + row * 58, mass=4.0,
                                     radius=30.0, friction=0.3, restitution=0.05))
    for k, x in enumerate(np.linspace(390, 730, 6)):
        w.create_entity(Particle(float(x), 680 - fruit.RADII[k], mass=fruit.mass(k),
                                 radius=fruit.RADII[k], friction=0.3, restitution=0.05))
    return w


def test_piles_come_to_rest_with_static_friction_swept_along_gravity():
    pile = circle_pile(200, width=400).use(systems.Integrate(), systems.Project(),
                                           systems.Collide(**HOLD), systems.Break())
    moved = _resting(pile, 1800)
    assert np.median(moved) < 0.05 and moved.max() < 0.5  # px in a second: still
    p = pile.store.particles
    pos, r = p.cols["pos"][: p.n], p.cols["radius"][: p.n]
    d = np.hypot(*(pos[:, None] - pos[None]).transpose(2, 0, 1)) + np.eye(p.n) * 1e9
    assert ((r[:, None] + r[None]) - d).max() < 1.5  # not sunk into each other
    assert (pos[:, 0] - r >= -SLOP).all() and (pos[:, 1] - r >= -SLOP).all()
    # a disc wedged between the wall and the pile must not climb out of the jam (with
    # velocity-only friction it climbs 0.1 px/s here, faster and faster until it slips)
    moved = _resting(_jammed_box(systems.Integrate(), systems.Collide(**HOLD)), 600)
    assert moved.max() < 0.05


def test_static_friction_holds_a_disc_on_a_slope_and_a_pyramid_up():
    def ramp(degrees, **settings):
        w = World(bounds=None).use(systems.Integrate(), systems.Collide(**settings))
        a = math.radians(degrees)
        w.add_segment((0, 0), (1000 * math.cos(a), 1000 * math.sin(a)))
        e = w.create_entity(Particle(500 * math.cos(a) - 6 * math.sin(a),
                                     500 * math.sin(a) + 6 * math.cos(a) + 0.01, radius=6,
                                     friction=0.5))
        w.step(120)
        x = w.component(e, Particle).x
        w.step(60)
        return w.component(e, Particle).x - x

    # below the friction angle it sticks (velocity-only friction: it creeps ~0.9 px/s)
    assert ramp(20, hold_speed=math.inf) == 0.0
    assert ramp(30, hold_speed=math.inf) < -50.0  # above it (tan 30° > 0.5): it slides
    w = World(bounds=(0, 0, 1000, 2000)).use(systems.Integrate(), systems.Collide(**HOLD))
    for x, y in ((490, 10), (510.2, 10), (500.1, 27.7)):
        # non-rotating discs: only friction keeps the base from spreading
        w.create_entity(Particle(x, y, radius=10, friction=0.4))
    moved = _resting(w, 600)
    assert moved.max() < 1e-9  # px in a second: at rest (the soft contacts round off)
    x = w.store.particles.cols["pos"][: w.store.particles.n, 0]
    assert x.max() - x.min() < 21.0  # the base discs still touch (velocity-only: 40 apart)


def test_same_group_does_not_collide_but_others_do():
    w = solver(World(gravity=(0, 0), bounds=None))
    a = w.create_entity(Particle(0, 0, radius=10, group=2))
    b = w.create_entity(Particle(5, 0, radius=10, group=2))
    c = w.create_entity(Particle(0, 50, radius=10, group=1))
    d = w.create_entity(Particle(5, 50, radius=10, group=2))
    w.step(30)  # soft contacts push out of a deep overlap at push_speed, over a few frames
    assert w.component(b, Particle).x - w.component(a, Particle).x == pytest.approx(5)
    assert w.component(d, Particle).x - w.component(c, Particle).x >= 20 - SLOP  # soft: near


def test_ground_friction_stops_a_sliding_particle():
    def slide(friction):
        w = solver(World(damping=1.0))
        e = w.create_entity(Particle(100, 4, radius=4, vx=300, friction=friction))
        w.step(120)
        return w.component(e, Particle)

    slick, rough = slide(0.0), slide(0.5)
    assert slick.vx == pytest.approx(300, rel=1e-6)
    assert rough.vx == pytest.approx(0, abs=1e-6)
    # Coulomb: stops after v² / (2 μ g)
    assert rough.x - 100 == pytest.approx(300 ** 2 / (2 * 0.5 * 980), rel=0.05)


def test_restitution_bounces_off_the_ground():
    w = solver(World(damping=1.0))
    e = w.create_entity(Particle(100, 200, radius=5, restitution=0.8))
    peak = 0.0
    for frame in range(120):
        w.step()
        if frame > 20:
            peak = max(peak, w.component(e, Particle).y)
    assert peak == pytest.approx(5 + 195 * 0.8 ** 2, rel=0.05)


def test_static_segment_and_polygon_hold_particles():
    w = solver(World(bounds=None))
    w.add_segment((0, 100), (400, 50))  # a ramp
    w.add_polygon([(500, 0), (700, 0), (700, 80), (500, 80)])
    ramp = w.create_entity(Particle(100, 200, radius=6))
    block = w.create_entity(Particle(600, 300, radius=6))
    inside = w.create_entity(Particle(600, 40, radius=6))  # spawned inside the polygon
    w.step(90)
    p = w.component(ramp, Particle)
    assert p.x > 100  # slid down the ramp
    assert p.y > 100 - (p.x / 400) * 50 - 1  # and never through it
    assert w.component(block, Particle).y == pytest.approx(86, abs=0.5)
    q = w.component(inside, Particle)
    assert not (500 < q.x < 700 and 0 < q.y < 80)


def test_particle_is_pushed_out_of_a_soft_body_with_momentum_kept():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    jelly_ball(w, 0, 0, radius=50, pressure=1.0)
    e = w.create_entity(Particle(-200, 0, radius=3, mass=1.0, vx=3000))  # fast enough to enter
    before = _momentum(w)
    w.step(30)
    np.testing.assert_allclose(_momentum(w), before, atol=1e-6)
    p = w.component(e, Particle)
    ring = w.store.outline_idx
    xy = w.store.particles.cols["pos"][ring]
    centre = xy.mean(axis=0)
    assert math.dist((p.x, p.y), centre) > 0.8 * 50  # not stuck inside


def test_long_chaotic_run_with_10x_mass_ratios_stays_finite():
    w = chaos()
    w.step(600)
    w.check()
    p = w.store.particles
    pos = p.cols["pos"][: p.n]
    assert (pos >= -1).all() and (pos[:, 0] <= 601).all() and (pos[:, 1] <= 501).all()


@pytest.mark.parametrize("speed", [3_000.0, 30_000.0, 300_000.0])
def test_a_fast_particle_does_not_pass_through_a_thin_wall(speed):
    w = World(gravity=(0, 0), bounds=(0, 0, 4000, 600), damping=1.0)
    w.use(*(s() for s in systems.SOLVER))
    w.add_segment((500, 0), (500, 600))
    e = w.create_entity(Particle(400, 300, radius=3, vx=speed, restitution=0.0))
    w.step(30)
    assert w.component(e, Particle).x < 500 - 2.9


@pytest.mark.parametrize(("small_x", "big_x", "big_r"), [(411, 412, 40), (402, 420, 60),
                                                          (410, 411, 65)])
def test_a_spawn_does_not_shove_its_neighbour_through_a_wall(small_x, big_x, big_r):
    w = World(gravity=(0, -980), bounds=(0, 0, 800, 600))
    w.use(*(s() for s in systems.SOLVER))
    w.add_segment((400, 0), (400, 600))
    a = w.create_entity(Particle(small_x, 100, radius=10))
    w.step(1)
    # a big fruit appears overlapping it from the right: a deep, quiet push leftward
    # (each of these put the small one on the far side of the wall before)
    w.create_entity(Particle(big_x, 100, radius=big_r))
    w.step(120)
    assert w.component(a, Particle).x > 400


@pytest.mark.parametrize(("a", "b", "collide"), [
    ((1, -1), (1, -1), True),          # the defaults: everything meets everything
    ((1, -1), (2, -1), True),          # other layers, masks hold them
    ((1, 0b01), (2, -1), False),       # a's mask leaves out b's layer
    ((1, -1), (2, 0b10), False),       # b's mask leaves out a's layer
    ((0b11, 0b10), (0b10, 0b01), True),
])
def test_layers_and_masks_decide_who_collides(a, b, collide):
    w = World(gravity=(0, 0), bounds=None, damping=1.0).use(*(s() for s in systems.SOLVER))
    pa = w.create_entity(Particle(100, 100, radius=10, layer=a[0], mask=a[1], vx=200))
    pb = w.create_entity(Particle(140, 100, radius=10, layer=b[0], mask=b[1]))
    w.step(30)
    pushed = w.component(pb, Particle).vx
    assert (pushed > 50) == collide, pushed
    w2 = loads(dumps(w))
    assert w2.component(pa, Particle).mask == a[1] and w2.component(pa, Particle).layer == a[0]


def test_layers_apply_to_soft_body_outlines_and_queries():
    w = World(gravity=(0, 0), bounds=None, damping=1.0).use(*(s() for s in systems.SOLVER))
    ball = jelly_ball(w, 300, 100, radius=40)
    ghost = w.create_entity(Particle(300, 100, radius=3, layer=0b100, mask=0b100))
    w.step(20)
    assert abs(w.component(ghost, Particle).x - 300) < 1e-9, "nothing pushed it out"
    assert ghost in w.query_point(300, 100, mask=0b100)
    assert ball.constraint not in w.query_point(300, 100, mask=0b100)
    assert ball.constraint in w.query_point(300, 100, mask=0b1)


def _crossed(xy) -> bool:
    """Whether a closed outline crosses itself (any two non-adjacent edges meet)."""
    from ecsgoo.geometry import segments_intersect

    k = len(xy)
    return any(segments_intersect(xy[i], xy[(i + 1) % k], xy[j], xy[(j + 1) % k])
               for i in range(k) for j in range(i + 2, k) if not (i == 0 and j == k - 1))


def test_a_self_colliding_jelly_ball_slammed_by_a_heavy_crate_keeps_a_simple_outline():
    from ecsgoo import AreaConstraint, RigidBody, World, dumps, loads, systems
    from ecsgoo.bodies import jelly_ball

    # slammed sideways into the left wall: from above, the shock pass (kernels.stacks)
    # holds a heavy crate on a resting ball, which then does not fold at all
    crossed = {}
    for flag in (False, True):
        w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
        ball = jelly_ball(w, 50, 50, radius=45, vertices=24, stiffness=0.3)
        w.component(ball.constraint, AreaConstraint).self_collide = flag
        w.step(30)
        if flag:
            w = loads(dumps(w))  # the option is saved
            assert w.component(ball.constraint, AreaConstraint).self_collide
        crate = w.create_entity(RigidBody.box(160, 50, 60, 60, mass=200))
        w.component(crate, RigidBody).vx = -4000.0
        rows = w.area_members(0)
        crossed[flag] = 0
        for _ in range(120):
            w.step()
            crossed[flag] += _crossed(w.particles.pos[rows])
    assert crossed[False] > 3  # slammed, a plain ring folds through itself...
    assert crossed[True] <= 2  # ...a self-colliding one (almost) never


def _corner_depth(ring, corners):
    """How deep (px) the deepest of ``corners`` is inside polygon ``ring`` (0: none inside)."""
    from ecsgoo.geometry import point_in_polygon

    a, b = ring, np.roll(ring, -1, axis=0)
    deepest = 0.0
    for c in corners:
        if point_in_polygon(c, ring):
            t = np.clip(np.einsum("ij,ij->i", c - a, b - a) / np.einsum("ij,ij->i", b - a, b - a),
                        0.0, 1.0)
            deepest = max(deepest, float(np.hypot(*(c - (a + t[:, None] * (b - a))).T).min()))
    return deepest


@pytest.mark.parametrize("width,x,vx,vy,stiffness", [
    (6.0, 403.0, 0.0, 0.0, 0.3),  # dropped onto it: 7.2 px deep before
    (12.0, 330.0, 600.0, -1500.0, 0.05),  # thrown at it, softer: 11.7 px deep before
])
def test_a_thin_static_post_does_not_pierce_a_jelly_ball(width, x, vx, vy, stiffness):
    """A soft ball landing on a thin static post's top drapes over it: no corner of the
    post gets inside the ring of its particles. Between two of the ring's discs a corner
    slipped in (the depths above) until the outline was kept off static corners
    (``outlines.collide_corners``)."""
    from ecsgoo import Anchor, RigidBody

    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    post = w.create_entity(RigidBody.box(400, 60, width, 120), Anchor())
    ball = jelly_ball(w, x, 240, radius=35, vertices=24, stiffness=stiffness)
    ball.set_velocity(vx, vy)
    rows, deepest, touched = w.area_members(0), 0.0, False
    corners = w.component(post, RigidBody).outline()[0]
    for _ in range(150):
        w.step()
        ring = w.particles.pos[rows]
        deepest = max(deepest, _corner_depth(ring, corners))
        touched |= bool(np.hypot(*(ring - corners[2]).T).min() < 10.0)
    assert touched  # it met the post's top
    assert deepest < 1.0, deepest
    w.check()
