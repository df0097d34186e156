"""World files save and load rigid bodies and joints, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ecsgoo
from ecsgoo import World, WorldFileError
from ecsgoo.components import Anchor, Particle
from ecsgoo.rigid import Joint, RigidBody

L_SHAPE = [[0.0, 0.0], [60.0, 0.0], [60.0, 20.0], [20.0, 20.0], [20.0, 60.0], [0.0, 60.0]]


def _scene() -> tuple[World, dict[str, int]]:
    w = World(bounds=(0, 0, 800, 600))
    w.use(*(s() for s in ecsgoo.systems.SOLVER))
    ids = {"ground": w.create_entity(RigidBody.box(400, 10, 800, 20), Anchor())}
    ids["box1"] = w.create_entity(RigidBody.box(300, 100, 40, 30, angle=0.3))
    ids["box2"] = w.create_entity(RigidBody.box(340, 100, 40, 30, mass=2.5, friction=0.3))
    ids["box3"] = w.create_entity(RigidBody.box(420, 60, 30, 30, restitution=0.2, group=3))
    ids["wheel"] = w.create_entity(RigidBody.circle(500, 200, 15, restitution=0.4))
    ids["ell"] = w.create_entity(RigidBody.polygon(200, 300, L_SHAPE, angle=0.1, mass=3.0))
    ids["ball"] = w.create_entity(Particle(600, 300, radius=6))
    ids["hinge"] = w.create_entity(Joint(ids["box1"], ids["box2"], 320, 100))
    ids["rope"] = w.create_entity(Joint(ids["wheel"], ids["ball"], 500, 200))
    ids["weld"] = w.create_entity(Joint(ids["ell"], ids["box3"], 230, 300, weld=True,
                                        max_force=1e7))
    return w, ids


def _positions(w: World) -> tuple[np.ndarray, ...]:
    b, p = w.store.bodies, w.store.particles
    return (b.pos.copy(), b.prev.copy(), b.angle.copy(), b.prev_angle.copy(), p.pos.copy(),
            p.prev.copy(), w.store.joints.force.copy())


def _same(a: World, b: World) -> None:
    assert a.state_hash() == b.state_hash()
    for x, y in zip(_positions(a), _positions(b), strict=True):
        assert x.tobytes() == y.tobytes()


def test_bodies_and_joints_round_trip_as_text():
    w, _ = _scene()
    w.step(30)
    text = ecsgoo.dumps(w)
    assert 'shape = "polygon"' in text and "joint = {" in text and "weld = true" in text
    loaded = ecsgoo.loads(text)
    assert ecsgoo.dumps(loaded) == text
    assert ecsgoo.dumps(loaded, compact=True) == ecsgoo.dumps(w, compact=True)


@pytest.mark.parametrize("compact", [False, True])
def test_a_loaded_world_with_bodies_continues_bit_for_bit(compact, tmp_path):
    w, ids = _scene()
    w.step(30)
    w.apply_force(ids["box1"], 1000.0, 50.0)  # a pending force is saved too
    path = tmp_path / "rigid.toml"
    ecsgoo.save(w, path, compact=compact)
    loaded = ecsgoo.load(path)
    _same(w, loaded)
    w.step(60)
    loaded.step(60)
    _same(w, loaded)
    assert ecsgoo.dumps(loaded) == ecsgoo.dumps(w)


def test_the_saved_row_is_the_stores_not_recomputed():
    w, ids = _scene()
    w.step(5)
    loaded = ecsgoo.loads(ecsgoo.dumps(w))
    for name in ("pos", "prev", "angle", "prev_angle", "mass", "inertia", "w", "iw", "extent",
                 "friction", "restitution", "group", "pinned"):
        a, b = w.store.bodies, loaded.store.bodies
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name
    for name in ("la", "lb", "rest_angle", "max_force", "weld", "a_body", "b_part"):
        assert getattr(w.store.joints, name).tobytes() == \
            getattr(loaded.store.joints, name).tobytes(), name
    ell = loaded.component(ids["ell"], RigidBody)
    assert ell.shape == "polygon" and ell.size == L_SHAPE
    assert loaded.component(ids["ground"], RigidBody) == w.component(ids["ground"], RigidBody)


def test_a_mass_written_after_adding_loads_with_the_same_inertia():
    w, ids = _scene()
    for name, mass in (("box1", 3.7), ("ell", 0.31), ("wheel", 7.3)):
        w.component(ids[name], RigidBody).mass = mass
    w.step(3)
    loaded = ecsgoo.loads(ecsgoo.dumps(w))
    assert loaded.store.bodies.inertia.tobytes() == w.store.bodies.inertia.tobytes()
    for world in (w, loaded):
        world.component(ids["box1"], RigidBody).mass = 1.9
    assert loaded.store.bodies.inertia.tobytes() == w.store.bodies.inertia.tobytes()
    w.step(20)
    loaded.step(20)
    _same(w, loaded)


def test_a_clone_with_bodies_steps_bit_for_bit():
    w, _ = _scene()
    w.step(30)
    twin = w.clone()
    w.step(60)
    twin.step(60)
    _same(w, twin)


def test_an_anchor_at_a_point_on_a_body_and_broken_joints_are_kept():
    w, ids = _scene()
    w.add_component(ids["box3"], Anchor(450.0, 250.0))
    w.store.joints.cols["broken"][w.component(ids["hinge"], Joint)._slot] = True
    w.step(3)
    loaded = ecsgoo.loads(ecsgoo.dumps(w))
    assert loaded.component(ids["hinge"], Joint).broken
    assert loaded.component(ids["box3"], RigidBody).x == 450.0
    w.step(20)
    loaded.step(20)
    _same(w, loaded)


def test_a_hand_written_level_measures_what_it_leaves_out():
    text = """format_version = 1
