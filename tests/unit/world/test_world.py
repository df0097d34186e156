"""World: entities, components, live views, contexts, clone, check, events."""

import math
import sys
import threading

import pytest

from ecsgoo import Anchor, Fruit, Particle, Spring, World, WorldError, fruit, systems
from ecsgoo.rigid import RigidBody
from scenes import solver


def test_two_worlds_do_not_share_entities():
    a, b = World(), World()
    ea = a.create_entity(Particle(1, 2))
    b.create_entity(Particle(3, 4))
    b.create_entity(Particle(5, 6))
    assert len(a.get_component(Particle)) == 1
    assert len(b.get_component(Particle)) == 2
    assert a.component(ea, Particle).x == 1


def test_view_reads_and_writes_the_store():
    w = solver(World(bounds=None, gravity=(0, 0), damping=1.0))
    e = w.create_entity(Particle(10, 20, vx=60.0))
    p = w.component(e, Particle)
    assert (p.x, p.y) == (10, 20)
    assert p.vx == pytest.approx(60.0)
    p.x = 100.0  # keeps the velocity
    assert p.vx == pytest.approx(60.0)
    w.step()
    assert p.x == pytest.approx(101.0)
    p.vx = 0.0
    w.step()
    assert p.x == pytest.approx(101.0)


def test_anchor_pins_and_moving_it_moves_the_pin():
    w = solver(World())
    e = w.create_entity(Particle(100, 300), Anchor())
    w.step(30)
    p = w.component(e, Particle)
    assert (p.x, p.y) == (100, 300)
    p.x = 150
    w.step(5)
    assert (p.x, p.y) == (150, 300)
    w.remove_component(e, Anchor)
    w.step(5)
    assert p.y < 300


def test_fruit_sets_radius_and_mass_from_the_kind_table():
    w = World()
    e = w.create_entity(Particle(100, 100), Fruit(3))
    p = w.component(e, Particle)
    assert p.radius == fruit.RADII[3]
    assert p.mass == pytest.approx(fruit.mass(3))
    assert w.component(e, Fruit).kind == 3


def test_spring_rest_defaults_to_distance_and_bad_ends_are_named():
    w = World()
    a = w.create_entity(Particle(0, 0))
    b = w.create_entity(Particle(30, 40))
    s = w.create_entity(Spring(a, b))
    assert w.component(s, Spring).rest == pytest.approx(50)
    with pytest.raises(WorldError, match="entity 99"):
        w.create_entity(Spring(a, 99))
    assert len(w.get_component(Spring)) == 1


def test_deleting_a_particle_removes_its_springs_and_keeps_others_right():
    w = solver(World(bounds=None, gravity=(0, 0)))
    ids = [w.create_entity(Particle(10 * k, 0)) for k in range(4)]
    springs = [w.create_entity(Spring(ids[k], ids[k + 1])) for k in range(3)]
    w.delete_entity(ids[0])
    assert not w.entity_exists(springs[0]) or not w.has_component(springs[0], Spring)
    # the last particle moved into the freed row: its spring must still link it
    w.component(ids[3], Particle).x = 100
    w.step(30)
    assert math.dist((w.component(ids[2], Particle).x, w.component(ids[2], Particle).y),
                     (w.component(ids[3], Particle).x, w.component(ids[3], Particle).y)) \
        == pytest.approx(10, abs=0.5)


def test_clone_is_independent_and_identical():
    w = solver(World())
    e = w.create_entity(Particle(100, 300, vx=50))
    w.step(3)
    c = w.clone()
    assert c.component(e, Particle).x == w.component(e, Particle).x
    c.step(10)
    w.step(10)
    assert c.state_hash() == w.state_hash()
    c.component(e, Particle).x = 0
    assert w.component(e, Particle).x != 0


def test_check_names_the_entity():
    w = World()
    w.create_entity(Particle(1, 1))
    e = w.create_entity(Particle(2, 2))
    w.store.particles.cols["pos"][1, 0] = math.nan
    with pytest.raises(WorldError, match=f"entity {e}"):
        w.check()


def test_handlers_are_kept_alive_and_ordered():
    w = World()
    seen = []
    w.set_handler("boom", lambda *a: seen.append(("first", a)))
    w.set_handler("boom", lambda *a: seen.append(("second", a)))
    w.dispatch("boom", 1)
    assert seen == [("first", (1,)), ("second", (1,))]


def test_bad_settings_are_refused():
    with pytest.raises(WorldError, match="dt"):
        World(dt=0)
    with pytest.raises(WorldError, match="substeps"):
        World(substeps=0)


