"""Level geometry's surfaces: friction, restitution and layer per segment and polygon."""

from __future__ import annotations

import math

import pytest

from ecsgoo import Particle, RigidBody, World, WorldError, saving, systems
from ecsgoo.errors import WorldFileError

G = 980.0  # px/s²


def _world(soft: bool = True) -> World:
    """No bounds, no damping; ``soft=False``: the particles' positional contacts."""
    w = World(gravity=(0.0, -G), bounds=None, damping=1.0)
    w.use(*(s(soft=soft) if s is systems.Collide else s() for s in systems.SOLVER))
    return w


def _slide(mu: float, speed: float = 400.0) -> float:
    """How far a box pushed at ``speed`` along a segment of friction ``mu`` slides (px)."""
    w = _world()
    w.add_segment((-2000, 0), (4000, 0), friction=mu)
    box = w.create_entity(RigidBody.box(0, 20, 40, 40, friction=1.0))
    w.step(30)  # settled
    body = w.component(box, RigidBody)
    x0 = body.x
    body.vx = speed
    w.step(240)
    assert abs(body.vx) < 1.0
    return body.x - x0


def test_a_box_slides_as_far_as_the_mixed_friction_says():
    far, near = _slide(0.1), _slide(1.0)
    assert far > 2.0 * near
    for mu, got in ((0.1, far), (1.0, near)):
        want = 400.0**2 / (2.0 * math.sqrt(1.0 * mu) * G)  # geometric mean with the box's 1.0
        assert got == pytest.approx(want, rel=0.1)


def _peak(make: str, restitution: float | None) -> float:
    """The highest a ball dropped from 200 px gets after its first bounce (px)."""
    w = _world(make != "positional")
    w.add_segment((-500, 0), (500, 0), restitution=restitution)
    if make == "body":
        e = w.create_entity(RigidBody.circle(0, 200, 10, restitution=0.0))
    else:
        e = w.create_entity(Particle(0, 200, radius=10, restitution=0.0))
    comp = RigidBody if make == "body" else Particle
    fell, peak = False, 0.0
    for _ in range(150):
        w.step()
        c = w.component(e, comp)
        fell = fell or c.y < 30
        if fell:
            peak = max(peak, c.y)
    return peak


@pytest.mark.parametrize("make", ["body", "particle", "positional"])
def test_a_ball_bounces_higher_off_a_bouncier_segment(make):
    high, low = _peak(make, 0.9), _peak(make, None)
    assert high == pytest.approx(10.0 + 0.9**2 * 190.0, rel=0.05)  # e² of the 190 px drop
    assert low < 40.0


@pytest.mark.parametrize("soft", [True, False])
def test_a_mask_without_the_segments_layer_falls_through(soft):
    w = _world(soft)
    w.add_segment((-500, 0), (500, 0), layer=4)
    w.add_polygon([(600, -20), (800, -20), (800, 0), (600, 0)], layer=4)
    stops = w.create_entity(Particle(0, 50, radius=5))
    falls = w.create_entity(Particle(100, 50, radius=5, mask=1))
    in_poly = w.create_entity(Particle(700, 50, radius=5, mask=3))
    body_falls = w.create_entity(RigidBody.box(200, 50, 20, 20, mask=1))
    body_stops = w.create_entity(RigidBody.box(-200, 50, 20, 20, mask=4))
    w.step(90)
    assert w.component(stops, Particle).y == pytest.approx(5.0, abs=1.5)
    assert w.component(falls, Particle).y < -100.0
    assert w.component(in_poly, Particle).y < -100.0
    assert w.component(body_falls, RigidBody).y < -100.0
    assert w.component(body_stops, RigidBody).y == pytest.approx(10.0, abs=1.5)


def test_defaults_write_nothing_new_and_surfaces_round_trip_bit_for_bit():
    w = _world()
    w.add_segment((-500, 0), (500, 0))
    w.add_polygon([(600, 0), (800, 0), (700, 50)])
    assert "surfaces" not in saving.dumps(w)
    w.add_segment((-500, 100), (-100, 60), friction=0.2, restitution=0.7, layer=6)
    w.add_polygon([(600, 200), (800, 200), (700, 250)], restitution=0.5)
    w.create_entity(Particle(-300, 150, radius=6))
    w.create_entity(RigidBody.circle(700, 300, 10))
    w.step(20)
    text = saving.dumps(w)
    back = saving.loads(text)
    assert saving.dumps(back) == text
    assert back.level.line_surfaces == w.level.line_surfaces
    twin = w.clone()
    for world in (w, back, twin):
        world.step(40)
    assert back.state_hash() == w.state_hash() == twin.state_hash()


@pytest.mark.parametrize("kw, field", [({"friction": -1.0}, "friction"),
                                       ({"friction": math.inf}, "friction"),
                                       ({"restitution": 1.5}, "restitution"),
                                       ({"layer": 0.5}, "layer"),
                                       ({"layer": True}, "layer")])
def test_surfaces_are_checked(kw, field):
    w = _world()
    with pytest.raises(WorldError, match=f"field {field}"):
        w.add_segment((0, 0), (1, 0), **kw)
    with pytest.raises(WorldError, match=f"field {field}"):
        w.add_polygon([(0, 0), (1, 0), (0, 1)], **kw)
    w.add_segment((0, 0), (1, 0), friction=0.5)
    text = saving.dumps(w)
    bad = {"friction": "-1.0", "restitution": "1.5", "layer": "0.5"}[field]
    text = text.replace("friction = 0.5", f"{field} = {bad}")
    with pytest.raises(WorldFileError, match=f"f.toml.*segment_surfaces 1.*{field}"):
        saving.loads(text, "f.toml")


def test_surfaces_must_match_the_pieces():
    text = ("format_version = 1\n[level]\nsegments = [[0, 0, 1, 0]]\n"
            "segment_surfaces = [{}, {}]\n")
    with pytest.raises(WorldFileError, match="segment_surfaces"):
        saving.loads(text, "f.toml")


def test_rays_and_touch_events_see_the_layers_their_mask_holds():
    w = _world()
    w.add_segment((-100, 0), (100, 0), layer=4)
    assert w.raycast((0, 50), (0, -50)) is not None
    assert w.raycast((0, 50), (0, -50), mask=4) is not None
    assert w.raycast((0, 50), (0, -50), mask=3) is None
    falls = w.create_entity(Particle(0, 5, radius=5, mask=1, events=True))
    stays = w.create_entity(Particle(50, 5, radius=5, events=True))
    touched = set()
    w.set_handler("contact_began", lambda a, b, *rest: touched.update((a, b)))
    w.step(3)
    assert w.component(falls, Particle).vy == pytest.approx(-G * 3 / 60, rel=0.01)  # falling
    assert stays in touched and falls not in touched


@pytest.mark.parametrize("soft", [True, False])
def test_a_particle_slides_farther_on_a_slipperier_polygon(soft):
    def slide(mu: float) -> float:
        w = _world(soft)
        w.add_polygon([(-2000, -40), (4000, -40), (4000, 0), (-2000, 0)], friction=mu)
        e = w.create_entity(Particle(0, 5, radius=5, friction=1.0))
        w.step(20)
        p = w.component(e, Particle)
        x0, p.vx = p.x, 300.0
        w.step(120)
        return p.x - x0

    far, near = slide(0.05), slide(1.0)
    assert far > 2.0 * near > 0.0