[[pipeline]]
stage = "integrate"
[[entity]]
id = 1
body = { shape = "box", size = [40.0, 20.0], x = 100.0, y = 100.0, vx = 60.0 }
[[entity]]
id = 2
body = { shape = "circle", size = [10.0], x = 140.0, y = 100.0 }
[[entity]]
id = 3
joint = { a = 1, b = 2, x = 120.0, y = 100.0, weld = true }
"""
    w = ecsgoo.loads(text)
    box = w.component(1, RigidBody)
    assert box.vx == pytest.approx(60.0) and box.mass == 1.0
    j = w.store.joints
    assert j.la[0].tolist() == [20.0, 0.0] and j.lb[0].tolist() == [-20.0, 0.0]
    assert j.max_force[0] == math.inf


BODY = 'body = { shape = "box", size = [10.0, 10.0], x = 10.0, y = 10.0 }'


def _level(body: str = BODY, joint: str = "joint = { a = 1, b = 2, x = 0.0, y = 0.0 }") -> str:
    return (f"format_version = 1\n[[entity]]\nid = 1\n{body}\n[[entity]]\nid = 2\n"
            "particle = { x = 0.0, y = 0.0 }\n"
            f"[[entity]]\nid = 3\n{joint}\n")


@pytest.mark.parametrize("text, wanted", [
    (_level(BODY.replace("y = 10.0", "y = 10.0, angle = nan")),
     r"entity 1 \(body\): field angle: must be finite"),
    (_level(BODY.replace("[10.0, 10.0]", "[-3.0, 10.0]")),
     r"entity 1 \(body\): field size \(width\): must be in 0\.001\.\.1e\+06"),
    (_level(BODY.replace('"box"', '"hexagon"')), r"entity 1 \(body\): field shape: unknown"),
    (_level(BODY.replace('"box", size = [10.0, 10.0]',
                         '"polygon", size = [[0.0, 0.0], [1.0, 0.0]]')),
     r"entity 1 \(body\): field size: RigidBody.polygon: field points has 2 points"),
    (_level(BODY.replace('"box", size = [10.0, 10.0]',
                         '"polygon", size = [[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], '
                         '[0.0, 10.0]]')),
     r"entity 1 \(body\): field size: RigidBody.polygon: field points"),
    (_level(BODY.replace("[10.0, 10.0]", "[10.0]")), r"entity 1 \(body\): field size: a box"),
    (_level(BODY.replace("x = 10.0", "x = 10.0, vx = 1.0, px = 3.0")),
     r"field vx: give either px or vx"),
    (_level(joint="joint = { a = 1, b = 9, x = 0.0, y = 0.0 }"),
     r"entity 3 \(joint\): field b: refers to entity 9, which does not exist"),
    (_level(joint="joint = { a = 1, b = 3, x = 0.0, y = 0.0 }"),
     r"entity 3 \(joint\): field b: refers to entity 3, which is neither a body nor a particle"),
    (_level(joint="joint = { a = 1, b = 2, x = 0.0, y = 0.0, weld = true }"),
     r"entity 3 \(joint\): field weld: needs two bodies"),
    (_level(joint="joint = { a = 1, b = 1, x = 0.0, y = 0.0 }"), r"entity 3 \(joint\): field b"),
    (_level(joint="joint = { a = 1, b = 2, x = 0.0, y = 0.0, ax = 1.0 }"),
     r"entity 3 \(joint\): field ay: missing"),
    (_level(joint="joint = { a = 1, b = 2, x = 0.0, y = 0.0, max_force = 0.0 }"),
     r"entity 3 \(joint\): field max_force"),
    (_level(joint="joint = { a = 1, b = 2, x = 0.0, y = 0.0, force = -1.0 }"),
     r"entity 3 \(joint\): field force"),
    (_level(joint="anchor = {}"), r"entity 3 \(anchor\): needs a particle or a body"),
])
def test_bad_bodies_and_joints_name_the_file_entity_and_field(text, wanted):
    with pytest.raises(WorldFileError, match=r"^lvl\.toml: .*" + wanted):
        ecsgoo.loads(text, source="lvl.toml")


def test_bad_collide_state_is_refused():
    w, _ = _scene()
    w.step(2)
    text = ecsgoo.dumps(w)
    assert "frame_a = [" in text
    bad = text.replace("frame_a = [", "frame_a = [-5, ", 1)
    with pytest.raises(WorldFileError, match=r"pipeline stage 3 \(collide\): field state"):
        ecsgoo.loads(bad)


def test_check_file_counts_bodies_and_joints(tmp_path):
    w, _ = _scene()
    w.step(2)
    path = tmp_path / "rigid.toml"
    ecsgoo.save(w, path)
    summary = ecsgoo.check_file(path)
    assert "body 6" in summary and "joint 3" in summary and "anchor 1" in summary


def test_springs_on_bodies_save_as_tethers_and_continue_bit_for_bit():
    w = ecsgoo.World(bounds=(0, 0, 800, 600)).use(*(s() for s in ecsgoo.systems.SOLVER))
    hook = w.create_entity(ecsgoo.Particle(400, 500), ecsgoo.Anchor())
    crate = w.create_entity(ecsgoo.RigidBody.box(420, 400, 40, 40, angle=0.2))
    plank = w.create_entity(ecsgoo.RigidBody.box(300, 420, 80, 10))
    w.create_entity(ecsgoo.Spring(hook, crate, at_b=(430, 415), max_stretch=3.0))
    w.create_entity(ecsgoo.Spring(crate, plank, at_a=(400, 400), at_b=(330, 420),
                                  stiffness=0.5))
    w.step(20)
    for compact in (False, True):
        text = ecsgoo.dumps(w, compact=compact)
        assert text.count("tether = {") == 2
        loaded = ecsgoo.loads(text)
        assert ecsgoo.dumps(loaded, compact=compact) == text
        twin = w.clone()
        twin.step(40)
        loaded.step(40)
        assert loaded.state_hash() == twin.state_hash()
        assert np.array_equal(loaded.store.tethers.stretch, twin.store.tethers.stretch)


def test_a_tether_needs_an_end_on_a_body():
    w = ecsgoo.World()
    a = w.create_entity(ecsgoo.Particle(10, 10))
    b = w.create_entity(ecsgoo.Particle(20, 10))
    text = ecsgoo.dumps(w) + f"\n[[entity]]\nid = 9\ntether = {{ a = {a}, b = {b} }}\n"
    with pytest.raises(WorldFileError, match=r"entity 9 \(tether\).*field a"):
        ecsgoo.loads(text)