def test_pipeline_runs_in_declared_order():
    order = []

    class Mark(systems.Stage):
        def __init__(self, tag):
            self.tag = tag

        def process(self, world):
            order.append(self.tag)

    w = World().use(Mark("a"), systems.Integrate(), Mark("b"), Mark("c"))
    w.step(2)
    assert order == ["a", "b", "c", "a", "b", "c"]
    assert w.frame == 2


def test_clone_gives_later_spawns_the_same_ids_and_keeps_the_grab():
    w = solver(World())
    ids = [w.create_entity(Particle(50 * k + 20, 300)) for k in range(5)]
    w.delete_entity(ids[-1])
    w.grab(ids[0], 400, 500)
    c = w.clone()
    assert c.create_entity(Particle(1, 1)) == w.create_entity(Particle(1, 1)) == ids[-1] + 1
    w.step(5)
    c.step(5)
    assert c.state_hash() == w.state_hash()


def test_close_removes_the_esper_context():
    import esper

    w = World()
    name = w.name
    assert name in esper.list_worlds()
    w.close()
    assert name not in esper.list_worlds()


def test_changing_dt_or_substeps_mid_run_keeps_velocities():
    w = solver(World(gravity=(0, 0), bounds=None, damping=1.0))
    e = w.create_entity(Particle(0, 0, vx=120.0, vy=-30.0))
    w.step(3)
    w.substeps = 12
    p = w.component(e, Particle)
    assert (p.vx, p.vy) == (pytest.approx(120.0), pytest.approx(-30.0))
    x = p.x
    w.dt = 1 / 30
    assert p.vx == pytest.approx(120.0)
    w.step()
    assert p.x == pytest.approx(x + 120.0 / 30)
    with pytest.raises(WorldError, match="substeps"):
        w.substeps = 0
    assert w.substeps == 12 and p.vx == pytest.approx(120.0)


def test_nearest_particle_measures_to_the_disc_and_skips_what_cannot_move():
    w = World()
    big = w.create_entity(Particle(100, 100, radius=20))
    small = w.create_entity(Particle(130, 100, radius=2))
    pinned = w.create_entity(Particle(50, 50, radius=5), Anchor())
    assert w.nearest_particle(123, 100) == big  # 3 px off the big disc, 5 off the small one
    assert w.nearest_particle(127, 100) == small
    assert w.nearest_particle(50, 50) == big  # the pinned one is not grabbable
    assert w.nearest_particle(50, 50, movable=False) == pinned
    assert w.nearest_particle(700, 500, reach=10) is None
    assert World().nearest_particle(0, 0) is None


def _merging_fruits() -> World:
    w = World().use(*(stage() for stage in systems.SOLVER), systems.Merge())
    for k in range(30):
        w.create_entity(Particle(100 + 15 * (k % 15), 50 + 30 * (k // 15)), Fruit(0))
    return w


def _play(w: World, out: dict, key: int) -> None:
    for f in range(60):  # steps that merge, and creates and deletes between them
        w.step(1)
        e = w.create_entity(Particle(300, 400), Fruit(f % 2))
        if f % 3 == 0:
            w.delete_entity(e)
    out[key] = (w.state_hash(), tuple(w.entities()))


def test_two_worlds_in_two_threads_step_as_they_would_alone():
    alone: dict = {}
    _play(_merging_fruits(), alone, 0)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        out: dict = {}
        threads = [threading.Thread(target=_play, args=(_merging_fruits(), out, k))
                   for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert out == {0: alone[0], 1: alone[0]}


def _chain(w: World, bulk: bool) -> list[int]:
    make = w.create_entities if bulk else (lambda cs: [w.create_entity(c) for c in cs])
    crate = w.create_entity(RigidBody.box(200, 300, 20, 20))
    ids = make([Particle(100 + 10 * k, 300 - k, mass=0.5 + k, vx=3.0 * k) for k in range(6)])
    ids += make([Spring(a, b, stiffness=0.9) for a, b in zip(ids, ids[1:], strict=False)]
                + [Spring(ids[-1], crate), Spring(ids[0], ids[2], rest=15.0)])
    return ids


def test_create_entities_gives_the_same_ids_rows_and_bits_as_one_by_one():
    one, bulk = solver(World()), solver(World())
    assert _chain(one, False) == _chain(bulk, True)
    assert bulk.store.tethers.n == 1 and bulk.store.springs.n == 6
    one.step(20)
    bulk.step(20)
    assert one.state_hash() == bulk.state_hash()


def test_create_entities_creates_none_if_one_fails():
    w = World()
    p = w.create_entity(Particle(0, 0))
    with pytest.raises(WorldError, match="which is not a particle"):
        w.create_entities([Particle(5, 5), Spring(p, 99)])
    assert w.entities() == [p] and w.store.particles.n == 1
    q = Particle(1, 1)
    with pytest.raises(WorldError, match="listed twice"):
        w.create_entities([q, q])
    assert w.entities() == [p]
